# SPDX-License-Identifier: Apache-2.0
"""NPU backend: triton-ascend's packed launcher struct, launched through CANN.

The launch API is chosen per plan from the symbols the loaded CANN libraries
export: ``aclrtLaunchKernelWithHostArgs`` where present, else
``rtKernelLaunch`` (``rtKernelLaunchWithFlagV2`` for SIMT kernels). Launches
go through torch_npu's task queue (an ``OpCommand`` custom handler, see
``queue.py``) or, with ``queue="inline"``, straight to the runtime.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable, Sequence

from ... import _core, config
from ...errors import FastLaunchError, PlanUnavailable
from .. import native, torch_accessor
from ..base import Backend, KernelSpec, LaunchRecord

# (bytes) -> (address, keep-alive); (count, init) -> (address, keep-alive)
Allocator = Callable[[int], tuple[int, object]]
LockAllocator = Callable[[int, int], tuple[int, object]]


def torch_workspace(size: int) -> tuple[int, object]:
    """Workspace from torch_npu's caching allocator on the current stream.

    The block returns to the pool when the tensor is dropped, and the pool
    hands it only to work queued later on the same stream, which runs after
    this kernel: the stream order keeps it alive long enough.
    """
    import torch

    tensor = torch.empty(size, dtype=torch.uint8, device="npu")
    return tensor.data_ptr(), tensor


def torch_locks(count: int, init: int) -> tuple[int, object]:
    import torch

    tensor = torch.full((count,), init, dtype=torch.int64, device="npu")
    return tensor.data_ptr(), tensor


class NpuBackend(Backend):
    name = "npu"
    abi = "npu"

    def __init__(self, libraries: Sequence[str] | None = None, queue: str = "auto",
                 workspace: Allocator = torch_workspace, locks: LockAllocator = torch_locks,
                 ) -> None:
        """``queue``: "auto" submits through torch_npu's task queue (needs torch_npu),
        "inline" calls the runtime directly (tests, and runs with the queue off)."""
        if queue not in ("auto", "inline"):
            msg = f"queue: got {queue!r}, expected 'auto' or 'inline'"
            raise ValueError(msg)
        self.libraries = tuple(libraries or config.get().cann_libraries)
        self.queue = queue
        self.workspace = workspace
        self.locks = locks
        self._runtime: _core.NpuRuntime | None = None
        self._submit: object = None

    @property
    def runtime(self) -> _core.NpuRuntime:
        if self._runtime is None:
            self._runtime = _core.NpuRuntime(list(self.libraries))
        return self._runtime

    def available(self) -> tuple[bool, str]:
        missing = []
        if self.queue == "auto" and importlib.util.find_spec("torch_npu") is None:
            missing.append("torch_npu is not installed")
        if self.runtime.missing:
            missing.append(f"CANN: {self.runtime.missing} (libraries: {', '.join(self.libraries)})")
        return (not missing), "; ".join(missing)

    def launch_api(self) -> str:
        return self.runtime.launch_api or "none"

    def _submitter(self) -> object:
        if self.queue == "inline":
            return None
        if self._submit is None:
            from . import queue

            self._submit = queue.submit_capsule()
        return self._submit

    def make_plan(self, spec: KernelSpec, *, input_count: int, fixed_args: tuple):
        opts = spec.options
        refusal = self._refusal(opts)
        if refusal:
            raise PlanUnavailable(*refusal)
        runtime_positions = [p for p in spec.positions if p < input_count]
        n_fixed = len(spec.positions) - len(runtime_positions)
        if list(spec.positions[len(runtime_positions):]) != list(
                range(input_count, input_count + n_fixed)) or n_fixed != len(fixed_args):
            raise PlanUnavailable("fixed_args_mismatch",
                                  detail=f"positions {spec.positions}, {len(fixed_args)} fixed")
        if self.queue == "auto":  # running under torch_npu (tests use plain objects)
            torch_accessor.ensure()
        ffts_addr = 0
        try:
            if opts.get("ffts"):
                ffts_addr = self.runtime.ffts_address()  # once per plan; zero refuses
            plan = _core.Plan("npu", list(spec.signature), names=list(spec.names),
                              runtime_arg_count=len(runtime_positions),
                              positions=runtime_positions, input_count=input_count,
                              fixed_args=tuple(fixed_args), ffts=bool(opts.get("ffts")),
                              ffts_addr=ffts_addr, pure_simt=bool(opts.get("pure_simt")),
                              static_grid=spec.static_grid)
            launcher = _core.NpuLauncher(plan, self.runtime, spec.name, spec.handle,
                                         bool(opts.get("simt")),
                                         int(opts.get("dyn_ubuf_size", 0)), self._submitter())
        except (_core.InputError, _core.LaunchError) as err:
            raise PlanUnavailable("plan_creation_error", str(err)) from None
        launcher.spec = spec
        launcher.workspace_size = max(int(opts.get("workspace_size", 0) or 0), 0)
        launcher.lock_num = max(int(opts.get("lock_num", 0) or 0), 0)
        launcher.lock_init = int(opts.get("lock_init_value", 0) or 0)
        if (launcher.workspace_size or launcher.lock_num) and not plan.has_hidden_slots:
            raise PlanUnavailable("memory_without_slots",
                                  detail="pure-SIMT kernel asks for workspace or locks")
        return launcher

    @staticmethod
    def _refusal(opts) -> tuple[str, str] | None:
        """Launch behaviours of the original launcher a plan does not reproduce."""
        if opts.get("device_print"):
            return ("device_print_unsupported", "TRITON_DEVICE_PRINT adds a DTData slot")
        if int(opts.get("coalesce_factor", 1) or 1) > 1:
            return ("coalesced_grid_unsupported",
                    f"coalesce_factor={opts['coalesce_factor']} divides the grid")
        if os.environ.get("TRITON_ALL_BLOCKS_PARALLEL", "").strip().lower() in (
                "1", "true", "yes", "on"):
            return ("blocks_parallel_clamp_unsupported",
                    "TRITON_ALL_BLOCKS_PARALLEL clamps blockDim to the core count")
        if opts.get("pure_simt") and not opts.get("simt"):
            return ("pure_simt_without_simt", "pure-SIMT kernels must be SIMT")
        if not 0 <= int(opts.get("dyn_ubuf_size", 0)) <= 0xFFFFFFFF:
            return ("dyn_ubuf_size_out_of_range", str(opts.get("dyn_ubuf_size")))
        return None

    def _memory(self, plan, grid: Sequence[int]) -> tuple[int, int, list]:
        keep: list = []
        workspace = lock = 0
        if plan.workspace_size:
            workspace, owner = self.workspace(plan.workspace_size * grid[0] * grid[1] * grid[2])
            keep.append(owner)
        if plan.lock_num:
            lock, owner = self.locks(plan.lock_num, plan.lock_init)
            keep.append(owner)
        return workspace, lock, keep

    def launch(self, plan, stream: int, grid: Sequence[int], args: tuple) -> None:
        try:
            if plan.workspace_size or plan.lock_num:
                plan.plan.check_grid(*grid)  # refuse before allocating
                workspace, lock, _keep = self._memory(plan, grid)
                plan.launch(stream, grid, args, workspace, lock)
            else:
                plan.launch(stream, grid, args)
        except Exception as err:
            raise self.translate_error(err) from err

    def bind_launch(self, plan):
        if plan.workspace_size or plan.lock_num:
            return functools.partial(self.launch, plan)
        return plan.launch

    def native_launcher(self, plan):
        return None if plan.workspace_size or plan.lock_num else plan

    def translate_error(self, err: BaseException) -> FastLaunchError:
        return native.translate(err)

    def describe(self, plan, stream: int, grid: Sequence[int], args: tuple) -> LaunchRecord:
        workspace, lock, _keep = self._memory(plan, grid)
        data = plan.plan.pack(tuple(args), tuple(grid), workspace=workspace, sync_lock=lock)
        block_dim = grid[0] * grid[1] * grid[2]
        return LaunchRecord(plan.spec.name, data, tuple(grid), block_dim, stream,
                            {"api": plan.api, "queued": plan.queued,
                             **dict(plan.spec.options)})

    def plan_summary(self, plan) -> str:
        return (f"npu {plan.spec.name}: {plan.api} launch, {plan.plan.size}-byte args, "
                f"{'task queue' if plan.queued else 'inline'}")
