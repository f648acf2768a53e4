# SPDX-License-Identifier: Apache-2.0
"""A stand-in ``torch.autograd.profiler`` whose flag the tests switch."""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator

NAME = "torch.autograd.profiler"


@contextlib.contextmanager
def fake_profiler() -> Iterator[types.ModuleType]:
    """Install the module (flag off) for the duration; restore what was there."""
    module = types.ModuleType(NAME)
    module._is_profiler_enabled = False
    saved = sys.modules.get(NAME)
    sys.modules[NAME] = module
    try:
        yield module
    finally:
        if saved is None:
            del sys.modules[NAME]
        else:
            sys.modules[NAME] = saved
