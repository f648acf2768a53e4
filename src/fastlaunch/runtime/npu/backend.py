# SPDX-License-Identifier: Apache-2.0
"""NPU backend: triton-ascend's packed launcher struct, launched through CANN.

Plans launch the ``rtFunctionRegister`` stub with ``rtKernelLaunch``
(``rtKernelLaunchWithFlagV2`` for SIMT), as every triton-ascend does, once
``family.py`` has read that from the installed loader and generator (a tree
that does otherwise is refused with the reason). Launches go through
torch_npu's task queue (an ``OpCommand`` custom handler, see ``queue.py``),
inline then synchronised when the kernel's launcher was generated with
``TRITON_ENABLE_TASKQUEUE=false``, or inline with ``queue="inline"`` (tests).
"""

from __future__ import annotations

import ctypes
import dataclasses
import importlib.util
from collections.abc import Callable, Sequence

from ... import config
from ...errors import CallRefused, PlanUnavailable
from .. import _core, torch_accessor
from ..base import Backend, KernelSpec, LaunchRecord
from ..native import NativePlan
from . import family as families
from .options import NpuOptions

# (bytes) -> (address, keep-alive)
Allocator = Callable[[int], tuple[int, object]]
# (lock count, initial value) -> (address, keep-alive)
LockAllocator = Callable[[int, int], tuple[int, object]]

#: c10::DeviceType::PrivateUse1, the device type of NPU tensors.
PRIVATE_USE1 = 20
#: CANN's profiling library: MsprofRegisterCallback, as the generated launchers use it.
MSPROF = "libmsprofiler.so"


def torch_workspace(size: int) -> tuple[int, object]:
    """Workspace from torch_npu's caching allocator on the current device, as
    the original's ``at::empty`` in the calling thread.

    The block returns to the pool when the tensor is dropped, and the pool
    hands it only to work queued later on the same stream, which runs after
    this kernel: the stream order keeps it alive long enough.
    """
    import torch

    tensor = torch.empty(size, dtype=torch.uint8, device="npu")
    return tensor.data_ptr(), tensor


class _CallbackAllocator:
    """A "fastlaunch.npu_workspace" capsule over a Python LockAllocator, for
    runs without torch_npu (tests, the differential harness). ctypes takes
    the GIL when the task calls it, from whichever thread runs the task."""

    _ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p,
                              ctypes.POINTER(ctypes.c_void_p))
    _RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

    class _Table(ctypes.Structure):
        _fields_ = [("alloc", ctypes.c_void_p), ("release", ctypes.c_void_p)]

    def __init__(self, locks: LockAllocator, init: int) -> None:
        self.locks = locks
        self.init = init
        self.owners: dict[int, object] = {}
        self._alloc = self._ALLOC(self._on_alloc)
        self._release = self._RELEASE(self._on_release)
        self._table = self._Table(ctypes.cast(self._alloc, ctypes.c_void_p).value,
                                  ctypes.cast(self._release, ctypes.c_void_p).value)
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self.capsule = new(ctypes.addressof(self._table), b"fastlaunch.npu_workspace", None)

    def _on_alloc(self, size, _stream, owner):
        try:
            address, keep = self.locks(size // 8, self.init)
        except Exception:  # the task reports a failed allocation, as the original
            return None
        key = id(keep) if keep is not None else address
        self.owners[key] = keep
        owner[0] = key
        return address

    def _on_release(self, key):
        self.owners.pop(key, None)


@dataclasses.dataclass(frozen=True, eq=False)
class NpuPlan(NativePlan):
    """A kernel planned for CANN. Without a workspace the native launcher does
    it all (and a FastSite calls it); with one, each launch first allocates
    the workspace in Python, so ``launch`` is ``submit`` and there is no
    native form."""

    spec: KernelSpec
    options: NpuOptions
    launcher: _core.NpuLauncher
    family: str
    workspace_size: int  # bytes per block; 0: none
    workspace: Allocator

    @property
    def launch(self):
        return self.submit if self.workspace_size else self.launcher.launch

    @property
    def native(self) -> _core.NpuLauncher | None:
        return None if self.workspace_size else self.launcher

    def submit(self, stream: int, grid: Sequence[int], args: tuple) -> None:
        if _core.npu_msprof_collecting():
            # The router's probe already sends such calls to the original
            # launcher, which reports them to msprof; a direct call is refused.
            raise CallRefused("msprof", detail="msprof is collecting; the original launcher "
                                               "reports this launch")
        workspace = 0
        if self.workspace_size:  # before the launch call: any failure here submitted nothing
            self._check_grid(grid)  # refuse before allocating
            try:
                workspace, _keep = self._workspace(grid)
            except Exception as err:
                raise CallRefused("workspace_alloc_failed",
                                  detail=f"{type(err).__name__}: {err}") from err
        try:
            self.launcher.launch(stream, grid, args, workspace) if workspace else \
                self.launcher.launch(stream, grid, args)
        except Exception as err:
            raise self.translate(err) from err

    def _workspace(self, grid: Sequence[int]) -> tuple[int, object]:
        """(address for the workspace slot, owner). The original sizes it by the
        uint32 product of the grid, and allocates it even for a pure-SIMT
        kernel, whose struct has no slot for it: the slot address is then 0."""
        blocks = (int(grid[0]) * int(grid[1]) * int(grid[2])) & 0xFFFFFFFF
        address, owner = self.workspace(self.workspace_size * blocks)
        return (address if self.packer.has_hidden_slots else 0), owner

    def _check_grid(self, grid: Sequence[int]) -> None:
        """The grid checks the native launch makes, for paths that allocate first."""
        try:
            values = tuple(grid)
        except Exception as err:
            raise CallRefused("grid_type", detail=f"grid: {type(err).__name__}: {err}") from err
        if len(values) != 3:
            raise CallRefused("grid_rank", detail=f"grid: got {len(values)} values, expected 3")
        try:
            self.packer.check_grid(*values)
        except _core.InputError as err:
            raise self.translate(err) from err

    def describe(self, stream: int, grid: Sequence[int], args: tuple) -> LaunchRecord:
        """The record of one launch. The lock slot reads 0: the locks are only
        allocated inside the task, as the original does."""
        workspace, _keep = self._workspace(grid) if self.workspace_size else (0, None)
        data = self.packer.pack(tuple(args), tuple(grid), workspace=workspace)
        block_dim = grid[0] * grid[1] * grid[2]
        return LaunchRecord(self.spec.name, data, tuple(grid), block_dim, stream,
                            {"api": self.launcher.api, "queued": self.launcher.queued,
                             **dict(self.spec.options)})

    def summary(self) -> str:
        return (f"npu {self.spec.name}: {self.launcher.api} launch ({self.family} family), "
                f"{self.packer.size}-byte args, "
                f"{'task queue' if self.launcher.queued else 'inline'}")


class NpuBackend(Backend):
    name = "npu"
    abi = "npu"

    def __init__(self, libraries: str | Sequence[str] | None = None, queue: str = "auto",
                 workspace: Allocator = torch_workspace, allocator: object = None,
                 locks: LockAllocator | None = None, family: str | None = None,
                 submit: object = None) -> None:
        """``queue``: "auto" submits through a task queue, torch_npu's unless
        ``submit`` names another "fastlaunch.npu_submit" capsule (a recorder in
        tests); "inline" calls the runtime directly (tests). ``allocator``: the
        "fastlaunch.npu_workspace" capsule for sync-block locks (default:
        torch_npu's, with the task queue); ``locks``, a Python stand-in for it
        (tests), called as ``locks(count, init)`` inside the task; the backend
        still copies the initial values. ``family``: the launch family for
        specs that carry none (tests, benchmarks); normally the installed
        triton-ascend's, set by the integration. ``libraries``: one path or
        a sequence of paths (default: ``FASTLAUNCH_CANN_LIBRARIES``)."""
        if queue not in ("auto", "inline"):
            msg = f"queue: got {queue!r}, expected 'auto' or 'inline'"
            raise ValueError(msg)
        if family not in (None, "rt"):
            msg = f"family: got {family!r}, expected None or 'rt'"
            raise ValueError(msg)
        if submit is not None and queue == "inline":
            msg = "submit: got a task-queue capsule with queue='inline', expected queue='auto'"
            raise ValueError(msg)
        self.libraries = _library_list(libraries)
        self.queue = queue
        self.workspace = workspace
        self.family = family
        self._allocator = allocator
        self.locks = locks
        self._runtime: _core.NpuRuntime | None = None
        self._submit = submit

    @property
    def runtime(self) -> _core.NpuRuntime:
        """CANN's entry points. libmsprofiler is loaded too (when present) for
        the msprof switch, which creating the runtime registers for."""
        if self._runtime is None:
            extra = [] if any("msprofiler" in lib for lib in self.libraries) else [MSPROF]
            self._runtime = _core.NpuRuntime([*self.libraries, *extra])
        return self._runtime

    def available(self) -> tuple[bool, str]:
        missing = []
        if self.queue == "auto" and importlib.util.find_spec("torch_npu") is None:
            missing.append("torch_npu is not installed")
        if self.runtime.missing:
            missing.append(f"CANN: {self.runtime.missing} (libraries: {', '.join(self.libraries)})")
        return (not missing), "; ".join(missing)

    def launch_api(self) -> str:
        """The launch family plans use (from triton-ascend, not from CANN)."""
        found = self.family or families.installed().family
        return found if isinstance(found, str) else (found.name if found else "none")


    def _submitter(self) -> object:
        if self.queue == "inline":
            return None
        if self._submit is None:
            from . import queue

            self._submit = queue.submit_capsule()
        return self._submit

    def _lock_allocator(self, init: int) -> tuple[object, object]:
        """(capsule, what must outlive the launcher that holds it)."""
        if self.locks is not None:
            wrapper = _CallbackAllocator(self.locks, init)
            return wrapper.capsule, wrapper
        if self._allocator is None and self.queue == "auto":
            from . import queue

            self._allocator = queue.allocator_capsule()
        return self._allocator, None

    def _family(self, opts: NpuOptions) -> str:
        name = opts.family or self.family
        if name:
            return str(name)
        detection = families.installed()
        if detection.family is None:
            raise PlanUnavailable(detection.reason, detail=detection.detail)
        return detection.family.name

    def make_plan(self, spec: KernelSpec, *, input_count: int, fixed_args: tuple) -> NpuPlan:
        opts = NpuOptions.of(spec.options)
        refusal = self._refusal(opts)
        if refusal:
            raise PlanUnavailable(*refusal)
        family = self._family(opts)
        missing = self.runtime.missing_for(opts.simt_launch)
        if missing:
            raise PlanUnavailable("launch_api_unavailable", detail=f"{family} family: {missing}")
        if opts.check_pointers and not self.runtime.pointer_query:
            raise PlanUnavailable("launch_api_unavailable",
                                  detail="the generated launcher checks tensor addresses with "
                                         "aclrtPointerGetAttributes, which the loaded CANN lacks")
        runtime_positions = [p for p in spec.positions if p < input_count]
        n_fixed = len(spec.positions) - len(runtime_positions)
        if list(spec.positions[len(runtime_positions):]) != list(
                range(input_count, input_count + n_fixed)) or n_fixed != len(fixed_args):
            raise PlanUnavailable("fixed_args_mismatch",
                                  detail=f"positions {spec.positions}, {len(fixed_args)} fixed")
        if self.queue == "auto":  # running under torch_npu (tests use plain objects)
            torch_accessor.ensure()
        lock_num = max(opts.lock_num, 0)
        try:  # both may build the task-queue shim against the installed torch_npu
            allocator, allocator_owner = (self._lock_allocator(opts.lock_init_value)
                                          if lock_num else (None, None))
            submit = self._submitter()
        except Exception as err:
            raise PlanUnavailable("task_queue_unavailable",
                                  f"{type(err).__name__}: {err}") from None
        try:
            ffts_addr = self.runtime.ffts_address(spec.device) if opts.ffts else 0
        except (_core.InputError, _core.LaunchError) as err:
            raise PlanUnavailable("plan_creation_error", str(err)) from None
        try:
            plan = _core.Plan("npu", list(spec.signature), names=list(spec.names),
                              runtime_arg_count=len(runtime_positions),
                              positions=runtime_positions, input_count=input_count,
                              fixed_args=tuple(fixed_args), ffts=opts.ffts, ffts_addr=ffts_addr,
                              pure_simt=opts.pure_simt, static_grid=spec.static_grid,
                              expected_device=(PRIVATE_USE1, spec.device))
        except _core.InputError as err:  # as the CUDA backend: the signature's fault
            raise PlanUnavailable("signature_type_unsupported", str(err)) from None
        try:
            launcher = _core.NpuLauncher(
                plan, self.runtime, spec.name, spec.handle, simt_launch=opts.simt_launch,
                local_memory=opts.local_memory, submit=submit, taskqueue=opts.taskqueue,
                lock_num=lock_num, lock_init=opts.lock_init_value, allocator=allocator,
                allocator_owner=allocator_owner, check_pointers=opts.check_pointers)
        except (_core.InputError, _core.LaunchError) as err:
            raise PlanUnavailable("plan_creation_error", str(err)) from None
        return NpuPlan(spec, opts, launcher, family, max(opts.workspace_size, 0), self.workspace)

    @staticmethod
    def _refusal(opts: NpuOptions) -> tuple[str, str] | None:
        """Launch behaviours of the original launcher a plan does not reproduce."""
        if opts.device_print:
            return ("device_print_unsupported", "TRITON_DEVICE_PRINT adds a DTData slot")
        if opts.coalesce_factor > 1:
            return ("coalesced_grid_unsupported",
                    f"coalesce_factor={opts.coalesce_factor} divides the grid")
        if opts.blocks_parallel:
            return ("blocks_parallel_clamp_unsupported",
                    "TRITON_ALL_BLOCKS_PARALLEL clamps blockDim to the core count")
        if opts.register_tensor_msprof:
            return ("register_tensor_msprof",
                    "TRITON_REGISTER_TENSOR_MSPROF: the original launcher records tensor "
                    "shapes and launches nothing")
        if opts.grid_warn_print:
            return ("grid_warn_print_unsupported",
                    "TRITON_GRID_WARN_PRINT: the original launcher warns when the grid "
                    "exceeds the core count")
        if not 0 <= opts.local_memory <= 0xFFFFFFFF:
            return ("local_memory_out_of_range", str(opts.local_memory))
        return None


def launch_family_report(libraries: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """(what, finding) lines for ``doctor``: the launch family of the installed
    triton-ascend and whether the loaded CANN can launch it."""
    detection = families.installed()
    lines = []
    if detection.family is None:
        lines.append(("launch API", f"none: plans refused ({detection.reason}: "
                                    f"{detection.detail})"))
    else:
        fam = detection.family
        memory = (f"metadata.{fam.simt_local_memory}" if isinstance(fam.simt_local_memory, str)
                  else f"{fam.simt_local_memory} bytes")
        lines.append(("launch API", f"rtKernelLaunch (SIMT: rtKernelLaunchWithFlagV2, local "
                                    f"memory {memory}); {detection.detail}"))
        lines.append(("generator", f"scalar kinds {' '.join(sorted(fam.scalar_kinds))}; "
                                   f"tensor address checks {'on' if fam.checks_pointers else 'off'}"
                                   f"; switches read: {' '.join(sorted(fam.switches)) or 'none'}"))
    runtime = _core.NpuRuntime(list(libraries or config.get().cann_libraries))
    lines.append(("launch API in CANN", runtime.missing_for(True) or "present"))
    lines.append(("msprof switch", "registered" if _core.npu_msprof_registered()
                  else "not registered (msprof not found)"))
    return lines


def _library_list(libraries: str | Sequence[str] | None) -> tuple[str, ...]:
    """``libraries`` as a tuple of paths: a str is one library, not its letters."""
    if isinstance(libraries, str):
        return (libraries,)
    try:
        items = tuple(libraries or ())
    except TypeError:
        items = None
    if items is None or not all(isinstance(lib, str) for lib in items):
        msg = (f"NpuBackend.libraries: got {libraries!r}, expected a library path (str) or a "
               "sequence of paths")
        raise TypeError(msg)
    return items or tuple(config.get().cann_libraries)
