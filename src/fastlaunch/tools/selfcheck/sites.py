# SPDX-License-Identifier: Apache-2.0
"""Every fastlaunch call site of a compiled program, run once each way.

While ``CallSites`` is active, ``fastlaunch.engine.routing.bind`` also remembers
each call site it binds (generated wrappers import ``bind`` when their module
is loaded, so the patch must be in place before compiling). After a warm-up
call has promoted the call sites, ``differential`` puts a ``_Twice`` object
in each call slot: the next call of the program then runs every kernel
through the original entry (``autotuner.run``) and through whatever the slot
held (the FastSite or router), each under its own capture.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from ...engine import callsite, routing
from ...errors import FastLaunchError
from ...patching import PatchSet
from ...runtime import counters
from .compare import compare
from .interpose import InterposeRecorder
from .report import Outcome


@dataclasses.dataclass
class CallSite:
    metadata: dict
    autotuner: Any
    slot: list | None
    bound: Any  # a BoundLaunch, or autotuner.run for grouped autotuners


class CallSites:
    """The call sites bound while active (a context manager)."""

    def __init__(self) -> None:
        self.sites: list[CallSite] = []
        self._patches = PatchSet("selfcheck-call-sites")
        original = routing.bind

        def bind(metadata: dict, autotuner: Any, **options: Any):
            bound = original(metadata, autotuner, **options)
            self.sites.append(CallSite(metadata, autotuner,
                                       options.get(callsite.SLOT_KEYWORD), bound))
            return bound

        self._patches.add(routing, "bind", bind)

    def __enter__(self) -> CallSites:
        self._patches.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self._patches.uninstall()


def _launcher_kind(site: CallSite) -> str:
    launchers = getattr(site.autotuner, "launchers", None) or []
    launcher = launchers[0] if len(launchers) == 1 else None
    spec = getattr(launcher, routing.SPEC_ATTR, None)
    options = spec.options if spec is not None else {}
    if options.get("family"):
        return f"triton-ascend {options['family']}"
    if options.get("launcher_kind"):
        return str(options["launcher_kind"])
    return "static" if getattr(launcher, "_is_static", False) else "triton"


def why_not_planned(site: CallSite, args: tuple) -> str:
    """The reason fastlaunch keeps this call site on the original path."""
    bound = site.bound
    if not isinstance(bound, routing.BoundLaunch):
        return "grouped autotuner: always autotuner.run"
    launchers = getattr(site.autotuner, "launchers", None) or []
    if len(launchers) != 1:
        return f"{len(launchers)} launchers: autotuning not settled"
    try:
        routing.make_planned_launch(bound.backend_for(), launchers[0], site.autotuner,
                                    bound.metadata, args)
    except FastLaunchError as err:
        return f"refused: {err.reason}"
    return "plan possible but not installed"


def _field_names(site: CallSite) -> list[tuple[str, int, int]]:
    bound = site.bound
    direct = getattr(bound, "plan", None) if isinstance(bound, routing.BoundLaunch) else None
    native = getattr(getattr(direct, "plan", None), "plan", None)
    return [tuple(f) for f in native.fields] if native is not None else []


class _Twice:
    """Stands in a call slot for one program call: original, then planned."""

    def __init__(self, site: CallSite, entry: Callable[..., object], run: Callable) -> None:
        self.site, self.entry, self.run = site, entry, run

    def __call__(self, *args: object, stream: object, **kwargs: object) -> object:
        return self.run(self.site, self.entry, args, stream, kwargs)


@contextlib.contextmanager
def differential(sites: list[CallSite], recorder: InterposeRecorder, outcomes: list[Outcome], *,
                 forward: bool = False, settle: Callable[[], object] = lambda: None,
                 label: str = "") -> Iterator[None]:
    """Inside the block, each call of a call site runs both ways and adds an Outcome."""

    def run(site: CallSite, entry: Callable[..., object], args: tuple, stream: object,
            kwargs: dict) -> object:
        name = str(site.metadata.get("kernel_name", "?"))
        outcome = Outcome(kernel=f"{label}{name}", launcher=_launcher_kind(site), original=[],
                          planned=[], differences=[], planned_used=False)
        outcomes.append(outcome)
        try:
            with recorder.capture(forward) as original:
                site.autotuner.run(*args, stream=stream, **kwargs)
                settle()
            outcome.original = original
            fast = counters.stats().get("fast", 0)
            with recorder.capture(forward) as planned:
                entry(*args, stream=stream, **kwargs)
                settle()
            outcome.planned = planned
            outcome.planned_used = counters.stats().get("fast", 0) == fast + 1
        except Exception as err:  # reported; the next kernel is still checked
            outcome.error = f"{type(err).__name__}: {err}"
            return None
        direct = getattr(site.bound, "plan", None)
        if direct is not None:
            outcome.options = dict(direct.spec.options)
        if not outcome.planned_used:
            outcome.note = why_not_planned(site, args)
        outcome.differences = compare(outcome.original, outcome.planned, _field_names(site))
        return None

    saved = []
    for site in sites:
        if site.slot is not None:
            saved.append((site, site.slot[0]))
            site.slot[0] = _Twice(site, site.slot[0], run)
    try:
        yield
    finally:
        for site, entry in saved:
            if isinstance(site.slot[0], _Twice):
                site.slot[0] = entry
