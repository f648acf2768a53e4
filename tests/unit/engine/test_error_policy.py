# SPDX-License-Identifier: Apache-2.0
"""One error policy, engine-wide: anything found before the runtime's launch call
hands that one call to ``autotuner.run`` (counted by reason, strict mode raises);
after it, nothing is replayed. Every call is checked for exactly one submission."""

from __future__ import annotations

import threading

import pytest

import fastlaunch
from fastlaunch import FastLaunchError, config
from fastlaunch.engine import routing
from fastlaunch.errors import CallRefused
from fastlaunch.runtime import _core, backends, counters, native
from fastlaunch.runtime.fake import FakeBackend
from fastlaunch.testing import fakes
from helpers import fake_runtime, profiler
from helpers.oracle import cc

SIG = ["*fp32", "*fp32", "i32"]
ARGS = (0x1000, 0x2000, 1000)
META = {"kernel_name": "k", "abi": "npu", "arg_count": 3, "callsite_id": "g:0"}


class NativeErrorBackend(FakeBackend):
    """The fake runtime whose launch raises a given native error, before (or after)
    the submission it records; errors go through the real backends' translation."""

    def __init__(self) -> None:
        super().__init__("npu")
        self.raise_before: BaseException | None = None
        self.raise_after: BaseException | None = None

    def launch(self, plan, stream, grid, args):
        if self.raise_before is not None:
            raise self.raise_before
        super().launch(plan, stream, grid, args)
        if self.raise_after is not None:
            raise self.raise_after

    def translate_error(self, err):
        return native.translate(err)


@pytest.fixture
def runtime():
    with fake_runtime.installed(NativeErrorBackend()) as backend:
        yield backend


def site(**bind_kw):
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = fakes.FakeAutotuner([launcher])
    return routing.bind(META, tuner, **bind_kw), tuner, launcher


def call(bound, backend, launcher, *args):
    before = fakes.submissions(backend, launcher)
    bound(*(args or ARGS), stream=7)
    assert fakes.submissions(backend, launcher) == before + 1


def _with_reason(err: Exception, reason: str) -> Exception:
    """A native error as the core raises it: with its reason slug."""
    err.reason = reason
    return err


@pytest.mark.parametrize(("error", "reason"), [
    (_core.InputError("arg 2 'xnumel': got 2**40, expected i32"), "bad_value"),
    (_core.DeviceMismatch("device: current CUDA device is 1, plan for 0"), "device_mismatch"),
    (_core.GridError("grid[0]: 70000 over 65535"), "grid_out_of_range"),
    (_with_reason(_core.DeviceMismatch("device: no current CUDA context"), "no_context"),
     "no_context"),
])
def test_native_errors_before_submission_take_the_original_path(runtime, error,
                                                                 reason):
    bound, tuner, launcher = site()
    call(bound, runtime, launcher)
    call(bound, runtime, launcher)
    plan = bound.plan
    runtime.raise_before = error
    call(bound, runtime, launcher)
    call(bound, runtime, launcher)
    assert tuner.full_entries == 3 and len(launcher.calls) == 3 and len(runtime.launches) == 1
    runtime.raise_before = None
    call(bound, runtime, launcher)
    assert bound.plan is plan and len(runtime.launches) == 2
    assert fastlaunch.stats() == {"fallback.warming_up": 1, f"fallback.{reason}": 2, "fast": 2,
                                  "plan.created": 1}


def test_strict_mode_raises_and_submits_nothing(runtime):
    bound, tuner, launcher = site()
    call(bound, runtime, launcher)
    call(bound, runtime, launcher)
    runtime.raise_before = _core.InputError("arg 0: bad")
    before = fakes.submissions(runtime, launcher)
    with config.override(strict=True), pytest.raises(
            FastLaunchError, match="strict_unexpected_fallback: bad_value"):
        bound(*ARGS, stream=7)
    assert fakes.submissions(runtime, launcher) == before


@pytest.mark.parametrize(("error", "reason"), [
    (_core.LaunchError("rtKernelLaunch failed with code 507011"), "launch_failed"),
    (RuntimeError("anything else"), "backend_error"),
])
def test_errors_after_the_launch_call_are_raised_never_replayed(runtime, error, reason):
    bound, tuner, launcher = site()
    call(bound, runtime, launcher)
    call(bound, runtime, launcher)
    runtime.raise_after = error
    before = fakes.submissions(runtime, launcher)
    with pytest.raises(FastLaunchError) as info:
        bound(*ARGS, stream=7)
    assert fakes.submissions(runtime, launcher) == before + 1
    assert info.value.reason == reason and info.value.submitted and not info.value.recoverable
    assert tuner.full_entries == 1 and fastlaunch.stats()[f"error.{reason}"] == 1


def test_translate_keeps_fastlaunch_errors_and_marks_only_launch_errors_submitted():
    same = CallRefused("stream_none")
    assert native.translate(same) is same
    for err in (_core.InputError("x"), _core.GridError("x"), _core.DeviceMismatch("x")):
        assert native.translate(err).recoverable
    assert native.translate(_core.LaunchError("x")).submitted
    assert native.translate(KeyError("x")).submitted


def test_a_plan_dropped_by_another_thread_after_promotion(runtime, monkeypatch):
    """The router uses the plan it just made, not whatever ``_direct`` holds now."""
    original = routing.BoundLaunch._try_promote

    def promote_then_lose_it(self, args):
        made = original(self, args)
        self._set_direct(None)  # what a re-tune in another thread does in between
        return made

    monkeypatch.setattr(routing.BoundLaunch, "_try_promote", promote_then_lose_it)
    launcher = fakes.FakeLauncher(None, refusal="clusters_unsupported")
    tuner = fakes.FakeAutotuner([launcher])
    bound = routing.bind(META, tuner)
    call(bound, runtime, launcher)  # warm-up; refusal -> negative entry
    good = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner.launchers = [good]
    tuner.best_launcher = good
    before = fakes.submissions(runtime, launcher, good)
    bound(*ARGS, stream=7)  # promotes, the plan vanishes, the call still launches once
    assert fakes.submissions(runtime, launcher, good) == before + 1
    assert len(runtime.launches) == 1


def test_grid_resolver_that_raises_runs_once_per_call(runtime):
    calls = []

    def grid(*inputs):
        calls.append(inputs)
        if inputs[2] < 0:
            raise ZeroDivisionError("bad numel")
        return (1, 1, 1)

    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=grid))
    tuner = fakes.FakeAutotuner([launcher])
    bound = routing.bind(META, tuner)
    call(bound, runtime, launcher)
    call(bound, runtime, launcher)
    calls.clear()
    call(bound, runtime, launcher, 1, 2, -1)
    assert len(calls) == 1
    assert fastlaunch.stats()["fallback.grid_resolver_error"] == 1 and bound.plan is not None


def test_per_site_counters_say_which_site_falls_back_and_why(runtime):
    bound, tuner, launcher = site()
    call(bound, runtime, launcher)
    call(bound, runtime, launcher)
    runtime.raise_before = _core.InputError("arg 2: bad")
    call(bound, runtime, launcher)
    assert fastlaunch.stats(per_site=True) == {
        "k [g:0]": {"fallback.bad_value": 1, "fallback.warming_up": 1, "fast": 1,
                    "plan.created": 1}}
    counters.reset_stats()
    assert fastlaunch.stats(per_site=True) == {}


def test_threads_racing_a_retune_never_lose_a_call(runtime):
    """Calls from several threads while another keeps swapping the selected launcher:
    every call launches exactly once, none dies on a plan another thread dropped."""
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = fakes.FakeAutotuner([launcher])
    slot = [None]
    routing.bind(META, tuner, call_slot=slot)
    launchers = [launcher]
    errors: list[BaseException] = []
    stop = threading.Event()

    def retune():
        while not stop.is_set():
            new = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
            launchers.append(new)
            tuner.launchers = [new]
            tuner.best_launcher = new

    def caller():
        try:
            for _ in range(400):
                slot[0](*ARGS, stream=7)
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=caller) for _ in range(3)]
    swapper = threading.Thread(target=retune)
    swapper.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    swapper.join()
    assert errors == []
    assert fakes.submissions(runtime, *launchers) == 1200


# The same policy through the C steady state (FastSite) on the real NPU launcher.



@pytest.fixture(scope="module")
def cann(tmp_path_factory):
    from helpers.fake_cann import FakeCann, build

    if cc() is None:
        pytest.skip("no C compiler to build the fake CANN")
    return FakeCann(build("rt", tmp_path_factory.mktemp("rt")))


@pytest.fixture
def npu(cann):
    from fastlaunch.runtime.npu import NpuBackend

    cann.reset()
    backend = NpuBackend(libraries=[str(cann.path)], queue="inline", family="rt")
    previous = backends.set_backend("npu", backend)
    fastlaunch.reset_stats()
    with profiler.fake_profiler(), config.override(enabled=True, backend="npu", strict=False):
        yield cann
    backends.set_backend("npu", previous)
    fastlaunch.reset_stats()


def fast_site(cann):
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 100), ffts=True))
    tuner = fakes.FakeAutotuner([launcher])
    slot = [None]
    bound = routing.bind(META, tuner, call_slot=slot)
    for _ in range(2):
        slot[0](*ARGS, stream=0x33)
    assert isinstance(slot[0], _core.FastSite)
    return bound, tuner, launcher, slot


def test_fast_site_bad_value_takes_the_original_path(npu):
    bound, tuner, launcher, slot = fast_site(npu)
    before = len(npu.calls()) + len(launcher.calls)
    slot[0](0x1000, 2.5, 1000, stream=0x33)
    assert len(npu.calls()) + len(launcher.calls) == before + 1
    assert launcher.calls[-1][0] == (0x1000, 2.5, 1000) and tuner.full_entries == 2
    assert isinstance(slot[0], _core.FastSite)
    assert fastlaunch.stats()["fallback.bad_value"] == 1


def test_fast_site_error_after_its_plan_was_dropped(npu):
    """The FastSite reports to its own plan: no AttributeError hides the real error."""
    bound, tuner, launcher, slot = fast_site(npu)
    stale = slot[0]
    bound._set_direct(None)  # another thread dropped the plan
    before = len(npu.calls()) + len(launcher.calls)
    stale(0x1000, 2.5, 1000, stream=0x33)
    assert len(npu.calls()) + len(launcher.calls) == before + 1
    assert fastlaunch.stats()["fallback.bad_value"] == 1


@pytest.mark.parametrize("bad", [7, (1, 1), None])
def test_grid_of_the_wrong_shape_takes_the_original_path(runtime, bad):
    """Through the router's checked path (a FastSite falls back to it)."""
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=lambda *a: bad))
    tuner = fakes.FakeAutotuner([launcher])
    bound = routing.bind(META, tuner)
    call(bound, runtime, launcher)
    direct = routing.make_planned_launch(runtime, launcher, tuner, META, ARGS)
    with pytest.raises(CallRefused, match="grid_rank"):
        direct(ARGS, 7)
