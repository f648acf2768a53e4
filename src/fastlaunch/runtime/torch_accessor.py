# SPDX-License-Identifier: Apache-2.0
"""A native reader of torch.Tensor data pointers, built against the installed torch.

The core reads every tensor argument's address; through Python's
``data_ptr()`` that is a method call per tensor per launch. This shim reads
it (and the tensor's device) from the tensor object in C++.

Where it is built and how it is found: ``fastlaunch.builds.shims`` (at install,
by ``python -m fastlaunch build``, or at idle priority in the background).
Nothing compiles in the caller: integrations call ``ensure(build=True)`` at
install, which loads an installed or cached build or starts the background
build; plan makers call ``ensure()``, which only loads what is there.
Launches use ``data_ptr()`` until the library is loaded, and with
``FASTLAUNCH_TORCH_ACCESSOR=0``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..builds import registry, shims
from . import _core

SHIM = registry.TORCH_ACCESSOR


def _activate(module: object) -> None:
    _core.set_tensor_accessor(module.capsule())  # type: ignore[attr-defined]


def status() -> shims.State:
    """Where the shim stands (its line is doctor's row): active (and from where),
    building, off, or why not."""
    state = shims.state(SHIM, loaded=_core.has_tensor_accessor)
    if state.active:
        return state
    until = " until then" if state.phase is shims.Phase.BUILDING else ""
    return shims.State(state.phase, f"{state}; tensor.data_ptr() per tensor{until}")


def ensure(*, build: bool = False, wait: bool = False,
           progress: Callable[[str], None] | None = None) -> bool:
    """True when the accessor is active (see ``shims.ensure``)."""
    return shims.ensure(SHIM, _activate, loaded=_core.has_tensor_accessor, build=build, wait=wait,
                        progress=progress)
