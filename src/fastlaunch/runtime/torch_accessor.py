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

from ..builds import registry, shims
from . import _core

SHIM = registry.TORCH_ACCESSOR


def _activate(module: object) -> None:
    _core.set_tensor_accessor(module.capsule())  # type: ignore[attr-defined]


OWNER = shims.Owner(SHIM, _activate, _core.has_tensor_accessor,
                    until="tensor.data_ptr() per tensor")
status = OWNER.status  # doctor's row
ensure = OWNER.ensure  # True when the accessor is active
