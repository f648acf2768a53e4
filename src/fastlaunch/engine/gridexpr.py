# SPDX-License-Identifier: Apache-2.0
"""Inductor grid expressions compiled to a tiny integer program.

Inductor's launchers compute their grid from Python expressions over the
call's size arguments, mostly ``-(xnumel // -XBLOCK)`` with the block folded
in. The C steady state (FastSite) evaluates such a program without calling
back into Python; anything outside this small language (temporaries from a
``prefix``, function calls other than min/max, non-int values at run time,
overflow, division by zero) keeps the Python resolver.

Encoding, per dimension: the op count, then (opcode, operand) pairs in
postfix order. Semantics are Python's on int64: ``//`` floors.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

CONST, ARG, NEG, ADD, SUB, MUL, FLOORDIV, MAX, MIN = range(9)
_BINARY = {ast.Add: ADD, ast.Sub: SUB, ast.Mult: MUL, ast.FloorDiv: FLOORDIV}
_CALLS = {"max": MAX, "min": MIN}
INT64 = (-(2**63), 2**63 - 1)


class _Unsupported(Exception):
    pass


def _emit(node: ast.AST, names: dict[str, int], out: list[int]) -> None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        if not INT64[0] <= node.value <= INT64[1]:
            raise _Unsupported
        out += [CONST, node.value]
    elif isinstance(node, ast.Name) and node.id in names:
        out += [ARG, names[node.id]]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        _emit(node.operand, names, out)
        out += [NEG, 0]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd):
        _emit(node.operand, names, out)
    elif isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        _emit(node.left, names, out)
        _emit(node.right, names, out)
        out += [_BINARY[type(node.op)], 0]
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
          and node.func.id in _CALLS and len(node.args) == 2 and not node.keywords):
        _emit(node.args[0], names, out)
        _emit(node.args[1], names, out)
        out += [_CALLS[node.func.id], 0]
    else:
        raise _Unsupported


def compile_grid(exprs: Sequence[str | int], arg_names: Sequence[str]) -> tuple[int, ...] | None:
    """The program for three grid expressions over ``arg_names``, or None."""
    names = {name: i for i, name in enumerate(arg_names)}
    program: list[int] = []
    try:
        for expr in exprs:
            ops: list[int] = []
            _emit(ast.parse(str(expr), mode="eval").body, names, ops)
            program += [len(ops) // 2, *ops]
    except (_Unsupported, SyntaxError):
        return None
    return tuple(program) if len(exprs) == 3 else None
