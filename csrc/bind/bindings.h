// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the pybind11 bindings; each area binds itself in its own file.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

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

void BindCore(pybind11::module_& m);  // bind_core.cpp: plans, FastSite, accessor, grid programs
void BindCuda(pybind11::module_& m);  // bind_cuda.cpp
void BindNpu(pybind11::module_& m);   // bind_npu.cpp
void BindPlannedCall(pybind11::module_& m);  // bind_planned_call.cpp: a wrapper call() as a program

}  // namespace fastlaunch
