# SPDX-License-Identifier: Apache-2.0
"""Counters of every routing decision, by reason, process-wide and per call site."""

from __future__ import annotations

import logging
from collections import Counter

from .. import config
from ..errors import FastLaunchError

log = logging.getLogger(__name__)

_counts: Counter[str] = Counter()
# call site ("kernel [graph:index]") -> its own counts; FastSite launches made
# in C are counted process-wide only.
_sites: dict[str, Counter[str]] = {}

# Fallbacks a user asked for (or that are part of warming up); everything
# else is unexpected and raises in strict mode.
EXPECTED_FALLBACKS = frozenset({
    "disabled", "profiler", "benchmark_run", "kwargs", "dump_fx_graph", "check_accuracy",
    "triton_interpret", "dump_launch_params", "dump_launch_tensors", "debug_mode", "launch_hooks",
    "warming_up", "run_overridden", "autotuner_plugins", "msprof",
    # planned call (whole call() back to Python)
    "call_disabled", "call_profiler", "call_dispatch_mode", "call_triton_interpret",
    "call_dump_launch_params", "call_dump_launch_tensors",
})


def _site(site: str) -> Counter[str]:
    counts = _sites.get(site)
    if counts is None:
        counts = _sites.setdefault(site, Counter())
    return counts


def hit(site: str = "") -> None:
    _counts["fast"] += 1
    if site:
        _site(site)["fast"] += 1


def count(event: str, site: str = "") -> None:
    _counts[event] += 1
    if site:
        _site(site)[event] += 1


def fallback(reason: str, site: str = "", cause: FastLaunchError | None = None) -> None:
    """Record a call that goes back to the original path, or raise in strict mode
    (naming the call site and, from ``cause``, the argument, value and why)."""
    key = "fallback." + reason
    _counts[key] += 1
    if site:
        counts = _site(site)
        counts[key] += 1
        if counts[key] == 1 and reason not in EXPECTED_FALLBACKS:
            log.info("fastlaunch: %s takes the original path: %s (first time)", site, reason)
    if reason not in EXPECTED_FALLBACKS and config.get().strict:
        where = f" at {site}" if site else ""
        why = f": {cause.detail}" if cause is not None and cause.detail else ""
        raise FastLaunchError("strict_unexpected_fallback",
                              detail=f"{reason}{where}{why}") from cause


def stats(per_site: bool = False) -> dict:
    """A snapshot: ``fast``, ``fallback.<reason>``, ``plan.<event>``, ``error.<reason>``.

    ``fast`` includes the launches made in C by FastSite call slots;
    ``call.planned`` counts wrapper calls run as planned programs (``call.assert_native``
    their size/stride asserts checked without calling torch's, ``call.native_op``
    their extern kernels and aten ops run by the ATen shim, ``call.native_declined``
    those it left to Python, ``call.bypassed`` calls a PlannedCall's ``bypass``
    sent to the Python call). With
    ``per_site=True``: ``{call site: {counter: n}}`` for every call site that
    recorded something (launches made by a FastSite are not split by site).
    """
    if not isinstance(per_site, bool):
        msg = f"per_site: got {per_site!r}, expected True or False"
        raise TypeError(msg)
    if per_site:
        return {site: {k: v for k, v in sorted(c.items()) if v}
                for site, c in sorted(_sites.items()) if any(c.values())}
    from . import _core

    snapshot = Counter(_counts)
    snapshot["fast"] += _core.fast_hits()
    snapshot["call.planned"] += _core.planned_call_runs()
    snapshot["call.assert_native"] += _core.planned_call_native_asserts()
    snapshot["call.bypassed"] += _core.planned_call_bypassed()
    for ran, declined in _core.planned_call_native_ops().values():
        snapshot["call.native_op"] += ran
        snapshot["call.native_declined"] += declined
    return {k: v for k, v in sorted(snapshot.items()) if v}


def reset_stats() -> None:
    from . import _core

    _counts.clear()
    _sites.clear()
    _core.reset_fast_hits()
    _core.reset_planned_call_runs()
