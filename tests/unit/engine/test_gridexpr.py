# SPDX-License-Identifier: Apache-2.0
"""Grid expressions compiled for the C steady state agree with Python."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastlaunch.engine import gridexpr
from fastlaunch.runtime import _core

NAMES = ["in_ptr0", "xnumel", "ynumel", "ks0", "XBLOCK"]
EXPRS = ["-(xnumel // -1024)", "1", "((ynumel + 31) // 32)", "max(1, xnumel // 4)",
         "-(ks0*ynumel // -XBLOCK)", "min(ynumel, 65535)", "xnumel - ks0 * 3 + +2"]


def python_eval(expr, inputs):
    return eval(expr, {}, dict(zip(NAMES, inputs)))


@pytest.mark.parametrize("expr", EXPRS)
def test_typical_inductor_expressions_compile(expr):
    assert gridexpr.compile_grid((expr, "1", "1"), NAMES) is not None


@pytest.mark.parametrize("expr", ["math.ceil(xnumel / 4)", "y_tmp", "xnumel / 2", "abs(ks0)",
                                  "xnumel if ks0 else 1", "2**70", "xnumel % 3", "max(a=1)"])
def test_anything_else_keeps_the_python_resolver(expr):
    assert gridexpr.compile_grid((expr, "1", "1"), NAMES) is None


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(EXPRS), st.lists(st.integers(-(2**40), 2**40), min_size=5, max_size=5))
def test_native_evaluation_equals_python(expr, values):
    inputs = (0x1000, *values[1:])
    program = gridexpr.compile_grid((expr, expr, "7"), NAMES)
    try:
        expected = python_eval(expr, inputs)
    except ZeroDivisionError:
        assert _core.eval_grid_program(list(program), inputs) is None
        return
    got = _core.eval_grid_program(list(program), inputs)
    if not -(2**63) <= expected < 2**63:
        assert got is None
    elif all(abs(v) < 2**20 for v in values):
        assert got == (expected, expected, 7)
    else:  # an intermediate may overflow int64: undecided, never wrong
        assert got in (None, (expected, expected, 7))


def test_non_int_inputs_and_overflow_are_undecided():
    program = list(gridexpr.compile_grid(("-(xnumel // -1024)", "1", "1"), NAMES))
    assert _core.eval_grid_program(program, (0, 4096, 0, 0, 0)) == (4, 1, 1)
    assert _core.eval_grid_program(program, (0, 4096.0, 0, 0, 0)) is None
    assert _core.eval_grid_program(program, (0, 2**70, 0, 0, 0)) is None
    mul = list(gridexpr.compile_grid(("xnumel * ks0", "1", "1"), NAMES))
    assert _core.eval_grid_program(mul, (0, 2**62, 0, 4, 0)) is None
    assert _core.eval_grid_program(program[:-1], (0, 1, 0, 0, 0)) is None  # truncated
