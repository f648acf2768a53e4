# SPDX-License-Identifier: Apache-2.0
"""The planned-call trace of ``fastlaunch.tools.selfcheck.planned_call`` over the
wrappers in tests/data/wrappers (see that module for what a trace holds).

The saved Inductor wrappers (tests/data/wrappers/inductor) compile their C++
kernels when they load; those kernels were written for the float vector width
``inductor/isa.json`` records (generate.py writes it), so every load of them
pins Inductor's ISA to that width, and a test skips, saying why, on a host
without an ISA of that width."""

from __future__ import annotations

import functools
import json
import pathlib

import pytest

from fastlaunch.tools.selfcheck import planned_call as _selfcheck
from fastlaunch.tools.selfcheck import vector_width
from fastlaunch.tools.selfcheck.planned_call import RecordedKernel, TraceRecorder, instrument, run

WRAPPERS = pathlib.Path(__file__).resolve().parent.parent / "data" / "wrappers"
SAVED = WRAPPERS / "inductor"

__all__ = ["SAVED", "WRAPPERS", "RecordedKernel", "TraceRecorder", "assert_bit_equal",
           "instrument", "load", "load_file", "require_width", "run", "written_float_lanes"]


@functools.cache
def _manifest() -> dict[str, dict]:
    return json.loads((SAVED / "isa.json").read_text())


def written_float_lanes(path: pathlib.Path) -> int | None:
    """The float lanes the saved wrapper at ``path`` was generated for (None: not a
    saved Inductor wrapper, so nothing to pin)."""
    path = pathlib.Path(path).resolve()
    if path.parent != SAVED:
        return None
    entry = _manifest().get(path.name)
    assert entry is not None, (f"{SAVED / 'isa.json'} has no entry for {path.name}: "
                               "regenerate it with tests/data/wrappers/generate.py")
    return entry["float_lanes"]


def require_width(path: pathlib.Path) -> int | None:
    """Skip the test where this host cannot compile the kernels of the wrapper at
    ``path`` as they were written; the lanes to pin otherwise."""
    lanes = written_float_lanes(path)
    why = vector_width.unavailable(lanes) if lanes is not None else ""
    if why:
        pytest.skip(f"{path.name}: {why}")
    return lanes


def load(relative: str, inject: dict | None = None):
    """A fresh module of ``tests/data/wrappers/<relative>``."""
    return load_file(WRAPPERS / relative, inject)


def load_file(path: pathlib.Path, inject: dict | None = None):
    """A fresh module of the wrapper file at ``path`` (a saved one or one a test
    wrote), its C++ kernels compiled for the width they were written for."""
    with vector_width.pinned(require_width(path)):
        return _selfcheck.load(path, inject)


def plan_file(path: pathlib.Path, *, native: int, name: str | None = None):
    """(Python call(), PlannedCall, program) of the wrapper file at ``path``, the
    extern kernels registered and its native calls tagged: exactly ``native`` of
    them (a call the planner stopped tagging fails here, not as a quiet decline)."""
    import torch._inductor.kernel.bmm  # fills extern_kernels
    import torch._inductor.kernel.mm  # noqa: F401

    from fastlaunch.engine.planned_call import planner

    module = load_file(path)
    program = planner.tag_native(planner.program_of(module.call))
    assert program.summary()["native"] == native, program.summary()
    return module.call, planner.plan(module.call, name or path.stem, program), program


def logging_mode():
    """A torch function mode that records the name of every function it sees
    (``.seen``)."""
    import torch

    class LoggingMode(torch.overrides.TorchFunctionMode):
        def __init__(self):
            super().__init__()
            self.seen = []

        def __torch_function__(self, func, types, args=(), kwargs=None):
            self.seen.append(getattr(func, "__name__", str(func)))
            return func(*args, **(kwargs or {}))

    return LoggingMode()


def assert_bit_equal(expected: object, actual: object) -> None:
    why = _selfcheck.output_difference(expected, actual)
    assert not why, why
