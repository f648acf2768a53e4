# SPDX-License-Identifier: Apache-2.0
"""The NPU backend's launch decisions (issue 8), on fake CANN libraries.

The byte-level comparison with triton-ascend's own generated launcher is
tests/unit/test_npu_differential.py; this file checks the decisions the
backend makes itself: which family, which API, which device's FFTS address,
locks in the task, the task queue switch, the stream, the profiling switch.
"""

from __future__ import annotations

import ctypes
import struct
import subprocess
import sys
import textwrap

import pytest

import fastlaunch
from fastlaunch import PlanUnavailable, _core, backends, config, fakes, routing
from fastlaunch.backends.npu import NpuBackend, family, kernel_meta
from fastlaunch.backends.npu.backend import launch_family_report
from fastlaunch.selfcheck.ascend_reference import capsule
from fastlaunch.testing import pack_bytes_reference
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN")

SIG = ["*fp32", "*fp32", "i32"]
ARGS = (0x1000, 0x2000, 100)
FFTS = 0xFF75000000

@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    """One runtime per launch family, and one with copies, synchronisation and msprof."""
    folder = tmp_path_factory.mktemp("cann")
    return {part: FakeCann(build(part, folder)) for part in ("acl", "rt", "services")}


@pytest.fixture
def cann(libs):
    for lib in libs.values():
        lib.reset()
    return libs


def backend_for(cann, *names, **kwargs):
    paths = [str(cann[n].path) for n in names] + [str(cann["services"].path)]
    return NpuBackend(libraries=paths, queue="inline", **kwargs)


def make(backend, **options):
    options.setdefault("ffts", False)
    spec = fakes.spec("triton_poi_fused_0", SIG, grid=fakes.ceil_grid(2, 10), **options)
    return backend.make_plan(spec, input_count=len(SIG), fixed_args=())


# ---------------------------------------------------------------- the launch API


@pytest.mark.parametrize("fam", ["rt", "acl"])
def test_api_follows_the_family_not_the_exported_symbols(cann, fam):
    """Both families' symbols are loaded; the plan uses the one triton-ascend made."""
    backend = backend_for(cann, "acl", "rt")
    plan = make(backend, family=fam)
    assert plan.api == fam and f"api={fam}" in repr(plan)
    backend.launch(plan, 0x55, (10, 1, 1), ARGS)
    other = "acl" if fam == "rt" else "rt"
    (call,) = cann[fam].calls()
    assert cann[other].calls() == []
    assert (call.api, call.func, call.block_dim, call.stream) == (fam, 0xBEEF, 10, 0x55)
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (10, 1, 1))
    assert fam in backend.plan_summary(plan)


def test_family_absent_from_cann_refuses_the_plan(cann):
    with pytest.raises(PlanUnavailable) as info:
        make(backend_for(cann, "acl"), family="rt")
    assert info.value.reason == "launch_api_unavailable" and "rtKernelLaunch" in info.value.detail


def test_undecidable_family_refuses_the_plan(cann, monkeypatch):
    monkeypatch.setattr(family, "installed", lambda: family.Detection(
        None, "launch_family_mismatch", "loader makes rt handles, launcher calls acl"))
    with pytest.raises(PlanUnavailable) as info:
        make(backend_for(cann, "acl", "rt"))
    assert info.value.reason == "launch_family_mismatch"
    lines = dict(launch_family_report([str(cann["acl"].path)]))
    assert lines["launch API"].startswith("none: plans refused (launch_family_mismatch")


def test_backend_family_applies_to_specs_without_one(cann):
    plan = make(backend_for(cann, "acl", "rt", family="rt"))
    assert plan.api == "rt"


@pytest.mark.parametrize(("fam", "api", "attr"), [("rt", "rt-v2", 2), ("acl", "acl", 2)])
def test_simt_launch_passes_local_memory(cann, fam, api, attr):
    backend = backend_for(cann, "acl", "rt")
    plan = make(backend, family=fam, simt=True, simt_launch=True, local_memory=216 * 1024)
    backend.launch(plan, 3, (2, 1, 1), ARGS)
    (call,) = cann[fam].calls()
    assert (call.api, call.attr_id, call.attr_value) == (api, attr, 221184)
    plain = make(backend, family=fam, simt=True, simt_launch=False, local_memory=0)
    cann[fam].reset()
    backend.launch(plain, 3, (2, 1, 1), ARGS)
    (call,) = cann[fam].calls()
    assert (call.api, call.attr_id) == (fam, -1)


# ---------------------------------------------------------------- kernel_meta rules


def meta(signature, constants=None, **fields):
    md = {"name": "triton_red_fused_sum_0 aiv", "parallel_mode": "simd",
          "force_simt_only": False, "compile_on_910_95": False, "mix_mode": "aiv", **fields}
    return kernel_meta.describe(signature, constants or {}, md, handle=1, kernel_name="k",
                                family=kernel_meta.RT_3_2, ffts=False)


def test_size_args_equal_to_one_are_left_out():
    """*fp32, *fp32, xnumel=1, r0_numel=1024: 56 bytes, as triton-ascend packs it."""
    m = meta({0: "*fp32", 1: "*fp32", 2: "i32", 3: "i32"}, {2: 1})
    assert m.signature == ("*fp32", "*fp32", "i32") and m.indices == (0, 1, 3)
    assert m.parsed == (0, 1, 2, 3)
    plan = _core.Plan("npu", list(m.signature), ffts=True, ffts_addr=FFTS)
    assert plan.size == 56  # 64 if xnumel were packed
    assert plan.pack((0x10, 0x20, 1024), (1, 1, 1)) == pack_bytes_reference(
        "npu", list(m.signature), (0x10, 0x20, 1024), (1, 1, 1), ffts=True, ffts_addr=FFTS)


def test_names_and_constants_by_name():
    m = kernel_meta.describe({"in_ptr0": "*fp32", "xnumel": "i32", "rnumel": "i32"},
                             {"xnumel": 1}, {"name": "k aiv"}, handle=1, kernel_name="k",
                             family=kernel_meta.RT_3_2, ffts=False,
                             arg_names=["in_ptr0", "xnumel", "rnumel", "XBLOCK"])
    assert m.names == ("in_ptr0", "rnumel") and m.indices == (0, 2)


@pytest.mark.parametrize(("fields", "simt", "launch"), [
    ({"parallel_mode": "mix_simd_simt"}, True, False),
    ({"parallel_mode": "mix_simd_simt", "compile_on_910_95": True}, True, True),
    ({"parallel_mode": "SIMT", "compile_on_910_95": True}, False, False),  # case-sensitive
    ({"force_simt_only": True, "compile_on_910_95": True}, True, True),
    ({"parallel_mode": "simd", "compile_on_910_95": True}, False, False),
])
def test_simt_condition_as_the_generator(fields, simt, launch):
    opts = meta({0: "*fp32"}, **fields).options
    assert (opts["simt"], opts["simt_launch"]) == (simt, launch)
    assert opts["local_memory"] == (216 * 1024 if launch else 0)


def test_task_name_is_cut_to_the_last_49_chars():
    name = "triton_per_fused__native_batch_norm_legit_functional_add_mean_0"
    m = meta({0: "*fp32"}, name=f"{name} mix")
    assert m.name == name[-49:] and len(m.name) == 49
    assert meta({0: "*fp32"}).name == "triton_red_fused_sum_0"


def test_missing_metadata_fields_read_as_the_generator():
    m = kernel_meta.describe({0: "*fp32"}, {}, {"name": "k aiv"}, handle=1, kernel_name="k",
                             family=kernel_meta.RT_3_2, ffts=True, env={})
    opts = m.options
    assert (opts["workspace_size"], opts["lock_num"], opts["lock_init_value"]) == (-1, -1, 0)
    assert opts["taskqueue"] and not opts["device_print"] and opts["ffts"]
    off = kernel_meta.describe({0: "*fp32"}, {}, {"name": "k aiv"}, handle=1, kernel_name="k",
                               family=kernel_meta.RT_3_2, ffts=False,
                               env={"TRITON_ENABLE_TASKQUEUE": "false"})
    assert not off.options["taskqueue"]


def test_unrenderable_types_are_refused_like_the_generator():
    for ty in ("u8", "i8", "i16", "u1", "u16"):
        with pytest.raises(kernel_meta.KernelMetaError, match=ty):
            meta({0: "*fp32", 1: ty})


# ---------------------------------------------------------------- family detection


def _reader(files):
    return lambda path: files.get(path)


def test_detection_reads_loader_and_launcher():
    rt = {family.DRIVER: "if compile_on_910_95 and enable_simt:\n  cfgInfo.localMemorySize = "
                         "216 * 1024;\n  ret = rtKernelLaunchWithFlagV2(func,\n"
                         "ret = rtKernelLaunch(func, blockNum",
          family.LOADER: "rtDevBinaryRegister(&devbin); rtFunctionRegister(h, stub"}
    found = family.detect(_reader(rt))
    assert found.family == kernel_meta.LaunchFamily(
        "rt", True, 221184, found.family.source)
    acl = {family.DRIVER: "attr.value.dynUBufSize = {metadata.shared_mem_dynamic_size};\n"
                          "ret = aclrtLaunchKernelWithHostArgs(func, blockNum",
           family.LOADER: "aclrtBinaryLoadFromData(...); aclrtBinaryGetFunction(h, name, &f)"}
    found = family.detect(_reader(acl))
    assert found.family.name == "acl"
    assert found.family.simt_local_memory == "shared_mem_dynamic_size"
    assert not found.family.simt_needs_910_95
    mixed = {family.DRIVER: acl[family.DRIVER], family.LOADER: rt[family.LOADER]}
    assert family.detect(_reader(mixed)).reason == "launch_family_mismatch"
    both = {family.DRIVER: "#ifdef TRITON_CANN_910\n" + acl[family.DRIVER] + rt[family.DRIVER],
            family.LOADER: rt[family.LOADER] + acl[family.LOADER]}
    found = family.detect(_reader(both))
    assert found.reason == "launch_family_ambiguous" and "TRITON_CANN_910" in found.detail
    assert family.detect(_reader({})).reason == "launch_family_unknown"
    helper_launch = {family.DRIVER: "lib.triton_launch_kernel(name, func, stream)",
                     family.LOADER: acl[family.LOADER] + "aclrtLaunchKernelWithHostArgs(f, n"}
    assert family.detect(_reader(helper_launch)).family.name == "acl"


# ---------------------------------------------------------------- FFTS, stream, locks


def test_ffts_address_is_queried_once_per_device(cann):
    backend = backend_for(cann, "acl", "rt")
    before = cann["rt"].ffts_queries()
    plan = make(backend, family="rt", ffts=True)
    make(backend, family="rt", ffts=True)
    assert cann["rt"].ffts_queries() == before + 1
    spec = fakes.spec("k", SIG, static_grid=(1, 1, 1), family="rt", ffts=True)
    other = backend.make_plan(dataclasses_replace(spec, device=1), input_count=3, fixed_args=())
    assert cann["rt"].ffts_queries() == before + 2
    backend.launch(plan, 1, (1, 1, 1), ARGS)
    backend.launch(other, 1, (1, 1, 1), ARGS)
    assert [struct.unpack_from("<Q", c.args)[0] for c in cann["rt"].calls()] == [FFTS, FFTS]
    assert cann["rt"].ffts_queries() == before + 2  # never per launch


def dataclasses_replace(spec, **changes):
    import dataclasses

    return dataclasses.replace(spec, **changes)


@pytest.mark.parametrize(("stream", "raw"), [(0, 0), (-1, 2**64 - 1), (2**64 + 5, 5)])
def test_stream_values_the_original_accepts_launch(cann, stream, raw):
    """PyArg_ParseTuple "K": any int, modulo 2**64; 0 is the default stream."""
    backend = backend_for(cann, "rt")
    plan = make(backend, family="rt")
    backend.launch(plan, stream, (1, 1, 1), ARGS)
    (call,) = cann["rt"].calls()
    assert call.stream == raw


def test_null_plan_or_runtime_is_a_clear_error(cann):
    runtime = _core.NpuRuntime([str(cann["rt"].path)])
    plan = _core.Plan("npu", SIG)
    with pytest.raises(_core.InputError, match="plan: got None"):
        _core.NpuLauncher(None, runtime, "k", 1, "rt")
    with pytest.raises(_core.InputError, match="runtime: got None"):
        _core.NpuLauncher(plan, None, "k", 1, "rt")
    with pytest.raises(_core.InputError, match="family: got 'cuda'"):
        _core.NpuLauncher(plan, runtime, "k", 1, "cuda")
    with pytest.raises(_core.InputError, match="submit: got int"):
        _core.NpuLauncher(plan, runtime, "k", 1, "rt", submit=5)
    with pytest.raises(_core.InputError, match="allocator: got None"):
        _core.NpuLauncher(plan, runtime, "k", 1, "rt", lock_num=2)


class Allocator:
    """A "fastlaunch.npu_workspace" capsule over Python callbacks (ctypes)."""

    ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p,
                             ctypes.POINTER(ctypes.c_void_p))
    RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

    class Table(ctypes.Structure):
        _fields_ = [("alloc", ctypes.c_void_p), ("release", ctypes.c_void_p)]

    def __init__(self, address=0xB10C0000):
        self.address = address
        self.allocs, self.released = [], []
        self._alloc = self.ALLOC(self._do_alloc)
        self._release = self.RELEASE(self._do_release)
        self.table = self.Table(ctypes.cast(self._alloc, ctypes.c_void_p).value,
                                ctypes.cast(self._release, ctypes.c_void_p).value)
        self.capsule = capsule(ctypes.addressof(self.table), b"fastlaunch.npu_workspace")

    def _do_alloc(self, size, stream, owner):
        self.allocs.append((size, stream or 0))
        owner[0] = len(self.allocs)
        return self.address

    def _do_release(self, owner):
        self.released.append(owner)


def test_locks_are_made_in_the_task_with_one_copy(cann):
    allocator = Allocator()
    workspaces = []

    def workspace(size):
        workspaces.append(size)
        return 0xAAAA0000, object()

    backend = backend_for(cann, "rt", allocator=allocator.capsule, workspace=workspace)
    plan = make(backend, family="rt", lock_num=3, lock_init_value=7, workspace_size=64)
    backend.launch(plan, 0x99, (3, 2, 1), ARGS)
    assert allocator.allocs == [(24, 0x99)] and allocator.released == [1]
    (copy,) = cann["services"].copies()
    assert (copy.api, copy.handle, copy.value, copy.flags) == ("rtMemcpy", 0xB10C0000, 24, 1)
    assert copy.value2 >= 24 and copy.data == struct.pack("<3q", 7, 7, 7)  # destMax, bytes
    assert workspaces == [64 * 6]
    (call,) = cann["rt"].calls()
    assert struct.unpack_from("<QQ", call.args) == (0xB10C0000, 0xAAAA0000)
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (3, 2, 1), workspace=0xAAAA0000,
                                             sync_lock=0xB10C0000)


def test_failures_before_the_launch_call_on_the_workspace_path_are_refusals(cann):
    """Allocation or grid problems submit nothing: the call may take the original path."""
    from fastlaunch.errors import CallRefused

    def no_memory(size):
        msg = f"NPU out of memory allocating {size} bytes"
        raise RuntimeError(msg)

    backend = backend_for(cann, "rt", workspace=no_memory)
    plan = make(backend, family="rt", workspace_size=64)
    with pytest.raises(CallRefused, match="workspace_alloc_failed") as err:
        backend.launch(plan, 1, (3, 2, 1), ARGS)
    assert not err.value.submitted
    for grid, reason in (((3, 2), "grid_rank"), (("x", 1, 1), "grid_type"),
                         ((1 << 40, 1, 1), "grid_out_of_range")):
        with pytest.raises(CallRefused, match=reason):
            backend.launch(plan, 1, grid, ARGS)
    assert cann["rt"].calls() == []


def test_a_task_queue_that_cannot_be_built_refuses_the_plan(cann, monkeypatch):
    backend = NpuBackend(libraries=[str(cann["rt"].path), str(cann["services"].path)],
                         queue="auto", family="rt")

    def no_shim():
        msg = "Ninja is required to load C++ extensions"
        raise RuntimeError(msg)

    monkeypatch.setattr(backend, "_submitter", no_shim)
    with pytest.raises(PlanUnavailable, match=r"task_queue_unavailable.*Ninja"):
        make(backend, family="rt")


def test_locks_of_a_pure_simt_kernel_are_still_made(cann):
    """force_simt_only drops the slots, yet the original still allocates and copies."""
    allocator = Allocator()
    backend = backend_for(cann, "rt", allocator=allocator.capsule)
    plan = make(backend, family="rt", lock_num=2, pure_simt=True, simt=True)
    backend.launch(plan, 1, (1, 1, 1), ARGS)
    assert allocator.allocs == [(16, 1)] and len(cann["services"].copies()) == 1
    (call,) = cann["rt"].calls()
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (1, 1, 1), pure_simt=True)


def test_task_queue_off_launches_inline_then_synchronises(cann):
    backend = backend_for(cann, "rt")
    backend._submit = cann["rt"].submit_capsule()
    backend.queue = "auto"
    backend._allocator = None
    plan = make(backend, family="rt", taskqueue=False)
    assert not plan.queued and "inline+sync" in repr(plan)
    backend.launch(plan, 0x77, (1, 1, 1), ARGS)
    assert cann["rt"].pending() == 0 and len(cann["rt"].calls()) == 1
    assert [(e.api, e.stream) for e in cann["services"].syncs()] == [("rtStreamSynchronize",
                                                                       0x77)]
    queued = make(backend, family="rt")
    assert queued.queued
    backend.launch(queued, 0x77, (1, 1, 1), ARGS)
    assert cann["rt"].pending() == 1 and len(cann["services"].syncs()) == 1
    assert cann["rt"].pending_name(0) == b"triton_poi_fused_0"
    cann["rt"].run_pending()


# ---------------------------------------------------------------- profiling


def _command(kind, switch):
    return struct.pack("<QQI64III", switch, 0, 0, *([0] * 64), 0, kind) + b"\0" * 8


def test_msprof_switch_follows_start_and_stop():
    assert _core.npu_msprof_control(1, _command(1, 0x800)) == 0
    assert _core.npu_msprof_collecting()
    assert _core.npu_msprof_control(1, _command(2, 0)) == 0
    assert not _core.npu_msprof_collecting()
    _core.npu_msprof_control(1, _command(1, 0x2))  # L1 alone
    assert _core.npu_msprof_collecting()
    _core.npu_msprof_control(1, _command(1, 0x4))  # neither L0 nor L1
    assert not _core.npu_msprof_collecting()
    assert _core.npu_msprof_control(1, b"") == 1
    assert _core.npu_msprof_control(1, _command(6, 0x800)) == 1
    assert not _core.npu_msprof_collecting()


def test_runtime_registers_the_msprof_callback(libs):
    """In a fresh process: loading CANN registers for module 8, and msprof's
    start command (delivered through the registered callback) turns it on."""
    code = textwrap.dedent(f"""
        from fastlaunch import _core
        from fastlaunch.selfcheck.ascend_reference import Recorder
        _core.NpuRuntime([{str(libs['rt'].path)!r}, {str(libs['services'].path)!r}])
        assert _core.npu_msprof_registered()
        msprof = Recorder({str(libs['services'].path)!r})
        assert [e.value for e in msprof.events()] == [8]  # MsprofRegisterCallback(8, ...)
        assert msprof.lib.rec_prof_command(1, 0x800) == 0 and _core.npu_msprof_collecting()
        assert msprof.lib.rec_prof_command(2, 0) == 0 and not _core.npu_msprof_collecting()
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.stdout.strip() == "ok", out.stderr


def test_profiled_run_lists_every_kernel(cann):
    """While msprof collects, every call takes the full entry, so the original
    launcher (which reports to msprof) launches each kernel; afterwards the
    plan launches again."""
    backend = backend_for(cann, "rt", family="rt")
    previous = backends.set_backend("npu", backend)
    fastlaunch.reset_stats()
    try:
        with config.override(enabled=True, backend="npu"):
            kernel = fakes.spec("k", SIG, static_grid=(1, 1, 1))
            launcher = fakes.FakeLauncher(kernel)
            tuner = fakes.FakeAutotuner([launcher])
            slot = [None]
            routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 3}, tuner,
                         call_slot=slot, probes=[("msprof", _core.npu_msprof_collecting)],
                         maybe_full=_core.npu_msprof_collecting)
            for _ in range(3):
                slot[0](*ARGS, stream=5)
            assert len(cann["rt"].calls()) == 2 and len(launcher.calls) == 1
            _core.npu_msprof_control(1, _command(1, 0x800))
            for _ in range(4):
                slot[0](*ARGS, stream=5)
            assert len(launcher.calls) == 5 and len(cann["rt"].calls()) == 2
            _core.npu_msprof_control(1, _command(2, 0))
            slot[0](*ARGS, stream=5)
            assert len(cann["rt"].calls()) == 3 and len(launcher.calls) == 5
    finally:
        _core.npu_msprof_control(1, _command(2, 0))
        backends.set_backend("npu", previous)
    assert fastlaunch.stats()["fallback.msprof"] == 4


@pytest.mark.parametrize(("options", "reason"), [
    ({"device_print": True}, "device_print_unsupported"),
    ({"coalesce_factor": 2}, "coalesced_grid_unsupported"),
    ({"blocks_parallel": True}, "blocks_parallel_clamp_unsupported"),
    ({"local_memory": 2**32}, "local_memory_out_of_range"),
])
def test_behaviour_not_reproduced_refuses_the_plan(cann, options, reason):
    with pytest.raises(PlanUnavailable) as info:
        make(backend_for(cann, "rt"), family="rt", **options)
    assert info.value.reason == reason and cann["rt"].calls() == []


def test_blocks_parallel_is_read_when_the_launcher_is_generated():
    on = kernel_meta.describe({0: "*fp32"}, {}, {"name": "k aiv"}, handle=1, kernel_name="k",
                              family=kernel_meta.RT_3_2, ffts=False,
                              env={"TRITON_ALL_BLOCKS_PARALLEL": "1"})
    assert on.options["blocks_parallel"]


def test_direct_launch_while_msprof_collects_is_refused(cann):
    backend = backend_for(cann, "rt")
    plan = make(backend, family="rt")
    _core.npu_msprof_control(1, _command(1, 0x800))
    try:
        with pytest.raises(fastlaunch.CallRefused) as info:
            backend.launch(plan, 1, (1, 1, 1), ARGS)
    finally:
        _core.npu_msprof_control(1, _command(2, 0))
    assert info.value.reason == "msprof" and cann["rt"].calls() == []
