# SPDX-License-Identifier: Apache-2.0
"""Bounded fuzz of the planned-call program validator (``ReadOps`` in
csrc/engine/planned_call.cpp), run in the default suite.

Every program handed to ``_core.make_planned_call`` (in a ``PlannedCallSpec``)
either makes a PlannedCall or raises ``_core.InputError`` naming the op
(index and kind) and the field: no crash, no other exception type, and no operand silently
truncated to 32 bits (``2**32`` was slot 0, ``2**70`` a bare OverflowError).
"""

from __future__ import annotations

import re
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastlaunch.engine.planned_call import program as P
from fastlaunch.engine.planned_call.spec import PlannedCallSpec
from fastlaunch.runtime import _core

CONSTS = (None, 1, "x")
NAMES = ("g",)
_LABEL = re.compile(r"^planned call: op \d+( \((" + "|".join(P.NAMES) + r")\))?[ :]")


def _make(ops: list) -> object:
    def call(args):
        return None

    return _core.make_planned_call(PlannedCallSpec(
        ops=ops, consts=CONSTS, names=NAMES, local_names=("args", "a", "b", ""),
        globals={"g": 1}, builtins={}, args_slot=0, fallback=lambda *a, **k: None,
        switch=types.SimpleNamespace(on=True),
        profiler=types.SimpleNamespace(_is_profiler_enabled=False), original=call))


def _rejected(ops: list) -> str:
    with pytest.raises(_core.InputError) as info:
        _make(ops)
    return str(info.value)


def test_a_valid_program_is_accepted():
    assert type(_make([(P.RETURN, -1, P.const_operand(1), 0, 0, (), None, None)])).__name__ \
        == "PlannedCall"


@pytest.mark.parametrize(("value", "shown"), [(2**32, "4294967296"), (2**70, str(2**70)),
                                              (-(2**31) - 1, str(-(2**31) - 1))])
@pytest.mark.parametrize("field", ["dst", "a", "b", "sub", "operands[1]"])
def test_an_oversized_field_is_refused_naming_op_kind_and_field(field, value, shown):
    op = [P.TUPLE, 1, 0, 0, 0, (1, 2), None, None]
    if field == "operands[1]":
        op[5] = (1, value)
    else:
        op[{"dst": 1, "a": 2, "b": 3, "sub": 4}[field]] = value
    message = _rejected([(*op,), (P.RETURN, -1, 1, 0, 0, (), None, None)])
    assert message == (f"planned call: op 0 (tuple) {field}: got {shown}, "
                       "expected an int in [-2**31, 2**31)")


def test_an_oversized_code_is_refused_naming_the_op():
    message = _rejected([(2**64, 0, 0, 0, 0, (), None, None)])
    assert message.startswith("planned call: op 0 code: got 18446744073709551616, expected an int")


def test_a_non_int_operand_names_its_type():
    message = _rejected([(P.TUPLE, 1, 0, 0, 0, (1.5,), None, None)])
    assert message == "planned call: op 0 (tuple) operands[0]: got float, expected an int"


_INTS = st.one_of(st.integers(-8, 24), st.sampled_from([2**31 - 1, 2**31, -(2**31), 2**32,
                                                         2**63, 2**64, 2**70, -(2**70)]))
_FIELD = st.one_of(_INTS, st.sampled_from([None, 1.0, "1", True]))
_EXTRA = st.sampled_from([None, (), ("k",), (1,), "name", compile("pass", "<f>", "exec"),
                          len, 3])
_OP = st.tuples(st.one_of(st.integers(0, 17), _INTS), _FIELD, _FIELD, _FIELD, _FIELD,
                st.one_of(st.tuples(), st.lists(_FIELD, max_size=4).map(tuple), _FIELD),
                _EXTRA, _EXTRA)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.one_of(_OP, st.tuples(_INTS), st.just(None)), max_size=6))
def test_random_programs_are_accepted_or_refused_naming_the_op(ops):
    try:
        outcome = type(_make(ops)).__name__
    except _core.InputError as err:
        outcome = str(err)
    assert outcome == "PlannedCall" or _LABEL.match(outcome), outcome
