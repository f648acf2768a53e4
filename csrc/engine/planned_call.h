// SPDX-License-Identifier: Apache-2.0
// PlannedCall: an Inductor wrapper's `call(args)` run as a program
// (planned_call.cpp). csrc/bind/bind_planned_call.cpp reads a PlannedCallSpec
// (fastlaunch/engine/planned_call/spec.py) into PlannedCallArgs and exposes
// the switches and counters below.
#pragma once

#include <Python.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace fastlaunch {

// Borrowed references; MakePlannedCall takes its own. NULL where the spec says None.
struct PlannedCallArgs {
  PyObject* ops;            // list of op tuples (fastlaunch.engine.planned_call.program)
  PyObject* consts;         // tuple
  PyObject* names;          // tuple of str: globals read per call
  PyObject* local_names;    // tuple of str, one per slot ("" for temporaries)
  PyObject* globals;        // dict: the wrapper module's
  PyObject* builtins;       // dict
  int self_slot;            // the slot of `self` in a `Runner.call`, or -1
  PyObject* bound_self;     // that `self` (read only when self_slot >= 0)
  int args_slot;
  PyObject* fallback;       // (reason, *args, **kwargs) -> the original call's result
  PyObject* switch_obj;     // has `.on`
  PyObject* profiler;       // has the attribute profiler_flag names
  PyObject* profiler_flag;  // str: read per call (engine/probes.py's PROFILER_FLAG)
  PyObject* dispatch_len;   // () -> int, or NULL
  PyObject* static_reason;  // str, or NULL
  PyObject* original;       // the original `call`
  PyObject* slot_keyword;   // str: the call site's keyword for its slot (engine/callsite.py)
};

// New reference to a PlannedCall; InputError naming the field (and the op)
// for an inconsistent program, PythonError when CPython fails.
PyObject* MakePlannedCall(const PlannedCallArgs& args);
// Readies the PlannedCall type and adds it to `module`; false with an error set.
bool InitPlannedCallType(PyObject* module);
bool IsPlannedCall(PyObject* obj);

// The torch-built readers the executor calls through (NULL: none, the Python
// callables run): the geometry reader of tensor_geometry.cpp, the ATen shim
// of aten_ops.cpp. The binding checks their capsules.
void SetTensorGeometryReader(void* fn);
bool HasTensorGeometryReader();
void SetAtenOps(void* fn);
bool HasAtenOps();

// Counters since the last ResetPlannedCallCounters (read under the GIL).
struct NativeOpCount {
  int kind;
  uint64_t ran;       // run by the ATen shim
  uint64_t declined;  // handed to the Python callable
};
std::vector<NativeOpCount> PlannedCallNativeOps();  // kinds that ran or declined
uint64_t PlannedCallRuns();           // calls run as programs
uint64_t PlannedCallNativeAsserts();  // size/stride asserts matched natively
uint64_t PlannedCallBypassed();       // calls `bypass` sent to the original
void ResetPlannedCallCounters();

// Per-op timing (benchmarks/bench_planned_call.py): while on, every op of
// every run is timed; TakePlannedCallProfile returns (ns, runs) per op of
// `planned` (a PlannedCall) and clears them.
void SetPlannedCallProfiling(bool on);
std::vector<std::pair<uint64_t, uint64_t>> TakePlannedCallProfile(PyObject* planned);

}  // namespace fastlaunch
