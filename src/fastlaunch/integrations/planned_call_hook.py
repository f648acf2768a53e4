# SPDX-License-Identifier: Apache-2.0
"""Put planned calls in place when Inductor's code cache loads a wrapper module.

``PyCodeCache.load_by_key_path`` (torch 2.10 to 2.14: every wrapper module,
fresh or from a warm FX-graph cache, is loaded through it, and Inductor reads
``module.call`` right after it returns) is wrapped: the module's ``call`` is
translated and replaced by its PlannedCall. Generated code and cache keys are
unchanged, so caches filled without fastlaunch are used as they are, and the
run-time switch turns planned calls off per call without recompiling.

Counted per module: ``call.translated`` (and ``call.islands`` when statements
stay Python), ``call.not_python`` (nothing to plan by design: a ``call`` that is
no Python function, or ``cpp_wrapper``'s Python entry, which hands the whole
graph to its compiled C++ in one call), or ``fallback.call_untranslatable`` /
``fallback.call_plan_error`` (the module keeps its Python ``call``; strict
mode raises).
"""

from __future__ import annotations

import functools
import logging
import os
import types

from ..engine.fallbacks import take_original
from ..engine.planned_call import Untranslatable, planner
from ..patching import PatchSet
from ..runtime import aten_ops, counters, tensor_geometry

log = logging.getLogger(__name__)

_patches: list[PatchSet] = []


def site_name(module: object) -> str:
    path = getattr(module, "__file__", None) or getattr(module, "__name__", "?")
    return f"call [{os.path.basename(str(path))}]"


def runs_compiled_entry(module: object, func: types.FunctionType) -> bool:
    """True for ``cpp_wrapper``'s Python entry: torch's ``cpp_wrapper_cpu.py``
    (``_generate_end_jit``, the GPU wrapper inherits it) writes
    ``call = _wrap_func(inductor_entry)``, a closure ``g(args)`` over the
    module's ``inductor_entry``, the compiled C++ ``inductor_entry_impl`` that
    runs every kernel. Its few Python lines only convert the arguments: there
    is no launch to plan, so this is no translator failure."""
    entry = getattr(module, "inductor_entry", None)
    if entry is None or not func.__closure__:
        return False
    for cell in func.__closure__:
        try:
            if cell.cell_contents is entry:
                return True
        except ValueError:  # a cell not yet bound
            continue
    return False


def plan_module(module: object) -> bool:
    """Replace ``module.call`` with its PlannedCall; True when it now has one."""
    from ..runtime import _core

    call = getattr(module, "call", None)
    if call is None:
        return False  # not a wrapper (a kernel module, a benchmark harness)
    if isinstance(call, _core.PlannedCall):
        return True  # the code cache hands out the same module again
    site = site_name(module)
    func = getattr(call, "__func__", call)
    if not isinstance(func, types.FunctionType) or runs_compiled_entry(module, func):
        counters.count("call.not_python", site)  # a compiled entry point: nothing to plan
        return False
    try:
        program = planner.program_of(call)
        planned = planner.plan(call, site, program)
    except Untranslatable as err:
        log.info("fastlaunch: %s stays Python: %s", site, err)
        take_original("call_untranslatable", site)
        return False
    except Exception as err:  # a bug of ours never fails loading the user's graph
        log.warning("fastlaunch: planning %s failed, it stays Python: %s: %s", site,
                    type(err).__name__, err)
        take_original("call_plan_error", site)
        return False
    module.call = planned  # type: ignore[attr-defined]
    counters.count("call.translated", site)
    if program.islands:
        counters.count("call.islands", site)
        log.info("fastlaunch: %s: %d statements stay Python: %s", site, len(program.islands),
                 "; ".join(program.islands[:3]))
    return True


def _wrap(original):
    @functools.wraps(original)
    def load_by_key_path(cls, *args, **kwargs):
        module = original(cls, *args, **kwargs)
        plan_module(module)
        return module

    return classmethod(load_by_key_path)


def install(codecache: object | None = None) -> bool:
    """Wrap ``PyCodeCache.load_by_key_path``; idempotent (True when this call installed)."""
    if _patches:
        return False
    if codecache is None:
        from torch._inductor import codecache
    cls = codecache.PyCodeCache  # type: ignore[attr-defined]
    patches = PatchSet("planned-call")
    patches.add(cls, "load_by_key_path", _wrap(cls.__dict__["load_by_key_path"].__func__))
    patches.install()
    _patches.append(patches)
    tensor_geometry.ensure(build=True)  # native asserts once built (in the background)
    aten_ops.ensure(build=True)  # native extern kernels and aten ops, likewise
    return True


def uninstall() -> bool:
    """Put the original loader back (modules planned so far keep their PlannedCall)."""
    if not _patches:
        return False
    _patches.pop().uninstall()
    return True


def installed() -> bool:
    return bool(_patches)
