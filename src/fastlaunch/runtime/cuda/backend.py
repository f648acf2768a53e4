# SPDX-License-Identifier: Apache-2.0
"""CUDA backend: native plans launched with ``cuLaunchKernel``.

The kernel parameter buffer goes through ``CU_LAUNCH_PARAM_BUFFER_POINTER``;
libcuda is opened at run time. Each plan's layout is checked against the
driver's own ``cuFuncGetParamInfo`` where the driver has it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ...errors import PlanUnavailable
from .. import _core, torch_accessor
from ..base import Backend, KernelSpec, LaunchRecord
from ..native import NativePlan
from .options import CudaOptions

# c10::DeviceType::CUDA: the core refuses tensor arguments on any other device
# (or another CUDA device) before anything is packed.
CUDA_DEVICE_TYPE = 1


def spec_from_compiled(compiled: object, name: str, signature: dict, device: int,
                       static_grid: tuple[int, int, int] = (1, 1, 1)) -> KernelSpec:
    """The KernelSpec of a kernel compiled directly with ``triton.compile``
    (``signature``: parameter name -> Triton type, constexprs included), taking
    its runtime parameters in order. The self-check and the hardware tests plan
    such kernels beside Triton's own launcher."""
    names = tuple(k for k, kind in signature.items() if kind != "constexpr")
    meta = compiled.metadata
    return KernelSpec(name=name, handle=int(compiled.function),
                      signature=tuple(signature[k] for k in names), names=names,
                      positions=tuple(range(len(names))), grid=None, static_grid=static_grid,
                      device=device, options=CudaOptions(num_warps=int(meta.num_warps),
                                                         shared=int(meta.shared)),
                      owner=compiled)


@dataclasses.dataclass(frozen=True, eq=False)
class CudaPlan(NativePlan):
    """A kernel planned for ``cuLaunchKernel``: the native launcher does it all."""

    spec: KernelSpec
    launcher: _core.CudaLauncher

    @property
    def launch(self):
        return self.launcher.launch

    @property
    def native(self) -> _core.CudaLauncher:
        return self.launcher

    def describe(self, stream: int, grid: Sequence[int], args: tuple) -> LaunchRecord:
        launcher = self.launcher
        return LaunchRecord(self.spec.name, launcher.plan.pack(tuple(args)), tuple(grid),
                            launcher.block_x, stream,
                            {"shared": launcher.shared, "device": launcher.device})

    def summary(self) -> str:
        launcher = self.launcher
        return (f"cuda {self.spec.name}: cuLaunchKernel, {launcher.plan.size}-byte params, "
                f"block {launcher.block_x}, shared {launcher.shared}, device {launcher.device}")


class CudaBackend(Backend):
    name = "cuda"
    abi = "cuda"

    def available(self) -> tuple[bool, str]:
        why = _core.cuda_driver_status()
        return (not why), why

    def make_plan(self, spec: KernelSpec, *, input_count: int, fixed_args: tuple) -> CudaPlan:
        if fixed_args:
            raise PlanUnavailable("fixed_args_unsupported",
                                  detail="cuda kernels take every argument per call")
        opts = CudaOptions.of(spec.options)
        try:
            plan = _core.Plan("cuda", list(spec.signature), names=list(spec.names),
                              positions=list(spec.positions), input_count=input_count,
                              n_scratch=opts.n_scratch,
                              expected_device=(CUDA_DEVICE_TYPE, spec.device))
        except _core.InputError as err:
            raise PlanUnavailable("signature_type_unsupported", str(err)) from None
        torch_accessor.ensure()  # never builds: loads a cached build if there is one
        driver = [tuple(p) for p in _core.cuda_param_info(spec.handle)]
        ours = [(offset, size) for _, offset, size in plan.fields]
        if driver and driver != ours:
            raise PlanUnavailable("driver_param_layout_mismatch",
                                  detail=f"driver {driver}, fastlaunch {ours}")
        try:
            launcher = _core.CudaLauncher(plan, spec.handle, opts.num_warps, opts.shared,
                                          spec.device)
        except (_core.InputError, _core.LaunchError) as err:
            raise PlanUnavailable("plan_creation_error", str(err)) from None
        return CudaPlan(spec, launcher)
