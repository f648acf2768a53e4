# SPDX-License-Identifier: Apache-2.0
"""A native reader of tensor sizes and strides, built against the installed torch.

It backs the planned call's native ``assert_size_stride``: the program
compares a tensor's sizes and strides itself and calls torch's function only
when they differ (so a mismatch raises torch's own error). Until it is
loaded, and with ``FASTLAUNCH_PLANNED_CALL=0``, every assert runs torch's.

Built and found like the tensor accessor, by ``fastlaunch.builds.shims``
(at install, by ``python -m fastlaunch build``, or at idle priority in the
background when the planned-call hook installs).
"""

from __future__ import annotations

from collections.abc import Callable

from ..builds import registry, shims
from . import _core

SHIM = registry.TENSOR_GEOMETRY


def _activate(module: object) -> None:
    _core.set_tensor_geometry(module.capsule())  # type: ignore[attr-defined]


def status() -> shims.State:
    """Where the shim stands (its line is doctor's row): active (and from where),
    building, off, or why not."""
    return shims.state(SHIM, loaded=_core.has_tensor_geometry)


def ensure(*, build: bool = False, wait: bool = False,
           progress: Callable[[str], None] | None = None) -> bool:
    """True when the reader is active (see ``shims.ensure``)."""
    return shims.ensure(SHIM, _activate, loaded=_core.has_tensor_geometry, build=build, wait=wait,
                        progress=progress)
