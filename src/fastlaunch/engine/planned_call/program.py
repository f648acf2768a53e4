# SPDX-License-Identifier: Apache-2.0
"""The planned-call program: ops over numbered value slots, as csrc/engine/planned_call.cpp
runs them.

The format has two owners that must agree: this module (``Op``, the opcodes,
the operators, the ``sub`` bits and the native kinds) and
csrc/core/program_format.h (the same numbers, and the operand table the
executor's validator checks each op against);
tests/unit/engine/test_program_format.py fails when one changes alone.
A CALL's ``sub`` is 0, or the native kind the ATen shim runs it as
(``NATIVE_KINDS``) with its folded view operands (``planner.tag_native``).
Slots hold the wrapper's locals (numbered as the function's ``co_varnames``,
so the frame's end clears them in CPython's order) and then temporaries. An
operand is a slot (``>= 0``), a constant or a global read per call (negative,
see ``const_operand`` / ``global_operand``).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from collections import Counter
from typing import NamedTuple

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


# ``sub`` bits: a TUPLE of a folded view's (base, size, stride, offset); an
# ISLAND that can unbind a local (``del``, ``except ... as``), so it always runs
# in its IslandNamespace; a CALL's native kind | folded view operands << VIEW_SHIFT.
FOLDED_VIEW = 1
ISLAND_UNBINDS = 1
VIEW_SHIFT = 8
NATIVE_KIND_MASK = (1 << VIEW_SHIFT) - 1
MAX_VIEW_OPERANDS = 22


# Calls the ATen shim (csrc/shims/aten_ops.cpp) runs natively: kind -> the callable
# as the wrapper module names it (an attribute path from ``torch``; the planner
# resolves them). The numbers are csrc/core/program_format.h's NativeKind, which
# the shim includes; a CALL of one of these constants gets its kind as ``sub``.
NATIVE_KINDS = {
    1: "mm", 2: "addmm", 3: "bmm", 4: "baddbmm",
    5: "ops.aten._scaled_dot_product_efficient_attention.default",
    6: "ops.aten._scaled_dot_product_flash_attention_for_cpu.default",
    7: "convolution",
    8: "ops.aten._scaled_dot_product_flash_attention.default",
    9: "ops.aten._scaled_dot_product_cudnn_attention.default",
    # the wrapper's allocations and named-buffer views (torch's METH_VARARGS functions)
    10: "_C._dynamo.guards._reinterpret_tensor",
    11: "_C._dynamo.guards._empty_strided_cpu",
    12: "_C._dynamo.guards._empty_strided_cuda",
    # a device without its own allocator function (torch_npu's wrappers): Inductor's
    # make_allocation writes empty_strided(size, stride, device=..., dtype=...)
    13: "empty_strided",
    # the alignment assert (passes in the shim; anything else raises in torch's own)
    14: "_C._dynamo.guards.assert_alignment",
}
REINTERPRET_KIND = 10
# The kinds whose tensor operands may be folded views (the ATen ops the shim
# binds by name); the allocations and views take their arguments as given.
_VIEW_TAKERS = frozenset(range(1, REINTERPRET_KIND))


def const_operand(index: int) -> int:
    return -(2 * index) - 1


def global_operand(index: int) -> int:
    return -(2 * index + 1) - 1


class Op(NamedTuple):
    """One op, a plain tuple to the executor (its fields in this order); which
    fields each opcode reads is the operand table of csrc/core/program_format.h."""

    code: int
    dst: int = -1
    a: int = 0
    b: int = 0
    sub: int = 0
    operands: tuple = ()
    extra: object = None
    extra2: object = None

    @property
    def native_kind(self) -> int:
        """The kind the ATen shim runs this CALL as (``NATIVE_KINDS``), 0 for none."""
        return self.sub & NATIVE_KIND_MASK if self.code == CALL else 0

    @property
    def view_operands(self) -> int:
        """A native CALL's folded views: bit k set when operand k is one."""
        return self.sub >> VIEW_SHIFT if self.code == CALL else 0

    @property
    def is_folded_view(self) -> bool:
        return self.code == TUPLE and self.sub == FOLDED_VIEW

    def names_slot(self, slot: int) -> bool:
        """Whether any of its int fields or operands is ``slot``."""
        return slot in (self.dst, self.a, self.b) or slot in self.operands

    def as_native(self, kind: int) -> Op:
        """This CALL tagged to run as native ``kind`` first."""
        return self._replace(sub=kind)

    def with_view_operand(self, position: int, view_maker: object) -> Op:
        """This native CALL with operand ``position`` a folded view, which
        ``view_maker(*operand)`` makes when the shim declines the call."""
        return self._replace(sub=self.sub | 1 << (VIEW_SHIFT + position), extra2=view_maker)


def folded_view(dst: int, operands: tuple) -> Op:
    """The TUPLE holding a folded view's (base, size, stride, offset) in ``dst``."""
    return Op(TUPLE, dst, sub=FOLDED_VIEW, operands=operands)


@dataclasses.dataclass
class Program:
    """What the translator made of one ``call`` function."""

    ops: list[Op] = dataclasses.field(default_factory=list)
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
        (``native``: calls the ATen shim runs, see ``NATIVE_KINDS``;
        ``native_view``: views it makes for them, see ``planner.tag_native``)."""
        counts = Counter("native" if op.native_kind else "native_view" if op.is_folded_view
                         else NAMES[op.code] for op in self.ops if op.code != FREE)
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
