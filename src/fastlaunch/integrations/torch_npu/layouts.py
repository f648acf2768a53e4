# SPDX-License-Identifier: Apache-2.0
"""The two layouts torch_npu's Triton Inductor backend has shipped in.

Read from the wheels of 2.7.1.post11 to 2.14.0:

* ``runtime`` (2.7.1, 2.10, 2.13, 2.14): the autotuner in
  ``_inductor/runtime/triton_heuristics.py`` with ``best_launcher`` and
  runtime block arguments; the wrapper class (``NPUWrapperCodeGen`` in 2.7.1,
  ``NPUPythonWrapperCodeGen`` later) writes multi-stream call lines itself
  (``generate_kernel_call``) and hands the rest to upstream's
  ``_generate_kernel_call_helper``;
* ``npu_triton_heuristics`` (2.8, 2.9, 2.11, 2.12): the autotuner in
  ``_inductor/npu_triton_heuristics.py``, ``run`` selects ``launchers[0]``
  and calls ``maybe_run_debug`` on every call; every call line is written by
  upstream's ``_generate_kernel_call_helper`` under ``NPUWrapperCodeGen``.

Each layout knows where its classes are, how its ``make_launcher`` builds
the grid, which torch_npu config flags send ``run`` to its debug path and
when ``run`` reads them:

* runtime layout: ``NPUCachingAutotuner.is_run_debug`` (``functools.lru_cache``
  on the autotuner) reads ``dump_fx_graph`` and ``check_accuracy`` once, on
  the autotuner's first ``run``; only when it was true does ``run`` call
  ``maybe_run_debug``. Read once per call site, at bind (the call site's
  first call, which is the autotuner's first ``run`` unless another site
  ran it before).
* npu_triton_heuristics layout: ``run`` calls ``maybe_run_debug`` on every
  call, which reads all four flags and logs two INFO records on torch_npu's
  ``torch_npu._inductor.config`` logger (``log.info`` at its start and end).
  Read on every call (``debug_probes``).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable
from typing import Any

from ...installed import source_reader

WRAPPER = "torch_npu/_inductor/codegen/wrapper.py"
CONFIG = "torch_npu/_inductor/config.py"


@dataclasses.dataclass(frozen=True)
class Layout:
    """Where one layout keeps what the integration patches and reads.

    ``debug_flags``: torch_npu config attributes (dotted below the config
    module) that make the release's ``run`` take a debug path instead of
    launching; any one set sends a call site to the original path.
    ``debug_per_call``: ``run`` reads them (and logs) on every call, so a flag
    switched on in a running process reaches bound call sites too.
    """

    name: str
    heuristics: str            # the module holding NPUCachingAutotuner
    wrapper_classes: tuple[str, ...]  # the first one the release defines is patched
    direct_writer: bool        # its generate_kernel_call writes call lines itself
    debug_flags: tuple[str, ...]
    debug_per_call: bool
    # subgraph wrapper codegen (torch.cond, while_loop, invoke_subgraph bodies):
    # the first one the release defines is patched as the main class is
    subgraph_classes: tuple[str, ...] = ("NPUSubgraphPythonWrapperCodegen",
                                         "NPUSubgraphWrapperCodegen")

    @property
    def heuristics_file(self) -> str:
        return self.heuristics.replace(".", "/") + ".py"

    def grid_expr(self, th: Any, inductor_meta: dict, cfg: Any, arg_names: list[str]) -> Any:
        """The grid the release's ``make_launcher`` writes into the launcher."""
        numels = [a for a in arg_names if "_numel" in a]
        blocks = tuple(inductor_meta.get("runtime_block_arg_names", ()))
        create = getattr(th, "_create_launcher_grid", None)
        if create is not None:  # 2.13+: one function decides
            return create(inductor_meta, cfg, numels, blocks)
        if self.name == "runtime" and not blocks and \
                inductor_meta.get("inductor_ascend_linear_mode", "no_linear") == "no_linear":
            return th.GridExpr.from_meta(inductor_meta, cfg)
        return th.GridExprNpu.from_meta_and_set_numel(inductor_meta, cfg, numels)


RUNTIME = Layout(
    name="runtime", heuristics="torch_npu._inductor.runtime.triton_heuristics",
    wrapper_classes=("NPUPythonWrapperCodeGen", "NPUWrapperCodeGen"), direct_writer=True,
    debug_flags=("dump_fx_graph", "check_accuracy"), debug_per_call=False)
NPU_TRITON_HEURISTICS = Layout(
    name="npu_triton_heuristics", heuristics="torch_npu._inductor.npu_triton_heuristics",
    wrapper_classes=("NPUWrapperCodeGen",), direct_writer=False,
    debug_flags=("dump_fx_graph", "check_accuracy", "force_fallback_kernel_id",
                 "aot_inductor.debug_kernel_in_run"), debug_per_call=True)
LAYOUTS = (RUNTIME, NPU_TRITON_HEURISTICS)
#: The tested matrix: torch_npu release line -> its layout (each line tested on
#: the wheel named in docs/npu_fast_launch.md). Other lines are refused.
MATRIX = {"2.7": RUNTIME, "2.8": NPU_TRITON_HEURISTICS, "2.9": NPU_TRITON_HEURISTICS,
          "2.10": RUNTIME, "2.11": NPU_TRITON_HEURISTICS, "2.12": NPU_TRITON_HEURISTICS,
          "2.13": RUNTIME, "2.14": RUNTIME}
VERSION = "torch_npu/version.py"


def release(read: Callable[[str], str | None]) -> str:
    """``__version__`` of a torch_npu tree, read from its version.py ("" if absent)."""
    import re

    found = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", read(VERSION) or "", re.M)
    return found.group(1) if found else ""


def line(version: str) -> str:
    """The release line of a version: "2.13.0.post1" -> "2.13"."""
    return ".".join(version.split("+")[0].split(".")[:2])


def detect(read: Callable[[str], str | None]) -> Layout | None:
    """The layout of a torch_npu tree (files read, nothing imported), or None."""
    for layout in LAYOUTS:
        if read(layout.heuristics_file) is not None:
            return layout
    return None


def _flag(npu_config: Any, flag: str) -> Any:
    value: Any = npu_config
    for part in flag.split("."):
        value = getattr(value, part, None)
    return value


def reason(flag: str) -> str:
    """The fallback reason a debug flag is counted under: its last name."""
    return flag.rsplit(".", 1)[-1]


def debug_reasons(layout: Layout, npu_config: Any) -> list[tuple[str, bool]]:
    """``(reason, set)`` for each debug flag of ``layout`` read once, at bind
    (empty for a layout that reads them per call: ``debug_probes``)."""
    if layout.debug_per_call:
        return []
    return [(reason(flag), bool(_flag(npu_config, flag))) for flag in layout.debug_flags]


#: torch_npu's logger that ``maybe_run_debug`` writes to (2.8 to 2.12:
#: ``from .config import log`` in npu_triton_heuristics.py).
RELEASE_LOGGER = "torch_npu._inductor.config"


def debug_probes(layout: Layout, npu_config: Any, logger: Any, also: Callable[[], object]
                 ) -> tuple[list[tuple[str, Callable[[], bool]]], Callable[[], object]]:
    """For a layout whose ``run`` reads its debug flags per call: one probe per
    flag plus ``release_logging`` (its logger would write ``run``'s INFO
    records), in the order ``maybe_run_debug`` tests them, and one check,
    read on every planned call, that is true when any of them is or when
    ``also()`` is (another per-call check, folded in to keep one call). Each
    probe sends the call to the release's ``run``, which does that work itself.
    Other layouts: no probes, and ``also`` as the check.
    """
    if not layout.debug_per_call:
        return [], also
    probes: list[tuple[str, Callable[[], bool]]] = [
        (reason(flag), _flag_probe(npu_config, flag)) for flag in layout.debug_flags]
    info_enabled = functools.partial(logger.isEnabledFor, logging.INFO)
    probes.append(("release_logging", info_enabled))
    if layout.debug_flags != NPU_TRITON_HEURISTICS.debug_flags:
        msg = f"debug_probes: no check written for the flags {layout.debug_flags}"
        raise ValueError(msg)

    def any_set() -> object:
        # NPU_TRITON_HEURISTICS.debug_flags written out: one call, about 100 ns
        # (a loop over the probes costs twice that, on every planned call)
        return (npu_config.check_accuracy or npu_config.force_fallback_kernel_id
                or npu_config.aot_inductor.debug_kernel_in_run or npu_config.dump_fx_graph
                or info_enabled() or also())

    return probes, any_set


def _flag_probe(npu_config: Any, flag: str) -> Callable[[], bool]:
    return lambda: bool(_flag(npu_config, flag))


def installed_reader() -> Callable[[str], str | None] | None:
    """A reader over the installed torch_npu's files, found without importing it."""
    return source_reader("torch_npu")


def installed() -> Layout:
    """The installed torch_npu's layout (the runtime layout when it cannot be told:
    the integration's contract check then names what is missing)."""
    read = installed_reader()
    return (detect(read) if read is not None else None) or RUNTIME
