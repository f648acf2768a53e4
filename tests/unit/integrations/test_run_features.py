# SPDX-License-Identifier: Apache-2.0
"""Every per-call feature of stock ``CachingAutotuner.run`` (torch 2.10 to 2.15) is
honoured on the fast path or sends the call to the full entry.

``RUN_READS`` is what ``run`` (and, from 2.13, its ``_pre_launch`` /
``_post_launch``) reads on ``self`` and calls, collected with ``ast`` from each
release's ``torch/_inductor/runtime/triton_heuristics.py`` (the wheels were
read once; docs/design.md has the table). When torch is installed, the test
below collects the same set from the installed source and compares.
"""

from __future__ import annotations

import ast
import builtins
import importlib.metadata
import importlib.util
import threading
from pathlib import Path

import pytest

import fastlaunch
from fastlaunch.engine import routing
from fastlaunch.testing import fakes

RELEASES = ("2.10", "2.11", "2.12", "2.13", "2.14", "2.15")

# feature -> what fastlaunch does with it
FEATURES = {
    "debug_mode": "per call: an active DebugMode -> full entry (cuda probe `debug_mode`)",
    "allocator": "planned kernels need no scratch (plans refuse them); before any direct "
                 "launcher call the router calls the bind option `before_direct` "
                 "(triton.set_allocator)",
    "interpret": "fixed at bind: `triton_interpret` -> full entry",
    "autotune": "planned only with exactly one launcher, the selected one (checked per call)",
    "coordesc": "not stable until `found_by_coordesc`",
    "combo": "not stable until `found_by_combo_autotune` (2.12+)",
    "bundler": "idempotent set-add, done by the warm-up call through run",
    "store_cubin": "not stable until saved; the cuda integration refuses store_cubin kernels",
    "dump_params": "fixed at bind: `dump_launch_params` -> full entry",
    "dump_tensors": "fixed at bind: `dump_launch_tensors` -> full entry (2.11+)",
    "profiler": "per call: the autograd profiler flag -> full entry",
    "plugins": "fixed at bind: autotuner plugins present -> full entry `autotuner_plugins` (2.13+)",
    "stock_fast_path": "stock's own steady state (2.13+), replaced by the planned launch under "
                       "the same per-call conditions",
    "launch": "the launch itself; a wrong arg count is refused before packing",
}

RUN_READS = {  # name -> (first release that reads it, feature)
    "get_active_debug_mode()": ("2.10", "debug_mode"),
    "debug_mode.record_triton_kernel()": ("2.10", "debug_mode"),
    "debug_call.finalize()": ("2.10", "debug_mode"),
    "kernel_kwargs.update()": ("2.10", "debug_mode"),
    "self.triton_meta": ("2.10", "debug_mode"),
    "self.get_device_interface": ("2.10", "debug_mode"),
    "self.fn": ("2.10", "debug_mode"),
    "self._debug_call": ("2.13", "debug_mode"),
    "triton.set_allocator": ("2.10", "allocator"),
    "triton.set_allocator()": ("2.10", "allocator"),
    "torch.empty": ("2.10", "allocator"),
    "torch.empty()": ("2.10", "allocator"),
    "torch.int8": ("2.10", "allocator"),
    "self.device_props": ("2.10", "allocator"),
    "self.triton_interpret": ("2.10", "interpret"),
    "self.configs": ("2.10", "interpret"),
    "self._interpret_args_grid": ("2.10", "interpret"),
    "self.launchers": ("2.10", "autotune"),
    "self.precompile": ("2.10", "autotune"),
    "self.precompile_time_taken_ns": ("2.10", "autotune"),
    "time.time_ns()": ("2.10", "autotune"),
    "self.autotune_to_one_config": ("2.10", "autotune"),
    "self.inductor_meta": ("2.10", "coordesc"),
    "self.coordinate_descent_tuning": ("2.10", "coordesc"),
    "self._combo_sequential_autotune": ("2.12", "combo"),
    "dynamo_timed()": ("2.12", "combo"),
    "self.compile_id": ("2.12", "combo"),
    "self.is_backward": ("2.12", "combo"),
    "TritonBundler.put_winner()": ("2.12", "bundler"),
    "self.save_gpu_kernel": ("2.10", "store_cubin"),
    "self.cuda_kernel_saved": ("2.10", "store_cubin"),
    "self.save_cpu_kernel": ("2.13", "store_cubin"),
    "self.cpu_kernel_saved": ("2.13", "store_cubin"),
    "self.dump_launch_params": ("2.10", "dump_params"),
    "_dump_launch_params()": ("2.10", "dump_params"),
    "self.dump_launch_tensors": ("2.11", "dump_tensors"),
    "_dump_launch_tensors()": ("2.11", "dump_tensors"),
    "self.kernels_to_dump": ("2.11", "dump_tensors"),
    "self.filename": ("2.11", "dump_tensors"),
    "self.kernel_hash": ("2.11", "dump_tensors"),
    "autograd_profiler._is_profiler_enabled": ("2.10", "profiler"),
    "self.get_profiler_kwargs": ("2.10", "profiler"),
    "torch._C": ("2.10", "profiler"),
    "self._pre_launch": ("2.13", "profiler"),
    "self._post_launch": ("2.13", "profiler"),
    "self._profiler_ctx": ("2.13", "profiler"),
    "profiler_ctx.__enter__()": ("2.13", "profiler"),
    "profiler_ctx.__exit__()": ("2.13", "profiler"),
    "self._plugins": ("2.13", "plugins"),
    "plugin.pre_dispatch()": ("2.13", "plugins"),
    "plugin.pre_autotune()": ("2.13", "plugins"),
    "self._cached_launcher": ("2.13", "stock_fast_path"),
    "self._cache_eligible": ("2.13", "stock_fast_path"),
    "self._build_fast_launcher": ("2.13", "stock_fast_path"),
    "fast()": ("2.13", "stock_fast_path"),
    "launcher()": ("2.10", "launch"),
    "self._check_launcher_call_args": ("2.13", "launch"),
}


def run_reads(source: str) -> set[str]:
    """What ``CachingAutotuner.run`` / ``_pre_launch`` / ``_post_launch`` read and call."""
    names: set[str] = set()
    for cls in ast.parse(source).body:
        if not (isinstance(cls, ast.ClassDef) and cls.name == "CachingAutotuner"):
            continue
        for fn in cls.body:
            if not (isinstance(fn, ast.FunctionDef)
                    and fn.name in ("run", "_pre_launch", "_post_launch")):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    if node.value.id == "self":
                        names.add("self." + node.attr)
                    elif node.value.id in ("autograd_profiler", "triton", "torch"):
                        names.add(f"{node.value.id}.{node.attr}")
                if isinstance(node, ast.Call):
                    f = node.func
                    if isinstance(f, ast.Name) and not hasattr(builtins, f.id):
                        names.add(f.id + "()")
                    elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                          and f.value.id != "self"):
                        names.add(f"{f.value.id}.{f.attr}()")
    return names


def expected(release: str) -> set[str]:
    order = RELEASES.index
    return {name for name, (since, _) in RUN_READS.items() if order(since) <= order(release)}


def test_every_read_names_a_handled_feature():
    assert {feature for _, feature in RUN_READS.values()} == set(FEATURES)
    assert all(since in RELEASES for since, _ in RUN_READS.values())


def test_installed_torch_run_reads_exactly_the_listed_features():
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        pytest.skip("torch is not installed: the list is checked against the wheels' source")
    release = ".".join(importlib.metadata.version("torch").split("+")[0].split(".")[:2])
    if release not in RELEASES:
        pytest.skip(f"torch {release} is outside the supported releases {RELEASES}")
    path = Path(spec.origin).parent / "_inductor" / "runtime" / "triton_heuristics.py"
    assert run_reads(path.read_text()) == expected(release)


# Behaviour on the fake runtime: each feature's full-entry reason, per call.

SIG = ["*fp32", "*fp32", "i32"]
ARGS = (0x1000, 0x2000, 1000)
META = {"kernel_name": "k", "abi": "npu", "arg_count": 3}


class HookedLauncher(fakes.FakeLauncher):
    """An original launcher that calls the live enter hooks, as Triton's launchers do."""

    def __init__(self, spec, enter):
        super().__init__(spec)
        self.enter = enter

    def __call__(self, *args, stream):
        for hook in self.enter:
            hook(args)
        super().__call__(*args, stream=stream)


def site(tuner_cls=fakes.FakeAutotuner, launcher=None, **bind_kw):
    launcher = launcher or fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = tuner_cls([launcher])
    return routing.bind(META, tuner, **bind_kw), tuner, launcher


def calls(bound, backend, launcher, n):
    for _ in range(n):
        before = fakes.submissions(backend, launcher)
        bound(*ARGS, stream=7)
        assert fakes.submissions(backend, launcher) == before + 1


class DebugAutotuner(fakes.FakeAutotuner):
    """Shaped like Inductor's DebugAutotuner (profile_bandwidth): its own ``run``."""

    def run(self, *args, stream, **kwargs):
        self.benchmarked = getattr(self, "benchmarked", 0) + 1
        return super().run(*args, stream=stream, benchmark_run=True)


def test_run_override_in_a_subclass_takes_the_full_entry(npu_fake):
    bound, tuner, launcher = site(DebugAutotuner, stock_runs=(fakes.FakeAutotuner.run,))
    calls(bound, npu_fake, launcher, 3)
    assert tuner.benchmarked == 3 and not npu_fake.launches
    assert fastlaunch.stats() == {"fallback.run_overridden": 3}


def test_the_stock_run_itself_plans(npu_fake):
    bound, tuner, launcher = site(stock_runs=(fakes.FakeAutotuner.run,))
    calls(bound, npu_fake, launcher, 3)
    assert len(npu_fake.launches) == 2


def test_run_replaced_on_the_instance_takes_the_full_entry(npu_fake):
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = fakes.FakeAutotuner([launcher])
    seen = []
    stock = tuner.run
    tuner.run = lambda *a, **kw: (seen.append(a), stock(*a, **kw))[1]
    bound = routing.bind(META, tuner)
    calls(bound, npu_fake, launcher, 2)
    assert len(seen) == 2 and fastlaunch.stats() == {"fallback.run_overridden": 2}


def test_bind_time_features(npu_fake):
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = fakes.FakeAutotuner([launcher])
    tuner.dump_launch_tensors = True
    bound = routing.bind(META, tuner)
    calls(bound, npu_fake, launcher, 3)
    assert tuner.full_entries == 3 and fastlaunch.stats() == {"fallback.dump_launch_tensors": 3}


class PluginRunAutotuner(fakes.FakeAutotuner):
    """A run that calls plugin hooks per call, as upstream's (2.13+) does."""

    def run(self, *args, stream, **kwargs):
        for plugin in self._plugins:
            plugin.pre_dispatch(self, *args, stream=stream)
        return super().run(*args, stream=stream, **kwargs)


@pytest.mark.parametrize(("tuner_type", "hook", "blocks"), [
    (PluginRunAutotuner, "pre_dispatch", True),   # run calls it, per call: original path
    (PluginRunAutotuner, "pre_compile", False),   # no per-call hook (torch_npu 2.13/2.14's)
    (fakes.FakeAutotuner, "pre_dispatch", False),  # run never calls plugin hooks (torch_npu)
])
def test_plugins_block_planning_only_when_run_calls_a_per_call_hook(npu_fake, tuner_type,
                                                                    hook, blocks):
    heuristics = pytest.importorskip("torch._inductor.runtime.triton_heuristics")
    base = getattr(heuristics, "CachingAutotunerPlugin", None)
    if base is None:
        pytest.skip("this torch has no CachingAutotunerPlugin (before 2.13)")
    plugin = type("Plugin", (base,), {hook: lambda self, *a, **k: heuristics.DEFER})()
    launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128)))
    tuner = tuner_type([launcher])
    tuner._plugins = [plugin]
    bound = routing.bind(META, tuner)
    calls(bound, npu_fake, launcher, 3)
    if blocks:
        assert tuner.full_entries == 3 and fastlaunch.stats() == {"fallback.autotuner_plugins": 3}
    else:
        assert fastlaunch.stats()["fast"] == 2


def test_combo_tuning_pending_is_not_stable(npu_fake):
    import types

    bound, tuner, launcher = site()
    launcher.config = types.SimpleNamespace(found_by_combo_autotune=False)
    tuner.inductor_meta["combo_tuning_groups"] = [["k"]]
    calls(bound, npu_fake, launcher, 2)
    assert bound.plan is None
    launcher.config.found_by_combo_autotune = True
    calls(bound, npu_fake, launcher, 1)
    assert bound.plan is not None


def test_launch_hook_is_invoked_once_per_call(npu_fake):
    enter: list = []
    spec = fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128), hooks=(enter,))
    launcher = HookedLauncher(spec, enter)
    bound, tuner, _ = site(launcher=launcher)
    calls(bound, npu_fake, launcher, 2)
    seen = []
    enter.append(seen.append)
    calls(bound, npu_fake, launcher, 3)
    assert seen == [ARGS] * 3 and len(npu_fake.launches) == 1
    enter.clear()
    calls(bound, npu_fake, launcher, 1)
    assert len(npu_fake.launches) == 2
    assert fastlaunch.stats()["fallback.launch_hooks"] == 3


class Allocator:
    """Triton's allocator is per thread; a kernel with scratch fails without one."""

    def __init__(self):
        self.local = threading.local()
        self.set_in: list[str] = []

    def set(self):
        self.local.ready = True
        self.set_in.append(threading.current_thread().name)


class NeedsAllocator(HookedLauncher):
    def __init__(self, spec, enter, allocator):
        super().__init__(spec, enter)
        self.allocator = allocator

    def __call__(self, *args, stream):
        if not getattr(self.allocator.local, "ready", False):
            raise RuntimeError("Kernel requires a runtime memory allocation, but no allocator "
                               "was set")
        super().__call__(*args, stream=stream)


class AllocatingAutotuner(fakes.FakeAutotuner):
    allocator: Allocator

    def run(self, *args, stream, **kwargs):
        self.allocator.set()  # what stock run does per call (triton.set_allocator)
        return super().run(*args, stream=stream, **kwargs)


def in_thread(fn):
    errors = []

    def target():
        try:
            fn()
        except BaseException as err:  # reported below
            errors.append(err)

    thread = threading.Thread(target=target, name="second")
    thread.start()
    thread.join()
    assert errors == []


@pytest.mark.parametrize("path", ["negative_cache", "launch_hooks"])
def test_before_direct_runs_on_direct_launcher_calls_from_a_second_thread(npu_fake, path):
    allocator = Allocator()
    enter: list = []
    if path == "negative_cache":
        launcher = NeedsAllocator(None, enter, allocator)
        launcher.__dict__[routing.REFUSAL_ATTR] = "scratch_memory_unsupported"
    else:
        spec = fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 128), hooks=(enter,))
        launcher = NeedsAllocator(spec, enter, allocator)
    tuner = AllocatingAutotuner([launcher])
    tuner.allocator = allocator
    bound = routing.bind(META, tuner, before_direct=allocator.set)
    calls(bound, npu_fake, launcher, 2)  # warm-up (through run) in this thread
    if path == "launch_hooks":
        enter.append(lambda args: None)
    in_thread(lambda: calls(bound, npu_fake, launcher, 2))
    assert "second" in allocator.set_in
    assert fastlaunch.stats()[f"fallback.{path}"] >= 2
