# SPDX-License-Identifier: Apache-2.0
"""The generic allocation as a native kind (``program.NATIVE_KINDS[13]``).

Inductor writes ``empty_strided(size, stride, device=..., dtype=...)``
(``torch.empty_strided``) for a device with no ``_empty_strided_<device>``. That
is every allocation of torch_npu's wrappers. The ATen shim takes exactly that form
through ATen's dispatcher, so the device's own kernel allocates; anything else is
left to torch's binding. Here the planned call and the Python ``call()`` run on CPU:
the same tensors, and the binding's own errors. On the ``npu`` test device,
``test_planned_call_npu_device.py`` counts them in the saved wrappers."""

from __future__ import annotations

import pytest

from helpers import call_trace

torch = pytest.importorskip("torch", reason="the ATen shim is built against torch")

from fastlaunch import config  # noqa: E402
from fastlaunch.engine.planned_call import program as P  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402

ALLOC = next(kind for kind, path in P.NATIVE_KINDS.items() if path == "empty_strided")

_WRAPPER = """import torch
from torch import device, empty_strided
def call(args):
    n, = args
    args.clear()
    buf0 = empty_strided((n, 3), (3, 1), device='cpu', dtype=torch.float32)
    buf1 = empty_strided((2, 4, 1), (1, 2, 9), device=device('cpu'), dtype=torch.int64)
    {extra}
    return (buf0, buf1)
"""


@pytest.fixture(autouse=True)
def _enabled():
    with config.override(enabled=True, strict=False):
        yield


def _calls(tmp_path, extra="pass", native=2):
    path = tmp_path / "w.py"
    path.write_text(_WRAPPER.format(extra=extra))
    return call_trace.plan_file(path, native=native)


def _counts():
    return tuple(_core.planned_call_native_ops().get(ALLOC, (0, 0)))


def _described(tensors):
    return [(type(t), t.shape, t.stride(), t.storage_offset(), t.dtype, t.device,
             t.requires_grad, t.is_contiguous()) for t in tensors]


def test_the_wrappers_allocations_run_natively(aten_shim, tmp_path):
    python, planned, program = _calls(tmp_path)
    assert sum(op.sub == ALLOC for op in program.ops if op.code == P.CALL) == 2
    before = _counts()
    expected, actual = python([5]), planned([5])
    ran, declined = (after - start for after, start in zip(_counts(), before))
    assert (ran, declined) == (2, 0)
    assert _described(actual) == _described(expected)


@pytest.mark.parametrize("extra", [
    "empty_strided((2, 3), (3, 1), dtype=torch.float32)",  # no device: the default device's
    "empty_strided((2, 3), (3, 1), device='cpu', dtype=torch.float32, requires_grad=True)",
    "empty_strided([2, 3], (3, 1), device='cpu', dtype=torch.float32)",  # a list
    "empty_strided((2, 3), (3, 1), device='cpu', dtype=float)",  # a Python type, not a dtype
])
def test_other_forms_are_the_bindings(aten_shim, tmp_path, extra):
    """A form the shim does not take as the binding would is declined and runs in
    Python: the same tensors (requires_grad included); the wrapper's other two
    allocations run natively."""
    python, planned, _ = _calls(tmp_path, f"buf0 = {extra}", native=3)
    before = _counts()
    expected, actual = python([5]), planned([5])
    ran, declined = (after - start for after, start in zip(_counts(), before))
    assert (ran, declined) == (2, 1)
    assert _described(actual) == _described(expected)


def test_an_unknown_device_raises_the_bindings_error(aten_shim, tmp_path):
    python, planned, _ = _calls(
        tmp_path, "empty_strided((2,), (1,), device='nowhere', dtype=torch.float32)", native=3)
    errors = []
    for call in (python, planned):
        with pytest.raises(RuntimeError) as info:
            call([5])
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "nowhere" in errors[0]


def test_a_torch_function_mode_sees_the_allocation(aten_shim, tmp_path):
    """torch.empty_strided is a factory a TorchFunctionMode intercepts: with one
    active, the shim declines and the mode sees the same calls as from Python."""
    python, planned, _ = _calls(tmp_path)
    logs = []
    before = _counts()
    for call in (python, planned):
        with call_trace.logging_mode() as log:
            call([5])
        logs.append(log.seen)
    assert logs[0] == logs[1] and logs[0].count("empty_strided") == 2
    assert _counts()[1] - before[1] == 2  # declined, both
