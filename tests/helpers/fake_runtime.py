# SPDX-License-Identifier: Apache-2.0
"""Fast launch on over a given fake runtime, for fixtures."""

from __future__ import annotations

import contextlib

import fastlaunch
from fastlaunch import config
from fastlaunch.runtime import backends


@contextlib.contextmanager
def installed(backend):
    """``backend`` as the "fake" runtime, fast launch on, counters zeroed before and after."""
    previous = backends.set_backend("fake", backend)
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="fake", strict=False):
        yield backend
    backends.set_backend("fake", previous)
    fastlaunch.reset_stats()
