// SPDX-License-Identifier: Apache-2.0
// Bindings of the planned call: a PlannedCall made from a PlannedCallSpec
// (fastlaunch/engine/planned_call/spec.py), the torch-built readers it calls
// through, and its counters.
#include <pybind11/pybind11.h>

#include <climits>
#include <string>

#include "bind/bindings.h"
#include "core/errors.h"
#include "engine/planned_call.h"

namespace py = pybind11;

namespace fastlaunch {
namespace {

// Spec fields are read by hand, like a FastSiteSpec's (bind/bindings.h): a
// bad one is an InputError naming the field, the value and what was expected.
constexpr SpecOf kSpec{"planned call: ", "PlannedCallSpec", nullptr};

py::object SpecField(py::handle spec, const char* name) {
  return ReadSpecField(kSpec, spec, name);
}

PyObject* Typed(const py::object& value, const char* field, int (*check)(PyObject*),
                const char* expected) {
  if (!check(value.ptr())) BadSpecField(kSpec, field, value, expected);
  return value.ptr();
}

int SlotField(const py::object& value, const char* field) {
  if (!PyLong_Check(value.ptr())) BadSpecField(kSpec, field, value, "an int");
  int overflow = 0;
  long long slot = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (slot == -1 && PyErr_Occurred()) throw PythonError();
  if (overflow != 0 || slot < INT_MIN || slot > INT_MAX) {
    BadSpecField(kSpec, field, value, "an int in [-2**31, 2**31)");
  }
  return static_cast<int>(slot);
}

// The pointer of `capsule`, a capsule named `name` (PyCapsule_IsValid: a
// capsule of another name, or of none, is refused like any other value).
void* CapsulePointer(py::handle capsule, const char* name, const char* or_else = "") {
  if (!PyCapsule_IsValid(capsule.ptr(), name)) {
    throw InputError("capsule: got " + DescribeValue(capsule.ptr()) + ", expected the " + name +
                     " capsule" + or_else);
  }
  void* pointer = PyCapsule_GetPointer(capsule.ptr(), name);
  if (pointer == nullptr) throw PythonError();
  return pointer;
}

int IsUnicode(PyObject* o) { return PyUnicode_Check(o); }
int IsTuple(PyObject* o) { return PyTuple_Check(o); }
int IsDict(PyObject* o) { return PyDict_Check(o); }

py::object MakePlannedCallFrom(py::handle spec) {
  // Held for the call: MakePlannedCall takes its own references.
  const py::object ops = SpecField(spec, "ops");
  const py::object consts = SpecField(spec, "consts");
  const py::object names = SpecField(spec, "names");
  const py::object local_names = SpecField(spec, "local_names");
  const py::object globals = SpecField(spec, "globals");
  const py::object builtins = SpecField(spec, "builtins");
  const py::object bound_self = SpecField(spec, "bound_self");
  const py::object fallback = SpecField(spec, "fallback");
  const py::object switch_obj = SpecField(spec, "switch");
  const py::object profiler = SpecField(spec, "profiler");
  const py::object dispatch_len = SpecField(spec, "dispatch_len");
  const py::object static_reason = SpecField(spec, "static_reason");
  const py::object original = SpecField(spec, "original");
  const py::object slot_keyword = SpecField(spec, "slot_keyword");
  const py::object profiler_flag = SpecField(spec, "profiler_flag");
  PlannedCallArgs a{};
  a.ops = ops.ptr();
  a.consts = Typed(consts, "consts", IsTuple, "a tuple");
  a.names = Typed(names, "names", IsTuple, "a tuple of str");
  a.local_names = Typed(local_names, "local_names", IsTuple, "a tuple of str");
  a.globals = Typed(globals, "globals", IsDict, "a dict");
  a.builtins = Typed(builtins, "builtins", IsDict, "a dict");
  a.self_slot = SlotField(SpecField(spec, "self_slot"), "self_slot");
  a.bound_self = bound_self.ptr();
  a.args_slot = SlotField(SpecField(spec, "args_slot"), "args_slot");
  a.fallback = fallback.ptr();
  a.switch_obj = switch_obj.ptr();
  a.profiler = profiler.ptr();
  a.dispatch_len = ReadOptionalField(kSpec, dispatch_len, "dispatch_len", PyCallable_Check,
                                     "None or a callable");
  a.static_reason = ReadOptionalField(kSpec, static_reason, "static_reason", IsUnicode,
                                      "None or a str");
  a.original = original.ptr();
  a.slot_keyword = Typed(slot_keyword, "slot_keyword", IsUnicode, "a str");
  a.profiler_flag = Typed(profiler_flag, "profiler_flag", IsUnicode, "a str");
  return py::reinterpret_steal<py::object>(MakePlannedCall(a));
}

}  // namespace

void BindPlannedCall(py::module_& m) {
  if (!InitPlannedCallType(m.ptr())) throw py::error_already_set();
  m.def("make_planned_call", &MakePlannedCallFrom, py::arg("spec"),
        "A PlannedCall running the program of `spec` "
        "(fastlaunch.engine.planned_call.spec.PlannedCallSpec).");
  m.def(
      "set_tensor_geometry",
      [](py::handle capsule) {
        SetTensorGeometryReader(CapsulePointer(capsule, "fastlaunch.tensor_geometry.v1"));
      },
      "Use the torch-built geometry reader for native size/stride asserts.");
  m.def("has_tensor_geometry", &HasTensorGeometryReader);
  m.def(
      "set_aten_ops",
      [](py::handle capsule) {
        if (capsule.is_none()) {  // back to the Python callables (benchmarks, tests)
          SetAtenOps(nullptr);
          return;
        }
        SetAtenOps(CapsulePointer(capsule, "fastlaunch.aten_ops.v1", " or None"));
      },
      "Run the planner's native ops (extern kernels, aten ops) through the ATen shim; "
      "None: through their Python callables.");
  m.def("has_aten_ops", &HasAtenOps);
  m.def("planned_call_native_ops", []() {
        py::dict d;
        for (const NativeOpCount& c : PlannedCallNativeOps()) {
          d[py::int_(c.kind)] = py::make_tuple(c.ran, c.declined);
        }
        return d;
      },
      "{native kind: (ran natively, declined to Python)} since the last reset");
  m.def("planned_call_bypassed", &PlannedCallBypassed,
        "calls a PlannedCall's `bypass` sent to the original call since the last reset");
  m.def("set_planned_call_profiling", &SetPlannedCallProfiling,
        "time every op of every planned call (benchmarks/bench_planned_call.py)");
  m.def("planned_call_profile", [](py::handle obj) {
        if (!IsPlannedCall(obj.ptr())) {
          throw InputError("planned_call_profile: expected a PlannedCall, got " +
                           std::string(Py_TYPE(obj.ptr())->tp_name));
        }
        py::list out;
        for (const auto& [ns, runs] : TakePlannedCallProfile(obj.ptr())) {
          out.append(py::make_tuple(ns, runs));
        }
        return out;
      },
      "[(ns, runs) per op] since the last read (the counts are cleared)");
  m.def("planned_call_runs", &PlannedCallRuns,
        "calls run as planned programs since the last reset");
  m.def("planned_call_native_asserts", &PlannedCallNativeAsserts,
        "size/stride asserts the planned call checked natively since the last reset");
  m.def("reset_planned_call_runs", &ResetPlannedCallCounters);
}

}  // namespace fastlaunch
