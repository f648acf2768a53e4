# SPDX-License-Identifier: Apache-2.0
"""``selfcheck --planned-call WRAPPER.py``: a wrapper module's Python ``call()``
and its planned call, run on the same inputs, must do the same.

Each run loads the module fresh and replaces its callables (every global the
``call`` body names that is a function or a kernel object, and the kernels of
``extern_kernels``) with recorders, so the trace holds every op with its
argument provenance and sizes. Tensors are labelled in the order they are
first seen (inputs ``in<i>``, then ``t<n>``); a ``weakref.finalize`` on each
records its end, so the traces are equal only if both runs dropped every
tensor at the same point between the same ops (what the caching allocator
sees). Outputs must be bit-equal. The first difference is named.

Both runs use the kernel objects of a first load that ran the Python
``call()`` once, so kernels that autotune at their first call make the same
choices in both (on the H200 a dynamic-shape Llama's wrapper gave different
outputs when each load made its own choices).

Recorders stand in for the callables, so the traced planned call never reaches
the ATen shim (its native ops are tagged by the callables' identity). A third
run therefore checks the planned call as users run it: a fresh, unrecorded
module, its extern kernels and aten ops offered to the shim, outputs bit-equal
to the Python ``call()``, and how many ops the shim ran and declined.

A wrapper that cannot run here is not compared (exit 3), with one sentence
saying why: written for a device this host lacks, without ``get_args()``, or
with CPU kernels written for a float vector width this host's Inductor cannot
compile for (``vector_width``; a narrower ISA this host also has is pinned).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import itertools
import pathlib
import re
import types
import weakref

from . import vector_width
from .report import EXIT_MISMATCH, EXIT_OK, EXIT_UNCHECKED

EXTERN = ("mm", "addmm", "bmm", "baddbmm", "convolution")
_count = itertools.count()


class NotCompared(Exception):
    """The wrapper cannot run here; its message says why, in one sentence."""


def load(path: pathlib.Path, inject: dict | None = None) -> types.ModuleType:
    """A fresh module of ``path`` (its own globals and call slots); ``inject`` goes in first."""
    spec = importlib.util.spec_from_file_location(f"_fastlaunch_wrapper_{next(_count)}", path)
    module = importlib.util.module_from_spec(spec)
    vars(module).update(inject or {})
    spec.loader.exec_module(module)
    return module


class TraceRecorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []
        self._labels: dict[int, str] = {}
        self._next = 0

    def label(self, tensor: object, name: str | None = None) -> str:
        key = id(tensor)
        if key not in self._labels:
            if name is None:
                name = f"t{self._next}"
                self._next += 1
            self._labels[key] = name
            weakref.finalize(tensor, self._dead, key, name)
        return self._labels[key]

    def _dead(self, key: int, name: str) -> None:
        self._labels.pop(key, None)
        self.events.append(("dead", name))

    def describe(self, value: object) -> object:
        import torch

        if isinstance(value, torch.Tensor):
            return (self.label(value), tuple(value.shape), tuple(value.stride()))
        if isinstance(value, (list, tuple)):
            return type(value)(self.describe(v) for v in value)
        if isinstance(value, (int, float, str, bool, type(None))):
            return value
        if isinstance(value, RecordedKernel):  # by name: a repr would name its address
            return f"<kernel {value.name}>"
        return f"<{type(value).__name__}>" if callable(value) else repr(value)

    def wrap(self, name: str, fn) -> _Recorded:
        return _Recorded(self, name, fn)


class _Recorded:
    """Records each call of ``fn``. An object with ``__call__``, not a function:
    CPython 3.11 runs a Python function's call inside the caller's eval loop
    and moves the arguments into its frame, which frees them when it returns
    (last positional first); a call through ``__call__`` leaves them to the
    caller, as a call of a C function (torch's allocation, view, extern kernel
    and ATen entry points) does, so the recorded frees keep the order the
    unrecorded wrapper has."""

    __slots__ = ("fn", "name", "recorder")

    def __init__(self, recorder: TraceRecorder, name: str, fn) -> None:
        self.recorder, self.name, self.fn = recorder, name, fn

    def __call__(self, *args, **kwargs):
        recorder = self.recorder
        recorder.events.append(("call", self.name, recorder.describe(args),
                                tuple(sorted((k, recorder.describe(v))
                                             for k, v in kwargs.items()))))
        result = self.fn(*args, **kwargs)
        recorder.events.append(("result", self.name, recorder.describe(result)))
        return result


class RecordedKernel:
    """A kernel object whose ``run`` is recorded; other attributes are the kernel's."""

    def __init__(self, recorder: TraceRecorder, name: str, body, kernel: object = None) -> None:
        self.name = name
        self.run = recorder.wrap(name + ".run", body)
        self._kernel = kernel

    def __getattr__(self, attr: str):
        return getattr(self._kernel, attr)


def callees(module: types.ModuleType) -> tuple[str, ...]:
    """The module globals ``call``'s body names that are functions or kernel objects."""
    from ...engine.planned_call import planner
    from ...engine.planned_call.translate import find_function

    func, _ = planner.function_of(module.call)
    tree = ast.parse(pathlib.Path(func.__code__.co_filename).read_text())
    node = find_function(tree, func)
    scope = vars(module)
    names = []
    for n in ast.walk(node):
        if not isinstance(n, ast.Name) or n.id in func.__code__.co_varnames or n.id in names:
            continue
        value = scope.get(n.id)
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) or hasattr(
                type(value), "run"):
            names.append(n.id)
    return tuple(names)


def instrument(module: types.ModuleType, recorder: TraceRecorder, names: tuple[str, ...]) -> None:
    """Replace the globals ``names`` (and ``extern_kernels``'s kernels) with recorders."""
    from torch._inductor.select_algorithm import KernelNamespace, extern_kernels

    scope = vars(module)
    for name in names:
        value = scope[name]
        if hasattr(type(value), "run"):
            scope[name] = RecordedKernel(recorder, name, value.run, value)
        else:
            scope[name] = recorder.wrap(name, value)
    if "extern_kernels" in scope:
        recorded = KernelNamespace()  # the namespace type: the program resolves it once
        for name in EXTERN:
            setattr(recorded, name, recorder.wrap(f"extern_kernels.{name}",
                                                  getattr(extern_kernels, name)))
        scope["extern_kernels"] = recorded


def run(call, recorder: TraceRecorder, inputs: list) -> object:
    """``call`` on fresh clones of ``inputs`` (the list holds their only references)."""
    import torch

    args = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
    for i, t in enumerate(args):
        if isinstance(t, torch.Tensor):
            recorder.label(t, f"in{i}")
    result = call(args)
    recorder.events.append(("returned",))
    return result


def output_difference(expected: object, actual: object, where: str = "output") -> str:
    """"" when bit-equal, else what differs first."""
    import torch

    if type(expected) is not type(actual):
        return f"{where}: {type(expected).__name__} / {type(actual).__name__}"
    if isinstance(expected, torch.Tensor):
        for attr in ("dtype", "shape"):
            if getattr(expected, attr) != getattr(actual, attr):
                return f"{where}.{attr}: {getattr(expected, attr)} / {getattr(actual, attr)}"
        if expected.stride() != actual.stride():
            return f"{where}.stride: {expected.stride()} / {actual.stride()}"
        return "" if torch.equal(expected, actual) else f"{where}: values differ"
    if isinstance(expected, (list, tuple)):
        if len(expected) != len(actual):
            return f"{where}: {len(expected)} items / {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            why = output_difference(e, a, f"{where}[{i}]")
            if why:
                return why
        return ""
    return "" if expected == actual else f"{where}: {expected!r} / {actual!r}"


def shared_kernels(path: pathlib.Path, inputs: list | None) -> tuple[dict[str, object], list]:
    """The kernel objects of one load of ``path`` after one Python call() on
    ``inputs`` (None: its ``get_args()``), and those inputs: a kernel that
    autotunes at its first call has chosen its config, so every run given these
    kernels makes the same choices (two loads that autotuned each for itself
    could differ in the last bits)."""
    try:
        module = load(path)
    except Exception as err:
        msg = f"the wrapper module did not load ({type(err).__name__}: {err})"
        raise NotCompared(msg) from err
    if not callable(vars(module).get("call")):
        msg = "the module has no call() function: it is not an Inductor wrapper module"
        raise NotCompared(msg)
    if inputs is None:
        if not callable(vars(module).get("get_args")):
            msg = ("the module has no get_args() to make the inputs (Inductor writes one into "
                   "each wrapper module it saves; add one returning call()'s argument list)")
            raise NotCompared(msg)
        try:
            inputs = module.get_args()
        except Exception as err:
            msg = f"its get_args() raised {type(err).__name__}: {err}"
            raise NotCompared(msg) from err
    kernels = {name: vars(module)[name] for name in callees(module)
               if hasattr(type(vars(module)[name]), "run")}
    try:
        run(module.call, TraceRecorder(), inputs)
    except Exception as err:
        msg = (f"its Python call() raised {type(err).__name__}: {err}, so there is nothing to "
               "compare the planned call with")
        raise NotCompared(msg) from err
    return kernels, inputs


# The devices a wrapper's inputs are made on: ``get_args()`` writes each with
# ``rand_strided(..., device='cuda:0', ...)``, a device object as
# ``device(type='cuda', index=0)``. (Not its ``empty_strided_<device>`` calls: a
# module may bind those names to something else, as the H200 wrappers' CPU twins do.)
_DEVICE_USE = re.compile(r"\bdevice='([a-z]+)|\bdevice\(type='([a-z]+)'")


def missing_devices(source: str) -> list[str]:
    """The devices ``source`` makes its inputs on that this host lacks."""
    import torch

    used = {a or b for a, b in _DEVICE_USE.findall(source)} - {"cpu", "meta"}
    return sorted(d for d in used
                  if not getattr(getattr(torch, d, None), "is_available", lambda: False)())


def pinned_width(source: str) -> tuple[int | None, str]:
    """The float lanes to pin while ``source``'s CPU kernels compile (None: as the
    host picks) and what to say about it; NotCompared where this host cannot."""
    written = vector_width.written_float_lanes(source)
    if len(written) > 1:
        msg = (f"its C++ kernels were written for several float vector widths "
               f"({', '.join(map(str, sorted(written)))} lanes), which no one ISA compiles")
        raise NotCompared(msg)
    if not written:
        return None, ""
    lanes = written.pop()
    host = vector_width.host_float_lanes()
    if lanes == host:
        return None, ""
    isa = vector_width.isa_with(lanes)
    if isa is None:
        default = f"{host} lanes" if host else "no vector ISA"
        msg = (f"its C++ kernels were written for {lanes} float lanes ({lanes * 32}-bit "
               f"vectors) and this host's Inductor compiles for {default} and has no "
               f"{lanes}-lane ISA to pin: regenerate the wrapper on this host, or run "
               "selfcheck on a host with that ISA")
        raise NotCompared(msg)
    return lanes, (f"C++ kernels compiled for {isa} ({lanes} float lanes, as written; "
                   f"this host's default is {host})")


def fresh(path: pathlib.Path, kernels: dict[str, object]) -> types.ModuleType:
    """A fresh load of ``path`` (its own globals and call slots) with ``kernels``."""
    module = load(path)
    vars(module).update(kernels)
    return module


def check(path: pathlib.Path, inputs: list | None = None) -> tuple[bool, str]:
    """Compare the Python call() and the planned call of the wrapper at ``path``."""
    source = path.read_text()
    missing = missing_devices(source)
    if missing:
        msg = (f"it runs on {', '.join(missing)}, which this host does not have: run selfcheck "
               "where the wrapper was generated")
        raise NotCompared(msg)
    lanes, pin_note = pinned_width(source)
    try:
        with vector_width.pinned(lanes):
            ok, line = _check(path, inputs)
    except vector_width.WidthUnavailable as why:
        raise NotCompared(str(why)) from why
    return ok, f"{line}; {pin_note}" if pin_note else line


def _check(path: pathlib.Path, inputs: list | None) -> tuple[bool, str]:
    from ... import config
    from ...engine.planned_call import planner

    runs = []
    with config.override(enabled=True):
        kernels, inputs = shared_kernels(path, inputs)
        for planned in (False, True):
            recorder = TraceRecorder()
            module = fresh(path, kernels)
            instrument(module, recorder, callees(module))
            call = module.call
            if planned:
                program = planner.program_of(call)
                call = planner.plan(call, path.name, program)
            out = run(call, recorder, inputs)
            del module, call
            runs.append((out, recorder.events))
    (expected, python), (actual, planned_trace) = runs
    for i, (a, b) in enumerate(itertools.zip_longest(python, planned_trace)):
        if a != b:
            return False, f"event {i}: Python {a} / planned {b}"
    why = output_difference(expected, actual)
    if why:
        return False, why
    summary = program.summary()
    ok, native = check_native(path, inputs, kernels)
    return ok, (f"equal: {sum(summary.values())} ops ({len(program.islands)} islands), "
                f"{sum(1 for e in python if e[0] == 'call')} calls, "
                f"{sum(1 for e in python if e[0] == 'dead')} tensor ends; {native}")


def check_native(path: pathlib.Path, inputs: list,
                 kernels: dict[str, object]) -> tuple[bool, str]:
    """The unrecorded planned call, its native ops in the ATen shim, against the
    Python ``call()`` on ``inputs`` (both with ``kernels``): bit-equal outputs,
    and the shim's counts. It runs with prepared ops as configured and again
    with them switched (``aten_ops.prepare``): users can choose either."""
    from ... import config
    from ...engine.planned_call import planner
    from ...runtime import _core, aten_ops

    def counts() -> tuple[int, int, int]:
        """(ops the shim ran, ops it declined, ops it ran on their kernel directly)"""
        native = _core.planned_call_native_ops().values()
        return (sum(ran for ran, _ in native), sum(declined for _, declined in native),
                sum(aten_ops.static_ops().values()))

    shim = aten_ops.ensure(build=True, wait=True)
    configured = config.get().prepared_ops
    runs: list[tuple[int, int, int]] = []
    with config.override(enabled=True):
        expected = run(fresh(path, kernels).call, TraceRecorder(), inputs)
        try:
            for prepared in (configured, not configured):
                aten_ops.prepare(prepared)
                call = fresh(path, kernels).call
                program = planner.tag_native(planner.program_of(call))
                planned = planner.plan(call, path.name, program)
                before = counts()
                actual = run(planned, TraceRecorder(), inputs)
                runs.append(tuple(b - a for a, b in zip(before, counts())))
                why = output_difference(expected, actual)
                if why:
                    return False, f"native run, prepared ops {_on(prepared)}: {why}"
        finally:
            aten_ops.prepare(configured)
    tagged = program.summary().get("native", 0)
    if tagged and not shim:
        return True, f"native run equal; {tagged} native ops ran in Python: {aten_ops.status()}"
    (ran, declined, direct), (ran2, declined2, direct2) = runs
    return True, (f"native run equal: {ran} ops ran in the ATen shim, {declined} declined, "
                  f"{direct} on their kernel directly (prepared ops {_on(configured)}); "
                  f"prepared ops {_on(not configured)}: equal, {ran2} ran, {declined2} "
                  f"declined, {direct2} directly")


def _on(switch: bool) -> str:
    return "on" if switch else "off"


@dataclasses.dataclass
class WrapperOutcome:
    path: str
    verdict: str  # "equal", "MISMATCH" or "not compared"
    detail: str

    def as_json(self) -> dict:
        return dataclasses.asdict(self)


def outcome(name: str) -> WrapperOutcome:
    try:
        ok, line = check(pathlib.Path(name))
    except NotCompared as why:
        return WrapperOutcome(name, "not compared", str(why))
    except Exception as err:  # a path raised: reported, the next wrapper still runs
        return WrapperOutcome(name, "MISMATCH", f"ERROR {type(err).__name__}: {err}")
    return WrapperOutcome(name, "equal" if ok else "MISMATCH", line)


def exit_code(outcomes: list[WrapperOutcome]) -> int:
    """1 when any differs; else 3 when any was not compared; else 0."""
    verdicts = {o.verdict for o in outcomes}
    if "MISMATCH" in verdicts:
        return EXIT_MISMATCH
    return EXIT_UNCHECKED if "not compared" in verdicts or not outcomes else EXIT_OK


def main(paths: list[str]) -> tuple[int, dict]:
    """Check each wrapper, printing one line for each: the exit code and the report."""
    outcomes = []
    for name in paths:
        result = outcome(name)
        outcomes.append(result)
        line = result.detail if result.verdict != "not compared" else (
            f"not compared: {result.detail}")
        print(f"planned call {name}: {line}", flush=True)
    code = exit_code(outcomes)
    return code, {"mode": "planned-call", "exit_code": code,
                  "wrappers": [o.as_json() for o in outcomes]}
