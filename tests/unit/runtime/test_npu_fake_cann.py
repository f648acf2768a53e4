# SPDX-License-Identifier: Apache-2.0
"""The real C++ NPU launch path against a fake CANN runtime library."""

from __future__ import annotations

import struct

import pytest

import fastlaunch
from fastlaunch import FastLaunchError, PlanUnavailable, config
from fastlaunch.engine import routing
from fastlaunch.runtime import backends
from fastlaunch.runtime.npu import NpuBackend
from fastlaunch.testing import fakes, pack_bytes_reference
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc, oracle_bytes

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN")

SIG = ["*fp32", "*fp32", "i32", "fp32", "i64", "*fp16"]
ARGS = (0x1000, 0x2000, 1000, 0.5, -7, None)
FFTS = 0xFF75000000


@pytest.fixture(scope="module")
def cann(tmp_path_factory):
    return FakeCann(build("rt", tmp_path_factory.mktemp("rt")))


@pytest.fixture
def fake(cann):
    cann.reset()
    return cann


def spec(**options):
    options.setdefault("ffts", True)
    grid = options.pop("grid", fakes.ceil_grid(2, 100))
    return fakes.spec("triton_poi_fused_0", SIG, grid=grid, **options)


def make(fake, queue=None, **options):
    backend = NpuBackend(libraries=[str(fake.path)], queue="inline" if queue is None else "auto",
                         family="rt", submit=queue)
    plan = backend.make_plan(spec(**options), input_count=len(SIG), fixed_args=())
    return backend, plan


def test_available_names_what_is_missing(fake, tmp_path):
    ok, why = NpuBackend(libraries=[str(fake.path)], queue="inline").available()
    assert ok and why == ""
    empty = tmp_path / "libempty.so"
    empty.write_bytes(b"")
    ok, why = NpuBackend(libraries=[str(empty)], queue="inline").available()
    assert not ok and "no rtKernelLaunch" in why and "libempty.so" in why


def test_launch_bytes_equal_reference_and_oracle(fake):
    backend, plan = make(fake)
    assert plan.launcher.api == "rt"
    plan.submit(0x5151, (10, 1, 1), ARGS)
    (call,) = fake.calls()
    assert (call.func, call.block_dim, call.stream, call.attr_id) == (0xBEEF, 10, 0x5151, -1)
    expected = pack_bytes_reference("npu", SIG, ARGS, (10, 1, 1), ffts=True, ffts_addr=FFTS)
    assert call.args == expected
    oracle = oracle_bytes("npu", [{"signature": SIG, "args": [a or 0 for a in ARGS],
                                   "grid": (10, 1, 1), "ffts": True, "ffts_addr": FFTS}])[0]
    assert call.args == oracle
    assert plan.describe(0x5151, (10, 1, 1), ARGS).data == expected


def test_ffts_address_queried_once_per_plan(fake):
    backend, plan = make(fake)
    for _ in range(3):
        plan.submit(1, (1, 1, 1), ARGS)
    assert fake.ffts_queries() == 1
    make(fake, ffts=False)
    assert fake.ffts_queries() == 1


def test_zero_ffts_address_refuses_the_plan(fake):
    fake.set_ffts_addr(0)
    with pytest.raises(PlanUnavailable, match="FFTS control address is 0"):
        make(fake)


def test_simt_kernel_passes_dynamic_ub_size(fake):
    backend, plan = make(fake, simt=True, simt_launch=True, pure_simt=True, ffts=False,
                         local_memory=122880)
    plan.submit(3, (2, 3, 1), ARGS)
    (call,) = fake.calls()
    assert call.attr_id == 2 and call.attr_value == 122880 and call.block_dim == 6
    assert call.api == "rt-v2"
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (2, 3, 1), pure_simt=True)


def test_launch_error_is_raised_and_never_replayed(fake):
    backend, plan = make(fake)
    fake.set_launch_error(507015)
    with pytest.raises(FastLaunchError, match="failed with code 507015") as info:
        plan.submit(1, (1, 1, 1), ARGS)
    assert info.value.submitted and not info.value.recoverable
    assert [c.rc for c in fake.calls()] == [507015]  # one launch call, never a second


@pytest.mark.parametrize(("grid", "reason"), [((0, 1, 1), "grid_out_of_range"),
                                              ((300, 300, 1), "grid_out_of_range")])
def test_bad_grid_refused_before_anything(fake, grid, reason):
    backend, plan = make(fake)
    with pytest.raises(fastlaunch.CallRefused) as info:
        plan.submit(1, grid, ARGS)
    assert info.value.reason == reason and fake.calls() == []


def test_null_stream_is_passed_on_and_bad_args_are_errors(fake):
    """triton-ascend's launcher hands a null stream to the runtime unchecked."""
    backend, plan = make(fake)
    plan.submit(0, (1, 1, 1), ARGS)
    assert [c.stream for c in fake.calls()] == [0]
    fake.reset()
    with pytest.raises(FastLaunchError, match="arg 2 'arg2' \\(i32\\): got float"):
        plan.submit(1, (1, 1, 1), (0, 0, 1.5, 0.5, 1, None))
    with pytest.raises(FastLaunchError, match="args: got 2 values, expected 6"):
        plan.submit(1, (1, 1, 1), (0, 0))
    assert fake.calls() == []


def test_workspace_is_allocated_and_passed(fake):
    sizes = []

    def workspace(size):
        sizes.append(size)
        return 0xAAAA0000, object()

    backend = NpuBackend(libraries=[str(fake.path)], queue="inline", family="rt",
                         workspace=workspace)
    plan = backend.make_plan(spec(workspace_size=256), input_count=len(SIG), fixed_args=())
    plan.submit(9, (3, 2, 1), ARGS)
    assert sizes == [256 * 6]
    (call,) = fake.calls()
    assert struct.unpack_from("<QQQ", call.args) == (FFTS, 0, 0xAAAA0000)
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (3, 2, 1), ffts=True,
                                             ffts_addr=FFTS, workspace=0xAAAA0000)


def test_locks_without_a_copy_function_refuse_the_plan(fake):
    """The original sets its locks with a host-to-device copy; this fake
    runtime has none (test_npu_differential covers the copy)."""
    backend = NpuBackend(libraries=[str(fake.path)], queue="inline", family="rt",
                         locks=lambda count, init: (0xBBBB0000, None))
    with pytest.raises(PlanUnavailable, match="need rtMemcpy"):
        backend.make_plan(spec(lock_num=4, lock_init_value=7), input_count=len(SIG),
                          fixed_args=())


@pytest.mark.parametrize(("options", "reason"), [
    ({"device_print": True}, "device_print_unsupported"),
    ({"coalesce_factor": 2}, "coalesced_grid_unsupported"),
    ({"blocks_parallel": True}, "blocks_parallel_clamp_unsupported"),
])
def test_plans_refused_for_behaviour_not_reproduced(fake, options, reason):
    with pytest.raises(PlanUnavailable) as info:
        make(fake, **options)
    assert info.value.reason == reason


def test_task_queue_owns_the_buffer_until_it_runs(fake):
    backend, plan = make(fake, queue=fake.submit_capsule())
    assert plan.launcher.queued
    args = [bytearray(b"x")]  # nothing of the call survives but the packed buffer
    plan.submit(0x77, (5, 1, 1), ARGS)
    del args
    assert fake.pending() == 1 and fake.calls() == []
    assert fake.pending_name(0) == b"triton_poi_fused_0"
    released = fake.released()
    assert fake.run_pending() == 1
    assert fake.released() == released + 1
    (call,) = fake.calls()
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (5, 1, 1), ffts=True,
                                             ffts_addr=FFTS)


def test_task_queue_submission_failure_raises_and_releases(fake):
    backend, plan = make(fake, queue=fake.submit_capsule())
    fake.set_submit_error(-3)
    released = fake.released()
    try:
        with pytest.raises(FastLaunchError, match="task queue submission"):
            plan.submit(1, (1, 1, 1), ARGS)
    finally:
        fake.set_submit_error(0)
    assert fake.released() == released + 1 and fake.calls() == []


def test_routing_engine_end_to_end(fake):
    """Generated-code call path: bind, warm up, plan, launch through fake CANN."""
    backend = NpuBackend(libraries=[str(fake.path)], queue="inline", family="rt")
    previous = backends.set_backend("npu", backend)
    fastlaunch.reset_stats()
    try:
        with config.override(enabled=True, backend="npu"):
            kernel = spec()
            launcher = fakes.FakeLauncher(kernel)
            tuner = fakes.FakeAutotuner([launcher])
            bound = routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 6}, tuner)
            for _ in range(3):
                bound(*ARGS, stream=0x42)
            fake.set_launch_error(1)
            with pytest.raises(FastLaunchError):
                bound(*ARGS, stream=0x42)
    finally:
        backends.set_backend("npu", previous)
    assert [c.rc for c in fake.calls()] == [0, 0, 1]
    assert len(launcher.calls) == 1 and tuner.full_entries == 1
    assert fastlaunch.stats()["fast"] == 2 and fastlaunch.stats()["error.launch_failed"] == 1
