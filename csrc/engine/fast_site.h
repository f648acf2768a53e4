// SPDX-License-Identifier: Apache-2.0
// FastSite: a planned call site's steady state as a vectorcall object.
#pragma once

#include <Python.h>

#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include "core/hit_counter.h"
#include "core/launcher.h"

namespace fastlaunch {

// Borrowed references; MakeFastSite takes its own.
struct FastSiteArgs {
  PyObject* fallback;    // the Python router, called for anything unusual
  PyObject* on_error;    // (site, exc, args, stream) -> result, or raises
  PyObject* site;        // the site description, passed back to on_error
  std::shared_ptr<const Launcher> native;
  std::shared_ptr<HitCounter> hits;  // the site's count of native launches; may be null
  PyObject* autotuner;
  PyObject* launcher;    // the planned Python launcher (identity check)
  PyObject* profiler;
  PyObject* profiler_flag;  // str: the attribute of profiler read per call
  PyObject* maybe_full;  // may be NULL
  PyObject* hooks;
  PyObject* grid;        // may be NULL with a static grid
  PyObject* fixed;
  Py_ssize_t input_count;
  std::optional<std::array<int64_t, 3>> static_grid;
  bool best_launcher_mode;
  std::vector<int64_t> grid_program;  // fastlaunch.engine.gridexpr encoding; may be empty
};

// Evaluates a grid program (fastlaunch/gridexpr.py) over `inputs(i)`; false
// when it cannot decide (a non-int input, overflow, division by zero).
bool EvalGridProgram(const int64_t* program, size_t length, PyObject* const* args,
                     Py_ssize_t nargs, PyObject* fixed, int64_t out[3]);

// New reference to a FastSite; throws InputError on inconsistent arguments.
PyObject* MakeFastSite(const FastSiteArgs& args);
bool InitFastSiteType(PyObject* module);
uint64_t FastHits();
void ResetFastHits();

// Sets the Python error matching a native exception (module.cpp).
void SetPythonError(const std::exception& err);

}  // namespace fastlaunch
