# SPDX-License-Identifier: Apache-2.0
"""torch_npu's NPU Python wrapper, written by a release's own codegen and run
as a planned call, in a child process.

``python -m helpers.npu_release_wrapper VERSION OUT.json [static]`` loads
``VERSION``'s Inductor modules (``npu_release``) and has its own wrapper class
(``NPUPythonWrapperCodeGen`` / ``NPUWrapperCodeGen``) write a whole wrapper
module: its header and prefix, the device guard, ``empty_strided(...,
device='npu')`` allocations, the raw-stream getter, four launches of one
pointwise kernel, a buffer reuse, ``del``s and the return. It writes it
twice: as the release ships it (``kernel.run(..., stream=raw_stream0)``) and
with fastlaunch's NPU integration installed (fastlaunch call sites).
``static`` turns on the release's static-kernel prefix (``global
has_initialized``). ``device`` runs every variant on the ``npu`` test device
(``npu_device``: PrivateUse1 renamed ``npu``, plain at::Tensors on host
memory, as torch_npu's are on NPU memory) instead of the ``Arena``'s
subclass: the wrapper's own ``empty_strided`` (torch's) allocates there, and
its first-fit allocator gives the same addresses as the ``Arena``. ``extern``
(with ``device``) adds an extern mm over views of the inputs (``write_wrapper``),
which the planned call runs in its ATen shim.

The kernel is the release's real ``NPUCachingAutotuner`` over triton-ascend's
real generated launcher on the recording CANN runtime (``npu_release_driver``).
Each variant runs the same calls on the same inputs; what the runtime was
told per call, the counters, the device-guard and allocation logs and the
program's shape go to the report:

* ``python``: the shipped text's Python ``call()``, fastlaunch off (the oracle);
* ``planned_stock``: the shipped text planned (its ``.run`` lines are the
  release's own run);
* ``planned``: the fastlaunch text planned, fastlaunch on;
* ``fallback_<reason>``: the fastlaunch text's PlannedCall under each
  whole-call fallback reason.

Each PlannedCall is made by the code cache hook's ``plan_module``, as for a
module Inductor loads. Device memory is a CPU stand-in (``Arena``): ``npu:0``
tensors whose addresses are blocks of one CPU buffer; the recording runtime
never reads the launch arguments' addresses, it records them.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import importlib
import importlib.util
import json
import sys
import types
import weakref
from pathlib import Path

from . import npu_device, npu_release
from . import npu_release_driver as driver

CALLS = 5
NUMEL = 1000


def _device_tensor_type():
    """A tensor on ``npu:0`` whose memory is a block of the arena: torch's own
    size, stride, dtype and device (a wrapper subclass: no storage, so no
    NPU backend is needed) and the block's address as ``data_ptr()``. It
    keeps its block alive; no op can run on it."""
    import torch

    class DeviceTensor(torch.Tensor):
        @staticmethod
        def __new__(cls, size, stride, dtype, block, address):
            t = torch.Tensor._make_wrapper_subclass(cls, size, strides=stride, dtype=dtype,
                                                    device=torch.device("npu", 0))
            t.block, t.address = block, address
            return t

        def data_ptr(self) -> int:
            return self.address

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            raise RuntimeError(f"{func} on a stand-in for NPU memory: the test runs no ops")

    return DeviceTensor


class Arena:
    """Device memory stand-in: blocks of one CPU buffer (never read or
    written: the recording runtime records the addresses it is given), first
    fit, each given back when the tensor on it dies. The same sequence of
    allocations and frees gives the same addresses, as torch_npu's caching
    allocator does, so a free moved to another point shows in the launch bytes."""

    ALIGN = 512

    def __init__(self, size: int = 1 << 22) -> None:
        self.buffer = bytearray(size)
        self.base = ctypes.addressof(ctypes.c_char.from_buffer(self.buffer))
        self.used: list[tuple[int, int]] = []  # (offset, length), sorted
        self.log: list[tuple] = []
        self.tensor = _device_tensor_type()

    def empty_strided(self, size, stride, *, device, dtype):
        """``torch.empty_strided`` as the wrapper calls it (``device='npu'``)."""
        import torch

        if device != "npu":
            raise AssertionError(f"expected device='npu', got {device!r}")
        itemsize = torch.empty((), dtype=dtype).element_size()
        extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
        length = max(self.ALIGN, -(-extent * itemsize // self.ALIGN) * self.ALIGN)
        offset = self._first_fit(length)
        bisect.insort(self.used, (offset, length))
        block = memoryview(self.buffer)[offset:offset + length]
        weakref.finalize(block, self._release, offset, length)
        self.log.append(("alloc", offset, length))
        return self.tensor(tuple(size), tuple(stride), dtype, block, self.base + offset)

    def _first_fit(self, length: int) -> int:
        start = 0
        for offset, used in self.used:
            if offset - start >= length:
                return start
            start = offset + used
        if start + length > len(self.buffer):
            raise MemoryError("arena full")
        return start

    def _release(self, offset: int, length: int) -> None:
        self.used.remove((offset, length))
        self.log.append(("free", offset, length))


class DeviceGuard:
    """``torch.npu.utils.device``: records entering and leaving."""

    log: list[tuple] = []

    def __init__(self, index: int) -> None:
        self.index = index

    def __enter__(self) -> None:
        self.log.append(("enter", self.index))

    def __exit__(self, *exc: object) -> bool:
        self.log.append(("exit", getattr(exc[0], "__name__", None)))
        return False


class StaticKernelCompiler:
    """The release's static-kernel compiler (it builds aclnn kernels): records its use."""

    def __enter__(self) -> None:
        DeviceGuard.log.append(("static", "enter"))

    def __exit__(self, *exc: object) -> None:
        DeviceGuard.log.append(("static", "exit"))


def _stand_ins(static: bool) -> None:
    """What the release's wrapper text reaches besides its Inductor modules."""
    import torch

    native = importlib.import_module("torch_npu._C")
    for name in ("_NPUStreamBase", "_NPUEventBase"):  # torch_npu.npu.streams subclasses them
        setattr(native, name, type(name, (), {}))
    # the raw-stream getters the releases' device op overrides import
    native._npu_getCurrentRawStream = lambda index: driver.STREAM
    native._npu_getCurrentRawStreamNoWait = lambda index: driver.STREAM  # 2.13 and later pick it
    importlib.import_module("torch_npu._inductor").get_current_raw_stream = \
        lambda index: driver.STREAM
    # the release's own default is False (torch_npu/npu/aclnn/__init__.py)
    importlib.import_module("torch_npu.npu.aclnn")._use_static_aclnn_kernel = static
    torch.npu.utils = types.SimpleNamespace(device=DeviceGuard)
    torch.npu.set_device = lambda index: DeviceGuard.log.append(("set", index))
    sys.modules["torch_npu._inductor.npu_static_kernel"] = types.SimpleNamespace(
        StaticKernelCompiler=StaticKernelCompiler)


def _register_device_ops() -> None:
    """The release's ``npu`` device op overrides (device guard, stream getter
    import), registered where its own code does: 2.10 and later in
    ``codegen.common``, 2.8 and 2.9 in ``_inductor/__init__`` (not run here),
    from ``npu_device.NewNPUDeviceOpOverrides``; else the driver's."""
    from torch._inductor.codegen import common as upstream

    with contextlib.suppress(ImportError, AttributeError, TypeError):
        importlib.import_module("torch_npu._inductor.codegen.common") \
            .register_device_op_overrides_npu()
    if "npu" not in upstream.device_op_overrides_dict:
        with contextlib.suppress(ImportError, AttributeError):
            ops = importlib.import_module("torch_npu._inductor.npu_device")
            upstream.register_device_op_overrides("npu", ops.NewNPUDeviceOpOverrides())
    driver._register_device_ops(importlib)


def write_wrapper(extern: bool = False) -> str:
    """The release's wrapper class writes a whole module (Inductor's
    ``generate``) for four launches of the kernel: ``buf0 = a0 + a1``,
    ``buf1 = buf0 + a1``, buf0 reused as buf2 (``buf2 = buf0; del buf0  #
    reuse``) for ``buf2 = buf1 + a1``, buf1 freed before ``buf3 = buf2 + a1``
    is allocated (so buf3 gets buf1's block only when buf1 was freed there),
    buf2 freed, buf3 returned. A GraphLowering of this torch holds the
    graph's inputs and outputs; the scheduler fields read while allocations
    are planned are stood in for. ``extern``: after the first launch, also
    ``buf4 = a0 as (25, 40) @ a1 as (40, 25)``, an extern mm whose operands
    are views of the inputs, written by the release's own extern-kernel-out
    writer, and buf4 returned too."""
    import torch
    from torch._inductor import config, ir
    from torch._inductor.codegen.common import get_device_op_overrides
    from torch._inductor.codegen.wrapper import ReuseLine
    from torch._inductor.graph import GraphLowering
    from torch._inductor.virtualized import V

    module = importlib.import_module("torch_npu._inductor.codegen.wrapper")
    cls = getattr(module, "NPUPythonWrapperCodeGen", None) or module.NPUWrapperCodeGen
    device = torch.device("npu", 0)

    def buffer(kind, name):
        return kind(name=name, layout=ir.FixedLayout(device, torch.float32, [NUMEL], [1]))

    graph = GraphLowering(torch.fx.symbolic_trace(lambda x: x + 1))
    graph.device_ops = get_device_op_overrides("npu")
    graph.scheduler = types.SimpleNamespace(current_stream_idx=None, current_node=0, nodes=[0],
                                            get_buf_stream=lambda name: None)
    inputs = [buffer(ir.InputBuffer, "arg0_1"), buffer(ir.InputBuffer, "arg1_1")]
    graph.graph_inputs = {b.get_name(): b for b in inputs}
    graph.graph_input_names = list(graph.graph_inputs)
    buf0, buf1, buf2, buf3 = (buffer(ir.Buffer, f"buf{i}") for i in range(4))
    buf4 = ir.Buffer(name="buf4", layout=ir.FixedLayout(device, torch.float32, [25, 25], [25, 1]))
    graph.graph_outputs = [buf3, buf4] if extern else [buf3]
    kwargs = {"device": device, "triton": True, "arg_types": [torch.float32] * 3 + [int]}

    def view(source, size, stride):
        return ir.ReinterpretView(data=source, layout=ir.FixedLayout(device, torch.float32,
                                                                     size, stride))
    with V.set_graph_handler(graph), config.patch(allow_buffer_reuse=False):
        wrapper = cls()
        graph.wrapper_code = wrapper
        wrapper.set_all_partition_names(0)
        wrapper.codegen_device_guard_enter(0)
        for out, args in ((buf0, "arg0_1"), (buf1, "buf0"), (buf2, "buf1"), (buf3, "buf2")):
            if out is buf2:
                wrapper.writeline(ReuseLine(wrapper, buf0, buf2))
            else:
                if out is buf3:
                    wrapper.codegen_free(buf1)
                wrapper.codegen_allocation(out)
            wrapper.generate_kernel_call(driver.KERNEL, [args, "arg1_1", out.get_name(),
                                                         str(NUMEL)], **kwargs)
            if extern and out is buf0:
                wrapper.codegen_allocation(buf4)
                operands = [view(inputs[0], [25, 40], [40, 1]).codegen_reference(),
                            view(inputs[1], [40, 25], [1, 40]).codegen_reference()]
                wrapper._generate_extern_kernel_out_helper("extern_kernels.mm", "buf4", None,
                                                           operands, "npu")
        wrapper.codegen_free(buf2)
        wrapper.codegen_device_guard_exit()
        code, _ = wrapper.generate(True)
    return getattr(code, "value", code)


def _load(text: str, folder: Path, name: str, scope: dict) -> types.ModuleType:
    """The wrapper text as Inductor's code cache loads it (a module from a
    file: the planned call reads ``call``'s source), with the kernel and the
    stand-ins bound in its globals."""
    path = folder / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"npu_wrapper_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    vars(module).update(scope)
    return module


def _native_since(before: dict) -> dict:
    """The ATen shim's {kind: [ran, declined]} since ``before``."""
    from fastlaunch.runtime import _core

    out = {}
    for kind, (ran, declined) in _core.planned_call_native_ops().items():
        r0, d0 = before.get(kind, (0, 0))
        if (ran - r0, declined - d0) != (0, 0):
            out[str(kind)] = [ran - r0, declined - d0]
    return out


def main(version: str, out: str, *flags: str) -> int:
    static, on_device, extern = "static" in flags, "device" in flags, "extern" in flags
    if on_device:
        npu_device.install(device_module=False)  # the release's torch.npu stand-in is it
    npu_release.install(version)
    _stand_ins(static)
    import torch
    from torch._inductor.codegen.common import get_device_op_overrides

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.engine.planned_call import planner
    from fastlaunch.integrations import autoload, planned_call_hook
    from fastlaunch.integrations.torch_npu import integration
    from fastlaunch.runtime import _core, backends
    from fastlaunch.tools.selfcheck import ascend_reference as ar

    report: dict = {"version": version, "codegen": driver._wrapper_codegen()}
    if npu_release.wrote_without_own_code(report, out):
        return 0
    if on_device:  # the planned call's ATen shim, as FASTLAUNCH=1 loads it
        from fastlaunch.runtime import aten_ops

        report["aten_ops"] = aten_ops.ensure(build=True, wait=True)
    if "npu" not in torch._C._get_privateuse1_backend_name():
        torch.utils.rename_privateuse1_backend("npu")  # as torch_npu's __init__ does
    _register_device_ops()
    ops = type(get_device_op_overrides("npu"))
    report["device_ops"] = f"{ops.__module__}.{ops.__qualname__}"
    th = importlib.import_module(npu_release.heuristics_module(version))
    recorder = ar.CannRecorder(ar.build_recorder())
    kernel = driver.Kernel(npu_release.RELEASES[version])
    gen, case, launcher = driver._reference_launch(ar, recorder, kernel)
    try:
        texts = {"stock": write_wrapper(extern)}
    except Exception as err:  # the release's codegen on another torch's: reported
        report["call_site_error"] = f"{type(err).__name__}: {err}"
        Path(out).write_text(json.dumps(report, indent=1))
        return 0
    arena = Arena()
    folder = Path(out).parent  # the wrapper modules sit beside the report
    with ar.environment(case.env()), config.override(enabled=True, backend="npu"):
        autoload.watch(("npu",))  # the layout's modules are loaded: installs now
        report["installed"] = integration.installed()
        texts["fastlaunch"] = write_wrapper(extern)
        backends.set_backend("npu", driver.recorder_backend(recorder))

        def variant(name, text, planned, around=contextlib.nullcontext):
            tuner = driver._autotuner(th, driver._binary(gen, case, launcher, kernel), kernel)
            scope = {driver.KERNEL: tuner}
            if not on_device:
                scope["empty_strided"] = arena.empty_strided
            module = _load(text, folder, name, scope)
            call = module.call
            if planned:  # as the code cache's hook plans a module it loads
                program = planner.program_of(call)
                report[f"{name}.program"] = {"summary": program.summary(),
                                             "islands": program.islands}
                fastlaunch.reset_stats()
                report[f"{name}.planning"] = planned_call_hook.plan_module(module), \
                    fastlaunch.stats()
                call = module.call
            allocate = torch.empty_strided if on_device else arena.empty_strided
            inputs = [allocate((NUMEL,), (1,), device="npu", dtype=torch.float32)
                      for _ in range(2)]
            if extern:  # the mm reads them; the recorded launches never run
                inputs[0].fill_(1.5)
                inputs[1].fill_(0.25)
            fastlaunch.reset_stats()
            DeviceGuard.log, arena.log = [], []
            if on_device:
                npu_device.allocations()  # from here on, as the Arena's log
            observed, before = [], _core.planned_call_runs()
            native, products = dict(_core.planned_call_native_ops()), []
            for _ in range(CALLS):
                recorder.reset()
                with around():
                    outputs = call(list(inputs))
                if extern:
                    products.append(npu_device.tensor_bytes(outputs[1]))
                del outputs  # buf3 goes back before the next call, as a training step's would
                observed.append(ar.observe(recorder.events(), [launcher.padding] * 4))
            report[name] = {"observed": observed, "stats": fastlaunch.stats(),
                            "runs": _core.planned_call_runs() - before,
                            "guard": list(DeviceGuard.log),
                            "arena": npu_device.allocations() if on_device else list(arena.log),
                            "input_type": type(inputs[0]).__name__,
                            "native_ops": _native_since(native), "mm_out": products,
                            "type": type(call).__name__,
                            "has_initialized": vars(module).get("has_initialized")}
            del inputs, call, module

        with config.override(enabled=False):
            variant("python", texts["stock"], planned=False)
        variant("planned_stock", texts["stock"], planned=True)
        variant("planned", texts["fastlaunch"], planned=True)
        variant("fallback_disabled", texts["fastlaunch"], planned=True,
                around=lambda: fastlaunch.enabled(False))
        variant("fallback_profiler", texts["fastlaunch"], planned=True,
                around=torch.autograd.profiler.profile)
    report["texts"] = texts
    Path(out).write_text(json.dumps(report, default=repr, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
