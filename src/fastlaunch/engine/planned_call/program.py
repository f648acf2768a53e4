# SPDX-License-Identifier: Apache-2.0
"""The planned-call program: ops over numbered value slots, as csrc/engine/planned_call.cpp
runs them.

An op is ``(code, dst, a, b, sub, operands, extra, extra2)``; a CALL's ``sub``
is 0, or the native kind the ATen shim runs it as (``planner.NATIVE_KINDS``)
with its folded view operands (``planner.tag_native``). Slots hold the
wrapper's locals (numbered as the function's ``co_varnames``, so the frame's
end clears them in CPython's order) and then temporaries. An operand is a
slot (``>= 0``), a constant or a global read per call (negative, see
``const_operand`` / ``global_operand``).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from collections import Counter

CALL, METHOD, ATTR, ITEM, TUPLE, LIST, BINARY, UNARY, MOVE, FREE, DEL, UNPACK, ISLAND, \
    ENTER, EXIT, RETURN, SITE, ASSERT = range(18)

NAMES = ("call", "method", "attr", "item", "tuple", "list", "binary", "unary", "move", "free",
         "del", "unpack", "island", "enter", "exit", "return", "site", "assert")

# Binary operators (``sub`` of BINARY); comparisons are COMPARE + Py_LT..Py_GE.
ADD, SUB, MUL, FLOORDIV, MOD, TRUEDIV, POW, LSHIFT, RSHIFT, AND, OR, XOR, MATMUL, IS, IS_NOT, \
    IN, NOT_IN = range(17)
COMPARE = 20
LT, LE, EQ, NE, GT, GE = range(COMPARE, COMPARE + 6)
NEG, POS, INVERT, NOT = range(4)


def const_operand(index: int) -> int:
    return -(2 * index) - 1


def global_operand(index: int) -> int:
    return -(2 * index + 1) - 1


@dataclasses.dataclass
class Program:
    """What the translator made of one ``call`` function."""

    ops: list[tuple] = dataclasses.field(default_factory=list)
    consts: list[object] = dataclasses.field(default_factory=list)
    names: list[str] = dataclasses.field(default_factory=list)   # globals read per call
    local_names: list[str] = dataclasses.field(default_factory=list)  # per slot
    self_slot: int = -1
    args_slot: int = 0
    islands: list[str] = dataclasses.field(default_factory=list)  # source of each island
    native: bool = False  # tagged by planner.tag_native (done once)

    def constant(self, operand: int) -> tuple[bool, object]:
        """(True, the value) when ``operand`` names a constant (``const_operand``),
        else (False, None)."""
        index = -operand - 1
        if operand >= 0 or index % 2:
            return False, None
        return True, self.consts[index // 2]

    def summary(self) -> dict[str, int]:
        """Op counts by kind (frees of temporaries left out): what runs native, what not
        (``native``: calls the ATen shim runs, see ``planner.NATIVE_KINDS``;
        ``native_view``: views it makes for them, see ``planner.tag_native``)."""
        counts = Counter("native" if op[0] == CALL and op[4] > 0 else
                         "native_view" if op[0] == TUPLE and op[4] == 1 else NAMES[op[0]]
                         for op in self.ops if op[0] != FREE)
        return dict(sorted(counts.items()))


@functools.cache
def unpacker(count: int):
    """Python's own unpacking into ``count`` names, for values the native fast
    path does not take (another length, an iterator): its result or its error
    is the interpreter's."""
    names = ", ".join(f"_v{i}" for i in range(count))
    scope: dict = {}
    exec(f"def unpack(value):\n    {names}, = value\n    return ({names},)\n", scope)
    return scope["unpack"]


# CPython's own message for a local read or deleted while unbound (3.11 reworded it).
UNBOUND_LOCAL = ("cannot access local variable '{}' where it is not associated with a value"
                 if sys.version_info >= (3, 11) else "local variable '{}' referenced before "
                                                     "assignment")


class IslandNamespace(dict):
    """The namespace an island runs in: the live locals it names. A name read
    there and found in neither this dict nor the globals would be a module
    global's (or NameError) under ``exec``; one of ``call()``'s locals
    (``locals``) raises UnboundLocalError instead, as in the Python frame."""

    __slots__ = ()
    locals: frozenset = frozenset()

    def __missing__(self, name: str):
        if name in self.locals:
            raise UnboundLocalError(UNBOUND_LOCAL.format(name))
        raise KeyError(name)  # LOAD_NAME goes on to the globals and builtins


@functools.cache
def island_namespace(names: tuple[str, ...]) -> type:
    """The IslandNamespace type of an island naming the locals ``names``."""
    return type("IslandNamespace", (IslandNamespace,), {"__slots__": (),
                                                        "locals": frozenset(names)})
