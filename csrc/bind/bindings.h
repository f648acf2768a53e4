// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the pybind11 bindings; each area binds itself in its own file.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

namespace fastlaunch {

// The per-call arguments, read without pybind11's casters: this is the hot
// path. The grid is a tuple or list of 3 ints (numpy ints through __index__);
// grid problems raise GridError, a bad stream or args InputError, all before
// anything is packed; a non-Exception from __index__ propagates (PythonError).
struct CallArgs {
  uint64_t stream;
  int64_t grid[3];
  PyObject* args;
};

CallArgs ReadCall(pybind11::handle stream, pybind11::handle grid, pybind11::handle args);

// The specs the engine's objects are made from (FastSiteSpec, PlannedCallSpec)
// are read field by field, by hand: a bad field is an InputError
// "<prefix><field>: got <value>, expected <what>" with the spec's reason.
struct SpecOf {
  const char* prefix;  // "site.", "planned call: "
  const char* type;    // the spec's class, named when a field is missing
  const char* reason;  // the InputError's reason (NULL: its default)
};

// The InputError for field `name` of an `of` spec holding `value`.
[[noreturn]] void BadSpecField(const SpecOf& of, const std::string& name, pybind11::handle value,
                               const std::string& expected);
// Field `name` of `spec`: an AttributeError is the InputError "missing";
// anything else its read raises propagates (PythonError), never cleared.
pybind11::object ReadSpecField(const SpecOf& of, pybind11::handle spec, const char* name);
// An optional field's value: NULL for None, the value when `check` passes it,
// else BadSpecField.
PyObject* ReadOptionalField(const SpecOf& of, const pybind11::object& value, const char* name,
                            int (*check)(PyObject*), const char* expected);

void BindCore(pybind11::module_& m);  // bind_core.cpp: plans, FastSite, accessor, grid programs
void BindCuda(pybind11::module_& m);  // bind_cuda.cpp
void BindNpu(pybind11::module_& m);   // bind_npu.cpp
void BindPlannedCall(pybind11::module_& m);  // bind_planned_call.cpp: a wrapper call() as a program

}  // namespace fastlaunch
