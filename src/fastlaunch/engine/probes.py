# SPDX-License-Identifier: Apache-2.0
"""The full-entry conditions both engines share, written once.

A call site's router (``routing.BoundLaunch`` and its FastSite) and the
planned call (``planned_call.planner``) both send a call back to the original
path when Inductor's ``run`` would do per-call work they do not reproduce.
Some of those conditions are fixed when the site or program is bound (debug
modes), the others are read per call (the profiler flag, the dispatch-mode
stack); this module says how each is read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

# Debug modes under which ``run`` does per-call work (docs/design.md, "Per-call
# features"): (reason, the environment switch Inductor sets it from). The
# reason is also the name of the autotuner attribute ``run`` reads.
DEBUG_MODES = (("triton_interpret", "TRITON_INTERPRET"),
               ("dump_launch_params", "TORCHINDUCTOR_DUMP_LAUNCH_PARAMS"),
               ("dump_launch_tensors", "TORCHINDUCTOR_DUMP_LAUNCH_TENSORS"))


# The attribute of ``profiler()`` read per call (the router, a FastSite and a
# PlannedCall read it by this name: FastSiteSpec and PlannedCallSpec pass it).
PROFILER_FLAG = "_is_profiler_enabled"


class _NoProfiler:
    """Stands in for ``torch.autograd.profiler`` until torch is loaded."""

    _is_profiler_enabled = False


def profiler() -> object:
    """The object whose ``_is_profiler_enabled`` is read per call:
    ``torch.autograd.profiler`` once torch is loaded."""
    return sys.modules.get("torch.autograd.profiler") or _NoProfiler


def debug_mode_of(autotuner: Any) -> str | None:
    """The debug mode an autotuner's ``run`` was set up with, fixed at bind."""
    for reason, _ in DEBUG_MODES:
        if getattr(autotuner, reason, False):
            return reason
    return None


def debug_mode_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """The debug mode the environment turns on for every autotuner (the planned
    call has no autotuner to ask); fixed when the program is made."""
    env = os.environ if environ is None else environ
    for reason, name in DEBUG_MODES:
        if env.get(name, "0") == "1":
            return reason
    return None


def dispatch_stack_len() -> Callable[[], int] | None:
    """``torch._C._len_torch_dispatch_stack`` (read per call: any active dispatch
    mode, a DebugMode among them, sends the call to the full entry), or None
    where torch is not loaded or has none."""
    torch = sys.modules.get("torch")
    return getattr(getattr(torch, "_C", None), "_len_torch_dispatch_stack", None)
