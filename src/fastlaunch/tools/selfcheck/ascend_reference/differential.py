# SPDX-License-Identifier: Apache-2.0
"""Both sides of one call: triton-ascend's launcher and fastlaunch's NPU
backend, run on the same recorder."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .build import Launcher, build_launchers
from .generator import Case, Generator, environment
from .observe import observe
from .recorder import KIND_LOCK, KIND_WORKSPACE, CannRecorder


class FakeTensor:
    """What the launcher reads from a tensor argument: its address, and its
    shape when msprof's level-1 switch asks for tensor info."""

    def __init__(self, address: int, shape: Sequence[int] = (4,)) -> None:
        self.address = address
        self.shape = tuple(shape)

    def data_ptr(self) -> int:
        return self.address

    def size(self) -> tuple[int, ...]:
        return self.shape

    def __repr__(self) -> str:
        return f"FakeTensor({self.address:#x}, {self.shape})"


@dataclasses.dataclass(frozen=True)
class LauncherCall:
    """One launch of one case: the launcher's Python inputs."""

    case: Case
    args: tuple
    grid: tuple[int, int, int] = (1, 1, 1)
    stream: int = 0x5151
    handle: int = 0xBEEF00
    profiling: int = 0  # 0 off, 1 msprof L0, 2 L0 + L1
    host_below: int = 0  # addresses below it read as host memory to pointer queries


@dataclasses.dataclass
class Observation:
    observed: dict[str, Any]
    error: BaseException | None
    full_entry: bool = False  # fastlaunch would hand this call to the original launcher


class Differential:
    """Runs calls through the reference launcher and through fastlaunch's NPU
    backend on one recorder."""

    def __init__(self, recorder: CannRecorder, generators: Mapping[str, Generator],
                 directory: Path | None = None) -> None:
        self.recorder = recorder
        self.generators = dict(generators)  # a label ("3.2.0", "main") -> its generator
        self.directory = directory

    def build(self, which: str, cases: Sequence[Case]) -> list[Any]:
        gen = self.generators[which]
        return build_launchers(gen, [gen.render(c) for c in cases], self.recorder.path,
                               self.directory)

    def _profiling(self, level: int) -> None:
        self.recorder.profiling(level > 0, level1=level > 1)

    def reference(self, which: str, launch: Launcher, call: LauncherCall) -> Observation:
        """The original launcher's calls, its struct's padding bytes masked."""
        gen = self.generators[which]
        self.recorder.reset()
        self.recorder.host_below(call.host_below)
        self._profiling(call.profiling)
        error = None
        try:
            launch(*call.grid, call.stream, call.handle, gen.packed_metadata(call.case),
                   None, None, None, *call.args)
        except Exception as err:  # the original's own refusal, compared by the caller
            error = err
        events = self.recorder.events()
        self._profiling(0)
        return Observation(observe(events, [launch.padding]), error)

    def spec(self, which: str, call: LauncherCall) -> Any:
        """fastlaunch's KernelSpec for the case, from production code."""
        from ....runtime.base import KernelSpec
        from ....runtime.npu import family as families
        from ....runtime.npu import kernel_meta

        gen = self.generators[which]
        case = call.case
        detection = families.detect(gen.read)
        if detection.family is None:
            msg = f"fastlaunch cannot tell the launch family: {detection.reason} {detection.detail}"
            raise RuntimeError(msg)
        with environment(case.env()):
            ffts = gen.driver.is_ffts_supported(gen.driver.get_ascend_arch_from_env()) \
                and not gen.driver.force_disable_ffts()
            meta = kernel_meta.describe(dict(enumerate(case.signature)), dict(case.constants),
                                        gen.metadata(case), handle=call.handle,
                                        kernel_name=case.name, family=detection.family,
                                        ffts=ffts, packed_metadata=gen.packed_metadata(case),
                                        env=case.env())
        return KernelSpec(name=meta.name, handle=meta.handle, signature=meta.signature,
                          names=meta.names, positions=meta.indices, grid=None,
                          options=meta.options)

    def fastlaunch(self, which: str, call: LauncherCall) -> Observation:
        """fastlaunch's calls; under msprof, whether its probe (the state the
        original launcher reads) sends the call to the original instead."""
        from ....runtime import _core
        from ....runtime.npu.backend import NpuBackend

        rec = self.recorder
        rec.reset()
        rec.host_below(call.host_below)
        error, full_entry = None, False
        with environment(call.case.env()):
            try:
                queued = call.case.taskqueue  # torch_npu's queue, recorded
                backend = NpuBackend(
                    libraries=[str(rec.path)], queue="auto" if queued else "inline",
                    submit=rec.submit_capsule() if queued else None,
                    workspace=lambda size: (rec.alloc(KIND_WORKSPACE, size), None),
                    locks=lambda count, _init: (rec.alloc(KIND_LOCK, 8 * count), None))
                plan = backend.make_plan(self.spec(which, call),
                                         input_count=len(call.args), fixed_args=())
                self._profiling(call.profiling)
                full_entry = _core.npu_msprof_collecting()
                if not full_entry:
                    plan.submit(call.stream, call.grid, call.args)
            except Exception as err:
                error = err
        events = rec.events()
        self._profiling(0)
        return Observation(observe(events), error, full_entry)
