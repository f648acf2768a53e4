# SPDX-License-Identifier: Apache-2.0
"""The NPU backend's launch decisions (issue 8), on fake CANN libraries.

The byte-level comparison with triton-ascend's own generated launcher is
tests/unit/runtime/test_npu_differential.py; this file checks the decisions the
backend makes itself: which family, which API, which device's FFTS address,
locks in the task, the task queue switch, the stream, the profiling switch.
"""

from __future__ import annotations

import ctypes
import dataclasses
import struct
import subprocess
import sys
import textwrap

import pytest

import fastlaunch
from fastlaunch import PlanUnavailable, config
from fastlaunch.engine import routing
from fastlaunch.runtime import _core, backends
from fastlaunch.runtime.npu import NpuBackend, NpuOptions, family, kernel_meta
from fastlaunch.runtime.npu.backend import launch_family_report
from fastlaunch.testing import fakes, pack_bytes_reference
from fastlaunch.tools.selfcheck.ascend_reference import capsule
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN")

SIG = ["*fp32", "*fp32", "i32"]
ARGS = (0x1000, 0x2000, 100)
FFTS = 0xFF75000000

@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    """The launch runtime, and one with copies, synchronisation, pointer queries and msprof."""
    folder = tmp_path_factory.mktemp("cann")
    return {part: FakeCann(build(part, folder)) for part in ("rt", "services")}


@pytest.fixture
def cann(libs):
    for lib in libs.values():
        lib.reset()
    return libs


def backend_for(cann, *names, **kwargs):
    paths = [str(cann[n].path) for n in names] + [str(cann["services"].path)]
    kwargs.setdefault("queue", "inline")
    return NpuBackend(libraries=paths, **kwargs)


def make(backend, **options):
    options.setdefault("ffts", False)
    spec = fakes.spec("triton_poi_fused_0", SIG, grid=fakes.ceil_grid(2, 10), **options)
    return backend.make_plan(spec, input_count=len(SIG), fixed_args=())


# ---------------------------------------------------------------- the launch API


def test_plan_launches_the_stub_with_rt_kernel_launch(cann):
    backend = backend_for(cann, "rt")
    plan = make(backend, family="rt")
    assert plan.launcher.api == "rt" and "api=rt" in repr(plan.launcher)
    plan.submit(0x55, (10, 1, 1), ARGS)
    (call,) = cann["rt"].calls()
    assert (call.api, call.func, call.block_dim, call.stream) == ("rt", 0xBEEF, 10, 0x55)
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (10, 1, 1))
    assert "rt family" in plan.summary()


def test_launch_api_absent_from_cann_refuses_the_plan(cann):
    with pytest.raises(PlanUnavailable) as info:
        make(backend_for(cann), family="rt")
    assert info.value.reason == "launch_api_unavailable" and "rtKernelLaunch" in info.value.detail


def test_unknown_loader_refuses_the_plan(cann, monkeypatch):
    monkeypatch.setattr(family, "installed", lambda: family.Detection(
        None, "launch_family_unknown", "loader does not register rtFunctionRegister stubs"))
    with pytest.raises(PlanUnavailable) as info:
        make(backend_for(cann, "rt"))
    assert info.value.reason == "launch_family_unknown"
    lines = dict(launch_family_report([str(cann["rt"].path)]))
    assert lines["launch API"].startswith("none: plans refused (launch_family_unknown")


def test_backend_family_applies_to_specs_without_one(cann):
    plan = make(backend_for(cann, "rt", family="rt"))
    assert plan.launcher.api == "rt"


def test_only_the_rt_family_exists():
    """No triton-ascend branch launches anything but rtFunctionRegister stubs."""
    with pytest.raises(ValueError, match="expected None or 'rt'"):
        NpuBackend(libraries=[], family="acl")
    with pytest.raises(ValueError, match="expected 'rt'"):
        kernel_meta.LaunchFamily("acl")


def test_simt_launch_passes_local_memory(cann):
    backend = backend_for(cann, "rt")
    plan = make(backend, family="rt", simt=True, simt_launch=True, local_memory=216 * 1024)
    plan.submit(3, (2, 1, 1), ARGS)
    (call,) = cann["rt"].calls()
    assert (call.api, call.attr_id, call.attr_value) == ("rt-v2", 2, 221184)
    plain = make(backend, family="rt", simt=True, simt_launch=False, local_memory=0)
    cann["rt"].reset()
    plain.submit(3, (2, 1, 1), ARGS)
    (call,) = cann["rt"].calls()
    assert (call.api, call.attr_id) == ("rt", -1)


def test_libraries_given_as_one_path_are_one_library(cann):
    """A str is one library, not one per letter; anything else names the field."""
    path = str(cann["rt"].path)
    assert NpuBackend(libraries=path, queue="inline").libraries == (path,)
    assert NpuBackend(libraries=[path], queue="inline").libraries == (path,)
    for bad in (b"x.so", 5, ["x.so", 3]):
        with pytest.raises(TypeError, match=r"NpuBackend\.libraries: got .*expected a library "
                                            r"path \(str\) or a sequence of paths"):
            NpuBackend(libraries=bad, queue="inline")


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


def test_narrow_kinds_are_planned_where_the_generator_renders_them():
    newer = dataclasses_replace(kernel_meta.RT_3_2, scalar_kinds=frozenset(
        kernel_meta.PACKER_FORMATS))
    m = kernel_meta.describe({0: "*fp32", 1: "i8", 2: "u16", 3: "constexpr", 4: "u1"}, {},
                             {"name": "k aiv"}, handle=1, kernel_name="k", family=newer,
                             ffts=False)
    assert m.signature == ("*fp32", "i8", "u16", "u1") and m.indices == (0, 1, 2, 4)
    with pytest.raises(kernel_meta.KernelMetaError) as info:
        kernel_meta.describe({0: ("i32", "i32")}, {}, {"name": "k aiv"}, handle=1,
                             kernel_name="k", family=newer, ffts=False)
    assert info.value.reason == "signature_tuple_unsupported"


@pytest.mark.parametrize(("name", "option", "reason"), [
    ("TRITON_REGISTER_TENSOR_MSPROF", "register_tensor_msprof", "register_tensor_msprof"),
    ("TRITON_GRID_WARN_PRINT", "grid_warn_print", "grid_warn_print_unsupported"),
])
def test_launcher_switches_the_generator_reads_are_followed(cann, name, option, reason):
    """With the switch on, the original records shapes instead of launching, or
    warns about the grid: the plan is refused, so every call takes it."""
    on = kernel_meta.describe({0: "*fp32"}, {}, {"name": "k aiv"}, handle=1, kernel_name="k",
                              family=kernel_meta.RT_3_2, ffts=False, env={name: "1"})
    assert on.options[option]
    unread = dataclasses_replace(kernel_meta.RT_3_2, switches=frozenset())
    off = kernel_meta.describe({0: "*fp32"}, {}, {"name": "k aiv"}, handle=1, kernel_name="k",
                               family=unread, ffts=False, env={name: "1"})
    assert not off.options[option]
    with pytest.raises(PlanUnavailable) as info:
        make(backend_for(cann, "rt"), family="rt", **{option: True})
    assert info.value.reason == reason


# ---------------------------------------------------------------- family detection


def _reader(files):
    return lambda path: files.get(path)


GENERATOR_3_2 = '''
def generate_npu_wrapper_src(constants, signature, metadata):
    def _ty_to_cpp(ty):
        return {"i1": "int32_t", "i8": "int8_t", "i32": "int32_t", "fp32": "float"}[ty]
    def _extracted_ty(ty):
        return {'i1': 'int32_t', 'i32': 'int32_t', 'fp32': 'float'}[ty]
    def _format_of(ty):
        return {"float": "f", "int32_t": "i", "int8_t": "b"}[ty]
    enable = os.getenv("TRITON_DEVICE_PRINT", "false")
    if compile_on_910_95 and enable_simt:
        launch = """cfgInfo.localMemorySize = 216 * 1024;
    ret = rtKernelLaunchWithFlagV2(func, blockNum, &argsInfo, NULL, stream, 0, &cfgInfo);"""
    launch = "ret = rtKernelLaunch(func, blockNum, args, size, NULL, stream);"
'''
GENERATOR_MAIN = '''
def ty_to_cpp(ty):
    return {"i1": "int32_t", "i8": "int8_t", "i32": "int32_t", "i64": "int64_t",
            "fp32": "float"}[ty]
def make_launcher(constants, signature, metadata):
    def format_of(ty):
        return {"float": "f", "int8_t": "b", "int32_t": "i", "int64_t": "q"}[ty_to_cpp(ty)]
    check = "aclError status = aclrtPointerGetAttributes(ptr_info.dev_ptr, &attributes);"
    if compile_on_910_95 and enable_simt:
        launch = f"""cfgInfo.localMemorySize = {metadata.shared_mem_dynamic_size};
    ret = rtKernelLaunchWithFlagV2(func, blockNum, &argsInfo, NULL, stream, 0, &cfgInfo);"""
    launch = "ret = rtKernelLaunch(func, blockNum, args, size, NULL, stream);"
'''
LOADER = "rtDevBinaryRegister(&devbin, &handle); rtFunctionRegister(handle, stub, name, name, 0);"


def test_detection_reads_what_the_generator_renders():
    found = family.detect(_reader({family.DRIVER: GENERATOR_3_2, family.LOADER: LOADER,
                                   family.UTILS: 'os.getenv("TRITON_ALL_BLOCKS_PARALLEL")'}))
    fam = found.family
    assert fam is not None, found
    assert (fam.generator, fam.simt_needs_910_95, fam.simt_local_memory) == (
        "generate_npu_wrapper_src", True, 221184)
    assert fam.scalar_kinds == {"i1", "i32", "fp32"}  # i8 lacks a parse type, as in 3.2.0
    assert not fam.checks_pointers
    assert fam.switches == {"TRITON_DEVICE_PRINT", "TRITON_ALL_BLOCKS_PARALLEL"}
    main = family.detect(_reader({family.DRIVER: GENERATOR_MAIN, family.LOADER: LOADER})).family
    assert (main.generator, main.simt_local_memory) == ("make_launcher", "shared_mem_dynamic_size")
    # i64's parse unit differs from the packer's: not planned
    assert main.scalar_kinds == {"i1", "i8", "i32", "fp32"} and main.checks_pointers


def test_doctor_shows_what_was_read_from_the_generator(cann, monkeypatch):
    found = family.detect(_reader({family.DRIVER: GENERATOR_MAIN, family.LOADER: LOADER}))
    monkeypatch.setattr(family, "installed", lambda: found)
    lines = dict(launch_family_report([str(cann["rt"].path)]))
    assert lines["launch API"].startswith("rtKernelLaunch (SIMT: rtKernelLaunchWithFlagV2, "
                                          "local memory metadata.shared_mem_dynamic_size)")
    assert lines["generator"] == ("scalar kinds fp32 i1 i32 i8; tensor address checks on; "
                                  "switches read: none")
    assert lines["launch API in CANN"] == "present"


def test_detection_refuses_what_it_cannot_read():
    acl = {family.DRIVER: "ret = aclrtLaunchKernelWithHostArgs(func, blockNum, stream",
           family.LOADER: "aclrtBinaryLoadFromData(...); aclrtBinaryGetFunction(h, name, &f)"}
    found = family.detect(_reader(acl))
    assert found.family is None and found.reason == "launch_family_unknown"
    assert "does not register rtFunctionRegister" in found.detail
    assert family.detect(_reader({})).reason == "launch_family_unknown"
    bare = {family.DRIVER: "x = 'ret = rtKernelLaunch(func, n)'", family.LOADER: LOADER}
    assert family.detect(_reader(bare)).reason == "launcher_generator_unreadable"


# ---------------------------------------------------------------- FFTS, stream, locks


def test_ffts_address_is_queried_once_per_device(cann):
    backend = backend_for(cann, "rt")
    before = cann["rt"].ffts_queries()
    plan = make(backend, family="rt", ffts=True)
    make(backend, family="rt", ffts=True)
    assert cann["rt"].ffts_queries() == before + 1
    spec = fakes.spec("k", SIG, static_grid=(1, 1, 1), family="rt", ffts=True)
    other = backend.make_plan(dataclasses_replace(spec, device=1), input_count=3, fixed_args=())
    assert cann["rt"].ffts_queries() == before + 2
    plan.submit(1, (1, 1, 1), ARGS)
    other.submit(1, (1, 1, 1), ARGS)
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
    plan.submit(stream, (1, 1, 1), ARGS)
    (call,) = cann["rt"].calls()
    assert call.stream == raw


def test_null_plan_or_runtime_is_a_clear_error(cann):
    runtime = _core.NpuRuntime([str(cann["rt"].path)])
    plan = _core.Plan("npu", SIG)
    with pytest.raises(_core.InputError, match="plan: got None"):
        _core.NpuLauncher(None, runtime, "k", 1)
    with pytest.raises(_core.InputError, match="runtime: got None"):
        _core.NpuLauncher(plan, None, "k", 1)
    with pytest.raises(_core.InputError, match="submit: got int"):
        _core.NpuLauncher(plan, runtime, "k", 1, submit=5)
    with pytest.raises(_core.InputError, match="allocator: got None"):
        _core.NpuLauncher(plan, runtime, "k", 1, lock_num=2)


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
    plan.submit(0x99, (3, 2, 1), ARGS)
    assert allocator.allocs == [(24, 0x99)] and allocator.released == [1]
    (copy,) = cann["services"].copies()
    assert (copy.api, copy.handle, copy.value, copy.flags) == ("rtMemcpy", 0xB10C0000, 24, 1)
    assert copy.value2 >= 24 and copy.data == struct.pack("<3q", 7, 7, 7)  # destMax, bytes
    assert workspaces == [64 * 6]
    (call,) = cann["rt"].calls()
    assert struct.unpack_from("<QQ", call.args) == (0xB10C0000, 0xAAAA0000)
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (3, 2, 1), workspace=0xAAAA0000,
                                             sync_lock=0xB10C0000)


@pytest.mark.parametrize(("fault", "reason", "message", "copies"), [
    ("alloc", "lock_alloc_failed", r"sync-block lock allocation \(3 locks\) for "
                                   r"triton_poi_fused_0 failed; nothing was launched", 0),
    ("copy", "lock_copy_failed", r"rtMemcpy of the sync-block locks' initial values for "
                                 r"triton_poi_fused_0 failed with code 507033; nothing was "
                                 r"launched", 1),
])
def test_lock_failures_name_the_step_and_launch_nothing(cann, fault, reason, message, copies):
    """A failed lock allocation or copy is not a failed launch: the launch call
    never happened, so the call is refused (the original path takes it)."""
    from fastlaunch.errors import CallRefused

    allocator = Allocator(address=0 if fault == "alloc" else 0xB10C0000)
    backend = backend_for(cann, "rt", allocator=allocator.capsule)
    plan = make(backend, family="rt", lock_num=3, lock_init_value=7)
    if fault == "copy":
        cann["services"].set_copy_error(507033)
    with pytest.raises(CallRefused, match=message) as err:
        plan.submit(0x99, (3, 2, 1), ARGS)
    assert err.value.reason == reason and not err.value.submitted
    assert cann["rt"].calls() == [] and len(cann["services"].copies()) == copies
    assert allocator.released == ([1] if fault == "copy" else [])


def test_tensor_addresses_are_checked_before_submission(cann):
    """As main's getPointer: each tensor's address (not ints, None or address 0)
    is queried; host memory and a failed query refuse the call, launching nothing."""
    from fastlaunch.errors import CallRefused
    from fastlaunch.tools.selfcheck.ascend_reference import FakeTensor

    services = cann["services"]
    backend = backend_for(cann, "rt")
    plan = make(backend, family="rt", check_pointers=True)
    assert "pointer-checks" in repr(plan.launcher)
    plan.submit(0x99, (1, 1, 1), (FakeTensor(0x7000), 0x2000, 5))
    plan.submit(0x99, (1, 1, 1), (FakeTensor(0), None, 5))
    checks = services.events_of(("aclrtPointerGetAttributes",))
    assert [e.handle for e in checks] == [0x7000] and len(cann["rt"].calls()) == 2
    for fault, reason in (("host", "host_pointer"), ("query", "pointer_query_failed")):
        cann["rt"].reset()
        services.reset()
        if fault == "host":
            services.host_below(0x8000)
        else:
            services.set_pointer_error(107000)
        with pytest.raises(CallRefused) as err:
            plan.submit(0x99, (1, 1, 1), (FakeTensor(0x7000), 0x2000, 5))
        assert err.value.reason == reason and "arg 0 'arg0' (*fp32)" in str(err.value)
        assert cann["rt"].calls() == [] and len(services.events_of(
            ("aclrtPointerGetAttributes",))) == 1
    unchecked = make(backend, family="rt")
    services.reset()
    unchecked.submit(0x99, (1, 1, 1), (FakeTensor(0x7000), 0x2000, 5))
    assert services.events_of(("aclrtPointerGetAttributes",)) == []
    without = NpuBackend(libraries=[str(cann["rt"].path)], queue="inline")
    with pytest.raises(PlanUnavailable, match="aclrtPointerGetAttributes"):
        make(without, family="rt", check_pointers=True)


def test_host_tensor_takes_the_original_path_counted_by_reason(cann):
    """Through the engine: a tensor in host memory on a generator that checks
    addresses is one refused call (the original launcher runs it), never a launch."""
    from fastlaunch.tools.selfcheck.ascend_reference import FakeTensor

    backend = backend_for(cann, "rt", family="rt")
    previous = backends.set_backend("npu", backend)
    fastlaunch.reset_stats()
    try:
        with config.override(enabled=True, backend="npu"):
            launcher = fakes.FakeLauncher(fakes.spec("k", SIG, grid=fakes.ceil_grid(2, 10),
                                                     check_pointers=True))
            tuner = fakes.FakeAutotuner([launcher])
            bound = routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 3}, tuner)
            device = (FakeTensor(0x9000), 0x2000, 100)
            for _ in range(3):
                bound(*device, stream=0x42)
            cann["services"].host_below(0x8000)
            bound(FakeTensor(0x1000), 0x2000, 100, stream=0x42)
    finally:
        backends.set_backend("npu", previous)
    assert len(cann["rt"].calls()) == 2 and len(launcher.calls) == 2  # warm-up, host call
    stats = fastlaunch.stats()
    assert stats["fast"] == 2 and stats["fallback.host_pointer"] == 1, stats


def test_bools_for_pointers_are_addresses_as_getpointer_reads_them(cann):
    """triton-ascend's getPointer takes any int, bools included (PyLong_Check)."""
    backend = backend_for(cann, "rt")
    plan = make(backend, family="rt")
    plan.submit(1, (1, 1, 1), (True, False, 3))
    (call,) = cann["rt"].calls()
    assert struct.unpack_from("<QQi", call.args, 16) == (1, 0, 3)  # after lock, workspace
    assert call.args == pack_bytes_reference("npu", SIG, (True, False, 3), (1, 1, 1))
    with pytest.raises(_core.InputError, match="expected a tensor, an int address or None"):
        _core.Plan("cuda", ["*fp32"]).pack((True,), (1, 1, 1))  # cuda keeps refusing them


def test_failures_before_the_launch_call_on_the_workspace_path_are_refusals(cann):
    """Allocation or grid problems submit nothing: the call may take the original path."""
    from fastlaunch.errors import CallRefused

    def no_memory(size):
        msg = f"NPU out of memory allocating {size} bytes"
        raise RuntimeError(msg)

    backend = backend_for(cann, "rt", workspace=no_memory)
    plan = make(backend, family="rt", workspace_size=64)
    with pytest.raises(CallRefused, match="workspace_alloc_failed") as err:
        plan.submit(1, (3, 2, 1), ARGS)
    assert not err.value.submitted
    for grid, reason in (((3, 2), "grid_rank"), (("x", 1, 1), "grid_type"),
                         ((1 << 40, 1, 1), "grid_out_of_range")):
        with pytest.raises(CallRefused, match=reason):
            plan.submit(1, grid, ARGS)
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
    plan.submit(1, (1, 1, 1), ARGS)
    assert allocator.allocs == [(16, 1)] and len(cann["services"].copies()) == 1
    (call,) = cann["rt"].calls()
    assert call.args == pack_bytes_reference("npu", SIG, ARGS, (1, 1, 1), pure_simt=True)


def test_task_queue_off_launches_inline_then_synchronises(cann):
    backend = backend_for(cann, "rt", queue="auto", submit=cann["rt"].submit_capsule())
    plan = make(backend, family="rt", taskqueue=False)
    assert not plan.launcher.queued and "inline+sync" in repr(plan.launcher)
    plan.submit(0x77, (1, 1, 1), ARGS)
    assert cann["rt"].pending() == 0 and len(cann["rt"].calls()) == 1
    assert [(e.api, e.stream) for e in cann["services"].syncs()] == [("rtStreamSynchronize",
                                                                       0x77)]
    queued = make(backend, family="rt")
    assert queued.launcher.queued
    queued.submit(0x77, (1, 1, 1), ARGS)
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
        from fastlaunch.runtime import _core
        from fastlaunch.tools.selfcheck.ascend_reference import CannRecorder
        _core.NpuRuntime([{str(libs['rt'].path)!r}, {str(libs['services'].path)!r}])
        assert _core.npu_msprof_registered()
        msprof = CannRecorder({str(libs['services'].path)!r})
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
            plan.submit(1, (1, 1, 1), ARGS)
    finally:
        _core.npu_msprof_control(1, _command(2, 0))
    assert info.value.reason == "msprof" and cann["rt"].calls() == []


# ---------------------------------------------------------------- typed options

def test_options_from_kernel_meta_are_typed_and_read_as_a_mapping():
    m = meta({0: "*fp32"}, workspace_size=64, lock_num=2)
    assert isinstance(m.options, NpuOptions)
    assert (m.options.workspace_size, m.options["lock_num"]) == (64, 2)
    assert dict(m.options) == {f: getattr(m.options, f) for f in m.options}
    assert NpuOptions.of(m.options) is m.options
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.options.lock_num = 3


@pytest.mark.parametrize(("options", "message"), [
    ({"lock_nmu": 2}, "options: got unknown key 'lock_nmu', expected one of "),
    ({"lock_num": "2"}, "options.lock_num: got '2' (str), expected an int"),
    ({"lock_num": None}, "options.lock_num: got None (NoneType), expected an int"),
    ({"ffts": 1}, "options.ffts: got 1 (int), expected True or False"),
    ({"workspace_size": True}, "options.workspace_size: got True (bool), expected an int"),
    ({"family": 3}, "options.family: got 3 (int), expected None or a str"),
])
def test_a_stale_or_bad_option_refuses_the_plan_naming_it(cann, options, message):
    backend = backend_for(cann, "rt", family="rt")
    with pytest.raises(PlanUnavailable) as info:
        make(backend, **options)
    assert info.value.reason == "bad_npu_options" and message in str(info.value)


def test_submit_capsule_is_a_constructor_argument(cann):
    capsule = cann["rt"].submit_capsule()
    with pytest.raises(ValueError, match="submit: got a task-queue capsule with queue='inline'"):
        backend_for(cann, "rt", submit=capsule)
    queued = make(backend_for(cann, "rt", queue="auto", submit=capsule), family="rt")
    assert queued.launcher.queued
    queued.submit(0x77, (1, 1, 1), ARGS)
    assert cann["rt"].pending() == 1
    cann["rt"].run_pending()
    assert len(cann["rt"].calls()) == 1


def test_native_launchers_take_no_python_attributes(cann):
    plan = make(backend_for(cann, "rt", family="rt"), family="rt")
    assert isinstance(plan.native, _core.Launcher) and plan.native.plan is not None
    with pytest.raises(AttributeError):
        plan.native.spec = plan.spec
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.workspace_size = 64
