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

from ..builds import registry, shims
from . import _core

SHIM = registry.TENSOR_GEOMETRY


def _activate(module: object) -> None:
    _core.set_tensor_geometry(module.capsule())  # type: ignore[attr-defined]


OWNER = shims.Owner(SHIM, _activate, _core.has_tensor_geometry)
status = OWNER.status  # doctor's row
ensure = OWNER.ensure  # True when the reader is active
