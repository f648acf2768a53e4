# SPDX-License-Identifier: Apache-2.0
"""Counters of every routing decision, by reason, process-wide and per call site."""

from __future__ import annotations

from collections import Counter

_counts: Counter[str] = Counter()
# call site ("kernel [graph:index]") -> its own counts
_sites: dict[str, Counter[str]] = {}
# call site -> the _core.HitCounter its FastSite objects add their launches to
# (kept across resets: live FastSites hold them)
_native: dict[str, object] = {}

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


def fallback(reason: str, site: str = "") -> int:
    """Count a call that went back to the original path; returns how many times
    ``site`` has now done so for ``reason`` (0 without a site). Whether it may
    is the engine's decision (``engine.fallbacks``)."""
    key = "fallback." + reason
    _counts[key] += 1
    if not site:
        return 0
    counts = _site(site)
    counts[key] += 1
    return counts[key]


def stats(per_site: bool = False) -> dict:
    """A snapshot: ``fast``, ``fallback.<reason>``, ``plan.<event>``, ``error.<reason>``.

    ``fast`` includes the launches made in C by FastSite call slots;
    ``call.planned`` counts wrapper calls run as planned programs (``call.assert_native``
    their size/stride asserts checked without calling torch's, ``call.native_op``
    their extern kernels, aten ops, allocations and views run by the ATen shim,
    ``call.native_declined`` those it left to Python, ``call.bypassed`` calls a
    PlannedCall's ``bypass`` sent to the Python call). With
    ``per_site=True``: ``{call site: {counter: n}}`` for every call site that
    recorded something, the launches its FastSite objects made in C included.
    """
    if not isinstance(per_site, bool):
        msg = f"per_site: got {per_site!r}, expected True or False"
        raise TypeError(msg)
    if per_site:
        sites = {site: Counter(c) for site, c in _sites.items()}
        for site, cell in _native.items():
            if cell.value:  # type: ignore[attr-defined]
                sites.setdefault(site, Counter())["fast"] += cell.value  # type: ignore[attr-defined]
        return {site: {k: v for k, v in sorted(c.items()) if v}
                for site, c in sorted(sites.items()) if any(c.values())}
    from . import _core, aten_ops

    snapshot = Counter(_counts)
    snapshot["fast"] += _core.fast_hits()
    snapshot["call.planned"] += _core.planned_call_runs()
    snapshot["call.assert_native"] += _core.planned_call_native_asserts()
    snapshot["call.bypassed"] += _core.planned_call_bypassed()
    for ran, declined in _core.planned_call_native_ops().values():
        snapshot["call.native_op"] += ran
        snapshot["call.native_declined"] += declined
    snapshot["call.native_static"] += sum(aten_ops.static_ops().values())
    _, planned_gemms, kept_static = aten_ops.cublaslt()
    snapshot["call.native_cublaslt"] += sum(planned_gemms.values())
    for reason, count in kept_static.items():
        snapshot[f"call.cublaslt_declined.{reason}"] += count
    return {k: v for k, v in sorted(snapshot.items()) if v}


def native_hits(site: str) -> object:
    """The counter the FastSite objects of ``site`` add their launches to."""
    cell = _native.get(site)
    if cell is None:
        from . import _core

        cell = _native.setdefault(site, _core.HitCounter())
    return cell


def reset_stats() -> None:
    from . import _core, aten_ops

    _counts.clear()
    _sites.clear()
    for cell in _native.values():
        cell.reset()  # type: ignore[attr-defined]
    _core.reset_fast_hits()
    _core.reset_planned_call_runs()
    aten_ops.reset_static_ops()
    aten_ops.reset_cublaslt()
