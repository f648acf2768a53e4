# SPDX-License-Identifier: Apache-2.0
"""Make the native PlannedCall of a loaded wrapper module's ``call``.

The PlannedCall decides per call, before any op runs, whether the original
``call`` runs instead (the conditions of ``run``'s full entry): the run-time
switch off, the autograd profiler on, a dispatch mode active (a DebugMode is
one), or a debug/dump mode fixed when the program was made. Each such call is
counted as ``fallback.call_<reason>`` under the module's site name.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import os
import sys
import types

from ... import config
from ...runtime import counters
from . import program as P
from . import translate
from .program import Program

# Environment switches under which Inductor's launch path does per-call work
# the program would not show it (``run``'s full entry fixed at bind).
_STATIC_REASONS = (("TRITON_INTERPRET", "triton_interpret"),
                   ("TORCHINDUCTOR_DUMP_LAUNCH_PARAMS", "dump_launch_params"),
                   ("TORCHINDUCTOR_DUMP_LAUNCH_TENSORS", "dump_launch_tensors"))


class _NoProfiler:
    _is_profiler_enabled = False


def static_reason(environ: dict | os._Environ | None = None) -> str | None:
    env = os.environ if environ is None else environ
    for name, reason in _STATIC_REASONS:
        if env.get(name, "0") == "1":
            return reason
    return None


def function_of(call: object) -> tuple[types.FunctionType, object]:
    """The function behind ``call`` and the ``self`` it is bound to (None for a plain function)."""
    if isinstance(call, types.MethodType) and isinstance(call.__func__, types.FunctionType):
        return call.__func__, call.__self__
    if isinstance(call, types.FunctionType):
        return call, None
    raise translate.Untranslatable("not_a_function", type(call).__name__)


def program_of(call: object) -> Program:
    """Translate ``call`` (a wrapper's ``call`` function or bound ``Runner.call``)."""
    func, _ = function_of(call)
    path = func.__code__.co_filename
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError) as err:
        raise translate.Untranslatable("source_unreadable", f"{path}: {err}") from None
    return translate.translate(func, translate.find_function(tree, func))


# Calls the ATen shim (runtime/aten_ops.cpp) runs natively: kind -> the callable
# as the wrapper module names it (an attribute path from ``torch``). The numbers
# are the shim's; a CALL of one of these constants gets its kind as ``sub``.
NATIVE_KINDS = {
    1: "mm", 2: "addmm", 3: "bmm", 4: "baddbmm",
    5: "ops.aten._scaled_dot_product_efficient_attention.default",
    6: "ops.aten._scaled_dot_product_flash_attention_for_cpu.default",
    7: "convolution",
}


@functools.cache
def _native_callees(torch: types.ModuleType) -> dict[int, tuple[int, object]]:
    """id(callable) -> (kind, callable) for the installed torch (the callable is
    kept so its id stays its own)."""
    table = {}
    for kind, path in NATIVE_KINDS.items():
        value: object = torch
        for attr in path.split("."):
            value = getattr(value, attr, None)
        if value is not None:
            table[id(value)] = (kind, value)
    return table


def tag_native(program: Program) -> Program:
    """``program`` with each CALL of a NATIVE_KINDS callable (a constant) tagged
    with its kind; the executor offers those to the ATen shim first."""
    torch = sys.modules.get("torch")
    if torch is None:
        return program
    callees = _native_callees(torch)
    ops = []
    for op in program.ops:
        code, dst, a, b, _, operands, extra, extra2 = op
        index = -a - 1
        if code == P.CALL and a < 0 and index % 2 == 0:
            found = callees.get(id(program.consts[index // 2]))
            if found is not None and found[1] is program.consts[index // 2]:
                op = (code, dst, a, b, found[0], operands, extra, extra2)
        ops.append(op)
    return dataclasses.replace(program, ops=ops)


def _fallback(site: str, original: object, reason: str, *args: object, **kwargs: object):
    counters.fallback("call_" + reason, site)
    return original(*args, **kwargs)


def plan(call: object, site: str, program: Program | None = None) -> object:
    """The PlannedCall standing in for ``call``; Untranslatable when there is none."""
    from ...runtime import _core

    func, bound_self = function_of(call)
    program = tag_native(program_of(call) if program is None else program)
    torch = sys.modules.get("torch")
    dispatch_len = getattr(getattr(torch, "_C", None), "_len_torch_dispatch_stack", None)
    profiler = sys.modules.get("torch.autograd.profiler") or _NoProfiler
    config.get()
    scope_builtins = func.__globals__.get("__builtins__", builtins)
    if not isinstance(scope_builtins, dict):
        scope_builtins = vars(scope_builtins)
    return _core.make_planned_call(
        ops=program.ops, consts=tuple(program.consts), names=tuple(program.names),
        local_names=tuple(program.local_names), globals=func.__globals__,
        builtins=scope_builtins, n_slots=len(program.local_names), self_slot=program.self_slot,
        bound_self=bound_self, args_slot=program.args_slot,
        fallback=functools.partial(_fallback, site, call),
        switch=config.switch, profiler=profiler, dispatch_len=dispatch_len,
        static_reason=static_reason(), original=call)
