# SPDX-License-Identifier: Apache-2.0
"""The NPU integration on objects shaped like torch_npu's, without torch_npu.

torch_npu's modules that describe_launcher imports are stood in for by small
modules in sys.modules; the launcher is generated the way
TritonCompileResultNpu.make_launcher generates it, and its kernel is then
launched through the routing engine into the fake CANN runtime.
"""

from __future__ import annotations

import sys
import types

import pytest

import fastlaunch
from fastlaunch import config
from fastlaunch.engine import routing
from fastlaunch.integrations import launchers
from fastlaunch.integrations.torch_npu import integration
from fastlaunch.runtime import backends
from fastlaunch.runtime.npu import NpuBackend, family, kernel_meta
from fastlaunch.testing import fakes, pack_bytes_reference
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN")

# As triton-ascend 3.2.0's JIT hands it to the compiler: constexprs only in
# the constants (with the size args torch_npu specialised to 1).
SIGNATURE = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "i32"}
ARG_NAMES = [*SIGNATURE, "XBLOCK_SUB"]


class Grid:
    def __init__(self, x):
        self.prefix, self.x_grid, self.y_grid, self.z_grid = [], x, 1, 1


@pytest.fixture
def torch_npu_modules(monkeypatch):
    monkeypatch.setattr(family, "installed", lambda: family.Detection(kernel_meta.RT_3_2))
    ascend_utils = types.ModuleType("triton.backends.ascend.utils")
    ascend_utils.get_ascend_arch_from_env = lambda: ""
    ascend_utils.is_ffts_supported = lambda arch: arch not in ("Ascend910A", "Ascend310B4")
    ascend_utils.force_disable_ffts = lambda: False
    ascend = types.ModuleType("triton.backends.ascend")
    ascend.utils = ascend_utils
    triton_backends = types.ModuleType("triton.backends")
    triton_backends.ascend = ascend
    triton = types.ModuleType("triton")
    triton.backends = triton_backends
    for name, module in {"triton": triton, "triton.backends": triton_backends,
                         "triton.backends.ascend": ascend,
                         "triton.backends.ascend.utils": ascend_utils}.items():
        monkeypatch.setitem(sys.modules, name, module)
    heuristics = types.ModuleType("torch_npu._inductor.runtime.triton_heuristics")
    heuristics.GridExpr = types.SimpleNamespace(
        from_meta=lambda meta, cfg: Grid(f"-(xnumel // -{cfg.kwargs['XBLOCK']})"))
    heuristics.GridExprNpu = types.SimpleNamespace(
        from_meta_and_set_numel=lambda meta, cfg, numels: Grid("-(xnumel // -XBLOCK)"))
    utils = types.ModuleType("torch_npu._inductor.utils")
    runtime = types.ModuleType("torch_npu._inductor.runtime")
    runtime.triton_heuristics = heuristics
    inductor = types.ModuleType("torch_npu._inductor")
    inductor.runtime, inductor.utils = runtime, utils
    package = types.ModuleType("torch_npu")
    package._inductor = inductor
    for name, module in {"torch_npu": package, "torch_npu._inductor": inductor,
                         "torch_npu._inductor.runtime": runtime,
                         "torch_npu._inductor.runtime.triton_heuristics": heuristics,
                         "torch_npu._inductor.utils": utils}.items():
        monkeypatch.setitem(sys.modules, name, module)


def make_launcher(runner_calls, *, parallel_mode="simd", hook_calls=None, constants=None,
                  **metadata):
    """What TritonCompileResultNpu.make_launcher builds (runtime block XBLOCK)."""
    binary = types.SimpleNamespace(
        src=types.SimpleNamespace(fn=types.SimpleNamespace(arg_names=ARG_NAMES,
                                                           __name__="triton_poi_fused_0"),
                                  signature=dict(SIGNATURE),
                                  constants={"XBLOCK_SUB": 16, **(constants or {})}),
        metadata={"name": "triton_poi_fused_0 aiv", "parallel_mode": parallel_mode,
                  "force_simt_only": False, "compile_on_910_95": False,
                  "shared_mem_dynamic_size": 221184, **metadata})
    hook = types.SimpleNamespace(calls=hook_calls if hook_calls is not None else [])
    scope = {"bin": binary, "function": 0xF00D, "launch_enter_hook": hook,
             "launch_exit_hook": None, "metadata": {"kernel_name": "triton_poi_fused_0"},
             "runner": lambda *a: runner_calls.append(a)}
    exec("def launcher(in_ptr0, out_ptr0, xnumel, XBLOCK, stream):\n"
         "    grid_0 = -(xnumel // -XBLOCK)\n"
         "    runner(grid_0, 1, 1, stream, function, in_ptr0, out_ptr0, xnumel, XBLOCK)\n", scope)
    launcher = scope["launcher"]
    launcher.store_cubin = False
    compile_result = types.SimpleNamespace(
        inductor_meta={"kernel_name": "triton_poi_fused_0", "runtime_block_arg_names": ["XBLOCK"]},
        compile_meta={"signature": SIGNATURE, "constants": {}, "device": 0},
        config=types.SimpleNamespace(kwargs={"XBLOCK": 256}))
    return compile_result, launcher


def test_describe_launcher(torch_npu_modules):
    compile_result, launcher = make_launcher([], parallel_mode="mix_simd_simt", lock_num=2,
                                             workspace_size=64)
    spec = integration.describe_launcher(compile_result, launcher)
    assert spec.signature == ("*fp32", "*fp32", "i32", "i32")
    assert spec.names == ("in_ptr0", "out_ptr0", "xnumel", "XBLOCK")
    assert spec.positions == (0, 1, 2, 3) and spec.handle == 0xF00D
    assert spec.grid(1, 2, 1000, 256) == (4, 1, 1)
    opts = spec.options
    assert opts["family"] == "rt" and opts["ffts"] and opts["simt"] and not opts["pure_simt"]
    assert not opts["simt_launch"]  # SIMT launch only when compiled for 910_95
    assert (opts["lock_num"], opts["workspace_size"]) == (2, 64)
    assert len(spec.hooks) == 1 and spec.hooks[0] == []
    assert spec.name == "triton_poi_fused_0"  # the launcher's packed metadata


def test_size_arg_equal_to_one_is_not_packed(torch_npu_modules):
    compile_result, launcher = make_launcher([], constants={"xnumel": 1})
    spec = integration.describe_launcher(compile_result, launcher)
    assert spec.signature == ("*fp32", "*fp32", "i32") and spec.positions == (0, 1, 3)
    assert spec.names == ("in_ptr0", "out_ptr0", "XBLOCK")


def test_simt_on_910_95_uses_the_simt_launch(torch_npu_modules):
    compile_result, launcher = make_launcher([], force_simt_only=True, compile_on_910_95=True)
    opts = integration.describe_launcher(compile_result, launcher).options
    assert opts["simt_launch"] and opts["pure_simt"] and opts["local_memory"] == 216 * 1024


def test_undecidable_launch_family_is_a_refusal(torch_npu_modules, monkeypatch):
    monkeypatch.setattr(family, "installed", lambda: family.Detection(
        None, "launch_family_ambiguous", "chosen at build time by TRITON_CANN_910"))
    compile_result, launcher = make_launcher([])
    wrapped = launchers.wrap_make_launcher(lambda self: launcher, integration.describe_launcher)
    assert getattr(wrapped(compile_result), routing.REFUSAL_ATTR) == "launch_family_ambiguous"


def test_triton_ascend_3_2_0_is_the_rt_family():
    """Detection on the released wheel's own loader and generator sources."""
    from helpers.wheels import triton_ascend_backend

    def reader(folder):
        return lambda path: ((folder / path.removeprefix("backends/ascend/")).read_text()
                             if (folder / path.removeprefix("backends/ascend/")).is_file()
                             else None)

    released = triton_ascend_backend()
    found = family.detect(reader(released))
    assert found.family is not None, found
    assert (found.family.name, found.family.simt_needs_910_95,
            found.family.simt_local_memory) == ("rt", True, 216 * 1024)


def test_bind_options_probe_msprof(monkeypatch):
    from fastlaunch.runtime import _core

    npu_config = types.SimpleNamespace(dump_fx_graph=False, check_accuracy=False)
    inductor = types.ModuleType("torch_npu._inductor")
    inductor.config = npu_config
    monkeypatch.setitem(sys.modules, "torch_npu", types.ModuleType("torch_npu"))
    monkeypatch.setitem(sys.modules, "torch_npu._inductor", inductor)
    monkeypatch.setitem(sys.modules, "torch_npu._inductor.config", npu_config)

    class NPUCachingAutotuner:
        def run(self, *args, stream, **kwargs):
            return None

    heuristics = types.ModuleType("torch_npu._inductor.runtime.triton_heuristics")
    heuristics.NPUCachingAutotuner = NPUCachingAutotuner
    runtime = types.ModuleType("torch_npu._inductor.runtime")
    runtime.triton_heuristics = heuristics
    inductor.runtime = runtime
    monkeypatch.setitem(sys.modules, "torch_npu._inductor.runtime", runtime)
    monkeypatch.setitem(sys.modules, "torch_npu._inductor.runtime.triton_heuristics", heuristics)
    options = integration._bind_options(None)
    assert options["probes"] == [("msprof", _core.npu_msprof_collecting)]
    assert options["maybe_full"] is _core.npu_msprof_collecting
    assert options["stock_runs"] == (NPUCachingAutotuner.run,)


def test_grouped_launchers_get_no_spec(torch_npu_modules):
    compile_result, launcher = make_launcher([])
    compile_result.inductor_meta["group_enabled"] = True
    assert integration.describe_launcher(compile_result, launcher) is None


def test_compile_only_runner_is_a_refusal(torch_npu_modules):
    """TRITON_COMPILE_ONLY: triton-ascend's launcher returns without launching, so
    a plan (which would launch) is refused."""
    compile_result, launcher = make_launcher([])
    launcher.__globals__["bin"].run = types.SimpleNamespace(compile_only=True)
    wrapped = launchers.wrap_make_launcher(lambda self: launcher, integration.describe_launcher)
    assert getattr(wrapped(compile_result), routing.REFUSAL_ATTR) == "compile_only"


def test_msprof_registering_runner_is_a_refusal(torch_npu_modules):
    """TRITON_REGISTER_TENSOR_MSPROF: the launcher records tensor shapes and launches
    nothing (its own flag, read from the runner)."""
    compile_result, launcher = make_launcher([])
    launcher.__globals__["bin"].run = types.SimpleNamespace(enable_msprof_register_tensor=True)
    wrapped = launchers.wrap_make_launcher(lambda self: launcher, integration.describe_launcher)
    assert getattr(wrapped(compile_result), routing.REFUSAL_ATTR) == "register_tensor_msprof"


def test_unsupported_signature_is_a_refusal(torch_npu_modules):
    compile_result, launcher = make_launcher([])
    scope = launcher.__globals__
    scope["bin"].src.signature["xnumel"] = "fp8e5"
    wrapped = launchers.wrap_make_launcher(lambda self: launcher, integration.describe_launcher)
    assert getattr(wrapped(compile_result), routing.REFUSAL_ATTR) == "signature_type_unrenderable"


@pytest.fixture(scope="module")
def fake_cann(tmp_path_factory):
    return FakeCann(build("rt", tmp_path_factory.mktemp("rt")))


def test_generated_launcher_planned_through_fake_cann(torch_npu_modules, fake_cann):
    cann = fake_cann
    cann.reset()
    runner_calls, hook_calls = [], []
    compile_result, launcher = make_launcher(runner_calls, hook_calls=hook_calls)
    wrapped = launchers.wrap_make_launcher(lambda self: launcher,
                                                      integration.describe_launcher)
    assert wrapped(compile_result) is launcher
    tuner = fakes.FakeAutotuner([launcher], runtime_blocks=(256,))
    backend = NpuBackend(libraries=[str(cann.path)], queue="inline")
    previous = backends.set_backend("npu", backend)
    fastlaunch.reset_stats()
    try:
        with config.override(enabled=True, backend="npu"):
            bound = routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 3}, tuner)
            args = (0x1000, 0x2000, 1000)
            for _ in range(3):
                bound(*args, stream=0x99)
            hook_calls.append(print)  # a launch hook: this call takes the original launcher
            bound(*args, stream=0x99)
    finally:
        backends.set_backend("npu", previous)
    assert len(runner_calls) == 2 and len(cann.calls()) == 2
    assert runner_calls[0][:4] == (4, 1, 1, 0x99)
    call = cann.calls()[0]
    assert call.api == "rt"
    assert (call.func, call.block_dim, call.stream) == (0xF00D, 4, 0x99)
    assert call.args == pack_bytes_reference("npu", ["*fp32", "*fp32", "i32", "i32"],
                                             (*args, 256), (4, 1, 1), ffts=True,
                                             ffts_addr=0xFF75000000)
    assert fastlaunch.stats()["fallback.launch_hooks"] == 1


class FakeNpuWrapper:
    """The slice of NPUPythonWrapperCodeGen that the call wrappers touch."""

    def __init__(self):
        self.lines, self.imports = [], types.SimpleNamespace(lines=[])
        self.imports.writeline = self.imports.lines.append

    def writeline(self, line):
        self.lines.append(line)

    def generate_kernel_call(self, kernel_name, call_args, origin_node=None, *, triton=True):
        self.writeline(f"  {kernel_name}.run({', '.join(call_args)}, stream=stream3)")


@pytest.mark.parametrize("eligible", [True, False])
def test_call_site_rewritten_only_when_eligible(monkeypatch, eligible):
    monkeypatch.setattr(integration, "_eligible", lambda wrapper, kwargs: eligible)
    monkeypatch.setitem(sys.modules, "torch._inductor.virtualized",
                        types.SimpleNamespace(V=types.SimpleNamespace(graph=types.SimpleNamespace(
                            graph_id=7))))
    wrapper = FakeNpuWrapper()
    call = integration._wrap_call(FakeNpuWrapper.generate_kernel_call, positional_ok=True)
    call(wrapper, "triton_poi_fused_0", ["buf0", "buf1", "1000"], triton=True)
    if eligible:
        assert wrapper.lines[-1] == "  _fastlaunch_fn(buf0, buf1, 1000, stream=stream3)"
        assert "'callsite_id': '7:0'" in wrapper.imports.lines[1]
        assert "'abi': 'npu'" in wrapper.imports.lines[1]
    else:
        assert wrapper.lines == ["  triton_poi_fused_0.run(buf0, buf1, 1000, stream=stream3)"]
        assert wrapper.imports.lines == []


class _GeneratedLauncher:
    """An original launcher that runs triton-ascend 3.2.0's generated C
    launcher (built against the recording runtime), as make_launcher's does."""

    def __init__(self, launch, packed, handle, spec):
        self.launch, self.packed, self.handle = launch, packed, handle
        self.store_cubin = False
        setattr(self, routing.SPEC_ATTR, spec)

    def __call__(self, *args, stream):
        self.launch(1, 1, 1, stream, self.handle, self.packed, None, None, None, *args)


def test_profiled_run_lists_every_kernel_through_the_generated_launcher(tmp_path):
    """msprof on: every call takes the full entry, and triton-ascend's own
    generated launcher reports each launch (API record per launch); msprof
    off: the plan launches again, unreported, as the original would not
    report either."""
    import dataclasses

    from fastlaunch.runtime import _core
    from fastlaunch.tools.selfcheck import ascend_reference as ar
    from helpers.wheels import triton_ascend_backend

    try:
        recorder = ar.CannRecorder(ar.build_recorder())
        gen = ar.Generator(triton_ascend_backend())
        case = ar.Case(("*fp32", "*fp32", "i32"), name="triton_poi_fused_add_0")
        (launch,) = ar.build_launchers(gen, [gen.render(case)], recorder.path, tmp_path)
    except ar.Unavailable as err:
        pytest.skip(str(err))
    args = (ar.FakeTensor(0x1000, (4, 8)), ar.FakeTensor(0x2000, (32,)), 7)
    differential = ar.Differential(recorder, {"rt": gen})
    spec = dataclasses.replace(differential.spec("rt", ar.LauncherCall(case, args, (1, 1, 1))),
                               static_grid=(1, 1, 1))
    original = _GeneratedLauncher(launch, gen.packed_metadata(case), spec.handle, spec)
    tuner = fakes.FakeAutotuner([original])
    backend = NpuBackend(libraries=[str(recorder.path)], queue="inline", family="rt")
    previous = backends.set_backend("npu", backend)
    fastlaunch.reset_stats()
    recorder.reset()
    try:
        with config.override(enabled=True, backend="npu"):
            slot = [None]
            routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 3}, tuner,
                         call_slot=slot, probes=[("msprof", _core.npu_msprof_collecting)],
                         maybe_full=_core.npu_msprof_collecting)
            slot[0](*args, stream=5)  # warm-up (original), then planned
            slot[0](*args, stream=5)
            assert fastlaunch.stats()["fast"] == 1
            recorder.reset()
            recorder.profiling(True)  # msprof's start command, L0 + L1
            for _ in range(4):
                slot[0](*args, stream=5)
            profiled = recorder.events()
            recorder.profiling(False)
            recorder.reset()
            slot[0](*args, stream=5)
            after = recorder.events()
    finally:
        recorder.profiling(False)
        backends.set_backend("npu", previous)
    launches = [e for e in profiled if e.api == "rtKernelLaunch"]
    reports = [e for e in profiled if e.api == "MsprofReportApi"]
    assert len(launches) == 4 and len(reports) == 4
    assert [e.name for e in profiled if e.api == "MsprofGetHashId"] == \
        ["triton_poi_fused_add_0"] * 4
    assert fastlaunch.stats()["fallback.msprof"] == 4 and fastlaunch.stats()["fast"] == 2
    assert [e.api for e in after if e.api.startswith(("rt", "Msprof"))] == ["rtKernelLaunch"]
