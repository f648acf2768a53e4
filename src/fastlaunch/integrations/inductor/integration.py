# SPDX-License-Identifier: Apache-2.0
"""Hooks into stock Inductor (torch 2.10 to 2.14) for the cuda backend.

Three attributes are patched, all in the parent process:

* ``PythonWrapperCodegen._generate_kernel_call_helper``: Triton call sites
  become fastlaunch call sites (see ``fastlaunch.integrations.codegen``);
* ``StaticTritonCompileResult.make_launcher`` and
  ``TritonCompileResult.make_launcher``: each launcher gets a ``KernelSpec``
  (or the reason it cannot have one).

Inductor's compile caches are keyed on fastlaunch's state
(``fastlaunch.integrations.cache_keys``); call sites are rewritten only while that key is
in place and fastlaunch is enabled, so cached code never needs fastlaunch
where it is off or absent.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from ... import config as fastlaunch_config
from ...engine import probes
from ...errors import PlanUnavailable
from ...patching import PatchSet
from ...runtime import abi
from ...runtime.base import KernelSpec
from ...runtime.cuda.options import CudaOptions
from .. import cache_keys, codegen, launchers

log = logging.getLogger(__name__)


def _hooks() -> tuple:
    try:
        from triton import knobs
    except ImportError:
        return ()
    return launchers.hook_lists(knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook)


def _kernel_params(compile_result: Any, launcher: Any) -> dict:
    """Kernel handle, parameter names and launch settings of either launcher kind."""
    from torch._inductor.runtime.triton_helpers import get_constexprs

    scope = launcher.__globals__
    runner = scope.get("runner")
    kernel = getattr(runner, "__self__", None)
    if getattr(launcher, "_is_static", False) and kernel is not None:
        _, _, none_args = compile_result._get_arg_lists(kernel.arg_names,
                                                        kernel.declared_constexprs)
        names = [a for i, a in enumerate(kernel.arg_names)
                 if i not in kernel.full_constexprs and a not in none_args]
        n_scratch = int(bool(getattr(kernel, "has_global_scratch", True))) + int(
            bool(getattr(kernel, "has_profile_scratch", True)))
        return {"handle": int(kernel.function), "names": names, "num_warps": kernel.num_warps,
                "shared": int(kernel.shared), "n_scratch": n_scratch, "owner": kernel,
                "kind": "static"}
    binary = scope.get("bin")
    if binary is None:
        raise PlanUnavailable("launcher_kind_unknown", detail="neither static nor Triton")
    meta = binary.metadata
    if getattr(meta, "num_ctas", 1) != 1:
        raise PlanUnavailable("clusters_unsupported", detail=f"num_ctas={meta.num_ctas}")
    if getattr(meta, "launch_cooperative_grid", False):
        raise PlanUnavailable("cooperative_launch_unsupported")
    if getattr(meta, "launch_pdl", False):
        raise PlanUnavailable("pdl_launch_unsupported")
    for attr in ("global_scratch_size", "profile_scratch_size"):
        if getattr(meta, attr, 0) or 0:
            raise PlanUnavailable("scratch_memory_unsupported", detail=attr)
    src = binary.src
    fn = src.fn
    _, _, none_args = compile_result._get_arg_lists(fn.arg_names, get_constexprs(fn))
    constants = {k[0] if isinstance(k, tuple) and len(k) == 1 else k for k in src.constants}
    signature = src.signature
    names = [a for i, a in enumerate(fn.arg_names)
             if signature.get(a) != "constexpr" and i not in constants and a not in constants
             and a not in none_args]
    n_scratch = int(hasattr(meta, "global_scratch_size")) + int(hasattr(meta,
                                                                        "profile_scratch_size"))
    return {"handle": int(binary.function), "names": names, "num_warps": meta.num_warps,
            "shared": int(getattr(binary, "shared", None) or meta.shared),
            "n_scratch": n_scratch, "owner": binary, "kind": "triton"}


def plan_device(compile_meta: dict) -> int:
    """The device a launcher's kernel handle belongs to. torch 2.14+
    compile-on-one-rank leaves ``compile_meta["device"]`` None: Inductor then
    loads the kernel on the current device (``_resolve_load_device``) right
    before ``make_launcher`` returns, so that is the device, never 0 by default."""
    device = compile_meta.get("device")
    if device is None:
        import torch

        device = torch.cuda.current_device()
    return int(device)


def describe_launcher(compile_result: Any, launcher: Any) -> KernelSpec:
    """The KernelSpec of one freshly made launcher, or PlanUnavailable."""
    inductor_meta = compile_result.inductor_meta
    compile_meta = compile_result.compile_meta
    if inductor_meta.get("store_cubin"):
        raise PlanUnavailable("store_cubin")
    if compile_meta.get("device_type", "cuda") != "cuda":
        raise PlanUnavailable("device_type_unsupported", detail=str(compile_meta["device_type"]))
    args = launchers.def_args(launcher)
    params = _kernel_params(compile_result, launcher)
    signature_map = compile_meta["signature"]
    try:
        types = tuple(signature_map[name] for name in params["names"])
        positions = tuple(args.index(name) for name in params["names"])
    except (KeyError, ValueError) as err:
        raise PlanUnavailable("launcher_args_unmapped", detail=str(err)) from None
    for t in types:
        abi.kind_of(t)  # refuses TMA descriptors and other unsupported types
    from torch._inductor.runtime.triton_heuristics import GridExpr

    grid, static_grid, grid_program = launchers.grid_resolver(
        GridExpr.from_meta(inductor_meta, compile_result.config), launcher, args)
    device = plan_device(compile_meta)
    name = inductor_meta.get("kernel_name") or getattr(compile_result.kernel, "name", "triton")
    return KernelSpec(
        name=str(name), handle=params["handle"], signature=types,
        names=tuple(params["names"]), positions=positions, grid=grid, static_grid=static_grid,
        grid_program=grid_program,
        device=int(device),
        options=CudaOptions(num_warps=int(params["num_warps"]), shared=int(params["shared"]),
                            n_scratch=int(params["n_scratch"]), launcher_kind=params["kind"]),
        owner=params["owner"], hooks=_hooks())


def _call_site_eligible(wrapper: Any, kwargs: dict) -> bool:
    from torch._inductor import config
    from torch._inductor.virtualized import V

    if not kwargs.get("triton", True) or V.graph.cpp_wrapper:
        return False
    if not fastlaunch_config.enabled_now() or not cache_keys.active():
        return False  # the cache key would not say this code needs fastlaunch
    if config.triton.autotune_at_compile_time:
        return False
    if config.profile_bandwidth:
        return False  # every kernel gets a DebugAutotuner, whose run does the work
    device = kwargs.get("device") or V.graph.get_current_device_or_throw()
    return device.type == "cuda"


def _wrap_call_helper(original):
    @functools.wraps(original)
    def _generate_kernel_call_helper(self, kernel_name, call_args, *args, **kwargs):
        if args or not _call_site_eligible(self, kwargs):
            return original(self, kernel_name, call_args, *args, **kwargs)
        from torch._inductor.virtualized import V

        graph_id = str(getattr(V.graph, "graph_id", None) or getattr(V.graph, "name", "graph"))
        return codegen.rewrite_run_line(
            self, kernel_name, len(call_args), "cuda", graph_id,
            lambda: original(self, kernel_name, call_args, **kwargs))

    return _generate_kernel_call_helper


def _bind_options(autotuner: Any) -> dict:
    from torch._inductor.runtime import triton_heuristics

    env_mode = probes.debug_mode_from_env()
    options: dict = {
        # the debug mode the environment turns on, as the planned call reads it
        "static_reasons": [(env_mode, True)] if env_mode else [],
        # DebugAutotuner (profile_bandwidth) or any subclass doing its own work per call
        "stock_runs": (triton_heuristics.CachingAutotuner.run,),
        # a launcher made again while fastlaunch was not installed (a compile in between)
        "describe": functools.partial(launchers.describe_late, describe=describe_launcher)}
    get_mode = getattr(triton_heuristics, "get_active_debug_mode", None)
    if get_mode is not None:
        def debug_mode_active() -> bool:
            return get_mode() is not None

        options["probes"] = [("debug_mode", debug_mode_active)]
        # A DebugMode is a dispatch mode: with none on the stack, skip the walk.
        # Without the stack probe, the probe itself is the per-call test (the
        # router checks its probes only when maybe_full is true).
        stack_len = probes.dispatch_stack_len()
        options["maybe_full"] = stack_len if stack_len is not None else debug_mode_active
    before = _allocator_setter(autotuner)
    if before is not None:
        options["before_direct"] = before
    return options


def _allocator_setter(autotuner: Any):
    """What stock ``CachingAutotuner.run`` does before every launch (torch 2.10
    to 2.14, identical): point Triton's allocator (a ContextVar, so per thread)
    at ``torch.empty`` on the kernel's device type. The router calls it before
    it calls a launcher directly, so a kernel with scratch memory works in any
    thread."""
    try:
        import triton
    except ImportError:
        return None
    set_allocator = getattr(triton, "set_allocator", None)
    if set_allocator is None:
        return None
    import torch

    device_type = autotuner.device_props.type

    def alloc_fn(size: int, align: int, stream: int | None):
        return torch.empty(size, dtype=torch.int8, device=device_type)

    return functools.partial(set_allocator, alloc_fn)


_state = launchers.Integration("cuda", _bind_options)


def install() -> bool:
    """Patch stock Inductor; idempotent. Returns True when this call installed."""
    if _state.installed:
        log.info("fastlaunch: cuda integration already installed")
        return False
    from torch._inductor.codegen.wrapper import PythonWrapperCodegen
    from torch._inductor.runtime import triton_heuristics as th

    patches = PatchSet("cuda-inductor")
    patches.add(PythonWrapperCodegen, "_generate_kernel_call_helper",
                _wrap_call_helper(PythonWrapperCodegen._generate_kernel_call_helper))
    for cls in (th.StaticTritonCompileResult, th.TritonCompileResult):
        patches.add(cls, "make_launcher",
                    launchers.wrap_make_launcher(cls.make_launcher, describe_launcher))
    return _state.install(patches)


def uninstall() -> bool:
    return _state.uninstall()


def installed() -> bool:
    return _state.installed
