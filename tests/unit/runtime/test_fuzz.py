# SPDX-License-Identifier: Apache-2.0
"""Bounded fuzz of the native surface, run in the default suite.

FastSite: random calls (values of every kind, grids, streams, hooks, profiler,
launcher swaps, raising resolvers, interrupts, failing launches) on the real
NPU launcher over the fake CANN runtime; each call ends in exactly one of
launch / fallback / error (or a KeyboardInterrupt with nothing done).
Plan.pack: random signatures and values; each call returns bytes or raises a
``_core.InputError`` (or the value's own KeyboardInterrupt), nothing else."""

from __future__ import annotations

import random
import types

import numpy as np
import pytest

from fastlaunch.engine import routing
from fastlaunch.runtime import _core
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc
from helpers.values import Raises, Tensor

pytestmark = [pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

TYPES = ["*fp32", "i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64", "fp16",
         "bf16", "fp32", "fp64"]


def random_value(rng: random.Random) -> object:
    pick = rng.randrange(16)
    if pick < 4:
        return rng.choice([0, 1, -1, 7, 255, 256, 2**31, -(2**31) - 1, 2**63, 2**64, 2**200])
    if pick < 6:
        return rng.choice([0.5, -0.0, 1e39, float("inf"), float("nan"), 65520.0])
    return rng.choice([
        None, True, "1", b"1", bytearray(b"1"), np.int64(3), np.uint64(3), np.float32(2.5),
        np.int8(-3), Tensor(0x1000), Tensor(0x2000, ("cpu", 0)), Tensor(-1), Tensor("x"),
        Raises(ValueError), Raises(KeyboardInterrupt), object(), [1]])


class Counting:
    def __init__(self):
        self.fallbacks = 0
        self.errors = []

    def __call__(self, *args, **kwargs):  # the router's fallback
        self.fallbacks += 1
        return "fallback"

    def fast_site_failed(self, site, err, args, stream):
        self.errors.append(err)
        return "error"


@pytest.fixture(scope="module")
def cann(tmp_path_factory):
    return FakeCann(build("rt", tmp_path_factory.mktemp("fuzz")))


@pytest.mark.parametrize("seed", range(4))
def test_fast_site_calls_end_exactly_one_way(cann, seed):
    rng = random.Random(seed)
    cann.reset()
    signature = ["*fp32", "i32", "fp32"]
    runtime = _core.NpuRuntime([str(cann.path)])
    plan = _core.Plan("npu", signature, expected_device=(20, 0))
    native = _core.NpuLauncher(plan, runtime, "k", 0xBEEF)
    planned, other = object(), object()
    tuner = types.SimpleNamespace(best_launcher=planned)
    profiler = types.SimpleNamespace(_is_profiler_enabled=False)
    hooks = ([],)
    state = {"grid": (2, 1, 1)}

    def grid(*inputs):
        value = state["grid"]
        if isinstance(value, BaseException):
            raise value
        return value

    counting = Counting()
    site = _core.make_fast_site(counting, native, routing.FastSiteSpec(
        planned=None, autotuner=tuner, launcher=planned, best_launcher_mode=True,
        profiler=profiler, maybe_full=None, hooks=hooks, input_count=3, grid=grid,
        static_grid=None, fixed=(), grid_program=()))
    outcomes = {"launch": 0, "fallback": 0, "error": 0, "interrupt": 0}
    for _ in range(3000):
        if cann.lib.rec_count() > 200:
            cann.reset()  # the fake keeps a bounded record (and clears the injected error)
        profiler._is_profiler_enabled = rng.random() < 0.05
        tuner.best_launcher = other if rng.random() < 0.05 else planned
        hooks[0][:] = [print] if rng.random() < 0.05 else []
        state["grid"] = rng.choice([(2, 1, 1)] * 6 + [
            (0, 1, 1), (70000, 1, 1), (1.5, 1, 1), (np.int64(3), 1, 1), [1, 1, 1], (1, 1),
            None, ValueError("grid"), KeyboardInterrupt()])
        launch_error = 507011 if rng.random() < 0.03 else 0
        cann.set_launch_error(launch_error)
        args = [Tensor(0x1000, rng.choice([None, ("npu", 0)])), 5, 0.5]
        if rng.random() < 0.3:
            args[rng.randrange(3)] = random_value(rng)
        if rng.random() < 0.03:
            args.append(1)
        stream = rng.choice([0x33] * 8 + [None, -1, "s"])
        before = (cann.lib.rec_count(), counting.fallbacks, len(counting.errors))
        try:
            result = site(*args, stream=stream)
        except KeyboardInterrupt:
            result = "interrupt"
        after = (cann.lib.rec_count(), counting.fallbacks, len(counting.errors))
        delta = tuple(a - b for a, b in zip(after, before))
        if result is None:
            kind = "launch"
            assert delta == (1, 0, 0)
        elif result == "interrupt":
            kind = "interrupt"
            assert delta == (0, 0, 0)
        elif result == "fallback":
            kind = "fallback"
            assert delta == (0, 1, 0)
        else:
            kind = "error"
            err = counting.errors[-1]
            if isinstance(err, _core.InputError):  # found before the launch call
                assert delta == (0, 0, 1)
                assert err.reason in {"bad_value", "device_mismatch", "grid_out_of_range",
                                      "grid_type", "grid_rank", "grid_resolver_error",
                                      "bad_stream"}
            else:  # the one launch call failed: reported, never made again
                assert delta == (1, 0, 1)
                assert launch_error and isinstance(err, _core.LaunchError), repr(err)
        outcomes[kind] += 1
    cann.set_launch_error(0)
    assert all(outcomes.values()), outcomes  # every way was taken


@pytest.mark.parametrize("seed", range(4))
def test_pack_returns_bytes_or_an_input_error(seed):
    rng = random.Random(100 + seed)
    for _ in range(2000):
        abi_name = rng.choice(["npu", "cuda"])
        signature = [rng.choice(TYPES) for _ in range(rng.randrange(5))]
        plan = _core.Plan(abi_name, signature, expected_device=rng.choice([None, (1, 0)]))
        args = tuple(random_value(rng) for _ in signature)
        grid = rng.choice([(1, 2, 3), (0, 1, 1), (2**40, 1, 1), None, (1.0, 1, 1)])
        try:
            result = plan.pack(args, grid)
        except _core.InputError as err:
            result = err
        except KeyboardInterrupt:
            assert any(isinstance(a, Raises) and a.exc is KeyboardInterrupt
                       for a in args)
            continue
        if isinstance(result, _core.InputError):
            assert result.reason and str(result)
        else:
            assert len(result) == plan.size
