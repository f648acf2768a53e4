# SPDX-License-Identifier: Apache-2.0
"""The call-site text: what a patched wrapper writes per Triton call, and how
the planned call recognises it again.

This module is the one owner of that format. The emitter
(``integrations.codegen``), the recogniser (``planned_call.translate``), the
router's entry (``routing.bind`` reads the slot by ``SLOT_KEYWORD``) and the
native executor (handed ``SLOT_KEYWORD`` in its ``PlannedCallSpec``) all take
the names from here. Generated code is cached by Inductor, so this module is
part of ``cache_keys.CODEGEN_FORMAT`` (tests/unit/integrations/test_codegen_format.py).

Per call site *i*: a module-level metadata dict and a one-slot call cache;
in the body, a lazy bind on first call, then a call shaped like
``kernel.run(*args, stream=...)``::

    _fastlaunch_fn = _fastlaunch_call_3[0]
    if _fastlaunch_fn is None:
        _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_3, kernel, call_slot=_fastlaunch_call_3)
    _fastlaunch_fn(buf0, arg0_1, 4096, stream=stream0)
"""

from __future__ import annotations

import ast
import dataclasses

BIND = "_fastlaunch_bind"    # routing.bind, under the name the wrapper imports it as
FN = "_fastlaunch_fn"        # the local holding a site's bound callable
SLOT_KEYWORD = "call_slot"   # bind's keyword for the site's one-slot list
IMPORT_LINE = f"from fastlaunch.engine.routing import bind as {BIND}"
# How often one site's body names FN (assigned, tested, bound, called): a
# wrapper naming it more often uses the local elsewhere.
FN_NAMES_PER_SITE = 4


def slot_name(index: int) -> str:
    """The module-level one-slot list of site ``index`` (the bound callable, once bound)."""
    return f"_fastlaunch_call_{index}"


def meta_name(index: int) -> str:
    """The module-level metadata dict of site ``index``."""
    return f"_fastlaunch_meta_{index}"


@dataclasses.dataclass(frozen=True)
class CallSite:
    header: tuple[str, ...]  # module level, after the imports
    body: tuple[str, ...]    # replaces the ``kernel.run(...)`` line


def metadata(*, kernel_name: str, arg_count: int, graph_id: str, index: int, abi: str) -> dict:
    return {"kernel_name": kernel_name, "callsite_id": f"{graph_id}:{index}",
            "arg_count": arg_count, "abi": abi}


def emit(*, kernel_name: str, call_args: str, stream: str, meta: dict, index: int,
         indent: str = "") -> CallSite:
    slot = slot_name(index)
    meta_var = meta_name(index)
    header = (f"{meta_var} = {meta!r}", f"{slot} = [None]")
    body = (
        f"{indent}{FN} = {slot}[0]",
        f"{indent}if {FN} is None:",
        f"{indent}    {FN} = {BIND}({meta_var}, {kernel_name}, {SLOT_KEYWORD}={slot})",
        f"{indent}{FN}({call_args}, stream={stream})" if call_args
        else f"{indent}{FN}(stream={stream})",
    )
    return CallSite(header, body)


@dataclasses.dataclass(frozen=True)
class Recognised:
    """The expressions of one emitted call site, as parsed back from a wrapper."""

    slot: ast.expr    # the one-slot list
    meta: ast.expr
    kernel: ast.expr
    bind: ast.expr
    launch: ast.Call  # ``FN(*args, stream=...)``


def _is_name(node: object, name: str | None = None) -> bool:
    return isinstance(node, ast.Name) and (name is None or node.id == name)


def recognise(stmts: list[ast.stmt], local_names: dict) -> Recognised | None:
    """The call site ``emit`` wrote as these three statements, else None.

    ``local_names``: the function's locals; the bind call's arguments must be
    module globals (as emitted), so the site can be bound once for all calls.
    """
    first, test, launch = stmts
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1
            and _is_name(first.targets[0], FN)):
        return None
    slot = first.value
    if not (isinstance(slot, ast.Subscript) and _is_name(slot.value)
            and isinstance(slot.slice, ast.Constant) and slot.slice.value == 0):
        return None
    if not (isinstance(test, ast.If) and not test.orelse and len(test.body) == 1):
        return None
    cond = test.test
    if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1 and isinstance(cond.ops[0], ast.Is)
            and _is_name(cond.left, FN) and isinstance(cond.comparators[0], ast.Constant)
            and cond.comparators[0].value is None):
        return None
    bind = test.body[0]
    if not (isinstance(bind, ast.Assign) and len(bind.targets) == 1
            and _is_name(bind.targets[0], FN) and isinstance(bind.value, ast.Call)):
        return None
    call = bind.value
    if not (_is_name(call.func) and len(call.args) == 2
            and [k.arg for k in call.keywords] == [SLOT_KEYWORD]
            and _is_name(call.keywords[0].value, slot.value.id)
            and all(_is_name(a) and a.id not in local_names for a in call.args)):
        return None
    if not (isinstance(launch, ast.Expr) and isinstance(launch.value, ast.Call)
            and _is_name(launch.value.func, FN)):
        return None
    return Recognised(slot=slot.value, meta=call.args[0], kernel=call.args[1], bind=call.func,
                      launch=launch.value)
