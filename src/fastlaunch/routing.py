# SPDX-License-Identifier: Apache-2.0
"""Per-call-site routing between the planned launch and the original path.

Generated wrapper code calls ``bind(metadata, autotuner, call_slot=slot)``
once per call site and then calls the bound object exactly like
``autotuner.run``. Decision order, per call:

1. a full-entry reason (fixed at bind, or per call: profiler, benchmark_run,
   kwargs, debug mode) -> ``autotuner.run``;
2. a plan whose launcher is still the selected one -> planned launch;
3. a negative entry for the selected launcher -> that launcher, directly;
4. otherwise ``autotuner.run``, then try to promote the now-settled launcher.

A kernel is never submitted twice: once a backend's launch was entered, any
error propagates.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import backends, config, counters
from .backends.base import Backend, KernelSpec
from .errors import CallRefused, FastLaunchError, PlanUnavailable

log = logging.getLogger(__name__)

SPEC_ATTR = "_fastlaunch_spec"        # KernelSpec set on a launcher by an integration
REFUSAL_ATTR = "_fastlaunch_refusal"  # or the reason it could not describe the launcher


class _NoProfiler:
    _is_profiler_enabled = False


def _profiler_module() -> object:
    """``torch.autograd.profiler`` once torch is loaded (its flag is read per call)."""
    return sys.modules.get("torch.autograd.profiler") or _NoProfiler


def _never() -> bool:
    return False


def _single_launcher(autotuner: Any) -> object:
    launchers = autotuner.launchers
    return launchers[0] if len(launchers) == 1 else None


def _best_launcher(autotuner: Any) -> object:
    return autotuner.best_launcher


def _is_grouped(autotuner: Any) -> bool:
    meta = getattr(autotuner, "inductor_meta", None) or {}
    return bool(meta.get("group_enabled")) or hasattr(autotuner, "best_launcher_map")


def static_full_entry_reason(autotuner: Any, extra: Sequence[tuple[str, bool]] = ()) -> str:
    """Reasons fixed for the life of a bound call site ("" when none)."""
    if not config.get().enabled:
        return "disabled"
    for reason, active in extra:
        if active:
            return reason
    if getattr(autotuner, "triton_interpret", False):
        return "triton_interpret"
    if getattr(autotuner, "dump_launch_params", False):
        return "dump_launch_params"
    return ""


class PlannedLaunch:
    """A plan bound to one launcher: what the steady state needs, flattened."""

    __slots__ = ("backend", "fixed", "grid", "hooks", "input_count", "launch", "launcher", "plan",
                 "spec", "static_grid", "translate")

    def __init__(self, backend: Backend, launcher: object, spec: KernelSpec, plan: Any,
                 input_count: int, fixed: tuple) -> None:
        self.backend = backend
        self.launcher = launcher
        self.spec = spec
        self.plan = plan
        self.input_count = input_count
        self.fixed = fixed
        self.grid = spec.grid
        self.static_grid = spec.static_grid
        self.hooks = tuple(spec.hooks)
        self.launch = backend.bind_launch(plan)
        self.translate = backend.translate_error

    def resolve_grid(self, args: tuple) -> Sequence[int]:
        """The grid of this call; CallRefused when it cannot be evaluated."""
        if self.static_grid is not None:
            return self.static_grid
        try:
            grid = self.grid(*args, *self.fixed)
        except Exception as err:  # the original launcher would evaluate it again
            raise CallRefused("grid_resolver_error", detail=f"{type(err).__name__}: {err}") from err
        if len(grid) != 3:
            raise CallRefused("grid_rank", detail=f"grid: got {len(grid)} values, expected 3")
        return grid

    def __call__(self, args: tuple, stream: object) -> None:
        """Checked launch (the slow-path twin of BoundLaunch's inline steady state)."""
        if len(args) != self.input_count:
            raise PlanUnavailable("arg_count_mismatch",
                                  detail=f"got {len(args)} args, expected {self.input_count}")
        if stream is None:
            raise CallRefused("stream_none", detail="stream: got None, expected a raw stream")
        grid = self.resolve_grid(args)
        try:
            self.launch(stream, grid, args)
        except Exception as err:
            raise self.translate(err) from err


def make_planned_launch(backend: Backend, launcher: object, autotuner: Any,
                        metadata: dict, args: tuple) -> PlannedLaunch:
    """Build the plan for a settled launcher or raise PlanUnavailable."""
    spec = getattr(launcher, SPEC_ATTR, None)
    if spec is None:
        raise PlanUnavailable(getattr(launcher, REFUSAL_ATTR, None) or "launcher_metadata_missing")
    expected = metadata.get("arg_count")
    if expected is not None and expected != len(args):
        raise PlanUnavailable("callsite_schema_conflict",
                              detail=f"call site passes {len(args)} args, codegen said {expected}")
    fixed = tuple(getattr(autotuner, "best_runtime_blocks", None) or ())
    if not spec.handle:
        raise PlanUnavailable("kernel_handle_missing")
    plan = backend.make_plan(spec, input_count=len(args), fixed_args=fixed)
    return PlannedLaunch(backend, launcher, spec, plan, len(args), fixed)


class BoundLaunch:
    """One call site's router; stands in for ``autotuner.run``."""

    __slots__ = ("_direct", "_maybe_full", "_negative", "_probes", "_profiler", "_ran", "_selected",
                 "_static_reason", "autotuner", "backend_for", "call_slot", "metadata")

    def __init__(self, autotuner: Any, metadata: dict, *,
                 backend_for: Callable[[], Backend] | None = None,
                 probes: Sequence[tuple[str, Callable[[], bool]]] = (),
                 maybe_full: Callable[[], object] = _never,
                 static_reasons: Sequence[tuple[str, bool]] = (),
                 call_slot: list | None = None) -> None:
        self.autotuner = autotuner
        self.call_slot = call_slot
        self.metadata = dict(metadata)
        abi = self.metadata.get("abi", "npu")
        self.backend_for = backend_for or (lambda: backends.for_abi(abi))
        self._probes = tuple(probes)
        # A cheap per-call test; when true, the probes decide (e.g. "is any
        # dispatch mode active" before "is a DebugMode active").
        self._maybe_full = maybe_full if probes else _never
        self._static_reason = static_full_entry_reason(autotuner, static_reasons)
        self._selected = (_best_launcher if hasattr(autotuner, "best_launcher")
                          else _single_launcher)
        self._profiler = _profiler_module()
        self._direct: PlannedLaunch | None = None
        self._negative: object = None
        self._ran = False

    @property
    def plan(self) -> PlannedLaunch | None:
        return self._direct

    def __call__(self, *args: object, stream: object, benchmark_run: bool = False,
                 **kwargs: object) -> object:
        direct = self._direct
        # Steady state, inline: every condition that could send this call
        # elsewhere is checked before anything is launched.
        if (direct is not None and not benchmark_run and not kwargs
                and not self._profiler._is_profiler_enabled and not self._maybe_full()
                and self._selected(self.autotuner) is direct.launcher
                and not (direct.hooks and any(direct.hooks))
                and len(args) == direct.input_count and stream is not None
                and not self._static_reason):
            grid = direct.static_grid
            if grid is None:
                try:
                    grid = direct.grid(*args, *direct.fixed)
                except Exception:
                    return self._route(args, stream, benchmark_run, kwargs)
            try:
                direct.launch(stream, grid, args)
            except Exception as err:
                return self._launch_failed(direct, direct.translate(err), args, stream)
            counters._counts["fast"] += 1
            return None
        return self._route(args, stream, benchmark_run, kwargs)

    def _full_entry_reason(self, benchmark_run: bool, kwargs: dict) -> str:
        if self._static_reason:
            return self._static_reason
        if benchmark_run:
            return "benchmark_run"
        if kwargs:
            return "kwargs"
        if self._profiler._is_profiler_enabled:
            return "profiler"
        for reason, probe in self._probes:
            if probe():
                return reason
        return ""

    def _route(self, args: tuple, stream: object, benchmark_run: bool, kwargs: dict) -> object:
        """The full decision order (everything but the inline steady state)."""
        reason = self._full_entry_reason(benchmark_run, kwargs)
        if reason:
            counters.fallback(reason)
            return self.autotuner.run(*args, stream=stream, benchmark_run=benchmark_run, **kwargs)
        direct = self._direct
        if direct is not None:
            if self._selected(self.autotuner) is direct.launcher:
                return self._call_direct(direct, args, stream)
            self._set_direct(None)
            counters.count("plan.invalidated")
        if self._negative is not None:
            launcher = self._selected(self.autotuner)
            if launcher is self._negative:
                counters.fallback("negative_cache")
                return launcher(*self._canonical(args), stream=stream)
            self._negative = None
            counters.count("negative.invalidated")
        if self._ran and self._try_promote(args):
            return self._call_direct(self._direct, args, stream)
        counters.fallback("warming_up")
        result = self.autotuner.run(*args, stream=stream)
        self._ran = True
        self._try_promote(args)
        return result

    def _canonical(self, args: tuple) -> tuple:
        blocks = getattr(self.autotuner, "best_runtime_blocks", None)
        if not blocks:
            return args
        build = getattr(self.autotuner, "_build_runtime_launch_args", None)
        return tuple(build(args, blocks)) if build is not None else (*args, *blocks)

    def _stable_launcher(self) -> object:
        autotuner = self.autotuner
        launchers = getattr(autotuner, "launchers", None)
        if not launchers or len(launchers) != 1:
            return None
        launcher = launchers[0]
        if hasattr(launcher, "fallback") or self._selected(autotuner) is not launcher:
            return None
        if getattr(launcher, "store_cubin", False) and not getattr(autotuner,
                                                                   "cuda_kernel_saved", False):
            return None
        meta = getattr(autotuner, "inductor_meta", None) or {}
        cfg = getattr(launcher, "config", None)
        if meta.get("coordinate_descent_tuning") and cfg is not None and not getattr(
                cfg, "found_by_coordesc", True):
            return None
        return launcher

    def _try_promote(self, args: tuple) -> bool:
        launcher = self._stable_launcher()
        if launcher is None or launcher is self._negative:
            return False
        try:
            direct = make_planned_launch(self.backend_for(), launcher, self.autotuner,
                                         self.metadata, args)
        except FastLaunchError as err:
            counters.count("plan.refused." + err.reason)
            log.info("fastlaunch: no plan for %s: %s", self.metadata.get("kernel_name"), err)
            if err.stable:
                self._negative = launcher
            return False
        self._negative = None
        self._set_direct(direct)
        counters.count("plan.created")
        log.debug("fastlaunch: planned %s", self.metadata.get("kernel_name"))
        return True

    def _set_direct(self, direct: PlannedLaunch | None) -> None:
        """Install (or drop) the plan; the call slot gets its FastSite, or this router."""
        self._direct = direct
        if self.call_slot is None:
            return
        site = self._fast_site(direct) if direct is not None else None
        self.call_slot[0] = site if site is not None else self

    def _fast_site(self, direct: PlannedLaunch) -> object | None:
        native = direct.backend.native_launcher(direct.plan)
        if native is None:
            return None
        from . import _core

        return _core.make_fast_site(
            fallback=self, on_error=self._fast_site_failed, autotuner=self.autotuner,
            launcher=direct.launcher, profiler=self._profiler,
            maybe_full=None if self._maybe_full is _never else self._maybe_full,
            hooks=direct.hooks, grid=direct.grid, static_grid=direct.static_grid,
            fixed=direct.fixed, native=native, input_count=direct.input_count,
            best_launcher_mode=self._selected is _best_launcher,
            grid_program=list(direct.spec.grid_program or ()))

    def _fast_site_failed(self, err: BaseException, args: tuple, stream: object) -> object:
        """A FastSite's launch raised after packing began: never replayed."""
        direct = self._direct
        return self._launch_failed(direct, direct.translate(err), args, stream)

    def _call_direct(self, direct: PlannedLaunch, args: tuple, stream: object) -> object:
        if direct.hooks and any(direct.hooks):
            counters.fallback("launch_hooks")
            return direct.launcher(*self._canonical(args), stream=stream)
        try:
            direct(args, stream)
        except FastLaunchError as err:
            return self._launch_failed(direct, err, args, stream)
        counters.hit()
        return None

    def _launch_failed(self, direct: PlannedLaunch, err: FastLaunchError, args: tuple,
                       stream: object) -> object:
        """A recoverable refusal takes the full entry; anything else propagates."""
        if not err.recoverable:
            counters.count("error." + err.reason)
            raise err
        counters.fallback(err.reason)
        if err.stable:
            self._set_direct(None)
            self._negative = direct.launcher
        return self.autotuner.run(*args, stream=stream)


# Per-ABI extra bind options (probes, static reasons), set by integrations.
_bind_options: dict[str, Callable[[Any], dict]] = {}


def register_bind_options(abi: str, provider: Callable[[Any], dict] | None) -> None:
    if provider is None:
        _bind_options.pop(abi, None)
    else:
        _bind_options[abi] = provider


def bind(metadata: dict, autotuner: Any, *, call_slot: list | None = None,
         **options: Any) -> Callable[..., object]:
    """The callable a generated call site uses in place of ``autotuner.run``."""
    if _is_grouped(autotuner):
        counters.count("bind.grouped_autotuner")
        bound: Callable[..., object] = autotuner.run
    else:
        provider = _bind_options.get(metadata.get("abi", ""))
        if provider is not None and not options:
            options = provider(autotuner)
        bound = BoundLaunch(autotuner, metadata, call_slot=call_slot, **options)
    if call_slot is not None:
        call_slot[0] = bound
    return bound
