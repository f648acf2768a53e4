# SPDX-License-Identifier: Apache-2.0
"""Statement shapes of the other supported releases' wrappers, planned on CPU.

Each wrapper under ``tests/data/wrappers/handwritten/`` named for a release
was made from that release's wrapper codegen (the file's comment names the
source); it runs once through its Python ``call`` and once through its
PlannedCall, in fresh modules with the same instrumented globals, and the
outputs (bit for bit) and traces (every call with its argument provenance,
every tensor's end) must be identical.
"""

from __future__ import annotations

import sys

import pytest

torch = pytest.importorskip("torch")

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.engine.planned_call import planner  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402
from helpers import call_trace  # noqa: E402


@pytest.fixture(autouse=True)
def _enabled():
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="fake", strict=False):
        yield
    fastlaunch.reset_stats()


def _compare(relative, instrumented, inputs, inject):
    """(program, trace): the Python call() and the planned call agree."""
    runs = []
    for planned in (False, True):
        recorder = call_trace.TraceRecorder()
        module = call_trace.load(relative, inject(recorder))
        call_trace.instrument(module, recorder, instrumented)
        call, program = module.call, None
        if planned:
            program = planner.program_of(call)
            call = planner.plan(call, relative, program)
        before = _core.planned_call_runs()
        out = call_trace.run(call, recorder, inputs)
        assert _core.planned_call_runs() - before == int(planned)
        runs.append((out, recorder.events, program))
        del module, call
    (expected, python_trace, _), (actual, planned_trace, program) = runs
    call_trace.assert_bit_equal(expected, actual)
    assert planned_trace == python_trace
    assert [sys.getrefcount(o) for o in actual] == [sys.getrefcount(o) for o in expected]
    return program, python_trace


@pytest.fixture
def fake_cuda(monkeypatch):
    """torch.cuda's guard, set_device, current_device and current_stream, recorded."""
    log = []

    class Guard:
        def __init__(self, index):
            self.index = index

        def __enter__(self):
            log.append(("enter", self.index))

        def __exit__(self, *exc):
            log.append(("exit", exc[0]))
            return False

    monkeypatch.setattr(torch.cuda, "_DeviceGuard", Guard)
    monkeypatch.setattr(torch.cuda, "set_device", lambda index: log.append(("set", index)))
    monkeypatch.setattr(torch.cuda, "current_device", lambda: log.append(("device",)) or 0)
    monkeypatch.setattr(torch.cuda, "current_stream", lambda: log.append(("stream",)) or "s")
    return log


def _torch214_globals(recorder):
    def add(a, b, out, n, stream):
        torch.add(a, b, out=out)

    def positive(inp, out, n, stream):
        out.copy_((inp.sum() > 0).float())

    return {"get_raw_stream": recorder.wrap("get_raw_stream", lambda index: 7 + index),
            "triton_poi_fused_add_0": call_trace.RecordedKernel(recorder, "add", add),
            "triton_poi_fused_sum_1": call_trace.RecordedKernel(recorder, "sum", positive)}


@pytest.mark.parametrize("sign", [1, -1])  # each branch of the switch
def test_torch_2_14_shapes_match_python_call(fake_cuda, sign):
    torch.manual_seed(0)
    inputs = [sign * torch.rand(3, 4) + sign, torch.randn(3, 4), torch.randn(6)]
    names = ("assert_size_stride_grouped", "assert_tensor_metadata", "copy_if_misaligned",
             "empty_strided_cuda", "reinterpret_tensor", "repeated_subgraph0", "true_graph_0",
             "false_graph_0")
    program, trace = _compare("handwritten/torch214_shapes.py", names, inputs,
                              _torch214_globals)
    # the switch's if/else is the one statement kept Python
    assert len(program.islands) == 1 and program.islands[0].startswith(
        "if buf4_selector == 0:\n    true_graph_0_args = [arg2_1]")
    calls = [e[1] for e in trace if e[0] == "call"]
    assert calls[:2] == ["assert_size_stride_grouped", "assert_tensor_metadata"]
    assert calls.count("repeated_subgraph0") == 1
    # selector int(sum > 0): 0 takes the true branch
    assert ("false_graph_0" if sign > 0 else "true_graph_0") in calls
    assert fake_cuda == [("device",), ("enter", 0), ("set", 0), ("stream",), ("exit", None)] * 2


def test_torch_2_14_grouped_assert_mismatch_raises_what_python_raises(fake_cuda):
    errors = []
    for planned in (False, True):
        module = call_trace.load("handwritten/torch214_shapes.py",
                                 _torch214_globals(call_trace.TraceRecorder()))
        call = planner.plan(module.call, "w") if planned else module.call
        with pytest.raises(AssertionError) as info:
            call([torch.randn(3, 4), torch.randn(3, 5), torch.randn(6)])
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "expected size" in errors[0]


def test_torch_2_7_1_shapes_match_python_call(fake_cuda):
    """torch 2.7.1 (torch_npu 2.7.1's): the host while loop and the item
    stores of subgraph outputs stay Python, everything else is native."""
    def inject(recorder):
        def add(inp, out, scale, n, stream):
            torch.mul(inp, scale, out=out)

        return {"get_raw_stream": recorder.wrap("get_raw_stream", lambda index: 7 + index),
                "triton_poi_fused_add_0": call_trace.RecordedKernel(recorder, "add", add)}

    torch.manual_seed(0)
    names = ("assert_size_stride", "empty_strided_cuda", "reinterpret_tensor",
             "while_loop_cond_graph_0", "while_loop_body_graph_0", "repeated_subgraph0")
    program, trace = _compare("handwritten/torch271_shapes.py", names,
                              [torch.rand(3, 4), 3], inject)
    assert [i.splitlines()[0] for i in program.islands] == [
        "buf2[0] = buf1", "while True:", "buf3[0], = repeated_subgraph0(repeated_subgraph0_args)"]
    calls = [e[1] for e in trace if e[0] == "call"]
    assert calls.count("while_loop_body_graph_0") >= 2  # the loop ran, in its island
    assert calls.count("while_loop_cond_graph_0") == calls.count("while_loop_body_graph_0") + 1
    assert fake_cuda == [("enter", 0), ("set", 0), ("exit", None)] * 2


def test_torch_2_12_stream_shapes_match_python_call(fake_cuda, monkeypatch):
    """torch 2.12's user-stream shapes are all native: the stream is read from
    the user's object per call and launched on, inside its context."""
    class Stream:
        cuda_stream = 0x51

        def __repr__(self):
            return "stream1"

        def __enter__(self):
            fake_cuda.append(("stream enter",))

        def __exit__(self, *exc):
            fake_cuda.append(("stream exit", exc[0]))

    monkeypatch.setattr(torch.cuda, "stream", lambda s: s)

    def inject(recorder):
        def add(a, b, out, n, stream):
            recorder.events.append(("stream", stream))
            torch.add(a, b, out=out)

        return {"get_raw_stream": recorder.wrap("get_raw_stream", lambda index: 7 + index),
                "get_external_object_by_index": recorder.wrap("get_external_object_by_index",
                                                              lambda index: Stream()),
                "triton_poi_fused_add_0": call_trace.RecordedKernel(recorder, "add", add)}

    program, trace = _compare("handwritten/torch212_shapes.py",
                              ("assert_size_stride", "copy_misaligned", "empty_strided_cuda"),
                              [torch.randn(16), torch.randn(16)], inject)
    assert program.islands == [] and program.summary()["enter"] == 2
    assert [e for e in trace if e[0] == "stream"] == [("stream", 0x51), ("stream", 7)]
    assert fake_cuda == [("enter", 0), ("set", 0), ("stream",), ("stream enter",),
                         ("stream exit", None), ("exit", None)] * 2


def test_global_declaration_is_read_per_call_and_bound_by_islands(tmp_path):
    """torch_npu's static-kernel prefix in small: the declared global is read
    per call (not a constant of the program) and an island's store to it
    binds it in the module, as call() does."""
    path = tmp_path / "w.py"
    path.write_text("calls = 0\nready = False\n"
                    "def call(args):\n    a, = args\n    args.clear()\n"
                    "    global calls, ready\n"
                    "    if not ready:\n        ready = True\n        first = a\n"
                    "    else:\n        first = None\n"
                    "    calls = calls + 1\n"
                    "    seen = calls\n"
                    "    return (first, seen, ready)\n")
    results = []
    for planned in (False, True):
        module = call_trace.load_file(path)
        call = module.call
        if planned:
            program = planner.program_of(call)
            assert program.islands == ["if not ready:\n    ready = True\n    first = a\n"
                                       "else:\n    first = None",
                                       "calls = calls + 1"]
            call = planner.plan(call, "w", program)
        results.append([call([i]) for i in range(3)] + [(module.calls, module.ready)])
    assert results[0] == results[1] == [(0, 1, True), (None, 2, True), (None, 3, True),
                                        (3, True)]
