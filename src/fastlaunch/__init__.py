# SPDX-License-Identifier: Apache-2.0
"""fastlaunch: planned launches of Inductor's Triton kernels.

Importing this package does not import torch; integrations install
themselves when the matching Inductor backend loads (see ``autoload``).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator

from ._version import __version__
from .errors import CallRefused, FastLaunchError, PlanUnavailable
from .runtime.counters import reset_stats, stats

__all__ = ["CallRefused", "FastLaunchError", "PlanUnavailable", "__version__", "enabled",
           "is_enabled", "reset_stats", "set_enabled", "stats"]



class _DefaultHandler(logging.Handler):
    """fastlaunch's logging policy: records that reach the ``fastlaunch`` logger are
    printed to stderr unless someone else will print them -- another handler on
    that logger (torch's, with ``TORCH_LOGS=fastlaunch``) or on the root logger
    (the application configured logging; propagation delivers them there). So
    ``logging.getLogger("fastlaunch").setLevel(logging.INFO)`` alone prints, and
    nothing is printed twice. Levels are left to the user (default: WARNING)."""

    def emit(self, record: logging.LogRecord) -> None:
        owner = logging.getLogger(__name__)
        if logging.getLogger().handlers or any(h is not self for h in owner.handlers):
            return
        try:
            sys.stderr.write(self.format(record) + "\n")
        except Exception:
            self.handleError(record)


def _install_log_handler() -> None:
    logger = logging.getLogger(__name__)
    if not any(isinstance(h, _DefaultHandler) for h in logger.handlers):
        handler = _DefaultHandler()
        handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
        logger.addHandler(handler)


_install_log_handler()


def is_enabled() -> bool:
    """Whether call sites launch planned now (environment, then ``set_enabled``)."""
    from . import config

    return config.enabled_now()


def set_enabled(on: bool | None) -> bool | None:
    """Turn planned launches on or off for the whole process, at once.

    Off: every call site takes the original path (``fallback.disabled``).
    On: call sites plan as usual; when the environment did not enable
    fastlaunch, the integrations are armed now (they patch code generation,
    so graphs compiled before stay unchanged). ``None`` returns to the
    environment's choice. Returns the previous run-time setting.
    """
    from . import config
    from .engine import routing  # noqa: F401  (routing follows the switch)
    from .integrations import autoload

    previous = config.set_runtime(on)
    if on:
        autoload.arm()
    return previous


@contextlib.contextmanager
def enabled(on: bool | None = True) -> Iterator[None]:
    """``with fastlaunch.enabled(False): ...`` -- the run-time switch for a block.

    Process-wide, not per thread: other threads see the change too. While
    blocks are active the newest one decides (or a later ``set_enabled``);
    blocks of several threads may overlap and end in any order.
    """
    from . import config
    from .engine import routing  # noqa: F401  (routing follows the switch)
    from .integrations import autoload

    with config.runtime_block(on):
        if on:
            autoload.arm()
        yield
