# SPDX-License-Identifier: Apache-2.0
"""Helpers the integrations share to describe a freshly made launcher."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import gridexpr, routing
from ..errors import FastLaunchError, PlanUnavailable
from ..runtime import torch_accessor
from . import cache_keys

log = logging.getLogger(__name__)


def def_args(launcher: Any) -> list[str]:
    """The launcher's positional parameters, without the trailing ``stream``."""
    code = launcher.__code__
    names = list(code.co_varnames[:code.co_argcount])
    if names[-1:] != ["stream"]:
        raise PlanUnavailable("launcher_signature_unknown", detail=str(names))
    return names[:-1]


def grid_resolver(grid: Any, launcher: Any, args: Sequence[str]):
    """(resolver, static grid, program) from a GridExpr.

    The resolver is evaluated in the launcher's own scope: the launcher was
    exec'd from the same expressions into a private globals dict, so every
    name they use resolves there too. The program (``fastlaunch.engine.gridexpr``)
    lets the C steady state evaluate simple expressions without Python.
    """
    exprs = (grid.x_grid, grid.y_grid, grid.z_grid)
    if not grid.prefix and all(isinstance(e, int) for e in exprs):
        return None, tuple(int(e) for e in exprs), None
    body = [f"    {line}" for line in grid.prefix]
    source = "\n".join([f"def _fastlaunch_grid({', '.join(args)}):", *body,
                        f"    return ({exprs[0]}, {exprs[1]}, {exprs[2]})"])
    scope = launcher.__globals__
    exec(source, scope)
    program = None if grid.prefix else gridexpr.compile_grid(exprs, args)
    return scope.pop("_fastlaunch_grid"), None, program


def hook_lists(*hooks: object) -> tuple:
    """Live callback lists of Triton launch hooks: a HookChain's ``calls`` list
    (empty means inactive), or a one-element tuple for an older single hook."""
    found = []
    for hook in hooks:
        calls = getattr(hook, "calls", None)
        if isinstance(calls, list):
            found.append(calls)
        elif hook is not None:
            found.append((hook,))
    return tuple(found)


def attach_spec(describe: Callable[[Any, Any], Any], compile_result: Any,
                launcher: Any) -> None:
    """Set the launcher's KernelSpec, or the reason it cannot have one; never raises."""
    try:
        spec = describe(compile_result, launcher)
    except FastLaunchError as err:
        setattr(launcher, routing.REFUSAL_ATTR, err.reason)
    except Exception as err:  # never break compilation: stay on the original path
        log.warning("fastlaunch: cannot describe launcher: %s: %s", type(err).__name__, err)
        setattr(launcher, routing.REFUSAL_ATTR, "launcher_inspection_error")
    else:
        if spec is not None:
            setattr(launcher, routing.SPEC_ATTR, spec)


def wrap_make_launcher(original: Callable, describe: Callable[[Any, Any], Any]) -> Callable:
    """``make_launcher`` that also attaches a KernelSpec (or the refusal) to the launcher."""
    @functools.wraps(original)
    def make_launcher(self):
        launcher = original(self)
        attach_spec(describe, self, launcher)
        return launcher

    return make_launcher


def describe_late(autotuner: Any, launcher: Any, describe: Callable[[Any, Any], Any]) -> bool:
    """Describe a launcher that was made while fastlaunch was not installed (a
    compile in between can make an autotuner's launchers again): find the
    compile result it was made from (the launcher carries its config) and
    attach as ``make_launcher`` would have. False when there is none."""
    config = getattr(launcher, "config", None)
    for result in getattr(autotuner, "compile_results", None) or ():
        if config is not None and getattr(result, "config", None) is config:
            attach_spec(describe, result, launcher)
            return True
    return False


class Integration:
    """An integration's installed state: its patch set and per-ABI bind options."""

    def __init__(self, abi: str, bind_options: Callable[[Any], dict]) -> None:
        self.abi = abi
        self.bind_options = bind_options
        self.patches: Any = None

    @property
    def installed(self) -> bool:
        return self.patches is not None and self.patches.installed

    def install(self, patches: Any) -> bool:
        """Key Inductor's caches to this ABI, then apply ``patches``; a failure takes the
        key back. Launchers compiled before now are forgotten (they carry no KernelSpec)."""
        cache_keys.install(self.abi)
        try:
            patches.install()
            routing.register_bind_options(self.abi, self.bind_options)
            self.patches = patches
        except BaseException:
            cache_keys.uninstall(self.abi)
            raise
        forget_compiled_kernels()
        torch_accessor.ensure(build=True)  # loads a cached build; a missing one builds meanwhile
        return True

    def uninstall(self) -> bool:
        """Remove the patches (if installed) and, in any case, this ABI's cache key."""
        removed = self.patches is not None
        if removed:
            self.patches.uninstall()
            self.patches = None
            routing.register_bind_options(self.abi, None)
        cache_keys.uninstall(self.abi)
        return removed


def forget_compiled_kernels() -> None:
    """Inductor reuses a compiled kernel (its autotuner and launchers) by source
    within a process: the compile futures (``CompiledTritonKernels``) and the
    imported kernel modules (``PyCodeCache.modules_no_attr``). Launchers made
    before install carry no KernelSpec; forget them, so later compiles import
    the kernels again and make launchers through the patched make_launcher
    (Triton's on-disk cache keeps that cheap). Graphs already loaded keep
    theirs."""
    async_compile = sys.modules.get("torch._inductor.async_compile")
    kernels = getattr(async_compile, "CompiledTritonKernels", None)
    if kernels is not None:
        kernels.cache_clear()
    codecache = sys.modules.get("torch._inductor.codecache")
    modules = getattr(getattr(codecache, "PyCodeCache", None), "modules_no_attr", None)
    if isinstance(modules, dict):
        modules.clear()
