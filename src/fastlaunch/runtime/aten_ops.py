# SPDX-License-Identifier: Apache-2.0
"""The planned call's native extern kernels and aten ops, built against the installed torch.

The program tags the calls it knows (``planner.NATIVE_KINDS``: the ``out=``
GEMMs, attention, convolution, the wrapper's ``empty_strided_*`` allocations
and ``reinterpret_tensor`` views); the executor hands their arguments to this
shim, which calls ATen's C++ API without torch's Python argument parsing, or
declines (an argument it does not take as the binding would) so the Python
callable runs. Until it is loaded, and with ``FASTLAUNCH_PLANNED_CALL=0``,
every such call is the Python one.

Built and found like the tensor accessor, by ``fastlaunch.builds.shims``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..builds import registry, shims
from . import _core

SHIM = registry.ATEN_OPS
_loaded: list[object] = []  # the shim's capsule once loaded


def _activate(module: object) -> None:
    capsule = module.capsule()  # type: ignore[attr-defined]
    _core.set_aten_ops(capsule)
    _loaded[:] = [capsule]


def use(on: bool) -> bool:
    """Run tagged calls through the loaded shim (True) or their Python callables
    (False), for A/B measurements; returns whether the shim is in use now."""
    if not isinstance(on, bool):
        msg = f"on: got {on!r}, expected True or False"
        raise TypeError(msg)
    _core.set_aten_ops(_loaded[0] if on and _loaded else None)
    return _core.has_aten_ops()


def status() -> shims.State:
    """Where the shim stands (its line is doctor's row): active (and from where),
    building, off, or why not."""
    return shims.state(SHIM, loaded=_core.has_aten_ops)


def ensure(*, build: bool = False, wait: bool = False,
           progress: Callable[[str], None] | None = None) -> bool:
    """True when the shim is active (see ``shims.ensure``)."""
    return shims.ensure(SHIM, _activate, loaded=_core.has_aten_ops, build=build, wait=wait,
                        progress=progress)
