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
the grid and which torch_npu config flags send ``run`` to its debug path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

WRAPPER = "torch_npu/_inductor/codegen/wrapper.py"
CONFIG = "torch_npu/_inductor/config.py"


@dataclasses.dataclass(frozen=True)
class Layout:
    """Where one layout keeps what the integration patches and reads.

    ``debug_flags``: torch_npu config attributes (dotted below the config
    module) that make the release's ``run`` take a debug path instead of
    launching; any one set sends a call site to the original path.
    """

    name: str
    heuristics: str            # the module holding NPUCachingAutotuner
    wrapper_classes: tuple[str, ...]  # the first one the release defines is patched
    direct_writer: bool        # its generate_kernel_call writes call lines itself
    debug_flags: tuple[str, ...]

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
    debug_flags=("dump_fx_graph", "check_accuracy"))
NPU_TRITON_HEURISTICS = Layout(
    name="npu_triton_heuristics", heuristics="torch_npu._inductor.npu_triton_heuristics",
    wrapper_classes=("NPUWrapperCodeGen",), direct_writer=False,
    debug_flags=("dump_fx_graph", "check_accuracy", "force_fallback_kernel_id",
                 "aot_inductor.debug_kernel_in_run"))
LAYOUTS = (RUNTIME, NPU_TRITON_HEURISTICS)


def detect(read: Callable[[str], str | None]) -> Layout | None:
    """The layout of a torch_npu tree (files read, nothing imported), or None."""
    for layout in LAYOUTS:
        if read(layout.heuristics_file) is not None:
            return layout
    return None


def debug_reasons(layout: Layout, npu_config: Any) -> list[tuple[str, bool]]:
    """``(flag, set)`` for each debug flag of ``layout`` in torch_npu's config."""
    out = []
    for flag in layout.debug_flags:
        value: Any = npu_config
        for part in flag.split("."):
            value = getattr(value, part, None)
        out.append((flag.rsplit(".", 1)[-1], bool(value)))
    return out
