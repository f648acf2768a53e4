# SPDX-License-Identifier: Apache-2.0
"""Make the native PlannedCall of a loaded wrapper module's ``call``.

The PlannedCall decides per call, before any op runs, whether the original
``call`` runs instead (the conditions of ``run``'s full entry, read as
``probes`` says): the run-time switch off, the autograd profiler on, a
dispatch mode active (a DebugMode is one), or a debug/dump mode fixed when
the program was made. Each such call is counted as ``fallback.call_<reason>``
under the module's site name.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import inspect
import sys
import types

from ... import config
from .. import probes
from ..fallbacks import take_original
from . import program as P
from . import translate
from .program import Op, Program
from .spec import PlannedCallSpec


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


@functools.cache
def _native_callees(torch: types.ModuleType) -> dict[int, tuple[int, object]]:
    """id(callable) -> (kind, callable) for the installed torch, resolved from
    ``program.NATIVE_KINDS`` (the callable is kept so its id stays its own)."""
    table = {}
    for kind, path in P.NATIVE_KINDS.items():
        value: object = torch
        for attr in path.split("."):
            value = getattr(value, attr, None)
        if value is not None:
            table[id(value)] = (kind, value)
    return table


def _is_call_of(program: Program, op: Op, target: object) -> bool:
    is_const, callee = program.constant(op.a)
    return op.code == P.CALL and is_const and callee is target


def tag_native(program: Program) -> Program:
    """``program`` with each CALL of a ``program.NATIVE_KINDS`` callable (a
    constant) tagged with its kind (the executor offers those to the ATen shim
    first), and the ``reinterpret_tensor`` views an ATen op alone consumes
    folded into it; the other views (named buffers reused) run as kind
    ``program.REINTERPRET_KIND``."""
    torch = sys.modules.get("torch")
    if torch is None or program.native:
        return program
    callees = _native_callees(torch)
    ops = []
    for op in program.ops:
        is_const, callee = program.constant(op.a)
        if op.code == P.CALL and is_const:
            found = callees.get(id(callee))
            if found is not None and found[1] is callee:
                op = op.as_native(found[0])
        ops.append(op)
    guards = getattr(getattr(torch, "_C", None), "_dynamo", None)
    reinterpret = getattr(getattr(guards, "guards", None), "_reinterpret_tensor", None)
    if reinterpret is not None:
        _fold_views(program, ops, reinterpret)
    return dataclasses.replace(program, ops=ops, native=True)


def _int_tuple(value: object) -> bool:
    return type(value) is tuple and len(value) <= 8 and all(type(v) is int for v in value)


def _fold_views(program: Program, ops: list[Op], reinterpret: object) -> None:
    """``tmp = reinterpret_tensor(base, size, stride, offset)`` (tagged
    ``program.REINTERPRET_KIND``, constant size, stride and offset) whose temporary the
    next ATen op CALL alone reads, and which is freed right after it, becomes
    a TUPLE of its arguments (``program.folded_view``) and operand k of that
    CALL a folded view (``Op.with_view_operand``): the shim makes the view in
    C++, with no Python tensor; a Python callable gets it from
    ``reinterpret`` (the CALL's ``extra2``). Only the other views of
    the same call may lie in between, so nothing else runs between the view
    and its use, as in the Python call()."""
    temps = {i for i, name in enumerate(program.local_names) if not name}
    for i, op in enumerate(ops):
        dst = op.dst
        if not (op.native_kind == P.REINTERPRET_KIND and op.extra is None and dst in temps
                and len(op.operands) == 4 and _is_call_of(program, op, reinterpret)):
            continue
        consts = [program.constant(v) for v in op.operands[1:]]
        if not (all(ok for ok, _ in consts) and _int_tuple(consts[0][1])
                and _int_tuple(consts[1][1]) and type(consts[2][1]) is int):
            continue
        j = next((k for k in range(i + 1, len(ops)) if ops[k].names_slot(dst)), None)
        if j is None or not all(_is_call_of(program, program.ops[k], reinterpret)
                                or ops[k].code == P.TUPLE for k in range(i + 1, j)):
            continue
        use = ops[j]
        positions = [k for k, v in enumerate(use.operands) if v == dst]
        if not (use.native_kind in P._VIEW_TAKERS and dst not in (use.dst, use.a, use.b)
                and len(positions) == 1 and positions[0] < P.MAX_VIEW_OPERANDS):
            continue
        after = next((k for k in range(j + 1, len(ops)) if ops[k].names_slot(dst)), None)
        if after is None or ops[after].code != P.FREE:
            continue
        ops[i] = P.folded_view(dst, op.operands)
        ops[j] = use.with_view_operand(positions[0], reinterpret)


def _fallback(site: str, original: object, reason: str, *args: object, **kwargs: object):
    if reason == "signature" and not _binds(original, args, kwargs):
        # Arguments the Python call() refuses: its own TypeError, strict or not
        # (a user's mistake, not a call fastlaunch could have run).
        return original(*args, **kwargs)
    take_original("call_" + reason, site)
    return original(*args, **kwargs)


def _binds(call: object, args: tuple, kwargs: dict) -> bool:
    """Whether ``call`` accepts these arguments (``call(args=...)`` does)."""
    try:
        inspect.signature(call).bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def plan(call: object, site: str, program: Program | None = None) -> object:
    """The PlannedCall standing in for ``call``; Untranslatable when there is none."""
    from ...runtime import _core

    func, bound_self = function_of(call)
    program = tag_native(program_of(call) if program is None else program)
    config.get()
    scope_builtins = func.__globals__.get("__builtins__", builtins)
    if not isinstance(scope_builtins, dict):
        scope_builtins = vars(scope_builtins)
    return _core.make_planned_call(PlannedCallSpec(
        ops=program.ops, consts=tuple(program.consts), names=tuple(program.names),
        local_names=tuple(program.local_names), globals=func.__globals__,
        builtins=scope_builtins, args_slot=program.args_slot,
        fallback=functools.partial(_fallback, site, call), switch=config.switch,
        profiler=probes.profiler(), original=call, self_slot=program.self_slot,
        bound_self=bound_self, dispatch_len=probes.dispatch_stack_len(),
        static_reason=probes.debug_mode_from_env()))
