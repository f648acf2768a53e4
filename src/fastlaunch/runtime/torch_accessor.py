# SPDX-License-Identifier: Apache-2.0
"""A native reader of torch.Tensor data pointers, built against the installed torch.

The core reads every tensor argument's address; through Python's
``data_ptr()`` that is a method call per tensor per launch. This shim reads
it (and the tensor's device) from the tensor object in C++.

Where it is built and how it is found: ``fastlaunch.runtime.torch_build`` (at install,
by ``python -m fastlaunch build``, or at idle priority in the background).
Nothing compiles in the caller: integrations call ``ensure(build=True)`` at
install, which loads an installed or cached build or starts the background
build; plan makers call ``ensure()``, which only loads what is there.
Launches use ``data_ptr()`` until the library is loaded, and with
``FASTLAUNCH_TORCH_ACCESSOR=0``.
"""

from __future__ import annotations

from collections.abc import Callable

from . import _core, torch_build

NAME = "torch_accessor"


def _activate(module: object) -> None:
    _core.set_tensor_accessor(module.capsule())  # type: ignore[attr-defined]


def status() -> str:
    """One line for doctor: active (and from where), building, off, or why not."""
    line = torch_build.status(NAME, loaded=_core.has_tensor_accessor)
    if line.startswith("active"):
        return line
    return f"{line}; tensor.data_ptr() per tensor" + (" until then" if "building" in line else "")


def ensure(*, build: bool = False, wait: bool = False,
           progress: Callable[[str], None] | None = None) -> bool:
    """True when the accessor is active (see ``torch_build.ensure``)."""
    return torch_build.ensure(NAME, _activate, loaded=_core.has_tensor_accessor, build=build,
                              wait=wait,
                              progress=progress)
