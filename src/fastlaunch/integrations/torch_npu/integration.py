# SPDX-License-Identifier: Apache-2.0
"""Hooks into torch_npu's Inductor backend (torch_npu 2.7.1 to 2.14).

Patched, transactionally, when the NPU Triton backend's modules load, in
the places the release's layout keeps them (``layouts``):

* on the NPU wrapper class, each method that writes the ``kernel.run(...)``
  line in this torch + torch_npu pair (``torch_contract.call_line_writers``):
  upstream's ``_generate_kernel_call_helper`` (torch 2.8+), and
  ``generate_kernel_call`` where the release writes multi-stream lines there
  or torch's own writes the line (torch 2.7): the line becomes a fastlaunch
  call site; the same helper of the release's subgraph wrapper class, where
  it has one;
* ``TritonCompileResultNpu.make_launcher``: each launcher gets a KernelSpec.

torch_npu 2.10.0.post7 and later ship their own experimental planned launch
behind ``TORCHINDUCTOR_NPU_FAST_LAUNCH``. Exactly one may be active; which
one is ``FASTLAUNCH_NPU_IMPL`` (default: fastlaunch). See docs/npu_fast_launch.md.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from ... import config
from ...errors import PlanUnavailable
from ...patching import PatchSet
from ...runtime import abi
from ...runtime.base import KernelSpec
from ...runtime.npu import family, kernel_meta
from .. import cache_keys, codegen, launchers
from . import contract, in_tree, layouts, torch_contract

log = logging.getLogger(__name__)
_layout: layouts.Layout = layouts.RUNTIME  # the installed release's, set by install()


class UnsupportedRelease(RuntimeError):
    """The installed torch_npu lacks something the integration patches or reads."""


def layout() -> layouts.Layout:
    """The layout of the installed release (the runtime layout before install)."""
    return _layout


def _triton_ffts() -> bool:
    """The generator's own FFTS test (triton-ascend's utils)."""
    from triton.backends.ascend import utils

    return bool(utils.is_ffts_supported(utils.get_ascend_arch_from_env())
                and not utils.force_disable_ffts())


def describe_launcher(compile_result: Any, launcher: Any) -> KernelSpec | None:
    """The KernelSpec of one freshly made NPU launcher.

    Layout and launch options come from ``kernel_meta.describe`` over what
    triton-ascend's generator got for this kernel (``bin.src``'s signature and
    constants, ``bin.metadata``); the launch family from the installed
    triton-ascend (refused, with the reason, when it cannot be told).
    """
    import importlib

    th = importlib.import_module(_layout.heuristics)
    inductor_meta = compile_result.inductor_meta
    if inductor_meta.get("group_enabled"):
        return None  # grouped launchers are bound to autotuner.run, never planned
    detection = family.installed()
    if detection.family is None:
        raise PlanUnavailable(detection.reason, detail=detection.detail)
    scope = launcher.__globals__
    binary = scope["bin"]
    if getattr(getattr(binary, "run", None), "compile_only", False):
        # TRITON_COMPILE_ONLY: triton-ascend's launcher returns without launching
        raise PlanUnavailable("compile_only", detail="the original launcher launches nothing")
    if getattr(getattr(binary, "run", None), "enable_msprof_register_tensor", False):
        # TRITON_REGISTER_TENSOR_MSPROF read by the launcher itself: it records shapes only
        raise PlanUnavailable("register_tensor_msprof",
                              detail="the original launcher records tensor shapes and launches "
                                     "nothing")
    src = binary.src
    arg_names = list(src.fn.arg_names)
    packed = scope.get("metadata")
    try:
        meta = kernel_meta.describe(
            getattr(src, "signature", {}) or {}, getattr(src, "constants", {}) or {},
            binary.metadata, handle=int(scope["function"]),
            kernel_name=inductor_meta.get("kernel_name") or src.fn.__name__,
            family=detection.family, ffts=_triton_ffts(), arg_names=arg_names,
            packed_metadata=packed if isinstance(packed, dict) else None)
    except kernel_meta.KernelMetaError as err:
        raise PlanUnavailable(err.reason, detail=err.detail) from None
    args = launchers.def_args(launcher)
    try:
        positions = tuple(args.index(name) for name in meta.names)
    except ValueError as err:
        raise PlanUnavailable("launcher_args_unmapped", detail=str(err)) from None
    for t in meta.signature:
        abi.kind_of(t)
    grid_expr = _layout.grid_expr(th, inductor_meta, compile_result.config, arg_names)
    grid, static_grid, grid_program = launchers.grid_resolver(grid_expr, launcher, args)
    return KernelSpec(
        name=meta.name, handle=meta.handle, signature=meta.signature, names=meta.names,
        positions=positions, grid=grid, static_grid=static_grid, grid_program=grid_program,
        device=int(compile_result.compile_meta.get("device", 0) or 0), options=meta.options,
        owner=binary, hooks=launchers.hook_lists(scope.get("launch_enter_hook"),
                                                 scope.get("launch_exit_hook")))


def _eligible(wrapper: Any, kwargs: dict) -> bool:
    from torch._inductor import config as inductor_config
    from torch._inductor.virtualized import V
    from torch_npu._inductor.codegen import wrapper as wrapper_module

    # Without the cache-key entry, the cache key would not say this code needs fastlaunch.
    partition = getattr(wrapper_module, "_is_codegen_graph_partition_subgraph", None)
    return bool(kwargs.get("triton", True) and not V.graph.cpp_wrapper
                and config.enabled_now() and cache_keys.active()
                and not (partition is not None and partition(wrapper))
                and not inductor_config.triton.autotune_at_compile_time)


def _wrap_call(original, *, positional_ok: bool):
    @functools.wraps(original)
    def call(self, kernel_name, call_args, *args, **kwargs):
        if (args and not positional_ok) or not _eligible(self, kwargs):
            return original(self, kernel_name, call_args, *args, **kwargs)
        from torch._inductor.virtualized import V

        graph_id = str(getattr(V.graph, "graph_id", None) or getattr(V.graph, "name", "graph"))
        return codegen.rewrite_run_line(
            self, kernel_name, len(call_args), "npu", graph_id,
            lambda: original(self, kernel_name, call_args, *args, **kwargs))

    return call


def _bind_options(autotuner: Any) -> dict:
    import importlib

    from torch_npu._inductor import config as npu_config

    from ...runtime import _core

    heuristics = importlib.import_module(_layout.heuristics)
    stock = getattr(heuristics, "NPUCachingAutotuner", None)
    meta = getattr(autotuner, "inductor_meta", None) or {}
    # store_cubin: every release's run saves the kernel, with this call's
    # stream, on every call (save_gpu_kernel before maybe_run_debug, e.g.
    # 2.12 npu_triton_heuristics.py and 2.13 runtime/triton_heuristics.py
    # NPUCachingAutotuner.run): such a site stays on run.
    static = [*layouts.debug_reasons(_layout, npu_config),
              ("store_cubin", bool(meta.get("store_cubin")))]
    msprof = _core.npu_msprof_collecting
    probes, maybe_full = layouts.debug_probes(
        _layout, npu_config, logging.getLogger(layouts.RELEASE_LOGGER), also=msprof)
    stats = getattr(heuristics, "stats", None)
    if type(stats).__name__ == "AutotuneStatsManager":
        # 2.7.1 (FASTA_AUTOTUNE_STATS=1): its run times every call and logs the
        # duration at INFO while stats.enabled, which it reads per call
        probes.insert(0, ("autotune_stats", lambda: stats.enabled))
        checks = maybe_full
        maybe_full = lambda: stats.enabled or checks()  # noqa: E731 - one call per planned call
    return {"static_reasons": static,
            # a subclass doing its own work per call (e.g. a debug autotuner) takes the full entry
            "stock_runs": (stock.run,) if stock is not None else (),
            "probes": [*probes, ("msprof", msprof)],
            # read on every planned call; true sends it to the router, whose probes say why
            "maybe_full": maybe_full,
            "describe": functools.partial(launchers.describe_late, describe=describe_launcher)}


def _register_profiling_switch() -> None:
    """Load CANN now, so the msprof callback is registered before any
    profiling session starts (as the original launchers register at load)."""
    from ...runtime import backends

    try:
        backends.get("npu").runtime  # noqa: B018 - creating it registers the callback
    except Exception as err:  # never block installation; plans will say why
        log.warning("fastlaunch: CANN not loaded at install: %s: %s", type(err).__name__, err)


def selected_backend() -> str:
    """``TORCHINDUCTOR_NPU_BACKEND`` as the release resolves it outside a compile:
    ``torch._inductor.config.npu_backend`` first, then the environment
    (``_resolve_npu_backend`` in torch_npu/utils/_dynamo.py, 2.7.1 and 2.10+;
    2.8 and 2.9 read only the environment, and have no such config entry)."""
    import os
    import sys

    configured = getattr(sys.modules.get("torch._inductor.config"), "npu_backend", None)
    if configured not in (None, "", "default"):
        return str(configured)
    return os.environ.get("TORCHINDUCTOR_NPU_BACKEND", "default")


def _refuse_backend_variant(read: Any) -> str:
    """Count and log a backend variant selected at install: its own wrapper
    codegen writes the call lines (and its own autotuner runs them), which
    fastlaunch does not patch, so none of its launches is planned. The
    integration still installs: a compile that selects the Triton backend
    (per compile, on releases that take ``options={"npu_backend": ...}``) is
    planned. Returns the variant ("" for the Triton backend)."""
    from ...runtime import counters

    backend = selected_backend()
    if backend not in contract.backend_variants(read):
        return ""
    counters.count(f"install.npu_backend.{backend}")
    log.warning("fastlaunch: TORCHINDUCTOR_NPU_BACKEND=%s selects torch_npu's %s backend, whose "
                "codegen and autotuner fastlaunch does not patch: none of its launches is "
                "planned (only compiles on the Triton backend are)", backend, backend)
    return backend


_state = launchers.Integration("npu", _bind_options)


def install() -> bool:
    """Patch torch_npu; refuses an unsupported release or an active in-tree copy."""
    global _layout
    if _state.installed:
        log.info("fastlaunch: npu integration already installed")
        return False
    read = contract.installed_reader()
    if read is None:
        msg = "torch_npu is not installed"
        raise UnsupportedRelease(msg)
    read_torch = torch_contract.installed_reader()
    if read_torch is None:
        msg = "torch is not installed"
        raise UnsupportedRelease(msg)
    problems = contract.check(read) + torch_contract.check(read_torch,
                                                           torch_contract.INSTALL_NEEDS)
    if problems:
        msg = "unsupported torch_npu: " + "; ".join(problems)
        raise UnsupportedRelease(msg)
    import importlib

    layout = layouts.detect(read)
    # which methods write the call line depends on torch too (torch 2.7 writes it in
    # generate_kernel_call, later ones in _generate_kernel_call_helper)
    writers = torch_contract.call_line_writers(read_torch, layout.direct_writer)
    wrapper_module = importlib.import_module("torch_npu._inductor.codegen.wrapper")
    wrapper_cls = getattr(wrapper_module, contract.wrapper_class(layout, read))
    compile_result = importlib.import_module(layout.heuristics).TritonCompileResultNpu

    if getattr(wrapper_cls, "_npu_fast_launch_patched", False):
        in_tree.choose("torch_npu in-tree fast launch (it was installed first)")
        msg = ("torch_npu's in-tree fast launch is already installed; set "
               "FASTLAUNCH_NPU_IMPL=torch_npu to keep it, or enable fastlaunch before torch_npu "
               "loads its Triton backend")
        raise RuntimeError(msg)
    patches = PatchSet("npu-inductor")
    for method in writers:  # the release's generate_kernel_call takes origin_node positionally
        patches.add(wrapper_cls, method, _wrap_call(getattr(wrapper_cls, method),
                                                    positional_ok=method == "generate_kernel_call"))
    subgraph_cls = next((getattr(wrapper_module, name) for name in layout.subgraph_classes
                         if hasattr(wrapper_module, name)), None)
    if subgraph_cls is not None and "_generate_kernel_call_helper" in writers:
        # Its call lines (torch.cond / while_loop / invoke_subgraph bodies) go
        # through the same helper, resolved on its own class (the release's
        # _NPUKernelCodegenMixin or upstream's), which the main class's patch
        # does not reach.
        patches.add(subgraph_cls, "_generate_kernel_call_helper",
                    _wrap_call(subgraph_cls._generate_kernel_call_helper, positional_ok=False))
    patches.add(compile_result, "make_launcher",
                launchers.wrap_make_launcher(compile_result.make_launcher, describe_launcher))
    _layout = layout
    _state.install(patches)
    _register_profiling_switch()
    _refuse_backend_variant(read)
    in_tree.choose("fastlaunch")
    log.info("fastlaunch: npu integration installed (torch_npu %s layout, %s; %s)",
             layout.name, wrapper_cls.__name__, "torch_npu's in-tree copy present, turned off"
             if contract.has_in_tree_fast_launch(read) else "no in-tree copy")
    return True


def uninstall() -> bool:
    return _state.uninstall()


def installed() -> bool:
    return _state.installed
