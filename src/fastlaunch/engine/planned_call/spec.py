# SPDX-License-Identifier: Apache-2.0
"""What the native PlannedCall is made from, in one frozen record.

The planner fills it once per loaded wrapper; ``_core.make_planned_call``
(csrc/bind/bind_planned_call.cpp) reads it field by field, as
``make_fast_site`` reads a ``FastSiteSpec``, so the constructor's parameters
are written here only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .. import callsite, probes


@dataclasses.dataclass(frozen=True, eq=False)
class PlannedCallSpec:
    ops: list                 # the program's op tuples (program.Program.ops)
    consts: tuple
    names: tuple              # globals read per call
    local_names: tuple        # one per slot ("" for temporaries)
    globals: dict             # the wrapper module's
    builtins: dict
    args_slot: int
    fallback: Callable[..., Any]  # (reason, *args, **kwargs) -> the original call's result
    switch: Any               # its ``on`` is read per call (config.switch)
    profiler: Any             # its ``profiler_flag`` is read per call (probes.profiler)
    original: Callable[..., Any]  # the wrapper's ``call`` the PlannedCall stands for
    self_slot: int = -1       # the slot of ``self`` in a ``Runner.call``
    bound_self: Any = None    # that ``self``
    dispatch_len: Callable[[], int] | None = None  # probes.dispatch_stack_len
    static_reason: str | None = None  # a full-entry reason fixed when the program was made
    slot_keyword: str = callsite.SLOT_KEYWORD  # how a call site's bind call passes its slot
    profiler_flag: str = probes.PROFILER_FLAG  # the attribute of ``profiler`` read
