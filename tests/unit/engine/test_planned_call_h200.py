# SPDX-License-Identifier: Apache-2.0
"""Wrapper modules Inductor wrote on the H200, run on CPU as planned calls.

Each one runs as its CPU twin (tests/helpers/h200_twin.py: the same text,
with Triton kernels and CUDA entry points replaced by CPU stand-ins) through
``selfcheck --planned-call``'s own comparison: the Python ``call()`` and the
planned call on the same inputs give the same trace (every op, argument
provenance and sizes, every tensor's end) and bit-equal outputs, and the
unrecorded planned call runs its extern GEMMs and views in the ATen shim with
the Python call's outputs.
"""

from __future__ import annotations

import ast

import pytest

torch = pytest.importorskip("torch")

from fastlaunch import config  # noqa: E402
from fastlaunch.engine.planned_call import planner  # noqa: E402
from fastlaunch.tools.selfcheck import planned_call  # noqa: E402
from helpers import h200_twin  # noqa: E402

GEMMS = ("extern_kernels.mm", "extern_kernels.addmm")


def _calls_in_call(name: str) -> dict[str, int]:
    """How often ``call()`` of the H200 wrapper calls each GEMM, reinterpret_tensor
    and assert_alignment."""
    tree = ast.parse((h200_twin.H200 / f"{name}.py").read_text())
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "call")
    counts = dict.fromkeys((*GEMMS, "reinterpret_tensor", "assert_alignment"), 0)
    for node in ast.walk(call):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in counts:
            counts[ast.unparse(node.func)] += 1
    return counts


@pytest.mark.parametrize("name", ["gpt2_12", "llama_dynamic"])
def test_h200_wrapper_runs_as_its_python_call(name, tmp_path):
    path = h200_twin.write_twin(name, tmp_path)
    ok, line = planned_call.check(path)
    assert ok, line
    with config.override(enabled=True):
        program = planner.tag_native(planner.program_of(planned_call.load(path).call))
    assert program.islands == []  # every statement Inductor wrote is native
    summary = program.summary()
    counts = _calls_in_call(name)
    gemms = sum(counts[g] for g in GEMMS)
    assert gemms > 0 and counts["reinterpret_tensor"] > 0
    # each GEMM, each view the GEMMs do not take folded and each alignment assert is a
    # native op, and all ran
    assert summary["native"] == (gemms + counts["reinterpret_tensor"] - summary["native_view"]
                                 + counts["assert_alignment"])
    assert f"native run equal: {summary['native']} ops ran in the ATen shim, 0 declined" in line
    # prepared ops on (the default): every GEMM on its CPU kernel directly; switched
    # off: the same ops through the dispatcher, outputs equal too
    assert (f", {gemms} on their kernel directly (prepared ops on); prepared ops off: equal, "
            f"{summary['native']} ran, 0 declined, 0 directly") in line, line


def test_dynamic_wrapper_at_another_sequence_length(tmp_path):
    """The dynamic Llama's sizes (s72, s70) are its first two inputs: at another
    length than the one it was written for, the program computes the symbolic
    asserts, allocation sizes, views and launch extents from them as the Python
    call() does."""
    path = h200_twin.write_twin("llama_dynamic", tmp_path)
    inputs = planned_call.load(path).get_args()
    assert inputs[:2] == [4, 48] and inputs[2].shape == (4, 48)
    inputs[1] = 80
    inputs[2] = torch.randint(0, 1024, (4, 80))
    ok, line = planned_call.check(path, inputs)
    assert ok, line
    with config.override(enabled=True):
        program = planner.program_of(planned_call.load(path).call)
    assert program.summary()["binary"] > 0  # e.g. s70*s72, 128*s70
