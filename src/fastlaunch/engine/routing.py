# SPDX-License-Identifier: Apache-2.0
"""Per-call-site routing between the planned launch and the original path.

Generated wrapper code calls ``bind(metadata, autotuner)`` with the slot
keyword (``callsite.SLOT_KEYWORD``) once per call site and then calls the
bound object exactly like ``autotuner.run``. Decision order, per call:

1. a full-entry reason (fixed at bind, or per call: profiler, benchmark_run,
   kwargs, debug mode) -> ``autotuner.run``;
2. a plan whose launcher is still the selected one -> planned launch;
3. a negative entry for the selected launcher -> that launcher, directly;
4. otherwise ``autotuner.run``, then try to promote the now-settled launcher.

One error policy: a problem found before the runtime's launch call hands
that one call to ``autotuner.run`` (counted by reason; strict mode raises);
after that call was entered, any error propagates and nothing is replayed.
A kernel is never submitted twice.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from .. import config
from ..errors import CallRefused, FastLaunchError, PlanUnavailable
from ..runtime import abi as abi_rules
from ..runtime import backends, counters
from ..runtime.base import Backend, KernelSpec, Plan
from . import callsite
from . import probes as full_entry  # BoundLaunch takes a `probes` option of its own
from .fallbacks import take_original

log = logging.getLogger(__name__)

SPEC_ATTR = "_fastlaunch_spec"        # KernelSpec set on a launcher by an integration
REFUSAL_ATTR = "_fastlaunch_refusal"  # or the reason it could not describe the launcher


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


#: CachingAutotunerPlugin hooks that ``run`` may call on a call the plan would take.
PER_CALL_PLUGIN_HOOKS = ("pre_dispatch", "pre_autotune")


def _per_call_plugins(autotuner: Any) -> list:
    """The plugins whose per-call hooks the bound ``run`` really calls.

    torch_npu 2.13+ always installs a plugin with only ``pre_compile``, and
    its ``run`` never reads ``_plugins``: neither blocks planning. A hook
    counts when the plugin's class defines it itself (not inherited from
    Inductor's no-op base) and ``run``'s own code reads ``_plugins``.
    """
    plugins = getattr(autotuner, "_plugins", None) or ()
    run = getattr(type(autotuner), "run", None)
    if not plugins or "_plugins" not in getattr(getattr(run, "__code__", None), "co_names", ()):
        return []
    return [p for p in plugins
            if any(hook in vars(cls) for cls in type(p).__mro__[:-1]
                   if cls.__name__ != "CachingAutotunerPlugin"
                   for hook in PER_CALL_PLUGIN_HOOKS)]


def static_full_entry_reason(autotuner: Any, extra: Sequence[tuple[str, bool]] = (),
                             stock_runs: Sequence[Callable] = ()) -> str:
    """Reasons fixed for the life of a bound call site ("" when none).

    Each is a per-call feature of the original ``run`` that the planned path
    does not reproduce (docs/design.md lists them per torch release).
    """
    for reason, active in extra:
        if active:
            return reason
    debug_mode = full_entry.debug_mode_of(autotuner)
    if debug_mode:
        return debug_mode
    if _per_call_plugins(autotuner):
        return "autotuner_plugins"
    if "run" in getattr(autotuner, "__dict__", ()):
        return "run_overridden"
    if stock_runs and getattr(type(autotuner), "run", None) not in tuple(stock_runs):
        return "run_overridden"  # e.g. DebugAutotuner (profile_bandwidth)
    return ""


class PlannedLaunch:
    """A plan bound to one launcher: what the steady state needs, flattened."""

    __slots__ = ("fixed", "grid", "hooks", "input_count", "launch", "launcher", "plan",
                 "spec", "static_grid", "translate")

    def __init__(self, launcher: object, spec: KernelSpec, plan: Plan, input_count: int,
                 fixed: tuple) -> None:
        self.launcher = launcher
        self.spec = spec
        self.plan = plan
        self.input_count = input_count
        self.fixed = fixed
        self.grid = spec.grid
        self.static_grid = spec.static_grid
        self.hooks = tuple(spec.hooks)
        self.launch = plan.launch
        self.translate = plan.translate

    def resolve_grid(self, args: tuple) -> Sequence[int]:
        """The grid of this call; CallRefused when it cannot be evaluated."""
        if self.static_grid is not None:
            return self.static_grid
        try:
            grid = self.grid(*args, *self.fixed)
        except Exception as err:  # the original launcher would evaluate it again
            raise CallRefused("grid_resolver_error", detail=f"{type(err).__name__}: {err}") from err
        if not isinstance(grid, (tuple, list)) or len(grid) != 3:
            raise CallRefused("grid_rank", detail=f"grid: got {grid!r}, expected 3 ints")
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
    return PlannedLaunch(launcher, spec, plan, len(args), fixed)


@dataclasses.dataclass(frozen=True, eq=False)
class FastSiteSpec:
    """What a FastSite (csrc/engine/fast_site.cpp) checks before each native launch;
    it hands this back to ``BoundLaunch.fast_site_failed`` with any error."""

    planned: PlannedLaunch  # the plan the FastSite launches (its errors decide by it)
    autotuner: Any
    launcher: object        # the planned launcher: still the selected one?
    best_launcher_mode: bool  # selected: autotuner.best_launcher, else launchers[0]
    profiler: object        # its profiler_flag attribute is read per call
    maybe_full: Callable[[], object] | None  # when true, the router decides
    hooks: tuple            # live launch-hook containers; any non-empty: the router
    input_count: int
    grid: Callable[..., Sequence[int]] | None
    static_grid: tuple[int, int, int] | None
    fixed: tuple            # trailing grid inputs after the call's args
    grid_program: tuple[int, ...]  # fastlaunch.engine.gridexpr form of grid; may be empty
    hits: object = None     # the site's _core.HitCounter (counters.native_hits); None: uncounted
    profiler_flag: str = full_entry.PROFILER_FLAG  # probes owns the name


class BoundLaunch:
    """One call site's router; stands in for ``autotuner.run``."""

    __slots__ = ("__weakref__", "_before_direct", "_describe", "_direct", "_maybe_full",
                 "_negative", "_probes", "_profiler", "_ran", "_selected", "_site",
                 "_static_reason", "autotuner", "backend_for", "call_slot", "metadata")

    def __init__(self, autotuner: Any, metadata: dict, *,
                 backend_for: Callable[[], Backend] | None = None,
                 probes: Sequence[tuple[str, Callable[[], bool]]] = (),
                 maybe_full: Callable[[], object] = _never,
                 static_reasons: Sequence[tuple[str, bool]] = (),
                 stock_runs: Sequence[Callable] = (),
                 before_direct: Callable[[], None] | None = None,
                 describe: Callable[[Any, Any], bool] | None = None,
                 call_slot: list | None = None) -> None:
        self.autotuner = autotuner
        self.call_slot = call_slot
        self.metadata = dict(metadata)
        abi = self.metadata.get("abi")
        if abi not in abi_rules.ABIS:  # generated call sites always name theirs
            msg = (f"metadata['abi']: got {abi!r}, expected one of "
                   f"{', '.join(map(repr, abi_rules.ABIS))}")
            raise ValueError(msg)
        self.backend_for = backend_for or (lambda: backends.for_abi(abi))
        self._probes = tuple(probes)
        # A cheap per-call test; when true, the probes decide (e.g. "is any
        # dispatch mode active" before "is a DebugMode active").
        self._maybe_full = maybe_full if probes else _never
        config.get()  # reads the environment (and so the switch) if nothing did yet
        self._static_reason = static_full_entry_reason(autotuner, static_reasons, stock_runs)
        # Called right before fastlaunch calls an original launcher itself
        # (negative cache, launch hooks), for what ``run`` sets up per call
        # (e.g. Triton's allocator).
        self._before_direct = before_direct
        # describe(autotuner, launcher): attaches a KernelSpec to a launcher made
        # while fastlaunch was not installed (launchers.describe_late)
        self._describe = describe
        self._selected = (_best_launcher if hasattr(autotuner, "best_launcher")
                          else _single_launcher)
        self._profiler = full_entry.profiler()
        self._direct: PlannedLaunch | None = None
        self._negative: object = None
        self._ran = False
        name = self.metadata.get("kernel_name", "?")
        site = self.metadata.get("callsite_id")
        self._site = f"{name} [{site}]" if site else str(name)
        if call_slot is not None:
            _live.add(self)

    @property
    def plan(self) -> PlannedLaunch | None:
        return self._direct

    def __call__(self, *args: object, stream: object, benchmark_run: bool = False,
                 **kwargs: object) -> object:
        direct = self._direct
        # Steady state, inline: every condition that could send this call
        # elsewhere is checked before anything is launched.
        if (direct is not None and _switch.on and not benchmark_run and not kwargs
                and not getattr(self._profiler, full_entry.PROFILER_FLAG)
                and not self._maybe_full()
                and self._selected(self.autotuner) is direct.launcher
                and not (direct.hooks and any(direct.hooks))
                and len(args) == direct.input_count and stream is not None
                and not self._static_reason):
            grid = direct.static_grid
            if grid is None:
                try:
                    grid = direct.grid(*args, *direct.fixed)
                except Exception as err:  # evaluated once: the original evaluates it again
                    return self._refused(direct, CallRefused(
                        "grid_resolver_error", detail=f"{type(err).__name__}: {err}"), args, stream)
            try:
                direct.launch(stream, grid, args)
            except Exception as err:
                return self._launch_failed(direct, direct.translate(err), args, stream)
            counters.hit(self._site)
            return None
        return self._route(args, stream, benchmark_run, kwargs)

    def _full_entry_reason(self, benchmark_run: bool, kwargs: dict) -> str:
        if not _switch.on:
            return "disabled"
        if self._static_reason:
            return self._static_reason
        if benchmark_run:
            return "benchmark_run"
        if kwargs:
            return "kwargs"
        if getattr(self._profiler, full_entry.PROFILER_FLAG):
            return "profiler"
        for reason, probe in self._probes:
            if probe():
                return reason
        return ""

    def _route(self, args: tuple, stream: object, benchmark_run: bool, kwargs: dict) -> object:
        """The full decision order (everything but the inline steady state)."""
        reason = self._full_entry_reason(benchmark_run, kwargs)
        if reason:
            take_original(reason, self._site)
            if benchmark_run:  # only when asked: DebugAutotuner.run forwards it to the launcher
                kwargs = {**kwargs, "benchmark_run": True}
            return self.autotuner.run(*args, stream=stream, **kwargs)
        direct = self._direct
        if direct is not None:
            if self._selected(self.autotuner) is direct.launcher:
                return self._call_direct(direct, args, stream)
            self._drop(direct)
            counters.count("plan.invalidated", self._site)
        negative = self._negative
        if negative is not None:
            launcher = self._selected(self.autotuner)
            if launcher is negative:
                take_original("negative_cache", self._site)
                return self._call_original_launcher(launcher, args, stream)
            self._negative = None
            counters.count("negative.invalidated", self._site)
        if self._ran:
            direct = self._try_promote(args)
            if direct is not None:
                return self._call_direct(direct, args, stream)
        take_original("warming_up", self._site)
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

    def _call_original_launcher(self, launcher: Any, args: tuple, stream: object) -> object:
        """The selected original launcher, called by fastlaunch itself (not through ``run``)."""
        if self._before_direct is not None:
            self._before_direct()
        return launcher(*self._canonical(args), stream=stream)

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
        if meta.get("combo_tuning_groups") and cfg is not None and not getattr(
                cfg, "found_by_combo_autotune", True):
            return None  # torch 2.12+: run() would still combo-tune this launcher
        return launcher

    def _try_promote(self, args: tuple) -> PlannedLaunch | None:
        """Plan the settled launcher; the new plan (the caller uses it, not ``_direct``,
        which another thread may change at any time) or None."""
        launcher = self._stable_launcher()
        if launcher is None or launcher is self._negative:
            return None
        if (self._describe is not None and getattr(launcher, SPEC_ATTR, None) is None
                and getattr(launcher, REFUSAL_ATTR, None) is None
                and self._describe(self.autotuner, launcher)):
            counters.count("plan.described_late", self._site)
        try:
            direct = make_planned_launch(self.backend_for(), launcher, self.autotuner,
                                         self.metadata, args)
        except FastLaunchError as err:
            counters.count("plan.refused." + err.reason, self._site)
            log.info("fastlaunch: no plan for %s: %s", self._site, err)
            if err.stable:
                self._negative = launcher
            return None
        except Exception as err:  # a backend bug or a failed build: never the user's call
            counters.count("plan.refused.plan_creation_error", self._site)
            log.warning("fastlaunch: making a plan for %s failed, it stays on the original "
                        "path: %s: %s", self._site, type(err).__name__, err)
            self._negative = launcher
            return None
        self._negative = None
        self._set_direct(direct)
        counters.count("plan.created", self._site)
        log.debug("fastlaunch: planned %s", self._site)
        return direct

    def _set_direct(self, direct: PlannedLaunch | None) -> None:
        """Install (or drop) the plan; the call slot gets its FastSite, or this router."""
        with _slots_lock:
            self._direct = direct
            self._fill_slot()

    def _drop(self, direct: PlannedLaunch) -> None:
        """Drop ``direct`` unless another thread already replaced it."""
        with _slots_lock:
            if self._direct is direct:
                self._direct = None
                self._fill_slot()

    def _fill_slot(self) -> None:
        if self.call_slot is None:
            return
        direct = self._direct
        site = self._fast_site(direct) if direct is not None and _switch.on else None
        self.call_slot[0] = site if site is not None else self

    def _fast_site(self, direct: PlannedLaunch) -> object | None:
        native = direct.plan.native
        if native is None:
            return None
        from ..runtime import _core

        site = FastSiteSpec(
            planned=direct, autotuner=self.autotuner, launcher=direct.launcher,
            best_launcher_mode=self._selected is _best_launcher, profiler=self._profiler,
            maybe_full=None if self._maybe_full is _never else self._maybe_full,
            hooks=direct.hooks, input_count=direct.input_count, grid=direct.grid,
            static_grid=direct.static_grid, fixed=direct.fixed,
            grid_program=tuple(direct.spec.grid_program or ()),
            hits=counters.native_hits(self._site))
        return _core.make_fast_site(self, native, site)

    def fast_site_failed(self, site: FastSiteSpec, err: BaseException, args: tuple,
                         stream: object) -> object:
        """A FastSite's launch raised: the plan that FastSite was made for decides."""
        if not isinstance(err, Exception):
            raise err  # KeyboardInterrupt and friends are never turned into launches
        direct = site.planned
        return self._launch_failed(direct, direct.translate(err), args, stream)

    def _call_direct(self, direct: PlannedLaunch, args: tuple, stream: object) -> object:
        if direct.hooks and any(direct.hooks):
            take_original("launch_hooks", self._site)
            return self._call_original_launcher(direct.launcher, args, stream)
        try:
            direct(args, stream)
        except FastLaunchError as err:
            return self._launch_failed(direct, err, args, stream)
        counters.hit(self._site)
        return None

    def _refused(self, direct: PlannedLaunch, err: FastLaunchError, args: tuple,
                 stream: object) -> object:
        """Nothing was submitted: this one call takes the original path (strict mode raises)."""
        take_original(err.reason, self._site, err)
        if err.stable:
            self._drop(direct)
            self._negative = direct.launcher
        return self.autotuner.run(*args, stream=stream)

    def _launch_failed(self, direct: PlannedLaunch, err: FastLaunchError, args: tuple,
                       stream: object) -> object:
        """Before the runtime's launch call: the original path; after it: raise, never replay."""
        if not err.recoverable:
            counters.count("error." + err.reason, self._site)
            raise err
        return self._refused(direct, err, args, stream)


_switch = config.switch
_slots_lock = threading.RLock()
# Routers that own a call slot, so the run-time switch can swap FastSites out and back.
_live: weakref.WeakSet[BoundLaunch] = weakref.WeakSet()


def refresh_call_slots() -> None:
    """Put each live call slot in line with the switch: FastSites only while on."""
    with _slots_lock:
        for router in list(_live):
            router._fill_slot()


_switch.listeners.append(refresh_call_slots)


# Per-ABI extra bind options (probes, static reasons), set by integrations.
_bind_options: dict[str, Callable[[Any], dict]] = {}


def register_bind_options(abi: str, provider: Callable[[Any], dict] | None) -> None:
    if provider is None:
        _bind_options.pop(abi, None)
    else:
        _bind_options[abi] = provider


def bind(metadata: dict, autotuner: Any, **options: Any) -> Callable[..., object]:
    """The callable a generated call site uses in place of ``autotuner.run``; the
    site's one-slot list comes as ``callsite.SLOT_KEYWORD`` (the site's text owns it)."""
    call_slot: list | None = options.pop(callsite.SLOT_KEYWORD, None)
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
