# SPDX-License-Identifier: Apache-2.0
"""The contract between the routing engine and a launch backend."""

from __future__ import annotations

import abc
import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import FastLaunchError


@dataclasses.dataclass(frozen=True)
class KernelSpec:
    """What an integration knows about one compiled launcher.

    ``signature`` lists the kernel's runtime parameters (Triton types,
    constexprs removed) and ``positions`` where each one comes from in the
    launcher's inputs: the wrapper's call args followed by any fixed trailing
    args (Ascend runtime-block args). ``grid`` takes those same inputs.
    """

    name: str
    handle: int
    signature: tuple[str, ...]
    names: tuple[str, ...]
    positions: tuple[int, ...]
    grid: Callable[..., Sequence[int]] | None
    static_grid: tuple[int, int, int] | None = None
    device: int = 0
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    owner: object = None  # keeps the loaded binary (and so ``handle``) alive
    hooks: tuple[Sequence[object], ...] = ()  # live launch-hook lists
    grid_program: tuple[int, ...] | None = None  # fastlaunch.engine.gridexpr form of ``grid``


@dataclasses.dataclass(frozen=True)
class LaunchRecord:
    """What one launch sends to the device runtime."""

    kernel: str
    data: bytes
    grid: tuple[int, int, int]
    block_dim: int  # npu: product of the grid; cuda: threads per block
    stream: int
    config: Mapping[str, Any]


class Backend(abc.ABC):
    """One launch ABI and runtime. Plans are opaque to the engine."""

    name: str
    abi: str

    @abc.abstractmethod
    def available(self) -> tuple[bool, str]:
        """(usable, why not) without touching a device."""

    @abc.abstractmethod
    def make_plan(self, spec: KernelSpec, *, input_count: int, fixed_args: tuple) -> Any:
        """Build a plan, or raise PlanUnavailable naming the reason."""

    @abc.abstractmethod
    def launch(self, plan: Any, stream: int, grid: Sequence[int], args: tuple) -> None:
        """Pack and submit one launch. Raise CallRefused only before anything is packed."""

    @abc.abstractmethod
    def describe(self, plan: Any, stream: int, grid: Sequence[int], args: tuple) -> LaunchRecord:
        """The record ``launch`` would send, without sending it."""

    def bind_launch(self, plan: Any) -> Callable[[Any, Sequence[int], tuple], object]:
        """``launch`` with the plan bound, for the steady state. It may raise
        native errors; the engine passes them through ``translate_error``."""
        return functools.partial(self.launch, plan)

    def native_launcher(self, plan: Any) -> object | None:
        """The native launcher object a FastSite can call directly, if any."""
        return None

    def translate_error(self, err: BaseException) -> FastLaunchError:
        """Map an error raised by a bound launch to a FastLaunchError."""
        if isinstance(err, FastLaunchError):
            return err
        return FastLaunchError("backend_error", submitted=True,
                               detail=f"{type(err).__name__}: {err}")

    def plan_summary(self, plan: Any) -> str:
        """One line for logs and ``doctor``."""
        return repr(plan)
