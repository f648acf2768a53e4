# SPDX-License-Identifier: Apache-2.0
"""Counters of every routing decision, by reason."""

from __future__ import annotations

from collections import Counter

from . import config
from .errors import FastLaunchError

_counts: Counter[str] = Counter()

# Fallbacks a user asked for (or that are part of warming up); everything
# else is unexpected and raises in strict mode.
EXPECTED_FALLBACKS = frozenset({
    "disabled", "profiler", "benchmark_run", "kwargs", "dump_fx_graph", "check_accuracy",
    "triton_interpret", "dump_launch_params", "debug_mode", "launch_hooks", "grouped_autotuner",
    "warming_up",
})


def hit() -> None:
    _counts["fast"] += 1


def count(event: str) -> None:
    _counts[event] += 1


def fallback(reason: str) -> None:
    """Record a call that goes back to the original path, or raise in strict mode."""
    _counts["fallback." + reason] += 1
    if reason not in EXPECTED_FALLBACKS and config.get().strict:
        raise FastLaunchError("strict_unexpected_fallback", detail=reason)


def stats() -> dict[str, int]:
    """A snapshot: ``fast``, ``fallback.<reason>``, ``plan.<event>``, ``error.<reason>``.

    ``fast`` includes the launches made in C by FastSite call slots.
    """
    from . import _core

    snapshot = Counter(_counts)
    snapshot["fast"] += _core.fast_hits()
    return {k: v for k, v in sorted(snapshot.items()) if v}


def reset_stats() -> None:
    from . import _core

    _counts.clear()
    _core.reset_fast_hits()
