# SPDX-License-Identifier: Apache-2.0
"""Bounded fuzz of the planned-call program validator (``ReadOps`` in
csrc/engine/planned_call.cpp), run in the default suite.

Every program handed to ``_core.make_planned_call`` (in a ``PlannedCallSpec``)
either makes a PlannedCall or raises ``_core.InputError`` naming the op
(index and kind) and the field: no crash, no other exception type, and no operand silently
truncated to 32 bits (``2**32`` was slot 0, ``2**70`` a bare OverflowError).
Ops are also made from the operand table of csrc/core/program_format.h (the
one the validator checks with): as their row says, they are accepted; with one
field set to a value the row refuses, the error names that op, kind and field.
"""

from __future__ import annotations

import gc
import re
import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastlaunch.engine.planned_call import program as P
from fastlaunch.engine.planned_call.spec import PlannedCallSpec
from fastlaunch.runtime import _core
from helpers import program_format as F

CONSTS = (None, 1, "x")
NAMES = ("g",)
LOCAL_NAMES = ("args", "a", "b", "")
N_SLOTS = len(LOCAL_NAMES)  # the spec's slots: one per local name
_LABEL = re.compile(r"^planned call: op \d+( \((" + "|".join(P.NAMES) + r")\))?[ :]")


def _make(ops: list) -> str:
    """The type made of ``ops`` ("PlannedCall"), or the InputError raised. Every
    reference taken to an op's extra (``_HELD``) is given back, whether the
    program is refused or its PlannedCall dropped."""
    def call(args):
        return None

    spec = PlannedCallSpec(
        ops=ops, consts=CONSTS, names=NAMES, local_names=LOCAL_NAMES,
        globals={"g": 1}, builtins={}, args_slot=0, fallback=lambda *a, **k: None,
        switch=types.SimpleNamespace(on=True),
        profiler=types.SimpleNamespace(_is_profiler_enabled=False), original=call)
    gc.disable()  # a collection in between would drop references of others
    before = [sys.getrefcount(o) for o in _HELD]
    try:
        return type(_core.make_planned_call(spec)).__name__
    finally:
        after = [sys.getrefcount(o) for o in _HELD]
        gc.enable()
        assert after == before, "an op's extra leaked"


def _rejected(ops: list) -> str:
    with pytest.raises(_core.InputError) as info:
        _make(ops)
    return str(info.value)


def test_a_valid_program_is_accepted():
    assert _make([P.Op(P.RETURN, a=P.const_operand(1))]) == "PlannedCall"


def test_a_refused_program_keeps_no_reference_to_its_extras():
    """The ops placed before the refused one give back what they held (100
    refused programs took 100 references to their unpacker)."""
    def unpacker(value):
        return value

    ops = [P.Op(P.UNPACK, a=P.const_operand(0), operands=(1,), extra=unpacker),
           P.Op(P.MOVE, N_SLOTS)]
    held = sys.getrefcount(unpacker)
    for _ in range(100):
        _rejected(ops)
    assert sys.getrefcount(unpacker) == held


@pytest.mark.parametrize(("value", "shown"), [(2**32, "4294967296"), (2**70, str(2**70)),
                                              (-(2**31) - 1, str(-(2**31) - 1))])
@pytest.mark.parametrize("field", ["dst", "a", "b", "sub", "operands[1]"])
def test_an_oversized_field_is_refused_naming_op_kind_and_field(field, value, shown):
    op = P.Op(P.TUPLE, 1, operands=(1, 2))
    op = op._replace(operands=(1, value)) if field == "operands[1]" else op._replace(
        **{field: value})
    message = _rejected([op, P.Op(P.RETURN, a=1)])
    assert message == (f"planned call: op 0 (tuple) {field}: got {shown}, "
                       "expected an int in [-2**31, 2**31)")


def test_an_oversized_code_is_refused_naming_the_op():
    message = _rejected([P.Op(2**64, 0)])
    assert message.startswith("planned call: op 0 code: got 18446744073709551616, expected an int")


def test_a_non_int_operand_names_its_type():
    message = _rejected([P.Op(P.TUPLE, 1, operands=(1.5,))])
    assert message == "planned call: op 0 (tuple) operands[0]: got float, expected an int"


@pytest.mark.parametrize(("body", "field"), [
    (P.Op(P.FREE, 1), "dst"), (P.Op(P.MOVE, 1, P.const_operand(0)), "dst"),
    (P.Op(P.UNPACK, a=P.const_operand(0), operands=(2, 1), extra=len), "operands[1]")])
def test_the_slot_of_an_open_context_is_its_exits_alone(body, field):
    """The EXIT (or an error's unwinding) calls ``__exit__`` on what the slot holds."""
    ops = [P.Op(P.ENTER, 1, P.const_operand(0), 2), body, P.Op(P.EXIT, 1)]
    assert _rejected(ops) == (f"planned call: op 1 ({P.NAMES[body.code]}) {field}: got slot 1, "
                              "which holds the context op 0 entered")


_INTS = st.one_of(st.integers(-8, 24), st.sampled_from([2**31 - 1, 2**31, -(2**31), 2**32,
                                                         2**63, 2**64, 2**70, -(2**70)]))
_FIELD = st.one_of(_INTS, st.sampled_from([None, 1.0, "1", True]))
_EXTRA_CODE = compile("pass", "<f>", "exec")
_EXTRA = st.sampled_from([None, (), ("k",), (1,), "name", _EXTRA_CODE, len, 3])
_OP = st.tuples(st.one_of(st.integers(0, 17), _INTS), _FIELD, _FIELD, _FIELD, _FIELD,
                st.one_of(st.tuples(), st.lists(_FIELD, max_size=4).map(tuple), _FIELD),
                _EXTRA, _EXTRA)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.one_of(_OP, st.tuples(_INTS), st.just(None)), max_size=6))
def test_random_programs_are_accepted_or_refused_naming_the_op(ops):
    try:
        outcome = _make(ops)
    except _core.InputError as err:
        outcome = str(err)
    assert outcome == "PlannedCall" or _LABEL.match(outcome), outcome


# ---- against the operand table (csrc/core/program_format.h) -----------------------

_ROWS = F.op_formats()
_SLOT = st.integers(0, N_SLOTS - 1)
_VALUE = st.one_of(_SLOT, st.integers(0, len(CONSTS) - 1).map(P.const_operand),
                   st.integers(0, len(NAMES) - 1).map(P.global_operand))
_BINARY = [v for name, v in F.enum("BinaryOp").items() if name != "kCompare"]
_VALID_INT = {"Unused": None, "Slot": _SLOT, "SlotOrDrop": st.one_of(st.just(-1), _SLOT),
              "Operand": _VALUE}
_VALID_SUB = {"Unused": st.just(0), "FoldedView": st.sampled_from([0, P.FOLDED_VIEW]),
              "IslandUnbinds": st.sampled_from([0, P.ISLAND_UNBINDS]),
              "BinaryOp": st.sampled_from(_BINARY),
              "UnaryOp": st.sampled_from(list(F.enum("UnaryOp").values()))}
_NATIVE_KINDS = F.enum("NativeKind")["kNativeKinds"]
_FIRST_VIEWLESS = F.constant("kFirstViewlessKind")
_CODE = compile("pass", "<island>", "exec")
_HELD = (len, _CODE, _EXTRA_CODE)  # extras the programs hold (the fuzz's unpacker, code)


@st.composite
def _valid_op(draw, code: int) -> P.Op:
    """An op of opcode ``code`` whose every field is what its row says (an
    ENTER's exit is the op after it)."""
    row = _ROWS[code]
    count = draw(st.integers(row.min_operands, min(row.max_operands, max(row.min_operands, 4))))
    element = _SLOT if row.operands == "Slots" else _VALUE
    operands = tuple(draw(st.lists(element, min_size=count, max_size=count)))
    if row.sub == "NativeCall":
        kind = draw(st.integers(0, _NATIVE_KINDS - 1))
        takes_views = 0 < kind < _FIRST_VIEWLESS
        viewable = (1 << min(count, P.MAX_VIEW_OPERANDS)) - 1 if takes_views else 0
        sub = kind | draw(st.integers(0, viewable)) << P.VIEW_SHIFT
    else:
        sub = draw(_VALID_SUB[row.sub])
    op = P.Op(code, sub=sub, operands=operands)
    fields = {"dst": row.dst, "a": row.a}
    fields = {name: draw(_VALID_INT[holds]) for name, holds in fields.items()
              if _VALID_INT[holds] is not None}
    b = {"Unused": st.just(0), "Operand": _VALUE, "ReadCount": st.integers(0, count),
         "ExitPc": st.just(1)}[row.b]
    names = tuple(f"n{k}" for k in range(count))
    extras = {"Unused": st.none(), "Unpacker": st.just(len), "Code": st.just(_CODE),
              "Name": st.just("x"), "IslandNames": st.just(names),
              "Kwnames": st.one_of(st.none(), st.integers(0, count).map(lambda n: names[:n])),
              "ViewMaker": st.just(len if op.view_operands else None)}
    return op._replace(b=draw(b), extra=draw(extras[row.extra]), extra2=draw(extras[row.extra2]),
                       **fields)


def _invalid(row: F.OpFormat, op: P.Op) -> dict[str, st.SearchStrategy]:
    """For each field, values its row refuses (with the op's other fields kept)."""
    count = len(op.operands)
    ints = {"Slot": [-1, N_SLOTS], "SlotOrDrop": [-2, N_SLOTS],
            "Operand": [N_SLOTS, P.const_operand(len(CONSTS)), P.global_operand(len(NAMES))],
            "ReadCount": [-1, count + 1], "ExitPc": [-1, 0, 2]}
    element = [N_SLOTS, P.const_operand(0)] if row.operands == "Slots" else [
        N_SLOTS, P.const_operand(len(CONSTS))]
    operands = [(*op.operands[:k], bad, *op.operands[k + 1:])
                for k in range(count) for bad in element]
    if row.operands != "Unused" and count < row.max_operands:
        operands += [(*op.operands, bad) for bad in element]
    if row.max_operands < F.constant("kAnyCount"):
        operands.append((*op.operands, *[0] * (row.max_operands + 1 - count)))
    native = [_NATIVE_KINDS, -1, 1 << P.VIEW_SHIFT,
              1 | 1 << (P.VIEW_SHIFT + min(count, P.MAX_VIEW_OPERANDS)),
              _FIRST_VIEWLESS | 1 << P.VIEW_SHIFT, _NATIVE_KINDS - 1 | 1 << P.VIEW_SHIFT]
    subs = {"Unused": [1, -1], "FoldedView": [2, -1], "IslandUnbinds": [2, -1],
            "BinaryOp": [17, 19, 26, -1], "UnaryOp": [4, -1], "NativeCall": native}
    names = tuple(f"n{k}" for k in range(count))
    extras = {"Unused": ["x", 1], "Kwnames": ["x", (1,), ("k",) * (count + 1)],
              "Unpacker": [3, None], "Code": ["x", None], "Name": [3, None],
              "ViewMaker": [None, 3] if op.view_operands else [len],
              "IslandNames": [(*names, "x"), None, *([(1,) * count] if count else [])]}
    return {"dst": st.sampled_from(ints.get(row.dst, [0, 1])),
            "a": st.sampled_from(ints.get(row.a, [1, -1])),
            "b": st.sampled_from(ints.get(row.b, [1, -1])),
            "sub": st.sampled_from(subs[row.sub]),
            "operands": st.sampled_from(operands),
            "extra": st.sampled_from(extras[row.extra]),
            "extra2": st.sampled_from(extras[row.extra2])}


def _program(op: P.Op) -> tuple[list[P.Op], int]:
    """``op`` in a program the validator can take whole, and its pc: an ENTER
    exits at the next op, an EXIT closes the ENTER before it."""
    if op.code == P.ENTER:
        return [op, P.Op(P.EXIT, op.dst)], 0
    if op.code == P.EXIT:
        return [P.Op(P.ENTER, op.dst, P.const_operand(0), 1), op], 1
    return [op], 0


_OPCODE = st.integers(0, len(P.NAMES) - 1)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_OPCODE.flatmap(_valid_op))
def test_ops_as_the_table_says_are_accepted(op):
    assert _make(_program(op)[0]) == "PlannedCall"


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.data())
def test_a_field_the_table_refuses_is_named_with_its_op(data):
    code = data.draw(_OPCODE)
    op = data.draw(_valid_op(code))
    field, bad = data.draw(st.sampled_from(sorted(_invalid(_ROWS[code], op).items())))
    ops, pc = _program(op)
    ops[pc] = op._replace(**{field: data.draw(bad)})
    message = _rejected(ops)
    assert re.match(rf"planned call: op {pc} \({P.NAMES[code]}\) {field}[ :\[]", message), (
        ops[pc], message)
