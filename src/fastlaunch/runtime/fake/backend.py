# SPDX-License-Identifier: Apache-2.0
"""Fake backend: the real native plan of either ABI packs each launch, and
the launch is recorded instead of submitted: only the submission is fake.
``fail_at`` makes one stage fail so tests can show that a failed launch is
never replayed. Like the real backends, every problem found before the
launch (grid, args, values, device) is a ``CallRefused`` with its reason;
nothing is recorded then."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ...errors import CallRefused, FastLaunchError, PlanUnavailable
from .. import _core, abi, native
from ..base import Backend, KernelSpec, LaunchRecord, Plan, backend_error
from ..cuda.options import CudaOptions
from ..npu.options import NpuOptions

# Each ABI's options, typed and checked as its real backend checks them.
_OPTIONS = {"cuda": CudaOptions, "npu": NpuOptions}

FAIL_STAGES = ("before_pack", "pack", "launch", "after_submit")
FAKE_FFTS_ADDR = 0xFF75_0000
FAKE_WORKSPACE_ADDR = 0x7000_0000
FAKE_SYNC_LOCK_ADDR = 0x7100_0000


class FakeLaunchFailure(RuntimeError):
    """The failure injected at ``stage``."""

    def __init__(self, stage: str) -> None:
        super().__init__(f"injected failure at stage {stage!r}")
        self.stage = stage


@dataclasses.dataclass(frozen=True, eq=False)
class FakePlan(Plan):
    """A plan whose launches the fake backend records; it has no native launcher."""

    spec: KernelSpec
    packer: _core.Plan  # the _core.Plan the real backend of this ABI would hold
    input_count: int
    backend: FakeBackend

    def launch(self, stream: int, grid: Sequence[int], args: tuple) -> None:
        self.backend.launch(self, stream, grid, args)

    def translate(self, err: BaseException) -> FastLaunchError:
        return self.backend.translate_error(err)

    def describe(self, stream: int, grid: Sequence[int], args: tuple) -> LaunchRecord:
        return self.backend.describe(self, stream, grid, args)

    def summary(self) -> str:
        return f"fake[{self.backend.abi}] {self.spec.name}: {self.packer.size} bytes"


class FakeBackend(Backend):
    name = "fake"

    def __init__(self, abi_name: str = "npu") -> None:
        if abi_name not in abi.ABIS:
            msg = f"abi: got {abi_name!r}, expected one of {abi.ABIS}"
            raise ValueError(msg)
        self.abi = abi_name
        self.launches: list[LaunchRecord] = []
        self.fail_at: str | None = None
        self.current_device = 0  # what the device runtime would report as current

    def available(self) -> tuple[bool, str]:
        return True, ""

    def make_plan(self, spec: KernelSpec, *, input_count: int, fixed_args: tuple) -> FakePlan:
        runtime = tuple(p for p in spec.positions if p < input_count)
        n_fixed = len(spec.positions) - len(runtime)
        if spec.positions[len(runtime):] != tuple(range(input_count, input_count + n_fixed)):
            raise PlanUnavailable("fixed_args_not_trailing", detail=str(spec.positions))
        if n_fixed != len(fixed_args):
            raise PlanUnavailable("fixed_args_mismatch",
                                  detail=f"got {len(fixed_args)}, expected {n_fixed}")
        if spec.grid is None and spec.static_grid is None:
            raise PlanUnavailable("grid_resolver_missing")
        if fixed_args and self.abi == "cuda":  # as the CUDA backend refuses them
            raise PlanUnavailable("fixed_args_unsupported",
                                  detail="cuda kernels take every argument per call")
        opts = _OPTIONS[self.abi].of(spec.options)  # checked as the real backend checks them
        flags: dict = {"n_scratch": opts.n_scratch} if self.abi == "cuda" else {}
        if self.abi == "npu":
            flags = {"ffts": opts.ffts, "ffts_addr": FAKE_FFTS_ADDR if opts.ffts else 0,
                     "pure_simt": opts.pure_simt,
                     "runtime_arg_count": len(runtime), "fixed_args": tuple(fixed_args)}
        try:
            plan = _core.Plan(self.abi, list(spec.signature), names=list(spec.names),
                              positions=list(runtime), input_count=input_count, **flags)
        except _core.InputError as err:
            raise PlanUnavailable(getattr(err, "reason", None) or "signature_type_unsupported",
                                  detail=str(err)) from None
        return FakePlan(spec, plan, input_count, self)

    def _fail(self, stage: str) -> None:
        if self.fail_at == stage:
            raise FakeLaunchFailure(stage)

    def describe(self, plan: FakePlan, stream: int, grid: Sequence[int],
                 args: tuple) -> LaunchRecord:
        size = abi.check_grid(self.abi, grid)
        grid = abi.read_grid(grid)
        if len(args) != plan.input_count:
            raise CallRefused("arg_count_mismatch",
                              detail=f"args: got {len(args)}, expected {plan.input_count}")
        opts = _OPTIONS[self.abi].of(plan.spec.options)
        scratch = {}
        if self.abi == "npu":
            if opts.workspace_size > 0:
                scratch["workspace"] = FAKE_WORKSPACE_ADDR
            if opts.lock_num > 0:
                scratch["sync_lock"] = FAKE_SYNC_LOCK_ADDR
        self._fail("pack")
        try:
            data = plan.packer.pack(args, grid, **scratch)
        except (_core.InputError, _core.GridError) as err:
            raise native.translate(err) from None
        block_dim = size if self.abi == "npu" else 32 * int(opts.get("num_warps", 4))
        config = {k: opts[k] for k in sorted(opts)}
        return LaunchRecord(plan.spec.name, data, grid, block_dim, stream, config)

    def launch(self, plan: FakePlan, stream: int, grid: Sequence[int], args: tuple) -> None:
        """Record one launch (``plan.launch``), as the real backend would submit it."""
        if abi.check_grid(self.abi, grid) == 0:  # CallRefused before anything else
            return  # cuda: an empty grid launches nothing
        if plan.spec.device != self.current_device:
            raise CallRefused("device_mismatch",
                              detail=f"device: current device is {self.current_device}, "
                                     f"this plan was made for device {plan.spec.device}")
        self._fail("before_pack")
        record = self.describe(plan, stream, grid, args)
        self._fail("launch")
        self.launches.append(record)
        self._fail("after_submit")

    def translate_error(self, err: BaseException) -> FastLaunchError:
        """``plan.translate``: the generic one (tests override it with the real one)."""
        return backend_error(err)
