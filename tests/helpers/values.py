# SPDX-License-Identifier: Apache-2.0
"""Stand-ins for launch arguments that the packer tests share: a tensor seen only
through ``data_ptr()`` and ``.device``, and a value whose every conversion raises."""

from __future__ import annotations

import types


class Tensor:
    """data_ptr() returns ``address``; ``device`` as torch.device spells it."""

    def __init__(self, address, device=None):
        self.address = address
        if device is not None:
            self.device = types.SimpleNamespace(type=device[0], index=device[1])

    def data_ptr(self):
        return self.address

    def __repr__(self):
        return f"Tensor({self.address!r})"


class Raises:
    """__index__, __float__, data_ptr and .device all raise ``exc``."""

    def __init__(self, exc, *, repr_raises=False):
        self.exc = exc
        self.repr_raises = repr_raises

    def __index__(self):
        raise self.exc("__index__")

    def __float__(self):
        raise self.exc("__float__")

    def data_ptr(self):
        raise self.exc("data_ptr")

    @property
    def device(self):
        raise self.exc("device")

    def __repr__(self):
        if self.repr_raises:
            raise ValueError("repr")
        return f"Raises({self.exc.__name__})"
