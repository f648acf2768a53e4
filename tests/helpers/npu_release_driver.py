# SPDX-License-Identifier: Apache-2.0
"""One torch_npu release end to end, run in a child process.

``python -m helpers.npu_release_driver VERSION OUT.json`` loads ``VERSION``'s
own Inductor modules (``npu_release``), installs fastlaunch's NPU
integration on them, and drives one pointwise kernel both ways on the
recording CANN runtime:

* original: the release's ``NPUCachingAutotuner.run`` (made through its own
  ``__init__``, launchers through its own ``make_launcher``) calling
  triton-ascend's real generated launcher, fastlaunch off;
* fastlaunch: the same autotuner bound at a generated call site.

Writes what each side sent (``ascend_reference.observe`` records per call),
the counters, and what the integration decided, for the parent test.
"""

from __future__ import annotations

import contextlib
import json
import sys
import types
from pathlib import Path

from . import npu_release, wheels

KERNEL = "triton_poi_fused_add_0"
ARG_NAMES = ("in_ptr0", "in_ptr1", "out_ptr0", "x0_numel", "X0BLOCK", "X0BLOCK_SUB")
XBLOCK = 256


class Kernel:
    """The pointwise kernel as each layout's NPU codegen emits it: XBLOCK a
    runtime block argument (runtime layout) or a constexpr of the config."""

    def __init__(self, layout: str) -> None:
        self.runtime_block = layout == "runtime"
        self.signature = {"in_ptr0": "*fp32", "in_ptr1": "*fp32", "out_ptr0": "*fp32",
                          "x0_numel": "i32"}
        self.constants = {"X0BLOCK_SUB": 64}
        if self.runtime_block:
            self.signature["X0BLOCK"] = "i32"
        else:
            self.constants["X0BLOCK"] = XBLOCK
        self.constexprs = [5] if self.runtime_block else [4, 5]
        self.blocks = ["X0BLOCK"] if self.runtime_block else []

    def case_signature(self) -> tuple[str, ...]:
        return tuple(self.signature.values())
STREAM = 0x5151
HANDLE = 0xBEEF00


class _Tensor:
    """What the launchers read of a tensor argument."""

    def __init__(self, address: int, numel: int) -> None:
        self.address, self.numel_ = address, numel
        self.dtype = "float32"
        self.device = types.SimpleNamespace(type="npu", index=0)

    def data_ptr(self) -> int:
        return self.address

    def size(self) -> tuple[int, ...]:
        return (self.numel_,)

    def numel(self) -> int:
        return self.numel_


def _reference_launch(ar, recorder, kernel):
    """triton-ascend's generated launcher for the kernel, linked to the recorder."""
    gen = ar.Generator(wheels.triton_ascend_backend())
    case = ar.Case(signature=kernel.case_signature(), name=KERNEL)
    (launcher,) = ar.build_launchers(gen, [gen.render(case)], recorder.path)
    return gen, case, launcher


def _fn(kernel):
    """The JITFunction fields make_launcher reads."""
    return types.SimpleNamespace(arg_names=list(ARG_NAMES), constexprs=kernel.constexprs,
                                 __name__=KERNEL,
                                 fn=types.SimpleNamespace(__name__=KERNEL),
                                 src="", cache_key=KERNEL)


def _binary(gen, case, launcher, kernel):
    """triton-ascend's compiled kernel as make_launcher reads it (its
    compiler is not here): its generated launcher is the real one."""
    metadata = case.metadata()
    metadata.shared = 0
    metadata.num_warps = 1
    metadata.num_ctas = 1
    metadata.cluster_dims = (1, 1, 1)

    class CompiledKernel:
        launch_enter_hook = None
        launch_exit_hook = None

        def __init__(self) -> None:
            self.src = types.SimpleNamespace(fn=_fn(kernel), signature=dict(kernel.signature),
                                             constants=dict(kernel.constants), attrs={})
            self.metadata = metadata
            self.packed_metadata = gen.packed_metadata(case)
            self.function = HANDLE
            self.run = launcher.launch
            self.shared = 0
            self.num_warps = 1
            self.num_ctas = 1
            self.cluster_dims = (1, 1, 1)
            self.n_regs = self.n_spills = 0

        def _init_handles(self) -> None:
            return None

        def launch_metadata(self, grid, stream, *args):
            return None

    return CompiledKernel()


def _autotuner(th, binary, kernel):
    """A real NPUCachingAutotuner through its own __init__, with one compiled
    config made into a launcher by the release's own code."""
    import torch
    from torch._inductor.runtime.hints import DeviceProperties
    from triton import Config

    config = Config({"X0BLOCK": XBLOCK, "X0BLOCK_SUB": 64, "split_axis": [0],
                     "split_blocks": [XBLOCK]}, num_warps=1, num_stages=1)
    device = DeviceProperties.create(torch.device("cpu"))._replace(type="npu", index=0)
    triton_meta = {"signature": dict(kernel.signature), "device": device,
                   "constants": {}, "configs": [], "mix_mode": "aiv"}
    inductor_meta = {"kernel_name": KERNEL, "grid_type": "GridNpu", "autotune_hints": set(),
                     "runtime_block_arg_names": kernel.blocks,
                     "mutated_arg_names": [], "no_x_dim": False, "num_load": 2,
                     "num_reduction": 0, "backend_hash": "0" * 64,
                     "are_deterministic_algorithms_enabled": False,
                     "assert_indirect_indexing": True, "autotune_local_cache": False,
                     "autotune_pointwise": False, "autotune_remote_cache": False,
                     "force_disable_caches": True, "dynamic_scale_rblock": False,
                     "max_autotune": False, "max_autotune_pointwise": False,
                     "min_split_scan_rblock": 256, "spill_threshold": 16,
                     "store_cubin": False, "split_axis": [0], "axis_names": ["x0"],
                     "low_dims": [0], "numof_reduction_axis": 0,
                     "tiling_axis": [0], "no_loop_axis": [], "dual_reduction": False,
                     "traced_graph_hash": "", "traced_graph_dir": ""}
    tuner = th.NPUCachingAutotuner(
        types.SimpleNamespace(fn=types.SimpleNamespace(__name__=KERNEL), __name__=KERNEL,
                              arg_names=list(ARG_NAMES), constexprs=kernel.constexprs, src=""),
        triton_meta, [config], None, [], False, "pointwise",
        size_hints={"x": 1024}, inductor_meta=inductor_meta, custom_kernel=False,
        filename=f"/tmp/{KERNEL}.py")
    compile_meta = {"signature": dict(kernel.signature), "constants": dict(kernel.constants),
                    "device": 0, "device_type": "npu", "num_warps": 1, "num_stages": 1,
                    "debug": False, "mix_mode": "aiv"}
    # What precompile compiles: the release's compile-distinct variants of the
    # configs, where it has runtime block arguments.
    variants = getattr(tuner, "_precompile_variant_configs", None)
    compiled = variants() if variants is not None else [config]
    tuner.compile_results = [th.TritonCompileResultNpu(binary, cfg, compile_meta, inductor_meta)
                             for cfg in compiled]
    tuner._make_launchers()
    return tuner


def _args(call: int) -> tuple:
    numel = 1000 + call
    return (_Tensor(0x10000 + call * 0x100, numel), _Tensor(0x20000, numel),
            _Tensor(0x30000, numel), numel)


def _wrapper_codegen() -> str:
    """Load the release's own wrapper codegen module: "real", or why it cannot
    load against this torch (it imports codegen APIs of its own torch
    release; the parent test skips, naming the own-torch env, or fails there)."""
    import importlib

    try:
        importlib.import_module("torch_npu._inductor.codegen.wrapper")
    except Exception as err:  # reported; the parent test decides
        return f"cannot load ({type(err).__name__}: {err})"
    return "real"


def _register_device_ops(importlib) -> None:
    """The release's ``npu`` device op overrides, registered as its package
    ``__init__`` would; releases that do it inside ``_inductor/__init__``
    (not run here) get torch's generic overrides under the same name."""
    from torch._inductor.codegen import common as upstream

    with contextlib.suppress(ImportError, AttributeError, TypeError):
        importlib.import_module("torch_npu._inductor.codegen.common") \
            .register_device_op_overrides_npu()
    if "npu" not in upstream.device_op_overrides_dict:
        class NpuOps(upstream.DeviceOpOverrides):
            def import_get_raw_stream_as(self, name: str) -> str:
                return f"from torch_npu._C import _npu_getCurrentRawStream as {name}"

        upstream.register_device_op_overrides("npu", NpuOps())


def _kernel_call_code() -> tuple[str, str]:
    """What the release's wrapper codegen writes for the kernel's call, with
    fastlaunch's patch: (module-level lines, body lines). A GraphLowering of
    this torch holds the codegen state; the scheduler's only field read here
    says the default stream."""
    import importlib

    import torch
    from torch._inductor.codegen.common import get_device_op_overrides
    from torch._inductor.codegen.wrapper import WrapperLine
    from torch._inductor.graph import GraphLowering
    from torch._inductor.utils import IndentedBuffer
    from torch._inductor.virtualized import V

    if "npu" not in torch._C._get_privateuse1_backend_name():
        torch.utils.rename_privateuse1_backend("npu")  # as torch_npu's __init__ does
    _register_device_ops(importlib)
    module = importlib.import_module("torch_npu._inductor.codegen.wrapper")
    cls = getattr(module, "NPUPythonWrapperCodeGen", None) or module.NPUWrapperCodeGen
    graph = GraphLowering(torch.fx.symbolic_trace(lambda x: x + 1))
    graph.device_ops = get_device_op_overrides("npu")
    graph.scheduler = types.SimpleNamespace(current_stream_idx=None)
    with V.set_graph_handler(graph):
        wrapper = cls()
        graph.wrapper_code = wrapper
        wrapper.generate_kernel_call(KERNEL, ["arg0_1", "arg1_1", "buf0", "x0_numel"],
                                     device=torch.device("npu", 0), triton=True,
                                     arg_types=[torch.float32] * 3 + [int])
        body = IndentedBuffer()
        for line in wrapper.lines:
            if isinstance(line, WrapperLine):
                line.codegen(body)
            else:
                body.writeline(line)
    header = [line for line in wrapper.imports.getvalue().splitlines() if "fastlaunch" in line]
    return "\n".join(header), body.getvalue()


def recorder_backend(recorder):
    """fastlaunch's real NPU backend over the recording CANN runtime, submitting
    through the recorder's task queue as it submits through torch_npu's."""
    from fastlaunch.runtime.npu import NpuBackend

    return NpuBackend(libraries=[str(recorder.path)], queue="auto",
                      submit=recorder.submit_capsule(),
                      workspace=lambda size: (recorder.alloc(1, size), None),
                      locks=lambda count, _init: (recorder.alloc(2, 8 * count), None))


def _debug_reasons(integration, routing, tuner) -> dict[str, str]:
    """Per debug flag of the release's run: the full-entry reason a call of a
    site bound while it is set gets (each flag set alone, then restored)."""
    from torch_npu._inductor import config as npu_config

    out = {}
    for flag in integration.layout().debug_flags:
        *path, name = flag.split(".")
        owner = npu_config
        for part in path:
            owner = getattr(owner, part)
        saved = getattr(owner, name)
        setattr(owner, name, [0] if isinstance(saved, list) else True)
        try:  # read at bind or per call, as the layout's run reads it
            bound = routing.BoundLaunch(tuner, {"kernel_name": KERNEL, "abi": "npu"},
                                        **integration._bind_options(tuner))
            out[flag] = bound._full_entry_reason(False, {})
        finally:
            setattr(owner, name, saved)
    return out


def main(version: str, out: str) -> int:
    npu_release.install(version)
    import importlib

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.engine import routing
    from fastlaunch.integrations import autoload
    from fastlaunch.integrations.torch_npu import integration
    from fastlaunch.runtime import backends
    from fastlaunch.tools.selfcheck import ascend_reference as ar

    report: dict = {"version": version, "codegen": _wrapper_codegen()}
    if npu_release.wrote_without_own_code(report, out):
        return 0
    recorder = ar.CannRecorder(ar.build_recorder())
    kernel = Kernel(npu_release.RELEASES[version])
    gen, case, launcher = _reference_launch(ar, recorder, kernel)
    with ar.environment(case.env()), config.override(enabled=True, backend="npu"):
        # As in a program: the entry point's watch installs the integration once
        # the layout's wrapper and autotuner modules have loaded.
        autoload.watch(("npu",))
        th = importlib.import_module(npu_release.heuristics_module(version))
        importlib.import_module("torch_npu._inductor.codegen.wrapper")
        report["installed"] = integration.installed()
        report["autoload"] = autoload.status()
        backends.set_backend("npu", recorder_backend(recorder))
        calls = 5
        original, planned = [], []
        stock = _autotuner(th, _binary(gen, case, launcher, kernel), kernel)
        with config.override(enabled=False):
            for i in range(calls):
                recorder.reset()
                stock.run(*_args(i), stream=STREAM)
                original.append(ar.observe(recorder.events(), [launcher.padding]))
        tuner = _autotuner(th, _binary(gen, case, launcher, kernel), kernel)
        # The call site as the release's wrapper codegen writes it, run as the
        # generated module runs it.
        try:
            header, body = _kernel_call_code()
        except Exception as err:  # the release's codegen on another torch's: reported
            report["call_site_error"] = f"{type(err).__name__}: {err}"
            report["installed"] = integration.installed()
            Path(out).write_text(json.dumps(report, default=repr, indent=1))
            return 0
        report["call_site"] = body
        scope = {KERNEL: tuner, "get_raw_stream": lambda device: STREAM}
        exec(header, scope)  # generated wrapper code, run as Inductor runs it
        step = compile(body, "<generated call>", "exec")
        fastlaunch.reset_stats()
        for i in range(calls):
            recorder.reset()
            a0, a1, b0, n = _args(i)
            exec(step, scope, {"arg0_1": a0, "arg1_1": a1, "buf0": b0, "x0_numel": n})
            planned.append(ar.observe(recorder.events(), [launcher.padding]))
        report["stats"] = fastlaunch.stats()
        report["debug_reasons"] = _debug_reasons(integration, routing, tuner)
        report["plugins"] = [type(p).__name__ for p in getattr(tuner, "_plugins", ())]
        report["original"], report["planned"] = original, planned
    Path(out).write_text(json.dumps(report, default=repr, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
