# SPDX-License-Identifier: Apache-2.0
"""The run-time switch (``fastlaunch.set_enabled`` / ``fastlaunch.enabled``), logging
policy and ``TORCH_LOGS`` naming."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading

import pytest

import fastlaunch
from fastlaunch import config
from fastlaunch.engine import routing
from fastlaunch.runtime import _core, backends
from fastlaunch.testing import fakes
from helpers import profiler
from helpers.oracle import cc

SIG = ["*fp32", "*fp32", "i32"]
ARGS = (0x1000, 0x2000, 1000)
META = {"kernel_name": "k", "abi": "npu", "arg_count": 3, "callsite_id": "g:0"}


@pytest.fixture(autouse=True)
def _runtime_switch_restored():
    yield
    config.set_runtime(None)


def test_switch_off_and_on_per_call(npu_fake):
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = fakes.FakeAutotuner([launcher])
    bound = routing.bind(META, tuner)
    bound(*ARGS, stream=7)
    bound(*ARGS, stream=7)
    with fastlaunch.enabled(False):
        assert not fastlaunch.is_enabled()
        bound(*ARGS, stream=7)
        bound(*ARGS, stream=7)
    assert fastlaunch.is_enabled()
    bound(*ARGS, stream=7)
    assert tuner.full_entries == 3 and len(npu_fake.launches) == 2
    assert fastlaunch.stats()["fallback.disabled"] == 2


def test_switch_rejects_non_bool():
    with pytest.raises(TypeError, match="enabled: got 'yes', expected True, False or None"):
        fastlaunch.set_enabled("yes")



def test_overlapping_blocks_of_two_threads_end_in_any_order():
    """Thread 1 enters, thread 2 enters, thread 1 leaves, thread 2 leaves: off while
    either block is active, then the environment's choice again."""
    steps = [threading.Event() for _ in range(4)]
    seen = []

    def block(entered, leave):
        with fastlaunch.enabled(False):
            entered.set()
            leave.wait(10)
        seen.append(fastlaunch.is_enabled())

    with config.override(enabled=True):
        first = threading.Thread(target=block, args=(steps[0], steps[1]))
        second = threading.Thread(target=block, args=(steps[2], steps[3]))
        first.start()
        steps[0].wait(10)
        second.start()
        steps[2].wait(10)
        steps[1].set()
        first.join(10)
        assert seen == [False] and not fastlaunch.is_enabled()  # the second block is active
        steps[3].set()
        second.join(10)
        assert seen == [False, True] and fastlaunch.is_enabled()


def test_the_newest_setting_decides():
    with config.override(enabled=True):
        with fastlaunch.enabled(False):
            with fastlaunch.enabled(True):
                assert fastlaunch.is_enabled()
            assert not fastlaunch.is_enabled()
            fastlaunch.set_enabled(True)  # later than the active block: decides now
            assert fastlaunch.is_enabled()
            with fastlaunch.enabled(False):
                assert not fastlaunch.is_enabled()
            assert fastlaunch.is_enabled()
        assert fastlaunch.is_enabled()
        fastlaunch.set_enabled(None)
        block = fastlaunch.enabled("no")
        with pytest.raises(TypeError, match="enabled: got 'no', expected True, False or None"):
            block.__enter__()
        assert fastlaunch.is_enabled()

@pytest.fixture(scope="module")
def cann(tmp_path_factory):
    from helpers.fake_cann import FakeCann, build

    if cc() is None:
        pytest.skip("no C compiler to build the fake CANN")
    return FakeCann(build("rt", tmp_path_factory.mktemp("rt")))


def test_switch_takes_fast_sites_out_of_call_slots_and_back(cann):
    from fastlaunch.runtime.npu import NpuBackend

    cann.reset()
    previous = backends.set_backend("npu", NpuBackend(libraries=[str(cann.path)],
                                                      queue="inline", family="rt"))
    try:
        with profiler.fake_profiler(), config.override(enabled=True, backend="npu"):
            launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 100),
                                                     ffts=True))
            tuner = fakes.FakeAutotuner([launcher])
            slot = [None]
            bound = routing.bind(META, tuner, call_slot=slot)
            slot[0](*ARGS, stream=0x33)
            slot[0](*ARGS, stream=0x33)
            assert isinstance(slot[0], _core.FastSite)
            fastlaunch.set_enabled(False)
            assert slot[0] is bound
            slot[0](*ARGS, stream=0x33)
            assert tuner.full_entries == 2 and len(cann.calls()) == 1
            fastlaunch.set_enabled(True)
            assert isinstance(slot[0], _core.FastSite)
            slot[0](*ARGS, stream=0x33)
            assert len(cann.calls()) == 2 and tuner.full_entries == 2
            fastlaunch.set_enabled(None)  # back to the environment's choice (on)
            assert isinstance(slot[0], _core.FastSite)
            with config.override(enabled=False):  # the environment's switch, as in tests
                assert slot[0] is bound
            assert isinstance(slot[0], _core.FastSite)
    finally:
        backends.set_backend("npu", previous)
        fastlaunch.reset_stats()


def run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=300, env={**os.environ, **env})


def test_setting_the_level_alone_prints():
    code = ("import logging, fastlaunch\n"
            "logging.getLogger('fastlaunch').setLevel(logging.INFO)\n"
            "logging.getLogger('fastlaunch.engine.routing').info('hello from fastlaunch')\n")
    result = run(code)
    assert result.stderr.count("hello from fastlaunch") == 1, result.stderr


def test_configured_logging_prints_once(caplog):
    caplog.set_level(logging.INFO, logger="fastlaunch")
    logging.getLogger("fastlaunch.engine.routing").info("seen by the application's handler")
    assert [r.getMessage() for r in caplog.records] == ["seen by the application's handler"]
    code = ("import logging, fastlaunch\n"
            "logging.basicConfig(level=logging.INFO)\n"
            "logging.getLogger('fastlaunch.engine.routing').info('once')\n")
    assert run(code).stderr.count("once") == 1


@pytest.mark.parametrize(("env", "said"), [
    ({"FASTLAUNCH": "1"}, "fastlaunch: on (by FASTLAUNCH)"),
    ({"FASTLAUNCH": "0", "TORCHINDUCTOR_NPU_FAST_LAUNCH": "1"},
     "fastlaunch: off (FASTLAUNCH=0, TORCHINDUCTOR_NPU_FAST_LAUNCH=1)"),
])
def test_torch_logs_shows_the_enable_decision(env, said):
    pytest.importorskip("torch", reason="TORCH_LOGS needs torch")
    code = "import torch\nimport torch._inductor.runtime.triton_heuristics\n"
    result = run(code, TORCH_LOGS="fastlaunch", FASTLAUNCH_BACKEND="cuda", **env)
    assert said in result.stderr, result.stderr


def test_environment_alone_enables_a_fresh_process():
    """No config call before the first bind (no torch entry point ran): the switch is read."""
    code = ("import fastlaunch\n"
            "from fastlaunch.engine import routing\nfrom fastlaunch.testing import fakes\n"
            "launcher = fakes.FakeLauncher(fakes.spec('k', ['*fp32', '*fp32', 'i32'],\n"
            "                              grid=fakes.ceil_grid(2, 128)))\n"
            "bound = routing.bind({'kernel_name': 'k', 'abi': 'npu'},\n"
            "                     fakes.FakeAutotuner([launcher]))\n"
            "for _ in range(3):\n"
            "    bound(1, 2, 1000, stream=7)\n"
            "print(fastlaunch.stats())\n")
    result = run(code, FASTLAUNCH="1", FASTLAUNCH_BACKEND="fake")
    assert "'fast': 2" in result.stdout, result.stderr
