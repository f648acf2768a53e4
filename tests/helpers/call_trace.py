# SPDX-License-Identifier: Apache-2.0
"""The planned-call trace of ``fastlaunch.tools.selfcheck.planned_call`` over the
wrappers in tests/data/wrappers (see that module for what a trace holds)."""

from __future__ import annotations

import pathlib

from fastlaunch.tools.selfcheck import planned_call as _selfcheck
from fastlaunch.tools.selfcheck.planned_call import RecordedKernel, TraceRecorder, instrument, run

WRAPPERS = pathlib.Path(__file__).resolve().parent.parent / "data" / "wrappers"

__all__ = ["WRAPPERS", "RecordedKernel", "TraceRecorder", "assert_bit_equal", "instrument", "load",
           "load_file", "run"]


def load(relative: str, inject: dict | None = None):
    """A fresh module of ``tests/data/wrappers/<relative>``."""
    return load_file(WRAPPERS / relative, inject)


def load_file(path: pathlib.Path, inject: dict | None = None):
    """A fresh module of the wrapper file at ``path`` (one a test wrote)."""
    return _selfcheck.load(path, inject)


def assert_bit_equal(expected: object, actual: object) -> None:
    why = _selfcheck.output_difference(expected, actual)
    assert not why, why
