# SPDX-License-Identifier: Apache-2.0
"""FastSite: the C steady state in the call slot, on the real NPU launcher and
the fake CANN runtime. Every call must reach the runtime exactly once, and
every unusual call must go back to the Python router before anything is packed."""

from __future__ import annotations

import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastlaunch
from fastlaunch import FastLaunchError, config
from fastlaunch.engine import routing
from fastlaunch.runtime import _core, backends
from fastlaunch.runtime.npu import NpuBackend
from fastlaunch.testing import fakes, pack_bytes_reference
from helpers import profiler
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN")

SIG = ("*fp32", "*fp32", "i32")
ARGS = (0x1000, 0x2000, 1000)


@pytest.fixture(scope="module")
def cann(tmp_path_factory):
    return FakeCann(build("rt", tmp_path_factory.mktemp("rt")))


class Site:
    """A bound call site with its slot, as generated code holds it."""

    def __init__(self, cann, *, hooks=(), blocks=(), signature=SIG, grid=None, npu_shaped=True,
                 args=ARGS):
        cann.reset()
        self.args = args
        self.cann = cann
        self.backend = NpuBackend(libraries=[str(cann.path)], queue="inline", family="rt")
        backends.set_backend("npu", self.backend)
        spec = fakes.spec("k", signature, grid=grid or fakes.ceil_grid(2, 100), hooks=hooks,
                          ffts=True)
        self.launcher = fakes.FakeLauncher(spec)
        self.launchers = [self.launcher]
        self.tuner = fakes.FakeAutotuner([self.launcher], runtime_blocks=blocks,
                                         npu_shaped=npu_shaped)
        self.slot = [None]
        routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": len(args)}, self.tuner,
                     call_slot=self.slot)

    def submissions(self):
        return len(self.cann.calls()) + sum(len(lau.calls) for lau in self.launchers)

    def call(self, *args, stream=0x33, **kw):
        before = self.submissions()
        self.slot[0](*(args or self.args), stream=stream, **kw)
        assert self.submissions() == before + 1


@pytest.fixture
def fake_profiler():
    with profiler.fake_profiler() as module:
        yield module


@pytest.fixture
def env(cann, fake_profiler):
    previous = backends.set_backend("npu", None)
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="npu"):
        yield fake_profiler
    backends.set_backend("npu", previous)
    fastlaunch.reset_stats()


def promote(site):
    site.call()
    site.call()
    assert isinstance(site.slot[0], _core.FastSite)
    assert site.slot[0].fallback is not None


@pytest.mark.parametrize("npu_shaped", [True, False])
def test_slot_holds_fast_site_after_promotion(env, cann, npu_shaped):
    site = Site(cann, npu_shaped=npu_shaped)
    promote(site)
    for _ in range(5):
        site.call()
    assert len(cann.calls()) == 6 and site.tuner.full_entries == 1
    assert cann.calls()[-1].args == pack_bytes_reference("npu", SIG, ARGS, (10, 1, 1), ffts=True,
                                                         ffts_addr=0xFF75000000)
    assert fastlaunch.stats()["fast"] == 6


def test_native_launches_are_counted_per_site_across_fast_site_swaps(env, cann):
    site = Site(cann)
    promote(site)  # one warm-up call, one planned by the router
    for _ in range(3):
        site.call()  # launched by the FastSite, in C
    new = fakes.FakeLauncher(fakes.spec("k2", SIG, grid=fakes.ceil_grid(2, 500), ffts=True))
    site.launchers.append(new)
    site.tuner.launchers = [new]
    site.tuner.best_launcher = new
    site.call()  # the router plans the new launcher; the slot gets a second FastSite
    site.call()
    (name,) = fastlaunch.stats(per_site=True)
    counts = fastlaunch.stats(per_site=True)[name]
    assert counts["fast"] == fastlaunch.stats()["fast"] == 6
    assert counts["fallback.warming_up"] == 1
    fastlaunch.reset_stats()
    site.call()  # the live FastSite's count starts again from zero
    assert fastlaunch.stats(per_site=True) == {name: {"fast": 1}}


def test_profiler_benchmark_kwargs_go_to_the_router(env, cann):
    site = Site(cann)
    promote(site)
    env._is_profiler_enabled = True
    site.call()
    env._is_profiler_enabled = False
    site.call(benchmark_run=True)
    site.call()
    assert site.tuner.full_entries == 3
    stats = fastlaunch.stats()
    assert stats["fallback.profiler"] == 1 and stats["fallback.benchmark_run"] == 1


def test_hooks_stream_grid_and_arg_count(env, cann):
    hooks = ([], [])
    site = Site(cann, hooks=hooks)
    promote(site)
    hooks[1].append(print)
    site.call()
    hooks[1].clear()
    assert len(site.launcher.calls) == 2  # warm-up + hook call
    site.call(stream=None)
    site.call(1, 2, 10**8)  # blockDim over 65535
    fast_site = site.slot[0]
    site.call()
    assert site.slot[0] is fast_site
    stats = fastlaunch.stats()
    assert stats["fallback.launch_hooks"] == 1 and stats["fallback.stream_none"] == 1
    assert stats["fallback.grid_out_of_range"] == 1


def test_launcher_swap_replaces_the_fast_site(env, cann):
    site = Site(cann)
    promote(site)
    first = site.slot[0]
    new = fakes.FakeLauncher(fakes.spec("k2", SIG, grid=fakes.ceil_grid(2, 500), ffts=True))
    site.launchers.append(new)
    site.tuner.launchers = [new]
    site.tuner.best_launcher = new
    site.call()
    assert isinstance(site.slot[0], _core.FastSite) and site.slot[0] is not first
    site.call()
    assert cann.calls()[-1].block_dim == 2


def test_launch_error_after_packing_is_raised_not_replayed(env, cann):
    site = Site(cann)
    promote(site)
    cann.set_launch_error(507011)
    before = site.submissions()
    try:
        with pytest.raises(FastLaunchError, match="507011") as info:
            site.slot[0](*ARGS, stream=0x33)
    finally:
        cann.set_launch_error(0)
    # exactly one launch call (the failed one) and no second try on the original path
    assert site.submissions() == before + 1 and info.value.submitted
    assert cann.calls()[-1].rc == 507011
    assert site.tuner.full_entries == 1


def test_bad_value_reaches_the_router_as_an_input_error(env, cann):
    """Nothing was submitted: never reported as a backend error."""
    site = Site(cann)
    promote(site)
    before = site.submissions()
    raised = []
    try:
        site.slot[0](0x1000, 2.5, 1000, stream=0x33)
    except FastLaunchError as err:  # until the engine hands it to the original
        raised.append(err)
    assert all(not e.submitted and e.reason != "backend_error" and "arg 1 'arg1'" in str(e)
               for e in raised)
    assert site.submissions() - before == site.tuner.full_entries - 1 == 1 - len(raised)



def test_strict_mode_names_the_argument_value_and_cause(env, cann):
    site = Site(cann)
    promote(site)
    before = site.submissions()
    with config.override(strict=True), pytest.raises(FastLaunchError) as info:
        site.slot[0](0x1000, 0x2000, 2.5, stream=0x33)
    message = str(info.value)
    assert message.startswith("strict_unexpected_fallback: bad_value at k: arg 2 'arg2' (i32): "
                              "got float 2.5, expected"), message
    assert "cannot be interpreted as an integer" in message
    assert isinstance(info.value.__cause__, FastLaunchError)
    assert info.value.__cause__.reason == "bad_value"
    assert site.submissions() == before

def test_runtime_blocks_reach_grid_and_buffer(env, cann):
    def grid(*inputs):
        return (inputs[2] // inputs[3], 1, 1)

    site = Site(cann, blocks=(50,), signature=(*SIG, "i32"), grid=grid)
    promote(site)
    site.call()
    assert cann.calls()[-1].block_dim == 20
    assert cann.calls()[-1].args == pack_bytes_reference(
        "npu", (*SIG, "i32"), (*ARGS, 50), (20, 1, 1), ffts=True, ffts_addr=0xFF75000000)


EVENTS = ["plain", "profiler", "hook", "big_grid", "benchmark", "swap", "stream_none", "kwarg"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(EVENTS), min_size=1, max_size=20))
def test_exactly_one_submission_per_call(cann, events):
    try:
        with profiler.fake_profiler() as flag, config.override(enabled=True, backend="npu"):
            hooks = ([], [])
            site = Site(cann, hooks=hooks)
            for event in events:
                flag._is_profiler_enabled = event == "profiler"
                if event == "hook":
                    hooks[0].append(print)
                if event == "swap":
                    new = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 9),
                                                        ffts=True, hooks=hooks))
                    site.launchers.append(new)
                    site.tuner.launchers = [new]
                    site.tuner.best_launcher = new
                args = (1, 2, 10**8) if event == "big_grid" else ARGS
                stream = None if event == "stream_none" else 5
                kw = {"benchmark_run": True} if event == "benchmark" else {}
                kw = {"extra": 1} if event == "kwarg" else kw
                site.call(*args, stream=stream, **kw)
                hooks[0].clear()
    finally:
        backends.set_backend("npu", None)
        fastlaunch.reset_stats()


def test_compiled_grid_program_is_evaluated_without_python(env, cann):
    """With a grid program the FastSite never calls the Python resolver; a
    call it cannot decide (a float size here) uses the resolver instead."""
    import dataclasses

    site = Site(cann)
    spec = fakes.spec("k", SIG, grid_exprs=("-(arg2 // -100)", "1", "1"), ffts=True)
    assert spec.grid_program is not None
    calls = []

    def resolver(*inputs):
        calls.append(inputs)
        return spec.grid(*inputs)

    launcher = fakes.FakeLauncher(dataclasses.replace(spec, grid=resolver))
    site.launchers = [launcher]
    site.tuner.launchers = [launcher]
    site.tuner.best_launcher = launcher
    site.call()   # the router sees a new launcher: plans it
    site.call()
    assert isinstance(site.slot[0], _core.FastSite)
    before = len(calls)
    site.call(0x1000, 0x2000, 250)
    assert len(calls) == before and cann.calls()[-1].block_dim == 3
    site.call(0x1000, 0x2000, 250.0)  # undecided: resolver, then the router's original path
    assert len(calls) > before and site.tuner.full_entries == 2


class CallRecorder:
    """A FastSite's router, recording what its fallback and error calls were given."""

    def __init__(self):
        self.fallbacks = []
        self.errors = []

    def __call__(self, *args, **kwargs):
        self.fallbacks.append((args, kwargs))
        return "fallback"

    def fast_site_failed(self, site, err, args, stream):
        assert isinstance(site, routing.FastSiteSpec)
        self.errors.append(err)
        return "error"


def direct_site(site, recorder, grid, *, signature_len=3, static_grid=None):
    """A FastSite around a promoted site's native launcher, with a recording router."""
    promote(site)
    planned = site.slot[0].fallback.plan
    return _core.make_fast_site(recorder, planned.plan.native, routing.FastSiteSpec(
        planned=planned, autotuner=site.tuner, launcher=site.launcher, best_launcher_mode=True,
        profiler=_NoProfiler, maybe_full=None, hooks=(), input_count=signature_len, grid=grid,
        static_grid=static_grid, fixed=(), grid_program=()))


class _NoProfiler:
    _is_profiler_enabled = False


class Interrupt:
    """An argument whose __index__ / __float__ / data_ptr raises KeyboardInterrupt."""

    def __index__(self):
        raise KeyboardInterrupt

    def __float__(self):
        raise KeyboardInterrupt

    def data_ptr(self):
        raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["grid", "index", "data_ptr", "float"])
def test_keyboard_interrupt_propagates_with_nothing_launched(env, cann, where):
    interrupt = []

    def grid(*inputs):
        if interrupt:
            raise KeyboardInterrupt
        return (1, 1, 1)

    site = Site(cann, signature=(*SIG, "fp32"), args=(*ARGS, 1.0), grid=grid)
    recorder = CallRecorder()
    fast = direct_site(site, recorder, grid, signature_len=4)
    if where == "grid":
        interrupt.append(True)
    args = {"grid": site.args, "index": (0x1000, 0x2000, Interrupt(), 1.0),
            "data_ptr": (Interrupt(), 0x2000, 1000, 1.0),
            "float": (0x1000, 0x2000, 1000, Interrupt())}[where]
    before, entries = site.submissions(), site.tuner.full_entries
    with pytest.raises(KeyboardInterrupt):
        fast(*args, stream=0x33)
    assert site.submissions() == before and site.tuner.full_entries == entries
    assert recorder.fallbacks == [] and recorder.errors == []
    with pytest.raises(KeyboardInterrupt):  # and through the router's own slot
        site.slot[0](*args, stream=0x33)
    assert site.submissions() == before and site.tuner.full_entries == entries


def test_input_errors_go_to_on_error_once_with_their_reason(env, cann):
    site = Site(cann)
    recorder = CallRecorder()
    fast = direct_site(site, recorder, fakes.ceil_grid(2, 100))
    before = site.submissions()
    assert fast(0x1000, "é" * 80, 1000, stream=0x33) == "error"
    assert fast(0x1000, 0x2000, 10**8, stream=0x33) == "error"  # blockDim over 65535
    assert site.submissions() == before and recorder.fallbacks == []
    value_error, grid_error = recorder.errors
    assert isinstance(value_error, _core.InputError) and value_error.reason == "bad_value"
    assert "é" * 56 + "..." in str(value_error)
    assert isinstance(grid_error, _core.GridError) and grid_error.reason == "grid_out_of_range"


def test_raising_grid_resolver_is_called_once_per_call(env, cann):
    calls = []

    def resolver(*inputs):
        calls.append(inputs)
        raise ValueError("no grid")

    site = Site(cann)
    recorder = CallRecorder()
    fast = direct_site(site, recorder, resolver)
    before = site.submissions()
    assert fast(*ARGS, stream=0x33) == "error"
    assert len(calls) == 1 and site.submissions() == before
    (err,) = recorder.errors
    assert isinstance(err, _core.GridError) and err.reason == "grid_resolver_error"
    assert isinstance(err.__cause__, ValueError)


def resolver_failing_on_demand():
    """A grid resolver recording its inputs in ``calls``; it raises once ``fail`` is not empty."""
    calls, fail = [], []

    def resolver(*inputs):
        calls.append(inputs)
        if fail:
            raise ValueError("no grid")
        return (10, 1, 1)

    return resolver, calls, fail


def test_raising_grid_resolver_through_the_router_runs_once(env, cann):
    """The router takes the original path without asking the resolver again."""
    resolver, calls, fail = resolver_failing_on_demand()
    site = Site(cann, grid=resolver)
    promote(site)
    fail.append(True)
    before, entries = len(calls), site.tuner.full_entries
    site.call()
    assert len(calls) - before == 1 and site.tuner.full_entries == entries + 1


def test_numpy_int_grid_is_launched(env, cann):
    import numpy as np

    site = Site(cann)
    recorder = CallRecorder()
    fast = direct_site(site, recorder, lambda *a: (np.int64(7), np.int32(1), 1))
    before = len(cann.calls())
    assert fast(*ARGS, stream=0x33) is None
    assert len(cann.calls()) == before + 1 and cann.calls()[-1].block_dim == 7
    native = site.slot[0].fallback.plan.plan.native
    native.launch(0x33, (np.int64(3), 1, 1), ARGS)
    assert cann.calls()[-1].block_dim == 3 and recorder.errors == []


def test_pre_submission_errors_take_the_original_path_under_the_error_policy(env, cann,
                                                                            monkeypatch):
    """With the engine's error policy (a core InputError is a CallRefused with the
    core's reason), a bad value or a raising resolver found by the FastSite runs
    the original launcher once, counted by reason; nothing is packed twice."""
    from fastlaunch import CallRefused
    from fastlaunch.runtime import native

    previous = native.translate

    def policy(err):
        if isinstance(err, _core.InputError):
            return CallRefused(err.reason, detail=str(err))
        return previous(err)

    monkeypatch.setattr(native, "translate", policy)
    resolver, calls, fail = resolver_failing_on_demand()
    site = Site(cann, grid=resolver)
    promote(site)
    site.call(0x1000, 2.5, 1000)
    assert len(site.launcher.calls) == 2 and fastlaunch.stats()["fallback.bad_value"] == 1
    fail.append(True)
    before = len(calls)
    site.call()
    assert len(calls) - before == 1 and fastlaunch.stats()["fallback.grid_resolver_error"] == 1
    assert isinstance(site.slot[0], _core.FastSite)


def _bare_site(**changes):
    """A site description for a FastSite made directly (no router behind it)."""
    planned = object()
    fields = {"planned": None, "autotuner": types.SimpleNamespace(best_launcher=planned),
              "launcher": planned, "best_launcher_mode": True, "profiler": _NoProfiler,
              "maybe_full": None, "hooks": (), "input_count": 3, "grid": None,
              "static_grid": (1, 1, 1), "fixed": (), "grid_program": ()}
    return routing.FastSiteSpec(**{**fields, **changes})


@pytest.mark.parametrize(("router", "native", "changes", "message"), [
    (None, "launcher", {}, "router: got NoneType None, expected a callable (the router)"),
    (print, "launcher", {},
     "expected a router with a callable fast_site_failed(site, exc, args, stream)"),
    ("router", 3, {}, "native: got int 3, expected a native launcher"),
    ("router", "launcher", {"hooks": [[]]}, "site.hooks: got list [[]], expected a tuple"),
    ("router", "launcher", {"input_count": 2},
     "site.input_count: got 2, expected the launcher's plan's 3"),
    ("router", "launcher", {"input_count": True},
     "site.input_count: got bool True, expected an int in 0.."),
    ("router", "launcher", {"static_grid": None},
     "site.grid: got NoneType None, expected a callable (the site has no static grid)"),
    ("router", "launcher", {"maybe_full": 1},
     "site.maybe_full: got int 1, expected None or a callable"),
    ("router", "launcher", {"best_launcher_mode": 1},
     "site.best_launcher_mode: got int 1, expected True or False"),
    ("router", "launcher", {"grid_program": (1, "x")},
     "site.grid_program[1]: got str 'x', expected an int"),
    ("router", "launcher", {"profiler_flag": None},
     "site.profiler_flag: got NoneType None, expected a str"),
    ("router", "launcher", {"hits": 0},
     "site.hits: got int 0, expected None or a fastlaunch.runtime._core.HitCounter"),
])
def test_make_fast_site_names_the_bad_field(cann, router, native, changes, message):
    runtime = _core.NpuRuntime([str(cann.path)])
    launcher = _core.NpuLauncher(_core.Plan("npu", list(SIG), static_grid=(1, 1, 1)), runtime,
                                 "k", 0xBEEF)
    router = CallRecorder() if router == "router" else router
    native = launcher if native == "launcher" else native
    with pytest.raises(_core.InputError) as info:
        _core.make_fast_site(router, native, _bare_site(**changes))
    assert message in str(info.value)
    with pytest.raises(_core.InputError, match=r"site\.autotuner: missing"):
        _core.make_fast_site(CallRecorder(), launcher, object())


def test_a_fast_site_keeps_its_native_launcher_alive(cann):
    import gc
    import weakref

    cann.reset()
    runtime = _core.NpuRuntime([str(cann.path)])
    plan = _core.Plan("npu", list(SIG), static_grid=(1, 1, 1))
    launcher = _core.NpuLauncher(plan, runtime, "k", 0xBEEF)
    alive = weakref.ref(launcher)
    site = _core.make_fast_site(CallRecorder(), launcher, _bare_site())
    del launcher, plan, runtime
    gc.collect()
    assert alive() is None  # the Python object is gone; FastSite holds the C++ launcher
    assert site(*ARGS, stream=0x33) is None
    assert len(cann.calls()) == 1 and cann.calls()[-1].args == pack_bytes_reference(
        "npu", SIG, ARGS, (1, 1, 1))
