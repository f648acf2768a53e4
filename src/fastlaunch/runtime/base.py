# SPDX-License-Identifier: Apache-2.0
"""The contract between the routing engine and a launch backend."""

from __future__ import annotations

import abc
import dataclasses
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


def backend_error(err: BaseException) -> FastLaunchError:
    """``err`` when it is a FastLaunchError, else a backend_error that may have submitted."""
    if isinstance(err, FastLaunchError):
        return err
    return FastLaunchError("backend_error", submitted=True, detail=f"{type(err).__name__}: {err}")


class Plan(abc.ABC):
    """A backend's plan for one kernel at one call site, immutable once made.

    The engine reads three things: ``launch`` (the steady-state launch, which
    may raise the backend's native errors), ``translate`` (those errors as a
    FastLaunchError) and ``native`` (the ``_core`` launcher a FastSite calls
    in C++, or None). ``packer`` is the ``_core.Plan`` that lays out and packs
    each launch; ``submit``, ``describe`` and ``summary`` serve tools and tests.
    """

    spec: KernelSpec
    packer: Any  # the _core.Plan that lays out and packs each launch

    @property
    @abc.abstractmethod
    def launch(self) -> Callable[[Any, Sequence[int], tuple], object]:
        """``launch(stream, grid, args)``: pack and submit one launch."""

    @property
    def native(self) -> object | None:
        """The native launcher a FastSite can call directly, if any."""
        return None

    def translate(self, err: BaseException) -> FastLaunchError:
        """Map an error raised by ``launch`` to a FastLaunchError."""
        return backend_error(err)

    def submit(self, stream: Any, grid: Sequence[int], args: tuple) -> None:
        """``launch`` with its errors translated. CallRefused means nothing was submitted."""
        try:
            self.launch(stream, grid, args)
        except Exception as err:
            raise self.translate(err) from err

    @abc.abstractmethod
    def describe(self, stream: int, grid: Sequence[int], args: tuple) -> LaunchRecord:
        """The record ``launch`` would send, without sending it."""

    @abc.abstractmethod
    def summary(self) -> str:
        """One line for logs and ``doctor``."""


class Backend(abc.ABC):
    """One launch ABI and runtime: it says whether it can run and makes plans."""

    name: str
    abi: str

    @abc.abstractmethod
    def available(self) -> tuple[bool, str]:
        """(usable, why not) without touching a device."""

    @abc.abstractmethod
    def make_plan(self, spec: KernelSpec, *, input_count: int, fixed_args: tuple) -> Plan:
        """Build a plan, or raise PlanUnavailable naming the reason."""
