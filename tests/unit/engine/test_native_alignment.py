# SPDX-License-Identifier: Apache-2.0
"""The alignment assert as a native kind (``program.NATIVE_KINDS[14]``).

Inductor writes ``assert_alignment(buf, alignment, 'op')`` (torch's
``torch._C._dynamo.guards.assert_alignment``) after ops whose outputs its
kernels assume aligned. The ATen shim passes exactly the calls torch's
function passes (the storage offset in bytes a multiple of the alignment);
every other call (misaligned, an alignment of 0, a wrong argument) runs
torch's function, which raises its own error. Here the planned call and the
Python ``call()`` run on the same tensors, torch's function as the oracle."""

from __future__ import annotations

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
    {statement}
    return (t,)
"""

_STATEMENTS = {
    "named": "assert_alignment(t, alignment, name)",
    "unnamed": "assert_alignment(t, alignment)",
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
        return ("returned", fn(list(args))[0] is args[0])
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
    (torch.float32, 0, 2**64, "x"),  # too large for an unsigned long: torch's OverflowError
    (torch.float32, 0, 16, None),  # "s" takes no None: torch's TypeError
    (torch.float32, 0, 16, "a\0b"),  # "s" takes no NUL: torch's ValueError
    (torch.float32, 0, 16.0, "x"),  # a float alignment: torch's TypeError
]


@pytest.mark.parametrize("form", sorted(_STATEMENTS))
@pytest.mark.parametrize("case", CASES, ids=repr)
def test_passes_natively_exactly_where_torch_passes(aten_shim, tmp_path, form, case):
    dtype, offset, alignment, name = case
    python, planned = _calls(tmp_path, form)
    args = (_tensor(dtype, offset), alignment, name)
    expected = _outcome(python, args)
    before = _counts()
    assert _outcome(planned, args) == expected
    ran, declined = (after - b for after, b in zip(_counts(), before))
    # passed in the shim (no Python call), or declined there and raised by torch
    assert (ran, declined) == ((1, 0) if expected[0] == "returned" else (0, 1))


def test_a_subclass_or_a_keyword_goes_to_torch(aten_shim, tmp_path):
    """What torch's parser handles and the shim does not bind is left to it."""
    class Sub(torch.Tensor):
        pass

    python, planned = _calls(tmp_path, "named")
    args = (torch.zeros(8).as_subclass(Sub), 16, "x")
    before = _counts()
    assert _outcome(planned, args) == _outcome(python, args) == ("returned", True)
    assert tuple(a - b for a, b in zip(_counts(), before)) == (0, 1)
