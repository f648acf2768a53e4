# SPDX-License-Identifier: Apache-2.0
"""The engine's one decision to hand a call to the original path.

The counters only count; whether a fallback was asked for (a profiler, a
debug mode, warming up) or is unexpected, and so raises in strict mode, is
decided here, for call sites and planned calls alike.
"""

from __future__ import annotations

import logging

from .. import config
from ..errors import FastLaunchError
from ..runtime import counters
from . import probes

log = logging.getLogger(__name__)

_DEBUG_REASONS = tuple(reason for reason, _ in probes.DEBUG_MODES)

# Fallbacks a user asked for (or that are part of warming up); everything
# else is unexpected and raises in strict mode. The debug modes (a call site's
# reason and the planned call's ``call_`` form) come from probes.DEBUG_MODES.
EXPECTED = frozenset({
    "disabled", "profiler", "benchmark_run", "kwargs", "dump_fx_graph", "check_accuracy",
    *_DEBUG_REASONS, "debug_mode", "launch_hooks",
    "warming_up", "run_overridden", "autotuner_plugins", "msprof",
    # torch_npu: debug modes and per-call work its run does itself
    "force_fallback_kernel_id", "debug_kernel_in_run", "release_logging", "store_cubin",
    "autotune_stats",
    # planned call (whole call() back to Python)
    "call_disabled", "call_profiler", "call_dispatch_mode",
    *(f"call_{reason}" for reason in _DEBUG_REASONS),
})


def take_original(reason: str, site: str = "", cause: FastLaunchError | None = None) -> None:
    """Count a call that goes back to the original path; in strict mode an
    unexpected one raises instead, naming the call site and, from ``cause``,
    the argument, value and why."""
    first = counters.fallback(reason, site) == 1
    if reason in EXPECTED:
        return
    if first and site:
        log.info("fastlaunch: %s takes the original path: %s (first time)", site, reason)
    if config.get().strict:
        where = f" at {site}" if site else ""
        why = f": {cause.detail}" if cause is not None and cause.detail else ""
        raise FastLaunchError("strict_unexpected_fallback",
                              detail=f"{reason}{where}{why}") from cause
