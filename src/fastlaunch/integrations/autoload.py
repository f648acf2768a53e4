# SPDX-License-Identifier: Apache-2.0
"""Activation without code changes.

``autoload`` is registered in the ``torch.backends`` entry-point group, so
``import torch`` calls it. It imports nothing heavy: when fastlaunch is
enabled it only arranges for each integration to install itself right after
the modules it patches have been imported (or at once, if they already are).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import logging
import sys
from collections.abc import Callable

from .. import config

log = logging.getLogger(__name__)

# integration name -> its folder under fastlaunch.integrations
INTEGRATIONS = {"cuda": "inductor", "npu": "torch_npu"}
# integration module -> modules that must be imported before it installs
TARGETS: dict[str, tuple[str, ...]] = {
    "cuda": ("torch._inductor.codegen.wrapper", "torch._inductor.runtime.triton_heuristics"),
    "npu": ("torch_npu._inductor.codegen.wrapper", "torch_npu._inductor.runtime.triton_heuristics"),
}


def targets(name: str) -> tuple[str, ...]:
    """What ``name`` waits for; the NPU autotuner's module depends on the
    installed torch_npu's layout (read from its files, not imported)."""
    if name != "npu":
        return TARGETS[name]
    from .torch_npu import layouts

    return (TARGETS["npu"][0], layouts.installed().heuristics)
_pending: dict[str, tuple[str, ...]] = {}
_results: dict[str, str] = {}  # integration -> "installed" or the reason it is not
_callbacks: dict[str, list[Callable[[object], None]]] = {}  # module -> run after its import


def _install(name: str) -> None:
    folder = INTEGRATIONS.get(name, name)
    module = importlib.import_module(f"fastlaunch.integrations.{folder}.integration")
    try:
        module.install()
    except Exception as err:  # an unsupported release is reported, never half-patched
        _results[name] = f"not installed: {type(err).__name__}: {err}"
        log.warning("fastlaunch: %s integration not installed: %s", name, err)
        return
    _results[name] = "installed" if module.installed() else "not installed: declined"


_retry = [False]  # a pending install waits for a module that is still executing


def _ready(module_name: str, finished: str) -> bool:
    """Imported and done executing (``finished`` has just returned from its exec)."""
    module = sys.modules.get(module_name)
    if module is None:
        return False
    if module_name == finished:
        return True
    return not getattr(getattr(module, "__spec__", None), "_initializing", False)


def _maybe_install(name: str, finished: str = "") -> None:
    needed = _pending.get(name)
    if needed is None:
        return
    if all(_ready(m, finished) for m in needed):
        del _pending[name]
        _install(name)
    elif all(m in sys.modules for m in needed):
        # Imported before this hook ran and still executing: it may finish
        # without passing through our loader, so try again on the next import.
        _retry[0] = True


def _retry_pending() -> None:
    _retry[0] = False
    for name in list(_pending):
        _maybe_install(name)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs the pending installs once a watched module has finished executing."""

    def find_spec(self, fullname, path, target=None):
        # Consulted for every import in the process: answer "not mine" cheaply.
        if _retry[0]:
            _retry_pending()
        if fullname not in _callbacks and not any(fullname in m for m in _pending.values()):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _Loader(spec.loader)
                return spec
        return None


class _Loader(importlib.abc.Loader):
    def __init__(self, inner: importlib.abc.Loader) -> None:
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module) -> None:
        self.inner.exec_module(module)
        for callback in _callbacks.pop(module.__name__, ()):
            callback(module)
        for name in list(_pending):
            _maybe_install(name, finished=module.__name__)


_finder = _AfterImport()


def _arm() -> None:
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def after_import(module_name: str, callback: Callable[[object], None]) -> None:
    """Call ``callback(module)`` once ``module_name`` has been imported (now, if it is)."""
    module = sys.modules.get(module_name)
    if module is not None:
        callback(module)
        return
    _callbacks.setdefault(module_name, []).append(callback)
    _arm()


def watch(names: tuple[str, ...] | None = None) -> None:
    """Install each integration now or right after its target modules load."""
    for name in names or tuple(TARGETS):
        _pending[name] = targets(name)
        _results.setdefault(name, "waiting for " + ", ".join(_pending[name]))
    _arm()
    for name in list(_pending):
        _maybe_install(name)


def _register_torch_log() -> None:
    """Make ``TORCH_LOGS=fastlaunch`` (``+fastlaunch`` for debug) control our logger.
    Runs from the entry point, before torch reads TORCH_LOGS."""
    internal = sys.modules.get("torch._logging._internal")
    register = getattr(internal, "register_log", None)
    if register is not None:
        try:
            register("fastlaunch", "fastlaunch")
        except Exception as err:  # an older or changed torch: logging stays ours alone
            log.debug("fastlaunch: TORCH_LOGS registration failed: %s", err)


def decision() -> str:
    """The enable decision in one line (``doctor``, logs)."""
    cfg = config.get()
    if cfg.enabled:
        return f"on (by {cfg.enabled_by}); backend {cfg.backend}"
    said = [_said(name, raw) for name, raw, _ in cfg.parsed
            if name in ("FASTLAUNCH", "TORCHINDUCTOR_NPU_FAST_LAUNCH")]
    return "off (" + (", ".join(said) if said else "FASTLAUNCH is unset") + ")"


def _said(name: str, raw: str) -> str:
    """What one switch variable said, as it was parsed."""
    if not raw.strip():
        return f"{name} is empty"
    if not config.is_bool(raw):
        return f"{name}={raw!r} is not a boolean, so as if unset"
    return f"{name}={raw}"


def _log_decision(_module: object) -> None:
    log.info("fastlaunch: %s", decision())


def _in_tree_off(why: str) -> Callable[[object], None]:
    from .torch_npu import in_tree

    return lambda module: in_tree.turn_off(module, why)


def autoload() -> None:
    """Entry point for ``torch.backends``: arm the integrations when enabled."""
    _register_torch_log()
    cfg = config.get()
    if not cfg.enabled and any(name == "TORCHINDUCTOR_NPU_FAST_LAUNCH" and meaning.startswith("on")
                               for name, _, meaning in cfg.parsed):
        # An explicit FASTLAUNCH=0 wins: torch_npu's own copy, which reads
        # TORCHINDUCTOR_NPU_FAST_LAUNCH itself, stays off too.
        after_import("torch_npu._inductor.config",
                     _in_tree_off("FASTLAUNCH=0 overrides TORCHINDUCTOR_NPU_FAST_LAUNCH=1"))
    if cfg.enabled or any(name in ("FASTLAUNCH", "TORCHINDUCTOR_NPU_FAST_LAUNCH")
                          for name, _, _ in cfg.parsed):
        # torch applies TORCH_LOGS after its entry points ran: say it once Inductor loads.
        after_import("torch._inductor.runtime.triton_heuristics", _log_decision)
    if cfg.enabled:
        arm()


def arm() -> None:
    """Install the configured integrations now or right after their modules load."""
    cfg = config.get()
    names = ("cuda", "npu") if cfg.backend in ("auto", "fake") else (cfg.backend,)
    if "npu" in names:
        # Exactly one planned launch: fastlaunch's, or with FASTLAUNCH_NPU_IMPL=torch_npu
        # torch_npu's in-tree one (then ours is not installed).
        from .torch_npu import in_tree

        if cfg.npu_impl == "torch_npu":
            in_tree.choose("torch_npu in-tree fast launch (FASTLAUNCH_NPU_IMPL=torch_npu)")
            names = tuple(n for n in names if n != "npu")
            _results["npu"] = "not installed: FASTLAUNCH_NPU_IMPL=torch_npu"
        else:
            after_import(in_tree.CONFIG_MODULE, _in_tree_off(
                "fastlaunch launches NPU kernels; FASTLAUNCH_NPU_IMPL=torch_npu keeps the "
                "in-tree one"))
    names = tuple(n for n in names if _results.get(n) != "installed")
    if names:
        watch(names)
    if cfg.planned_call:
        after_import("torch._inductor.codecache", _install_planned_call)


def _install_planned_call(codecache: object) -> None:
    """The planned-call hook on Inductor's code cache; a failure is reported, never raised
    into the import that triggered it."""
    from . import planned_call_hook

    try:
        planned_call_hook.install(codecache)
    except Exception as err:
        _results["planned_call"] = f"not installed: {type(err).__name__}: {err}"
        log.warning("fastlaunch: planned call not installed: %s", err)
        return
    _results["planned_call"] = "installed"


def status() -> dict[str, str]:
    """Per integration: installed, waiting, or why not (for ``doctor``)."""
    return dict(_results)
