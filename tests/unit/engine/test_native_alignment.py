# SPDX-License-Identifier: Apache-2.0
"""The alignment assert as a native kind (``program.NATIVE_KINDS[14]``).

Inductor writes ``assert_alignment(buf, alignment, 'op')`` (torch's
``torch._C._dynamo.guards.assert_alignment``) after ops whose outputs its
kernels assume aligned. The ATen shim passes only calls torch's function
passes (the storage offset in bytes a multiple of a positive ``int``
alignment, a plain tensor, an optional ``str`` name): Inductor's form.
Every other call (misaligned, an alignment of 0, a wrong argument, and forms
torch passes but the shim does not bind: a ``bool`` alignment, one torch
masks to 64 bits, a subclass) runs torch's function, which answers or raises
its own error. Here the planned call and the Python ``call()`` run on the
same tensors, torch's function as the oracle."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import call_trace

torch = pytest.importorskip("torch", reason="the ATen shim is built against torch")

from fastlaunch import config  # noqa: E402
from fastlaunch.engine.planned_call import program as P  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402

ALIGN = next(kind for kind, path in P.NATIVE_KINDS.items() if path.endswith(".assert_alignment"))

_WRAPPER = """import torch
assert_alignment = torch._C._dynamo.guards.assert_alignment
def call(args):
    t, alignment, name = args
    args.clear()
    passed = {statement}
    return (t, passed)
"""

_STATEMENTS = {
    "named": "assert_alignment(t, alignment, name)",
    "unnamed": "assert_alignment(t, alignment)",
    "keyword": "assert_alignment(t, alignment, op_name=name)",
}


@pytest.fixture(autouse=True)
def _enabled():
    with config.override(enabled=True, strict=False):
        yield


def _calls(tmp_path, form):
    path = tmp_path / f"{form}.py"
    path.write_text(_WRAPPER.format(statement=_STATEMENTS[form]))
    python, planned, _ = call_trace.plan_file(path, native=1)
    return python, planned


def _counts():
    return tuple(_core.planned_call_native_ops().get(ALIGN, (0, 0)))


def _outcome(fn, args):
    try:
        t, passed = fn(list(args))
        return ("returned", t is args[0], passed)
    except Exception as exc:  # torch's own error is the oracle
        return (type(exc), str(exc))


def _tensor(dtype, offset):
    return torch.zeros(64, dtype=dtype)[offset:]


CASES = [  # (dtype, storage offset, alignment, op name)
    (torch.float32, 0, 16, "aten.mm"),
    (torch.float32, 4, 16, "aten.mm"),
    (torch.float32, 1, 16, "aten.mm"),  # 4 bytes in: torch refuses
    (torch.float16, 8, 16, "x"),
    (torch.float16, 3, 2, "x"),
    (torch.int8, 3, 4, "x"),  # refused
    (torch.float64, 2, 16, "x"),
    (torch.float64, 1, 16, "x"),  # refused
    (torch.bool, 5, 1, "x"),
    (torch.float32, 0, 0, "x"),  # torch: alignment cannot be 0
    (torch.float32, 1, -4, "x"),  # torch reads -4 as an unsigned long
    (torch.float32, 0, 2**64, "x"),  # torch masks it to 64 bits: 0, its AssertionError
    (torch.float32, 4, 2**64 + 16, "x"),  # masked to 16: torch passes, the shim declines
    (torch.float32, 4, True, "x"),  # a bool is an int to torch: it passes, the shim declines
    (torch.float32, 0, 16, None),  # "s" takes no None: torch's TypeError
    (torch.float32, 0, 16, "a\0b"),  # "s" takes no NUL: torch's ValueError
    (torch.float32, 0, 16.0, "x"),  # a float alignment: torch's TypeError
    (torch.float32, 0, np.int64(16), "x"),  # not an int to torch's parser: its TypeError
]


@pytest.mark.parametrize("form", sorted(_STATEMENTS))
@pytest.mark.parametrize("case", CASES, ids=repr)
def test_passes_natively_only_where_torch_passes(aten_shim, tmp_path, form, case):
    dtype, offset, alignment, name = case
    python, planned = _calls(tmp_path, form)
    args = (_tensor(dtype, offset), alignment, name)
    expected = _outcome(python, args)
    before = _counts()
    assert _outcome(planned, args) == expected
    ran, declined = (after - b for after, b in zip(_counts(), before))
    # passed in the shim (no Python call), or declined there and answered by torch
    # (alignments torch passes that the shim leaves to it: a bool, one over 64 bits)
    native = (expected[0] == "returned" and form != "keyword"
              and type(alignment) is int and alignment < 2**64)
    assert (ran, declined) == ((1, 0) if native else (0, 1))
    if form == "keyword":  # torch's parser takes no keywords
        assert expected[0] is TypeError


def test_a_subclass_goes_to_torch(aten_shim, tmp_path):
    """What torch's parser handles and the shim does not bind is left to it."""
    class Sub(torch.Tensor):
        pass

    python, planned = _calls(tmp_path, "named")
    args = (torch.zeros(8).as_subclass(Sub), 16, "x")
    before = _counts()
    assert _outcome(planned, args) == _outcome(python, args) == ("returned", True, True)
    assert tuple(a - b for a, b in zip(_counts(), before)) == (0, 1)
