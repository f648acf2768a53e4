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
from fastlaunch import backends, config, fakes, launchers, routing
from fastlaunch.backends.npu import NpuBackend, integration
from fastlaunch.testing import pack_bytes_reference
from helpers.fake_cann import FakeCann, build
from helpers.oracle import cc

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler to build the fake CANN")

SIGNATURE = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "i32",
             "XBLOCK_SUB": "constexpr"}
ARG_NAMES = list(SIGNATURE)


class Grid:
    def __init__(self, x):
        self.prefix, self.x_grid, self.y_grid, self.z_grid = [], x, 1, 1


@pytest.fixture
def torch_npu_modules(monkeypatch):
    heuristics = types.ModuleType("torch_npu._inductor.runtime.triton_heuristics")
    heuristics.GridExpr = types.SimpleNamespace(
        from_meta=lambda meta, cfg: Grid(f"-(xnumel // -{cfg.kwargs['XBLOCK']})"))
    heuristics.GridExprNpu = types.SimpleNamespace(
        from_meta_and_set_numel=lambda meta, cfg, numels: Grid("-(xnumel // -XBLOCK)"))
    utils = types.ModuleType("torch_npu._inductor.utils")
    utils.triton_support_ffts = lambda: True
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


def make_launcher(runner_calls, *, parallel_mode="simd", hook_calls=None, **metadata):
    """What TritonCompileResultNpu.make_launcher builds (runtime block XBLOCK)."""
    binary = types.SimpleNamespace(
        src=types.SimpleNamespace(fn=types.SimpleNamespace(arg_names=ARG_NAMES,
                                                           __name__="triton_poi_fused_0")),
        metadata={"parallel_mode": parallel_mode, "shared_mem_dynamic_size": 0, **metadata})
    hook = types.SimpleNamespace(calls=hook_calls if hook_calls is not None else [])
    scope = {"bin": binary, "function": 0xF00D, "launch_enter_hook": hook,
             "launch_exit_hook": None,
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
    compile_result, launcher = make_launcher([], parallel_mode="mix_simt", lock_num=2,
                                             workspace_size=64)
    spec = integration.describe_launcher(compile_result, launcher)
    assert spec.signature == ("*fp32", "*fp32", "i32", "i32")
    assert spec.names == ("in_ptr0", "out_ptr0", "xnumel", "XBLOCK")
    assert spec.positions == (0, 1, 2, 3) and spec.handle == 0xF00D
    assert spec.grid(1, 2, 1000, 256) == (4, 1, 1)
    assert spec.options["ffts"] and spec.options["simt"] and not spec.options["pure_simt"]
    assert (spec.options["lock_num"], spec.options["workspace_size"]) == (2, 64)
    assert len(spec.hooks) == 1 and spec.hooks[0] == []


def test_grouped_launchers_get_no_spec(torch_npu_modules):
    compile_result, launcher = make_launcher([])
    compile_result.inductor_meta["group_enabled"] = True
    assert integration.describe_launcher(compile_result, launcher) is None


def test_unsupported_signature_is_a_refusal(torch_npu_modules):
    compile_result, launcher = make_launcher([])
    compile_result.compile_meta["signature"] = {**SIGNATURE, "xnumel": "fp8e5"}
    wrapped = launchers.wrap_make_launcher(lambda self: launcher,
                                                      integration.describe_launcher)
    assert getattr(wrapped(compile_result), routing.REFUSAL_ATTR) == "signature_type_unsupported"


@pytest.fixture(params=["acl", "rt"])
def cann(request, tmp_path_factory):
    fake = FakeCann(build(request.param, tmp_path_factory.mktemp(request.param)))
    fake.reset()
    return fake


def test_generated_launcher_planned_through_fake_cann(torch_npu_modules, cann):
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
