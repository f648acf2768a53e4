# SPDX-License-Identifier: Apache-2.0
"""Stand-ins for Inductor's autotuners and launchers, for tests and the demo.

``FakeAutotuner`` is shaped like torch_npu's ``NPUCachingAutotuner``
(``best_launcher``, ``best_runtime_blocks``) or, with ``npu_shaped=False``,
like stock Inductor's ``CachingAutotuner`` (``launchers`` only). Every
launch, planned or original, is recorded on the fake runtime so tests can
count submissions exactly.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Sequence

from ..engine import routing
from ..integrations import launchers
from ..runtime.base import KernelSpec
from ..runtime.fake import FakeBackend


def spec(name: str, signature: Sequence[str], *, names: Sequence[str] | None = None,
         grid: Callable[..., Sequence[int]] | None = None,
         static_grid: tuple[int, int, int] | None = None, hooks: tuple = (),
         grid_exprs: tuple[str, str, str] | None = None, **options: object) -> KernelSpec:
    """A KernelSpec whose parameters are the launcher inputs, in order (the
    call args, then any runtime-block args the autotuner appends).
    ``grid_exprs`` builds the grid from Inductor-style expressions over the
    parameter names, as the integrations do."""
    names = tuple(names or (f"arg{i}" for i in range(len(signature))))
    program = None
    if grid_exprs is not None:
        grid, static_grid, program = launchers.grid_resolver(
            types.SimpleNamespace(prefix=[], x_grid=grid_exprs[0], y_grid=grid_exprs[1],
                                  z_grid=grid_exprs[2]),
            types.SimpleNamespace(__globals__={}), names)
    if grid is None and static_grid is None:
        static_grid = (1, 1, 1)
    return KernelSpec(name=name, handle=0xBEEF, signature=tuple(signature), names=names,
                      positions=tuple(range(len(signature))),
                      grid=grid, static_grid=static_grid, options=dict(options), hooks=hooks,
                      grid_program=program)


def ceil_grid(numel_index: int, block: int) -> Callable[..., tuple[int, int, int]]:
    """A 1-D grid resolver ``(ceil(args[numel_index] / block), 1, 1)``."""
    def grid(*inputs: object) -> tuple[int, int, int]:
        return (math.ceil(inputs[numel_index] / block), 1, 1)  # type: ignore[operator]

    return grid


class FakeLauncher:
    """An original (non-planned) launcher: records its calls on the runtime."""

    def __init__(self, kernel_spec: KernelSpec | None, *, refusal: str | None = None,
                 store_cubin: bool = False) -> None:
        if kernel_spec is not None:
            setattr(self, routing.SPEC_ATTR, kernel_spec)
        if refusal is not None:
            setattr(self, routing.REFUSAL_ATTR, refusal)
        self.store_cubin = store_cubin
        self.calls: list[tuple[tuple, object]] = []

    def __call__(self, *args: object, stream: object) -> None:
        self.calls.append((args, stream))


class FakeAutotuner:
    """Enough of an Inductor autotuner for the routing engine."""

    def __init__(self, launchers: Sequence[FakeLauncher], *, npu_shaped: bool = True,
                 runtime_blocks: tuple = (), grouped: bool = False) -> None:
        self.launchers = list(launchers)
        self.inductor_meta = {"group_enabled": grouped}
        self.cuda_kernel_saved = False
        self.triton_interpret = False
        self.dump_launch_params = False
        self.full_entries = 0
        self._runtime_blocks = tuple(runtime_blocks)
        if npu_shaped:
            self.best_launcher = None
            self.best_runtime_blocks: tuple = ()

    def _settle(self) -> FakeLauncher:
        if len(self.launchers) > 1:  # "autotune": keep the first config
            self.launchers = self.launchers[:1]
        launcher = self.launchers[0]
        if hasattr(self, "best_launcher"):
            self.best_launcher = launcher
            self.best_runtime_blocks = self._runtime_blocks
        return launcher

    def run(self, *args: object, stream: object, benchmark_run: bool = False,
            **kwargs: object) -> None:
        self.full_entries += 1
        launcher = self._settle()
        blocks = getattr(self, "best_runtime_blocks", ())
        launcher(*args, *blocks, stream=stream)

    def _build_runtime_launch_args(self, args: tuple, blocks: tuple) -> tuple:
        return (*args, *blocks)


def submissions(backend: FakeBackend, *launchers: FakeLauncher) -> int:
    """Every launch that reached the runtime, planned or original."""
    return len(backend.launches) + sum(len(launcher.calls) for launcher in launchers)
