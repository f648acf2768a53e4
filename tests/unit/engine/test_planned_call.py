# SPDX-License-Identifier: Apache-2.0
"""The planned call against the Python ``call()`` it replaces, on CPU.

Each wrapper runs twice on the same inputs, each time in a fresh module with
the same instrumented globals: once through its Python ``call``, once through
its PlannedCall. Outputs must be bit-equal and the traces (every op with its
argument provenance and sizes, every tensor's end) identical.
"""

from __future__ import annotations

import os
import sys
import types

import pytest

torch = pytest.importorskip("torch")

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.engine import probes  # noqa: E402
from fastlaunch.engine.planned_call import Untranslatable, planner  # noqa: E402
from fastlaunch.engine.planned_call import program as P  # noqa: E402
from fastlaunch.engine.planned_call.spec import PlannedCallSpec  # noqa: E402
from fastlaunch.errors import FastLaunchError  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402
from helpers import call_trace  # noqa: E402

GUARDS = ("assert_size_stride", "empty_strided_cpu", "reinterpret_tensor")
# program.NATIVE_KINDS: _reinterpret_tensor, _empty_strided_cpu, _empty_strided_cuda,
# assert_alignment
VIEW, ALLOC_CPU, ALLOC_CUDA, ALIGN = 10, 11, 12, 14


@pytest.fixture(autouse=True)
def _enabled():
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="fake", strict=False):
        yield
    fastlaunch.reset_stats()


def _inputs(name: str, module) -> list:
    torch.manual_seed(0)
    return module.get_args()


def _compare(relative: str, instrumented: tuple[str, ...], inputs, inject=None, prepare=None):
    """Run Python call() and the planned call; return (program, python trace)."""
    runs = []
    for planned in (False, True):
        recorder = call_trace.TraceRecorder()
        module = call_trace.load(relative, inject(recorder) if inject else None)
        call_trace.instrument(module, recorder, instrumented)
        if prepare is not None:
            prepare(module, recorder)
        call = module.call
        program = None
        if planned:
            program = planner.program_of(call)
            call = planner.plan(call, relative, program)
            assert isinstance(call, _core.PlannedCall)
        before = _core.planned_call_runs()
        out = call_trace.run(call, recorder, inputs)
        assert _core.planned_call_runs() - before == int(planned)
        del module, call
        runs.append((out, recorder.events, program))
    (expected, python_trace, _), (actual, planned_trace, program) = runs
    call_trace.assert_bit_equal(expected, actual)
    assert planned_trace == python_trace
    # nothing kept: each output is referenced by the returned tuple alone, as in Python
    assert [sys.getrefcount(o) for o in actual] == [sys.getrefcount(o) for o in expected]
    return program, python_trace


def _kernels(module) -> tuple[str, ...]:
    return tuple(n for n in vars(module) if n.startswith("cpp_fused_"))


@pytest.mark.parametrize("name", ["mlp", "conv", "attention", "views", "mlp_dynamic", "baddbmm",
                                  "transformer", "gpt_block"])
def test_inductor_wrappers_match_python_call(name):
    module = call_trace.load(f"inductor/{name}.py")
    inputs = _inputs(name, module)
    program, trace = _compare(f"inductor/{name}.py", (*GUARDS, *_kernels(module)), inputs)
    assert program.islands == []  # everything 2.13 wrote for these is native
    calls = [e for e in trace if e[0] == "call"]
    assert any(e[1].startswith("extern_kernels.") for e in calls)
    assert any(e[1].startswith("cpp_fused_") for e in calls)
    assert ("dead", "in0") in trace  # the inputs die at their `del`, inside the call
    assert trace.index(("dead", "in0")) < trace.index(("returned",))


def test_dynamic_sizes_and_aten_calls():
    inputs = [torch.randn(4, 8), torch.randn(8, 3), torch.randn(4, 2)]
    names = (*GUARDS, "assert_alignment", "copy_if_misaligned", "cpp_fused_scale_0",
             "split_pair")
    program, trace = _compare("handwritten/dynamic_sizes.py", names, inputs)
    summary = program.summary()
    assert summary["binary"] >= 4 and summary["item"] >= 3 and summary["unpack"] == 2
    assert program.islands == ["if ps1 > 4:\n    buf8 = reinterpret_tensor(buf2, (2 * ps1,), "
                               "(1,), 0)\nelse:\n    buf8 = buf2.view(-1)"]
    # the island's view is made between the same ops as in Python
    ops = [e[1] for e in trace if e[0] == "call"]
    assert ops.count("reinterpret_tensor") == 2


class _Guard:
    log: list = []

    def __init__(self, index):
        self.index = index

    def __enter__(self):
        self.log.append(("enter", self.index))

    def __exit__(self, *exc):
        self.log.append(("exit", exc[0].__name__ if exc[0] else None))
        return False


class _Kernel:
    def __init__(self, body):
        self.body = body

    def __repr__(self):
        return "kernel"


def _cuda_style(recorder, raise_in=None):
    def add(inp, out, n, stream):
        if raise_in == "add":
            raise KeyboardInterrupt
        out.copy_(inp + 1)

    def mul(a, b, out, stream):
        torch.mul(a, b, out=out)

    sites = []

    def bind(meta, kernel, call_slot):
        sites.append(meta["callsite_id"])
        call_slot[0] = recorder.wrap("site:" + meta["kernel_name"], kernel.body)
        return call_slot[0]

    mul_kernel = _Kernel(mul)
    return {"get_raw_stream": recorder.wrap("get_raw_stream", lambda index: 7 + index),
            "triton_poi_fused_add_0": call_trace.RecordedKernel(recorder,
                                                                "triton_poi_fused_add_0", add),
            "triton_poi_fused_mul_1": mul_kernel,
            "_fastlaunch_bind": recorder.wrap("_fastlaunch_bind", bind)}


@pytest.fixture
def fake_cuda(monkeypatch):
    _Guard.log = []
    monkeypatch.setattr(torch.cuda, "_DeviceGuard", _Guard)
    monkeypatch.setattr(torch.cuda, "set_device", lambda index: _Guard.log.append(("set", index)))
    return _Guard.log


def test_cuda_style_wrapper(fake_cuda):
    inputs = [torch.randn(4, 4), torch.randn(16)]
    program, trace = _compare("handwritten/cuda_style.py",
                              ("assert_size_stride", "empty_strided_cuda", "reinterpret_tensor"),
                              inputs, inject=_cuda_style)
    assert fake_cuda == [("enter", 0), ("set", 0), ("exit", None)] * 2
    summary = program.summary()
    assert summary["site"] == 1 and summary["enter"] == 1 and summary["exit"] == 1
    assert program.islands == ["for i in range(2):\n    buf2.add_(i)"]
    calls = [e[1] for e in trace if e[0] == "call"]
    assert calls.count("_fastlaunch_bind") == 1 and "site:triton_poi_fused_mul_1" in calls
    assert ("call", "get_raw_stream", (0,), ()) in trace


def test_error_inside_guard_exits_it_and_propagates(fake_cuda):
    """KeyboardInterrupt from a launch: the guard's __exit__ sees it, nothing is replayed."""
    recorder = call_trace.TraceRecorder()
    module = call_trace.load("handwritten/cuda_style.py", _cuda_style(recorder, raise_in="add"))
    planned = planner.plan(module.call, "cuda_style")
    with pytest.raises(KeyboardInterrupt):
        planned([torch.randn(4, 4), torch.randn(16)])
    assert fake_cuda == [("enter", 0), ("set", 0), ("exit", "KeyboardInterrupt")]
    assert [e[1] for e in recorder.events if e[0] in ("call", "result")] == [
        "get_raw_stream", "get_raw_stream", "triton_poi_fused_add_0.run"]


def test_assert_mismatch_raises_what_python_raises():
    module = call_trace.load("inductor/mlp.py")
    args = module.get_args()
    args[2] = torch.randn(4, 17)
    errors = []
    for call in (module.call, planner.plan(module.call, "mlp")):
        with pytest.raises(AssertionError) as info:
            call(list(args))
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "expected size" in errors[0]


def test_unpack_mismatch_raises_what_python_raises():
    module = call_trace.load("inductor/mlp.py")
    errors = []
    for call in (module.call, planner.plan(module.call, "mlp")):
        with pytest.raises(ValueError, match="unpack") as info:
            call(module.get_args()[:3])
        errors.append(str(info.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("reason", ["disabled", "profiler", "dispatch_mode",
                                    "dump_launch_params"])
def test_whole_call_fallback_is_counted_by_reason(reason, monkeypatch):
    """Under each reason the original call runs (same outputs), no program op runs."""
    module = call_trace.load("inductor/mlp.py")
    if reason == "dump_launch_params":
        monkeypatch.setenv("TORCHINDUCTOR_DUMP_LAUNCH_PARAMS", "1")
    planned = planner.plan(module.call, "mlp")
    args = module.get_args()
    expected = module.call(list(args))

    class Mode(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    before = _core.planned_call_runs()
    if reason == "disabled":
        with fastlaunch.enabled(False):
            out = planned(list(args))
    elif reason == "profiler":
        with torch.autograd.profiler.profile():
            out = planned(list(args))
    elif reason == "dispatch_mode":
        with Mode():
            out = planned(list(args))
    else:
        out = planned(list(args))
    call_trace.assert_bit_equal(expected, out)
    assert _core.planned_call_runs() == before
    assert fastlaunch.stats(per_site=True)["mlp"] == {"fallback.call_" + reason: 1}
    if reason != "dump_launch_params":  # the reason gone, the program runs again
        call_trace.assert_bit_equal(expected, planned(list(args)))
        assert _core.planned_call_runs() == before + 1


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("count", [0, 2, 3])
def test_wrong_argument_count_raises_pythons_type_error(strict, count):
    """Arguments call() refuses raise its own TypeError, in strict mode too:
    the user's mistake, not a fallback."""
    module = call_trace.load("inductor/mlp.py")
    planned = planner.plan(module.call, "mlp")
    given = [module.get_args(), *range(count - 1)] if count else []
    with pytest.raises(TypeError) as python_info:
        module.call(*given)
    with config.override(strict=strict), pytest.raises(TypeError) as info:
        planned(*given)
    assert type(info.value) is TypeError and str(info.value) == str(python_info.value)
    assert fastlaunch.stats() == {}


def test_call_by_keyword_falls_back_and_strict_raises():
    """``call(args=...)`` is a valid call the program does not take: the original
    runs it (counted), and strict mode raises."""
    module = call_trace.load("inductor/mlp.py")
    planned = planner.plan(module.call, "mlp")
    torch.manual_seed(0)
    inputs = module.get_args()
    expected = module.call([t.clone() for t in inputs])
    call_trace.assert_bit_equal(expected, planned(args=[t.clone() for t in inputs]))
    assert fastlaunch.stats(per_site=True)["mlp"] == {"fallback.call_signature": 1}
    with config.override(strict=True), pytest.raises(FastLaunchError, match="call_signature"):
        planned(args=[t.clone() for t in inputs])


def test_unbound_local_raises_like_python(tmp_path):
    path = tmp_path / "w.py"
    path.write_text("def call(args):\n    a, = args\n    args.clear()\n    del a\n"
                    "    return (a,)\n")
    module = call_trace.load_file(path)
    errors = []
    for call in (module.call, planner.plan(module.call, "w")):
        with pytest.raises(UnboundLocalError) as info:
            call([1])
        errors.append(str(info.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("module_global", ["", "a = 1001\n"])
@pytest.mark.parametrize("island", [
    "if args is not None:\n        b = a",  # reads it
    "if args is not None:\n        del a",  # deletes it again
    "if args is not None:\n        args.append(len)\n        del args[0], a",
    "if args is not None:\n        del (args, (a,))",
])
def test_island_sees_a_deleted_local_as_python_does(tmp_path, module_global, island):
    """A local deleted before an island is unbound there too: UnboundLocalError,
    never NameError, never the module global of the same name."""
    path = tmp_path / "w.py"
    path.write_text(f"{module_global}def call(args):\n    a, = args\n    args.clear()\n"
                    f"    del a\n    {island}\n    return (args,)\n")
    module = call_trace.load_file(path)
    program = planner.program_of(module.call)
    assert [op.code for op in program.ops].count(P.ISLAND) == 1
    planned = planner.plan(module.call, "w", program)
    outcomes = []
    for call in (module.call, planned):
        args = [1]
        with pytest.raises(Exception) as info:  # noqa: PT011 - the type is compared below
            call(args)
        outcomes.append((type(info.value), str(info.value), args))
    assert outcomes[1] == outcomes[0]
    assert outcomes[0][0] is UnboundLocalError and "'a'" in outcomes[0][1]


@pytest.mark.parametrize("module_global", ["", "a = 1001\n"])
@pytest.mark.parametrize("island", [
    "if args is not None:\n        del a\n        b = a",
    "if args is not None:\n        try:\n            a.missing\n"
    "        except AttributeError as a:\n            pass\n        b = a",
])
def test_island_that_unbinds_a_local_itself(tmp_path, module_global, island):
    """A local bound as the island starts and unbound inside it (``del``, the end of
    ``except ... as``) is unbound for the rest of the island too."""
    path = tmp_path / "w.py"
    path.write_text(f"{module_global}def call(args):\n    a, = args\n    {island}\n"
                    "    return (b,)\n")
    module = call_trace.load_file(path)
    program = planner.program_of(module.call)
    assert [op.sub for op in program.ops if op.code == P.ISLAND] == [P.ISLAND_UNBINDS]
    planned = planner.plan(module.call, "w", program)
    outcomes = []
    for call in (module.call, planned):
        with pytest.raises(Exception) as info:  # noqa: PT011 - the type is compared below
            call([1])
        outcomes.append((type(info.value), str(info.value)))
    assert outcomes[1] == outcomes[0] and outcomes[0][0] is UnboundLocalError


def test_island_reads_module_globals_and_bound_locals(tmp_path):
    """What the island reads and is bound: the local first, then the module's global."""
    path = tmp_path / "w.py"
    path.write_text("a = 1001\nscale = 3\n\n\ndef call(args):\n    a, = args\n"
                    "    args.clear()\n    if a is not None:\n        b = a * scale\n"
                    "    return (b,)\n")
    module = call_trace.load_file(path)
    program = planner.program_of(module.call)
    # it reads one local (a), binds one (b), unbinds none: a plain dict unless a is unbound
    assert [(op.b, op.sub, op.extra2) for op in program.ops if op.code == P.ISLAND] == [
        (1, 0, ("a", "b"))]
    planned = planner.plan(module.call, "w", program)
    before = _core.planned_call_runs()
    assert planned([2]) == module.call([2]) == (6,)
    assert _core.planned_call_runs() == before + 1


# Run in a child process: before Py_EnterRecursiveCall the planned call
# recursed on the C stack until SIGSEGV, which must fail the test, not the run.
_RECURSION_CHILD = """\
import importlib.util, sys
import fastlaunch
from fastlaunch.integrations import planned_call_hook
from fastlaunch.runtime import _core

path, plan = sys.argv[1], sys.argv[2] == "planned"
sys.setrecursionlimit(int(sys.argv[3]))
spec = importlib.util.spec_from_file_location("w", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
if plan:
    assert planned_call_hook.plan_module(module)
module.again = module.call
depth = []
module.tick = lambda: depth.append(None)


def run():
    with fastlaunch.enabled(True):
        try:
            module.call([1])
        except RecursionError as err:
            print(type(err).__name__, err, len(depth), _core.planned_call_runs())


if len(sys.argv) > 4:  # a thread with a small C stack (bytes)
    import threading

    threading.stack_size(int(sys.argv[4]))
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
else:
    run()
"""
# AddressSanitizer's frames are larger: the C-stack guard stops runs before kMaxNestedRuns.
_SANITIZED = "libasan" in os.environ.get("LD_PRELOAD", "")


@pytest.mark.parametrize(("form", "ticks_per_run"), [
    ("global again\n    tick()\n    return again(args)", 1),  # planned call to planned call
    ("tick()\n    return call(args)", 2),  # through the Python function the program holds
])
def test_unbounded_recursion_raises_recursion_error(tmp_path, form, ticks_per_run):
    import subprocess

    path = tmp_path / "w.py"
    path.write_text(f"def call(args):\n    {form}\n")
    results = []
    for mode, limit in (("python", 1000), ("planned", 1000), ("planned", 100000)):
        child = subprocess.run([sys.executable, "-c", _RECURSION_CHILD, str(path), mode,
                                str(limit)],
                               capture_output=True, text=True, timeout=120, check=False)
        assert child.returncode == 0, (mode, child.returncode, child.stderr[-2000:])
        results.append(child.stdout.split())
    python, planned, raised = results
    # the same error and message at the same depth (ticks): one level per run, as per frame
    assert python[:5] == ["RecursionError", "maximum", "recursion", "depth", "exceeded"]
    assert planned == python and int(planned[-2]) > 900 and planned[-1] == "0"  # none returned
    # under a raised limit the runs, which nest on the C stack, stop at 3000 of them
    # (one tick each, and one per Python frame between them in the second form)
    assert raised[:5] == python[:5], raised
    if _SANITIZED:
        assert 900 < int(raised[-2]) <= ticks_per_run * 3000, raised
    else:
        assert int(raised[-2]) == ticks_per_run * 3000, raised


@pytest.mark.parametrize("form", ["global again\n    tick()\n    return again(args)",
                                  "tick()\n    return call(args)"])
def test_recursion_in_a_thread_with_a_small_stack_stops_before_the_stack_ends(tmp_path, form):
    """A 4 MiB thread stack holds fewer than the 3000 nested runs the depth cap
    allows: the C-stack guard raises RecursionError first (was SIGSEGV)."""
    import subprocess

    if _SANITIZED:  # measured: ASan's frames overrun even its 2 MiB reserve in a 4 MiB thread
        pytest.skip("AddressSanitizer's frames: the small-stack guard is checked in the plain "
                    "build (the 8 MB main-thread recursion test runs here)")

    path = tmp_path / "w.py"
    path.write_text(f"def call(args):\n    {form}\n")
    child = subprocess.run([sys.executable, "-c", _RECURSION_CHILD, str(path), "planned",
                            "100000", str(4 << 20)], capture_output=True, text=True,
                           timeout=120, check=False)
    assert child.returncode == 0, (child.returncode, child.stderr[-2000:])
    out = child.stdout.split()
    assert out[:5] == ["RecursionError", "maximum", "recursion", "depth", "exceeded"], out
    assert 100 < int(out[-2]) < 6000 and out[-1] == "0", out


@pytest.mark.parametrize(("line", "reason"), [
    ("b = [a for _ in range(2)]", "closure"),  # `a` becomes a cell of call()
    ("b = [i for i in range(2)]", "nested_scope"),
    ("if a:\n        return a", "island_control_flow"),
])
def test_untranslatable_functions_are_refused_by_reason(tmp_path, line, reason):
    path = tmp_path / "w.py"
    path.write_text(f"def call(args):\n    a, = args\n    {line}\n    return a\n")
    module = call_trace.load_file(path)
    with pytest.raises(Untranslatable) as info:
        planner.program_of(module.call)
    assert info.value.reason == reason


def _make(ops, n_slots=2, consts=(), names=(), **fields):
    return _core.make_planned_call(PlannedCallSpec(**{
        "ops": ops, "consts": consts, "names": names,
        "local_names": ("args", *("",) * (n_slots - 1)), "globals": {}, "builtins": {},
        "args_slot": 0, "fallback": print, "switch": config.switch, "profiler": object,
        "original": print, **fields}))


_ISLAND_CODE = compile("pass", "w", "exec")


@pytest.mark.parametrize(("op", "message"), [
    (P.Op(P.MOVE, 5), "op 0 (move) dst: got slot 5, expected 0 <= slot < 2"),
    (P.Op(P.MOVE, 1, P.const_operand(3)),
     "op 0 (move) a: got operand -7, expected a constant index below 0"),
    (P.Op(P.MOVE, 1, P.global_operand(0)), "expected a global index below 0"),
    (P.Op(99, 1), f"op 0 code: got 99, expected 0 <= code < {len(P.NAMES)}"),
    (P.Op(P.CALL, 1, extra=("x",)), "op 0 (call) extra (kwnames): more names than values"),
    (P.Op(P.ENTER, 1), "op 0 (enter) b: expected the pc of its exit"),
    (P.Op(P.BINARY, 1, sub=17), "op 0 (binary) sub: got 17, expected a binary operator"),
    (P.Op(P.MOVE, 1, sub=3), "op 0 (move) sub: got 3, expected 0 (unused)"),
    (P.Op(P.ISLAND, b=2, operands=(1,), extra=_ISLAND_CODE, extra2=("x",)),
     "op 0 (island) b: got 2, expected 0 <= b <= 1 (the slots it reads)"),
    (P.Op(P.ISLAND, sub=2, operands=(1,), extra=_ISLAND_CODE, extra2=("x",)),
     "op 0 (island) sub: got 2, expected 0 or 1"),
])
def test_bad_programs_are_refused_with_field_and_value(op, message):
    with pytest.raises(ValueError, match="planned call: ") as info:
        _make([op])
    assert message in str(info.value)


@pytest.mark.parametrize(("fields", "message"), [
    ({"consts": [1]}, "planned call: consts: got list [1], expected a tuple"),
    ({"globals": ()}, "planned call: globals: got tuple (), expected a dict"),
    ({"self_slot": 2**31}, "planned call: self_slot: got int 2147483648, expected an int in "
                           "[-2**31, 2**31)"),
    ({"args_slot": "0"}, "planned call: args_slot: got str '0', expected an int"),
    ({"dispatch_len": 3}, "planned call: dispatch_len: got int 3, expected None or a callable"),
    ({"static_reason": b"x"},
     "planned call: static_reason: got bytes b'x', expected None or a str"),
    ({"slot_keyword": None}, "planned call: slot_keyword: got NoneType None, expected a str"),
    ({"local_names": ("args", 5)}, "planned call: local_names[1]: got int 5, expected a str"),
    ({"profiler_flag": 3}, "planned call: profiler_flag: got int 3, expected a str"),
    ({"self_slot": 1}, "planned call: bound_self: expected the Runner with self_slot set"),
])
def test_bad_spec_fields_are_refused_with_field_and_value(fields, message):
    ops = [(P.RETURN, -1, 0, 0, 0, (), None, None)]
    with pytest.raises(_core.InputError) as info:
        _make(ops, **fields)
    assert str(info.value) == message


def test_the_profiler_flag_read_is_the_one_the_spec_names():
    """probes.PROFILER_FLAG by default: the native side writes no attribute name of its own."""
    assert PlannedCallSpec(*[None] * 11).profiler_flag == probes.PROFILER_FLAG
    reasons = []
    planned = _make([(P.RETURN, -1, P.const_operand(0), 0, 0, (), None, None)], consts=("ran",),
                    switch=types.SimpleNamespace(on=True), profiler_flag="busy",
                    profiler=types.SimpleNamespace(busy=True, _is_profiler_enabled=False),
                    fallback=lambda reason, *args: reasons.append(reason))
    planned([])
    assert reasons == ["profiler"]


def test_a_spec_missing_a_field_is_named():
    with pytest.raises(_core.InputError) as info:
        _core.make_planned_call(types.SimpleNamespace())
    assert str(info.value) == "planned call: ops: missing, expected a PlannedCallSpec field"


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_a_spec_field_whose_read_fails_is_not_called_missing(error):
    """Only an AttributeError is a missing field: anything else its read raises propagates."""
    class Spec:
        @property
        def ops(self):
            raise error("read failed")

    with pytest.raises(error, match="read failed"):
        _core.make_planned_call(Spec())


def _nameless_capsule():
    import ctypes

    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, (ctypes.c_void_p, ctypes.c_char_p,
                                                   ctypes.c_void_p)
    return new(ctypes.c_void_p(8), None, None)


@pytest.mark.parametrize(("setter", "name"), [("set_tensor_geometry", "tensor_geometry"),
                                              ("set_aten_ops", "aten_ops")])
@pytest.mark.parametrize("value", [_nameless_capsule(), 3])
def test_a_capsule_of_another_name_or_none_is_refused(setter, name, value):
    with pytest.raises(_core.InputError, match=rf"^capsule: got .*, expected the "
                                               rf"fastlaunch\.{name}\.v1 capsule"):
        getattr(_core, setter)(value)


def test_island_frees_at_its_del(tmp_path):
    """A `del` inside an island frees there: the slots let go of what moved in."""
    path = tmp_path / "w.py"
    path.write_text("def call(args):\n    a, b = args\n    args.clear()\n"
                    "    if a is not None:\n        del a\n        mark(b)\n    return (b,)\n")
    traces = []
    for planned in (False, True):
        recorder = call_trace.TraceRecorder()
        module = call_trace.load_file(path, {"mark": lambda t: None})
        call_trace.instrument(module, recorder, ("mark",))
        call = planner.plan(module.call, "w") if planned else module.call
        call_trace.run(call, recorder, [torch.zeros(1), torch.ones(1)])
        traces.append(recorder.events)
    assert traces[0] == traces[1]
    assert traces[0][0] == ("dead", "in0")  # before mark(b) runs


@pytest.fixture(scope="module")
def geometry():
    """The torch-built geometry reader (built once per torch build, then cached)."""
    from fastlaunch.runtime import tensor_geometry

    assert tensor_geometry.ensure(build=True, wait=True), tensor_geometry.status()


def _assert_wrapper(tmp_path, line):
    path = tmp_path / "w.py"
    path.write_text("import torch\n"
                    "assert_size_stride = torch._C._dynamo.guards.assert_size_stride\n"
                    f"def call(args):\n    a, = args\n    args.clear()\n    {line}\n"
                    "    return (a,)\n")
    module = call_trace.load_file(path)
    program = planner.program_of(module.call)
    assert program.summary()["assert"] == 1
    return module, planner.plan(module.call, "w", program)


@pytest.mark.parametrize(("shape", "stride", "line", "native"), [
    ((4, 3), (3, 1), "assert_size_stride(a, (4, 3), (3, 1), 'input')", 1),
    ((4, 3), (3, 1), "assert_size_stride(a, (a.size(0), 3), (3, 1))", 1),  # symbolic size
    # torch ignores the stride of a size-1 dim; the native check does not: torch decides
    ((4, 1), (1, 1), "assert_size_stride(a, (4, 1), (1, 4), 'input')", 0),
])
def test_native_size_assert_passes_only_on_exact_match(geometry, tmp_path, shape,
                                                       stride, line, native):
    _, planned = _assert_wrapper(tmp_path, line)
    t = torch.empty_strided(shape, stride)
    before = _core.planned_call_native_asserts()
    assert planned([t])[0] is t
    assert _core.planned_call_native_asserts() - before == native


@pytest.mark.parametrize("line", [
    "assert_size_stride(a, (4, 4), (3, 1), 'input')",
    "assert_size_stride(a, (4, 3), (1, 4), 'input')",
    "assert_size_stride(a, (4, 3, 1), (3, 1, 1), 'input')",
    "assert_size_stride(a, [4, 3], [3, 1], 'input')",
])
def test_native_size_assert_mismatch_raises_torchs_error(geometry, tmp_path, line):
    module, planned = _assert_wrapper(tmp_path, line)
    errors = []
    for call in (module.call, planned):
        with pytest.raises((AssertionError, TypeError)) as info:
            call([torch.empty(4, 3)])
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]


def test_npu_style_wrapper(monkeypatch):
    log = []

    class Device:
        def __init__(self, index):
            self.index = index

        def __enter__(self):
            log.append(("enter", self.index))

        def __exit__(self, *exc):
            log.append(("exit", exc[0]))

    npu = types.SimpleNamespace(utils=types.SimpleNamespace(device=Device),
                                set_device=lambda index: log.append(("set", index)))
    monkeypatch.setattr(torch, "npu", npu, raising=False)

    def inject(recorder):
        def empty_strided(size, stride, device, dtype):
            assert device == "npu"
            return torch.empty_strided(size, stride, dtype=dtype)

        def add(inp, out, n, stream):
            out.copy_(inp + 1)

        def mul(inp, out, n, stream):
            torch.mul(inp, 3, out=out)

        return {"empty_strided": recorder.wrap("empty_strided", empty_strided),
                "get_raw_stream": recorder.wrap("get_raw_stream", lambda index: 5),
                "triton_poi_fused_add_0": call_trace.RecordedKernel(recorder, "add", add),
                "triton_poi_fused_mul_1": call_trace.RecordedKernel(recorder, "mul", mul)}

    program, trace = _compare("handwritten/npu_style.py",
                              ("assert_size_stride", "reinterpret_tensor"), [torch.randn(8)],
                              inject=inject)
    assert log == [("enter", 0), ("set", 0), ("exit", None)] * 2
    assert program.islands == []
    assert [e[1] for e in trace if e[0] == "call"] == [
        "assert_size_stride", "empty_strided", "get_raw_stream", "add.run", "empty_strided",
        "reinterpret_tensor", "mul.run"]


def test_suppressing_context_resumes_after_its_with(tmp_path):
    """A context manager that swallows the error: execution goes on after the
    `with`, as in Python, with the same values."""
    path = tmp_path / "w.py"
    path.write_text("import contextlib\n"
                    "def call(args):\n    a, = args\n    args.clear()\n"
                    "    with contextlib.suppress(ZeroDivisionError):\n"
                    "        b = a + 1\n        c = b // 0\n        b = 0\n"
                    "    return (a, b)\n")
    module = call_trace.load_file(path)
    assert module.call([5]) == planner.plan(module.call, "w")([5]) == (5, 6)


def test_kwnames_must_be_strings():
    with pytest.raises(ValueError, match=r"op 0 \(call\) extra \(kwnames\): expected str items"):
        _make([P.Op(P.CALL, 1, P.const_operand(0), operands=(0,), extra=(1,))], consts=(print,))


# ---- native extern kernels and aten ops (the torch-built ATen shim) ------------------------

_NATIVE_CALLS = ("extern_kernels.mm(", "extern_kernels.addmm(", "extern_kernels.bmm(",
                 "extern_kernels.baddbmm(", "extern_kernels.convolution(",
                 "torch.ops.aten._scaled_dot_product_efficient_attention.default(",
                 "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(",
                 "torch.ops.aten._scaled_dot_product_flash_attention.default(",
                 "torch.ops.aten._scaled_dot_product_cudnn_attention.default(")


def _calls_in_call(source: str) -> list:
    """Every call written in the wrapper's ``call`` function(s), as ast nodes."""
    import ast

    return [node for fn in ast.walk(ast.parse(source))
            if isinstance(fn, ast.FunctionDef) and fn.name == "call"
            for node in ast.walk(fn) if isinstance(node, ast.Call)]


def _written(source: str) -> dict[str, int]:
    """What the wrapper source writes: ATen calls the shim runs (``aten``), the
    ``reinterpret_tensor`` views written as their arguments (``folded``; of
    ``extern_kernels`` calls: ``folded_extern``), the
    other views (``views``, named buffers reused), ``empty_strided_cpu`` calls and
    ``assert_alignment`` calls (``aligns``)."""
    import ast

    calls = _calls_in_call(source)
    name = lambda node: ast.unparse(node.func)  # noqa: E731
    aten = [c for c in calls if name(c) + "(" in _NATIVE_CALLS]

    def views_in(ops: list) -> int:
        return sum(isinstance(a, ast.Call) and name(a) == "reinterpret_tensor"
                   for c in ops for a in [*c.args, *(k.value for k in c.keywords)])

    folded = views_in(aten)
    return {"aten": len(aten), "folded": folded,
            "folded_extern": views_in([c for c in aten if name(c).startswith("extern_kernels.")]),
            "views": sum(name(c) == "reinterpret_tensor" for c in calls) - folded,
            "allocs": sum(name(c) == "empty_strided_cpu" for c in calls),
            "aligns": sum(name(c) == "assert_alignment" for c in calls)}


def _kinds() -> dict[int, tuple[int, int]]:
    return dict(_core.planned_call_native_ops())


def _since(before: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """{kind: (ran, declined)} since ``before`` (kinds with no change left out)."""
    out = {}
    for kind, (ran, declined) in _kinds().items():
        r0, d0 = before.get(kind, (0, 0))
        if (ran - r0, declined - d0) != (0, 0):
            out[kind] = (ran - r0, declined - d0)
    return out


def _native_counts() -> tuple[int, int]:
    counts = _core.planned_call_native_ops().values()
    return sum(ran for ran, _ in counts), sum(declined for _, declined in counts)


def _run_both(relative: str):
    """Python call() and the planned call of fresh modules, real kernels, same inputs."""
    python, planned_module = call_trace.load(relative), call_trace.load(relative)
    torch.manual_seed(0)
    inputs = python.get_args()
    program = planner.tag_native(planner.program_of(planned_module.call))
    planned = planner.plan(planned_module.call, relative, program)
    expected = python.call([t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
    before = _kinds()
    actual = planned([t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
    return program, expected, actual, _since(before)


@pytest.mark.parametrize("name", ["mlp", "conv", "attention", "views", "mlp_dynamic", "baddbmm",
                                  "transformer", "gpt_block"])
def test_native_ops_run_in_cpp_and_match_python_call(aten_shim, name):
    relative = f"inductor/{name}.py"
    written = _written((call_trace.WRAPPERS / relative).read_text())
    static_before = sum(aten_shim.static_ops().values())
    program, expected, actual, counts = _run_both(relative)
    # every ATen op (GEMM, attention, convolution) ran on its CPU kernel directly
    # (no grad needed, no autocast, no mode)
    assert sum(aten_shim.static_ops().values()) - static_before == written["aten"]
    summary = program.summary()
    native = written["aten"] + written["allocs"] + written["views"] + written["aligns"]
    assert written["aten"] > 0 and written["allocs"] > 0 and summary["native"] == native
    # every reinterpret_tensor written as an argument of one of them is made by the shim
    assert summary.get("native_view", 0) == written["folded"]
    call_trace.assert_bit_equal(expected, actual)
    # every one of them ran in the shim: each allocation and named-buffer view too
    assert sum(ran for ran, _ in counts.values()) == native
    assert sum(declined for _, declined in counts.values()) == 0
    assert counts.get(ALLOC_CPU, (0, 0)) == (written["allocs"], 0)
    assert counts.get(VIEW, (0, 0)) == (written["views"], 0)
    assert counts.get(ALIGN, (0, 0)) == (written["aligns"], 0)


def test_native_ops_off_run_the_python_callables(aten_shim):
    assert aten_shim.use(False) is False
    try:
        program, expected, actual, counts = _run_both("inductor/gpt_block.py")
    finally:
        assert aten_shim.use(True) is True
    # 10 ATen calls, 9 empty_strided_cpu, 8 named-buffer views, 2 alignment asserts
    # (gpt_block.py's call)
    assert program.summary()["native"] == 10 + 9 + 8 + 2
    assert program.summary()["native_view"] == 22  # made by reinterpret_tensor at the call
    call_trace.assert_bit_equal(expected, actual)
    assert counts == {}


def test_torch_function_mode_sees_the_same_calls(aten_shim):
    """Under a TorchFunctionMode the shim declines, so the mode sees what it sees in Python."""
    logs = []
    for planned in (False, True):
        module = call_trace.load("inductor/mlp.py")
        torch.manual_seed(0)
        inputs = module.get_args()
        call = planner.plan(module.call, "mlp") if planned else module.call
        before = _native_counts()
        with call_trace.logging_mode() as log:
            out = call(inputs)
        logs.append((log.seen, out, _native_counts()[1] - before[1]))
    assert "addmm" in logs[0][0] and logs[0][0] == logs[1][0]
    call_trace.assert_bit_equal(logs[0][1], logs[1][1])
    assert logs[1][2] == 2  # both addmm calls declined to Python


def _mm_wrapper(tmp_path):
    path = tmp_path / "w.py"
    path.write_text("import torch\nfrom torch._inductor.select_algorithm import extern_kernels\n"
                    "def call(args):\n    a, b, out = args\n    args.clear()\n"
                    "    extern_kernels.mm(a, b, out=out)\n    return (out,)\n")
    python, planned, _ = call_trace.plan_file(path, native=1)
    return python, planned


def test_native_op_error_is_torchs(aten_shim, tmp_path):
    python, planned = _mm_wrapper(tmp_path)
    errors = []
    for call in (python, planned):
        before = _native_counts()
        with pytest.raises(RuntimeError) as info:
            call([torch.randn(4, 3), torch.randn(4, 3), torch.empty(4, 3)])
        errors.append((type(info.value), str(info.value), _native_counts()[1] - before[1]))
    assert errors[0][:2] == errors[1][:2] and "cannot be multiplied" in errors[0][1]
    assert errors[1][2] == 0  # raised by ATen inside the shim, not declined


def _gemm_in_both(aten_shim, python, planned, a, b, make_out):
    """Python call() and the planned call on the same inputs: (outputs, out's version
    counter or None for an inference tensor, error text) each, and the planned side's
    GEMMs run through static dispatch."""
    results = []
    static_before = sum(aten_shim.static_ops().values())
    for call in (python, planned):
        out = make_out()
        try:
            result, error = call([a, b, out]), None
        except RuntimeError as exc:
            result, error = None, str(exc)
        version = None if out.is_inference() else out._version
        results.append((result, version, error))
        if call is python:
            static_before = sum(aten_shim.static_ops().values())
    return results, sum(aten_shim.static_ops().values()) - static_before


@pytest.mark.parametrize(("case", "static"), [
    ("plain", 1), ("weight_no_grad", 1), ("inference_mode", 1), ("autocast", 0),
    ("conjugate", 0), ("weight_grad_mode", 0)])
def test_gemm_static_dispatch_only_where_the_dispatcher_reaches_its_kernel(aten_shim, tmp_path,
                                                                          case, static):
    """The shim calls at::cpu::mm_out itself (as AOTI's C shim does) only where the
    dispatcher would pass nothing but the Autograd and ADInplaceOrView kernels, and does
    their work: same bits, out's version bumped once, grad-mode errors left to them."""
    import contextlib

    python, planned = _mm_wrapper(tmp_path)
    dtype = torch.complex64 if case == "conjugate" else torch.float32
    a = torch.randn(4, 3, dtype=dtype)
    b = torch.randn(3, 5, dtype=dtype)
    if case == "conjugate":
        a = a.conj()  # a conjugate bit: the Conjugate fallback materializes it first
    if case.startswith("weight_"):
        b = torch.nn.Parameter(b)  # requires grad, as a model's weight
    context = {"weight_no_grad": torch.no_grad, "inference_mode": torch.inference_mode,
               "autocast": lambda: torch.autocast("cpu")}.get(case, contextlib.nullcontext)
    with context():
        (expected, actual), ran_static = _gemm_in_both(
            aten_shim, python, planned, a, b, lambda: torch.empty(4, 5, dtype=dtype))
    assert ran_static == static
    assert expected[1:] == actual[1:]  # version counter, error text
    if case == "weight_grad_mode":
        assert "don't support automatic differentiation" in expected[2]
    else:
        assert expected[2] is None
        call_trace.assert_bit_equal(expected[0], actual[0])
        assert expected[1] in (None, 1)  # bumped once (inference tensors have none)


def test_gemm_under_a_record_function_observer_keeps_the_dispatcher(aten_shim, tmp_path):
    """An execution-trace observer (a global RecordFunction callback) sees the GEMM's
    aten::mm event from the planned call as from Python: the shim leaves it to the
    dispatcher, which calls the callbacks."""
    import json

    from torch.profiler import ExecutionTraceObserver

    python, planned = _mm_wrapper(tmp_path)
    events, static_before = [], sum(aten_shim.static_ops().values())
    for call in (python, planned):
        trace = tmp_path / f"trace{len(events)}.json"
        observer = ExecutionTraceObserver()
        observer.register_callback(str(trace))
        observer.start()
        try:
            call([torch.randn(4, 3), torch.randn(3, 5), torch.empty(4, 5)])
        finally:
            observer.stop()
            observer.unregister_callback()
        events.append([n["name"] for n in json.loads(trace.read_text())["nodes"]
                       if n["name"].startswith("aten::")])
    assert "aten::mm" in events[0] and events[0] == events[1]
    assert sum(aten_shim.static_ops().values()) == static_before


@pytest.mark.parametrize("how", ["environment", "prepare"])
def test_prepared_ops_off_keeps_the_dispatcher(aten_shim, tmp_path, how):
    """FASTLAUNCH_PREPARED_OPS=0 (read when the shim loads) or ``prepare(False)``: every
    GEMM through ATen's dispatcher, the same bits and version counter."""
    python, planned = _mm_wrapper(tmp_path)
    (module,) = aten_shim._module
    try:
        if how == "environment":
            with config.override(prepared_ops=False):
                aten_shim._activate(module)
        else:
            aten_shim.prepare(False)
        (expected, actual), ran_static = _gemm_in_both(
            aten_shim, python, planned, torch.randn(4, 3), torch.randn(3, 5),
            lambda: torch.empty(4, 5))
    finally:
        aten_shim._activate(module)  # back to the configuration's default: on
    assert ran_static == 0 and expected[1:] == actual[1:] == (1, None)
    call_trace.assert_bit_equal(expected[0], actual[0])
    with pytest.raises(TypeError, match="on: got 'no', expected True or False"):
        aten_shim.prepare("no")
    with pytest.raises(TypeError, match="cublaslt: got 'x', expected True, False or None"):
        aten_shim.prepare(True, cublaslt="x")
    with pytest.raises(ValueError, match="cublaslt: got True with on=False, expected False"):
        aten_shim.prepare(False, cublaslt=True)


def test_native_op_declines_subclasses_and_returns_the_out_object(aten_shim, tmp_path):
    class Sub(torch.Tensor):
        pass

    python, planned = _mm_wrapper(tmp_path)
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    for first, declined in ((a, 0), (a.as_subclass(Sub), 1)):
        outs = [torch.empty(4, 5), torch.empty(4, 5)]
        before = _native_counts()
        results = [python([first, b, outs[0]]), planned([first, b, outs[1]])]
        ran, dec = (x - y for x, y in zip(_native_counts(), before))
        assert (ran, dec) == (1 - declined, declined)
        assert results[1][0] is outs[1]
        assert type(results[0][0]) is type(results[1][0])
        call_trace.assert_bit_equal(results[0], results[1])


def test_bypass_runs_the_original_and_is_counted():
    module = call_trace.load("inductor/mlp.py")
    planned = planner.plan(module.call, "mlp")
    torch.manual_seed(0)
    inputs = module.get_args()
    expected = module.call([t.clone() for t in inputs])
    planned.bypass = True
    runs, stats = _core.planned_call_runs(), fastlaunch.stats().get("call.bypassed", 0)
    call_trace.assert_bit_equal(expected, planned([t.clone() for t in inputs]))
    assert _core.planned_call_runs() == runs
    assert fastlaunch.stats()["call.bypassed"] == stats + 1
    planned.bypass = False
    planned([t.clone() for t in inputs])
    assert _core.planned_call_runs() == runs + 1


def test_profile_times_every_op_that_ran():
    module = call_trace.load("inductor/mlp.py")
    program = planner.tag_native(planner.program_of(module.call))
    planned = planner.plan(module.call, "mlp", program)
    torch.manual_seed(0)
    inputs = module.get_args()
    _core.planned_call_profile(planned)  # read and cleared
    _core.set_planned_call_profiling(True)
    try:
        for _ in range(2):
            planned([t.clone() for t in inputs])
    finally:
        _core.set_planned_call_profiling(False)
    profile = _core.planned_call_profile(planned)
    assert len(profile) == len(program.ops)
    assert [runs for _, runs in profile] == [2] * len(program.ops)  # straight-line code
    assert all(ns > 0 for ns, _ in profile)
    assert _core.planned_call_profile(planned) == [(0, 0)] * len(program.ops)
    with pytest.raises(_core.InputError, match="expected a PlannedCall, got method"):
        _core.planned_call_profile(module.call)


@pytest.mark.parametrize("value", [object(), 3])
def test_aten_ops_capsule_is_checked(value):
    with pytest.raises(_core.InputError, match=r"capsule: got .*, expected the fastlaunch\.aten"):
        _core.set_aten_ops(value)


@pytest.mark.parametrize(("line", "views"), [
    ("extern_kernels.mm(reinterpret_tensor(a, (4, 3), (3, 1), 0), "
     "reinterpret_tensor(b, (3, 5), (1, 3), 0), out=out)", 2),
    ("extern_kernels.mm(reinterpret_tensor(a, (4, 3), (3, 1), 0), b.t(), out=out)", 0),  # b.t()
    ("extern_kernels.mm(reinterpret_tensor(a, (4, a.size(1)), (3, 1), 0), b.t(), out=out)", 0),
    ("extern_kernels.mm(a, reinterpret_tensor(b, (3, 5), (1, 3), 0), out=out)", 1),
])
def test_views_fold_only_into_the_call_that_consumes_them(aten_shim, tmp_path, line,
                                                          views):
    import torch._inductor.kernel.mm  # fills extern_kernels

    path = tmp_path / "w.py"
    path.write_text("import torch\nfrom torch._inductor.select_algorithm import extern_kernels\n"
                    "reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor\n"
                    f"def call(args):\n    a, b, out = args\n    args.clear()\n    {line}\n"
                    "    return (out,)\n")
    module = call_trace.load_file(path)
    program = planner.tag_native(planner.program_of(module.call))
    assert program.summary().get("native_view", 0) == views
    planned = planner.plan(module.call, "w", program)
    a, b = torch.randn(4, 3), torch.randn(5, 3)
    before = _kinds()
    results = [call([a, b, torch.empty(4, 5)]) for call in (module.call, planned)]
    # the mm in the shim; each view not folded runs there on its own
    standalone = line.count("reinterpret_tensor(") - views
    assert _since(before) == {1: (1, 0), **({VIEW: (standalone, 0)} if standalone else {})}
    call_trace.assert_bit_equal(results[0], results[1])


# ---- the wrapper's allocations and named-buffer views in the shim -------------------------

@pytest.mark.parametrize("name", ["mlp", "conv", "attention", "views", "mlp_dynamic", "baddbmm",
                                  "transformer", "gpt_block"])
def test_native_allocations_and_views_keep_the_python_trace(aten_shim, name):
    """Only the kernels are recorded, so empty_strided_cpu and reinterpret_tensor
    are torch's own and run in the shim: every tensor still ends between the
    same ops as in Python (what the caching allocator sees)."""
    relative = f"inductor/{name}.py"
    written = _written((call_trace.WRAPPERS / relative).read_text())
    module = call_trace.load(relative)
    before = _kinds()
    _, trace = _compare(relative, _kernels(module), _inputs(name, module))
    assert any(e[0] == "dead" for e in trace)
    # the recorded extern kernels are no ATen op, so their views are not folded: each
    # runs alone (torch.ops attention calls stay in the shim, with theirs folded)
    views = written["views"] + written["folded_extern"]
    counts = _since(before)
    assert all(declined == 0 for _, declined in counts.values())
    assert {k: v for k, v in counts.items() if k in (ALLOC_CPU, VIEW)} == {
        ALLOC_CPU: (written["allocs"], 0), **({VIEW: (views, 0)} if views else {})}


def _guards_wrapper(tmp_path, lines: str):
    path = tmp_path / "w.py"
    path.write_text("import torch\n"
                    "empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu\n"
                    "empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda\n"
                    "reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor\n"
                    "def call(args):\n    a, = args\n    args.clear()\n"
                    + "".join(f"    {line}\n" for line in lines.split("; "))
                    + "    return (out,)\n")
    module = call_trace.load_file(path)
    program = planner.tag_native(planner.program_of(module.call))
    assert program.summary()["native"] == lines.count("empty_strided_") + lines.count(
        "reinterpret_tensor(")
    return module.call, planner.plan(module.call, "w", program)


def _outcome(call, a) -> tuple:
    try:
        return ("returned", call([a]))
    except Exception as err:  # compared with what Python raised
        return ("raised", type(err), str(err))


class _Sub(torch.Tensor):
    pass


_ALLOC = "out = empty_strided_cpu({}); out.copy_(a)"
_VIEW = "out = reinterpret_tensor({})"


@pytest.mark.parametrize(("lines", "kind", "native"), [
    (_ALLOC.format("(4, 3), (1, 4), torch.float32"), ALLOC_CPU, True),
    (_ALLOC.format("(4, 3), (3, 1), torch.float64"), ALLOC_CPU, True),
    (_ALLOC.format("(4, 3), (3, 1)"), ALLOC_CPU, False),  # arity: torch's error
    (_ALLOC.format("(4, 3), (3, 1), torch.float32, 0"), ALLOC_CPU, False),
    (_ALLOC.format("[4, 3], (3, 1), torch.float32"), ALLOC_CPU, False),  # a list
    (_ALLOC.format("(4, 3.0), (3, 1), torch.float32"), ALLOC_CPU, False),  # a float
    (_ALLOC.format("(4, True), (3, 1), torch.float32"), ALLOC_CPU, False),  # torch takes it
    (_ALLOC.format("(4, -3), (3, 1), torch.float32"), ALLOC_CPU, False),
    (_ALLOC.format("(4, 3), (3, 1), 'float32'"), ALLOC_CPU, False),
    (_ALLOC.format("(4, 3), (3, 1), dtype=torch.float32"), ALLOC_CPU, False),  # kwargs
    (_VIEW.format("a, (3, 4), (4, 1), 0"), VIEW, True),
    (_VIEW.format("a, (2, 3), (1, 2), 5"), VIEW, True),
    (_VIEW.format("a, (3, 4), (4, 1)"), VIEW, True),  # offset_increment=0
    (_VIEW.format("a, [3, 4], (4, 1), 0"), VIEW, False),  # a list: torch takes it
    (_VIEW.format("a, (3, 4), (4, 1), True"), VIEW, False),
    (_VIEW.format("a, (3, 4.0), (4, 1), 0"), VIEW, False),
    (_VIEW.format("a, (3, 4), (4, 1), offset_increment=0"), VIEW, False),  # kwargs
    (_VIEW.format("a, (3, 4)"), VIEW, False),
    (_VIEW.format("a.as_subclass(_Sub), (3, 4), (4, 1), 0"), VIEW, False),  # a subclass base
])
def test_allocations_and_views_run_natively_only_as_torch_takes_them(aten_shim, tmp_path,
                                                                      monkeypatch, lines, kind,
                                                                      native):
    """Declined calls run torch's function: its result or its own error."""
    monkeypatch.setitem(sys.modules["builtins"].__dict__, "_Sub", _Sub)
    python, planned = _guards_wrapper(tmp_path, lines)
    a = torch.randn(4, 3)
    before = _kinds()
    expected, actual = _outcome(python, a.clone()), _outcome(planned, a.clone())
    assert _since(before) == {kind: (1, 0) if native else (0, 1)}
    if expected[0] == "raised":
        assert actual == expected
        return
    assert actual[0] == "returned"
    call_trace.assert_bit_equal(expected[1], actual[1])
    for e, g in zip(expected[1], actual[1]):
        assert (type(g), g.dtype, g.size(), g.stride(), g.storage_offset()) == (
            type(e), e.dtype, e.size(), e.stride(), e.storage_offset())


def test_under_a_torch_function_mode_views_decline_and_allocations_do_not(aten_shim, tmp_path):
    """torch's _reinterpret_tensor parser is traceable, so the shim leaves it to
    Python under a mode; _empty_strided_cpu never sees a mode in Python either."""
    lines = ("buf = empty_strided_cpu((4, 3), (3, 1), torch.float32); buf.copy_(a); "
             "out = reinterpret_tensor(buf, (3, 4), (4, 1), 0)")
    python, planned = _guards_wrapper(tmp_path, lines)
    a, runs = torch.randn(4, 3), []
    for call in (python, planned):
        before = _kinds()
        with call_trace.logging_mode() as log:
            out = call([a.clone()])
        runs.append((log.seen, out, _since(before)))
    assert "copy_" in runs[0][0] and runs[0][0] == runs[1][0]
    call_trace.assert_bit_equal(runs[0][1], runs[1][1])
    assert runs[1][2] == {ALLOC_CPU: (1, 0), VIEW: (0, 1)}


def test_cuda_allocation_without_cuda_torch_is_declined_to_torchs_error(aten_shim, tmp_path):
    from fastlaunch.builds import shims

    if shims.torch_has_cuda():
        pytest.skip("this torch has CUDA: the shim runs _empty_strided_cuda (tests/hw)")
    python, planned = _guards_wrapper(tmp_path,
                                      "out = empty_strided_cuda((4, 3), (3, 1), torch.float32)")
    before = _kinds()
    expected, actual = _outcome(python, torch.randn(1)), _outcome(planned, torch.randn(1))
    assert expected[0] == "raised" and actual == expected
    assert _since(before) == {ALLOC_CUDA: (0, 1)}  # built without libtorch_cuda: Python's call


def test_the_kinds_this_file_names_are_the_planners():
    """VIEW, ALLOC_CPU, ALLOC_CUDA and ALIGN above (every kind is checked against the
    shim's header, csrc/core/program_format.h, by test_program_format)."""
    assert P.NATIVE_KINDS[VIEW].endswith("._reinterpret_tensor")
    assert P.NATIVE_KINDS[ALLOC_CPU].endswith("._empty_strided_cpu")
    assert P.NATIVE_KINDS[ALLOC_CUDA].endswith("._empty_strided_cuda")
    assert P.NATIVE_KINDS[ALIGN].endswith(".assert_alignment")
    assert P.REINTERPRET_KIND == VIEW
