// SPDX-License-Identifier: Apache-2.0
// FastSite: the steady state of one call site, in C.
//
// Once a call site has a plan, the generated wrapper's call slot holds a
// FastSite instead of the Python router. A call that looks exactly like the
// steady state (only `stream=` as keyword, profiler off, no dispatch mode,
// the planned launcher still selected, no launch hooks, the planned arg
// count, a stream, a grid the ABI accepts) is packed and launched here.
// Anything else goes, untouched, to the Python router (`fallback`), before
// anything was packed. The launch itself is the native Launcher's
// (launcher.h): FastSite names no backend. From the grid on, every error
// goes to `on_error` (exactly once, with the site description): the engine
// takes the original path for errors found before the runtime call
// (InputError: grid, values, device) and never replays one that reached it.
// Only `Exception`s are ever cleared here; anything else
// (KeyboardInterrupt, SystemExit) propagates with nothing launched.
#include "engine/fast_site.h"

#include <atomic>
#include <cstring>
#include <new>
#include <vector>

#include "core/plan.h"

namespace fastlaunch {
namespace {

std::atomic<uint64_t> g_fast_hits{0};

struct FastSiteObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* fallback;      // the Python router (BoundLaunch)
  PyObject* on_error;      // (site, exc, args, stream) -> result, or raises
  PyObject* site;          // the site description (engine.routing.FastSiteSpec)
  std::shared_ptr<const Launcher> native;  // constructed in place; reset by tp_clear
  std::shared_ptr<HitCounter> hits;        // likewise; may be null
  PyObject* autotuner;
  PyObject* launcher;      // the planned launcher object (identity check)
  PyObject* profiler;      // has the attribute profiler_flag names
  PyObject* profiler_flag;  // str (engine.probes.PROFILER_FLAG)
  PyObject* maybe_full;    // callable or NULL
  PyObject* hooks;         // tuple of sized containers
  PyObject* grid;          // callable or NULL (static grid)
  PyObject* fixed;         // tuple of fixed trailing inputs for the grid
  Py_ssize_t input_count;
  int64_t static_grid[3];
  bool has_static_grid;
  bool best_launcher_mode;  // autotuner.best_launcher vs autotuner.launchers[0]
  int64_t* grid_program;    // owned (new[]); NULL: call the Python grid resolver
  size_t grid_program_len;
};

PyObject* kStreamName = nullptr;
PyObject* kBestLauncher = nullptr;
PyObject* kLaunchers = nullptr;

PyObject* Fallback(FastSiteObject* self, PyObject* const* args, size_t nargsf,
                   PyObject* kwnames) {
  return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

// After a failed probe: true when the error was an Exception (cleared, the
// router decides); false when it is anything else (KeyboardInterrupt, ...),
// which stays set and propagates with nothing launched.
bool Cleared() {
  if (!PyErr_ExceptionMatches(PyExc_Exception)) return false;
  PyErr_Clear();
  return true;
}

// 1: true, 0: false, -1: an Exception was cleared (treat as "unusual"),
// -2: a non-Exception is set (propagate).
int Truthy(PyObject* obj) {
  if (obj == nullptr) return Cleared() ? -1 : -2;
  int r = PyObject_IsTrue(obj);
  Py_DECREF(obj);
  if (r < 0) return Cleared() ? -1 : -2;
  return r;
}

// 1: the planned launcher is selected, 0: not (or unknowable), -2: propagate.
int SelectedIsPlanned(FastSiteObject* self) {
  PyObject* attr = PyObject_GetAttr(self->autotuner,
                                    self->best_launcher_mode ? kBestLauncher : kLaunchers);
  if (attr == nullptr) return Cleared() ? 0 : -2;
  bool same = self->best_launcher_mode
                  ? attr == self->launcher
                  : PyList_Check(attr) && PyList_GET_SIZE(attr) == 1 &&
                        PyList_GET_ITEM(attr, 0) == self->launcher;
  Py_DECREF(attr);
  return same ? 1 : 0;
}

// 1: a hook is active (or unknowable), 0: none, -2: propagate.
int HooksActive(FastSiteObject* self) {
  const Py_ssize_t n = PyTuple_GET_SIZE(self->hooks);
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_ssize_t size = PyObject_Size(PyTuple_GET_ITEM(self->hooks, i));
    if (size < 0) return Cleared() ? 1 : -2;
    if (size != 0) return 1;
  }
  return 0;
}

// The grid of this call into out[3], from the static grid, the grid program
// or the Python resolver (called once). Throws GridError (nothing packed) for
// a resolver that raised an Exception (reason grid_resolver_error, the
// exception kept as __cause__ by FastSiteCall) or returned no 3 ints;
// PythonError for anything else it raised.
void ResolveGrid(FastSiteObject* self, PyObject* const* args, Py_ssize_t nargs,
                 int64_t out[3]) {
  if (self->has_static_grid) {
    std::memcpy(out, self->static_grid, sizeof(self->static_grid));
    return;
  }
  if (self->grid_program != nullptr &&
      EvalGridProgram(self->grid_program, self->grid_program_len, args, nargs, self->fixed,
                      out)) {
    return;
  }
  PyObject* result;
  const Py_ssize_t n_fixed = PyTuple_GET_SIZE(self->fixed);
  if (n_fixed == 0) {
    result = PyObject_Vectorcall(self->grid, args, nargs, nullptr);
  } else {
    std::vector<PyObject*> stack(args, args + nargs);
    for (Py_ssize_t i = 0; i < n_fixed; ++i) stack.push_back(PyTuple_GET_ITEM(self->fixed, i));
    result = PyObject_Vectorcall(self->grid, stack.data(), nargs + n_fixed, nullptr);
  }
  if (result == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) throw PythonError();
    throw GridError("grid: the grid resolver raised", "grid_resolver_error");
  }
  try {
    ReadGrid(result, out);
  } catch (...) {
    Py_DECREF(result);
    throw;
  }
  Py_DECREF(result);
}

PyObject* CallOnError(FastSiteObject* self, PyObject* tuple, PyObject* stream) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr) PyException_SetTraceback(value, traceback);
  PyObject* result =
      PyObject_CallFunctionObjArgs(self->on_error, self->site, value, tuple, stream, nullptr);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return result;
}

// Sets the Python error for `err`; with a pending `cause` (the resolver's own
// exception) that becomes its __cause__.
void SetErrorWithCause(const std::exception& err, PyObject* cause) {
  SetPythonError(err);
  if (cause == nullptr) return;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (value != nullptr) {
    Py_INCREF(cause);
    PyException_SetCause(value, cause);  // steals the new reference
    Py_INCREF(cause);
    PyException_SetContext(value, cause);
  }
  PyErr_Restore(type, value, traceback);
}

PyObject* FastSiteCall(PyObject* callable, PyObject* const* args, size_t nargsf,
                       PyObject* kwnames) {
  auto* self = reinterpret_cast<FastSiteObject*>(callable);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  // Shape of the call: positional args and exactly `stream=`.
  if (kwnames == nullptr || PyTuple_GET_SIZE(kwnames) != 1 ||
      PyUnicode_Compare(PyTuple_GET_ITEM(kwnames, 0), kStreamName) != 0 ||
      nargs != self->input_count) {
    if (PyErr_Occurred() && !Cleared()) return nullptr;
    return Fallback(self, args, nargsf, kwnames);
  }
  PyObject* stream = args[nargs];
  if (stream == Py_None) return Fallback(self, args, nargsf, kwnames);
  const int profiling = Truthy(PyObject_GetAttr(self->profiler, self->profiler_flag));
  if (profiling == -2) return nullptr;
  if (profiling != 0) return Fallback(self, args, nargsf, kwnames);
  if (self->maybe_full != nullptr) {
    const int maybe = Truthy(PyObject_CallNoArgs(self->maybe_full));
    if (maybe == -2) return nullptr;
    if (maybe != 0) return Fallback(self, args, nargsf, kwnames);
  }
  const int selected = SelectedIsPlanned(self);
  if (selected == -2) return nullptr;
  const int hooks = selected == 1 ? HooksActive(self) : 1;
  if (hooks == -2) return nullptr;
  if (hooks != 0) return Fallback(self, args, nargsf, kwnames);
  uint64_t stream_value = PyLong_AsUnsignedLongLong(stream);
  if (stream_value == static_cast<uint64_t>(-1) && PyErr_Occurred()) {
    if (!Cleared()) return nullptr;
    return Fallback(self, args, nargsf, kwnames);
  }
  PyObject* tuple = PyTuple_New(nargs);
  if (tuple == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(tuple, i, args[i]);
  }
  // From here every problem found before the runtime call (grid, values,
  // device) is an InputError: on_error gets it with nothing launched and
  // takes the original path; a non-Exception propagates as it is.
  PyObject* result = nullptr;
  PyObject* cause = nullptr;
  try {
    int64_t grid[3];
    try {
      ResolveGrid(self, args, nargs, grid);
    } catch (const GridError& err) {
      if (PyErr_Occurred()) {  // the resolver's own exception
        PyObject *type, *traceback;
        PyErr_Fetch(&type, &cause, &traceback);
        PyErr_NormalizeException(&type, &cause, &traceback);
        if (traceback != nullptr && cause != nullptr) {
          PyException_SetTraceback(cause, traceback);
        }
        Py_XDECREF(type);
        Py_XDECREF(traceback);
      }
      throw;
    }
    self->native->Launch(stream_value, grid, tuple);
    g_fast_hits.fetch_add(1, std::memory_order_relaxed);
    if (self->hits) self->hits->value.fetch_add(1, std::memory_order_relaxed);
    Py_INCREF(Py_None);
    result = Py_None;
  } catch (const PythonError& err) {
    err.Restore();
  } catch (const std::exception& err) {
    SetErrorWithCause(err, cause);
    if (PyErr_ExceptionMatches(PyExc_Exception)) result = CallOnError(self, tuple, stream);
  }
  Py_XDECREF(cause);
  Py_DECREF(tuple);
  return result;
}

int FastSiteTraverse(PyObject* obj, visitproc visit, void* arg) {
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  Py_VISIT(self->fallback);
  Py_VISIT(self->on_error);
  Py_VISIT(self->site);
  Py_VISIT(self->autotuner);
  Py_VISIT(self->launcher);
  Py_VISIT(self->profiler);
  Py_VISIT(self->maybe_full);
  Py_VISIT(self->hooks);
  Py_VISIT(self->grid);
  Py_VISIT(self->fixed);
  return 0;
}

int FastSiteClear(PyObject* obj) {
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->on_error);
  Py_CLEAR(self->site);
  Py_CLEAR(self->autotuner);
  Py_CLEAR(self->launcher);
  Py_CLEAR(self->profiler);
  Py_CLEAR(self->profiler_flag);
  Py_CLEAR(self->maybe_full);
  Py_CLEAR(self->hooks);
  Py_CLEAR(self->grid);
  Py_CLEAR(self->fixed);
  self->native.reset();
  self->hits.reset();
  return 0;
}

void FastSiteDealloc(PyObject* obj) {
  PyObject_GC_UnTrack(obj);
  FastSiteClear(obj);
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  delete[] self->grid_program;
  self->grid_program = nullptr;
  self->native.~shared_ptr();
  self->hits.~shared_ptr();
  Py_TYPE(obj)->tp_free(obj);
}

PyObject* FastSiteTpCall(PyObject* callable, PyObject* args, PyObject* kwargs) {
  return PyVectorcall_Call(callable, args, kwargs);
}

PyObject* FastSiteGetFallback(PyObject* obj, void*) {
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  Py_INCREF(self->fallback);
  return self->fallback;
}

PyGetSetDef kGetSet[] = {
    {"fallback", FastSiteGetFallback, nullptr, "the Python router", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject FastSiteType{};  // filled in by InitFastSiteType

}  // namespace

PyObject* MakeFastSite(const FastSiteArgs& a) {
  if (kStreamName == nullptr) {
    kStreamName = PyUnicode_InternFromString("stream");
    kBestLauncher = PyUnicode_InternFromString("best_launcher");
    kLaunchers = PyUnicode_InternFromString("launchers");
  }
  if (!a.native) throw InputError("native: got None, expected a native launcher");
  if (!PyTuple_Check(a.hooks) || !PyTuple_Check(a.fixed)) {
    throw InputError("hooks/fixed: expected tuples");
  }
  const size_t planned_inputs = a.native->plan()->input_count();
  if (a.input_count < 0 || static_cast<size_t>(a.input_count) != planned_inputs) {
    throw InputError("site.input_count: got " + std::to_string(a.input_count) +
                     ", expected the launcher's plan's " + std::to_string(planned_inputs));
  }
  auto* self = PyObject_GC_New(FastSiteObject, &FastSiteType);
  if (self == nullptr) throw std::bad_alloc();
  self->vectorcall = FastSiteCall;
  new (&self->native) std::shared_ptr<const Launcher>(a.native);
  new (&self->hits) std::shared_ptr<HitCounter>(a.hits);
  PyObject* fields[] = {a.fallback, a.on_error, a.site, a.autotuner, a.launcher,
                        a.profiler, a.profiler_flag, a.maybe_full, a.hooks, a.grid, a.fixed};
  for (PyObject* f : fields) Py_XINCREF(f);
  self->fallback = a.fallback;
  self->on_error = a.on_error;
  self->site = a.site;
  self->autotuner = a.autotuner;
  self->launcher = a.launcher;
  self->profiler = a.profiler;
  self->profiler_flag = a.profiler_flag;
  self->maybe_full = a.maybe_full;
  self->hooks = a.hooks;
  self->grid = a.grid;
  self->fixed = a.fixed;
  self->input_count = a.input_count;
  self->has_static_grid = a.static_grid.has_value();
  if (a.static_grid) std::memcpy(self->static_grid, a.static_grid->data(), 24);
  self->best_launcher_mode = a.best_launcher_mode;
  self->grid_program = nullptr;
  self->grid_program_len = a.grid_program.size();
  if (!a.grid_program.empty()) {
    self->grid_program = new int64_t[a.grid_program.size()];
    std::memcpy(self->grid_program, a.grid_program.data(), a.grid_program.size() * 8);
  }
  PyObject_GC_Track(reinterpret_cast<PyObject*>(self));
  return reinterpret_cast<PyObject*>(self);
}

bool EvalGridProgram(const int64_t* program, size_t length, PyObject* const* args,
                     Py_ssize_t nargs, PyObject* fixed, int64_t out[3]) {
  enum { kConst, kArg, kNeg, kAdd, kSub, kMul, kFloorDiv, kMax, kMin };
  const Py_ssize_t n_fixed = fixed != nullptr ? PyTuple_GET_SIZE(fixed) : 0;
  size_t pc = 0;
  for (int dim = 0; dim < 3; ++dim) {
    if (pc >= length) return false;
    const int64_t n_ops = program[pc++];
    int64_t stack[32];
    int depth = 0;
    for (int64_t k = 0; k < n_ops; ++k) {
      if (pc + 2 > length) return false;
      const int64_t op = program[pc];
      const int64_t operand = program[pc + 1];
      pc += 2;
      if (op == kConst || op == kArg) {
        if (depth == 32) return false;
        if (op == kConst) {
          stack[depth++] = operand;
          continue;
        }
        if (operand < 0 || operand >= nargs + n_fixed) return false;
        PyObject* value = operand < nargs ? args[operand]
                                          : PyTuple_GET_ITEM(fixed, operand - nargs);
        if (!PyLong_CheckExact(value)) return false;
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
          PyErr_Clear();
          return false;
        }
        stack[depth++] = v;
        continue;
      }
      if (op == kNeg) {
        if (depth < 1 || stack[depth - 1] == INT64_MIN) return false;
        stack[depth - 1] = -stack[depth - 1];
        continue;
      }
      if (depth < 2) return false;
      const int64_t a = stack[depth - 2];
      const int64_t b = stack[depth - 1];
      int64_t r = 0;
      switch (op) {
        case kAdd:
          if (__builtin_add_overflow(a, b, &r)) return false;
          break;
        case kSub:
          if (__builtin_sub_overflow(a, b, &r)) return false;
          break;
        case kMul:
          if (__builtin_mul_overflow(a, b, &r)) return false;
          break;
        case kFloorDiv:
          if (b == 0 || (a == INT64_MIN && b == -1)) return false;
          r = a / b;
          if ((a % b != 0) && ((a < 0) != (b < 0))) --r;  // Python floors
          break;
        case kMax:
          r = a > b ? a : b;
          break;
        case kMin:
          r = a < b ? a : b;
          break;
        default:
          return false;
      }
      --depth;
      stack[depth - 1] = r;
    }
    if (depth != 1) return false;
    out[dim] = stack[0];
  }
  return pc == length;
}

uint64_t FastHits() { return g_fast_hits.load(); }
void ResetFastHits() { g_fast_hits.store(0); }

bool InitFastSiteType(PyObject* module) {
  Py_SET_REFCNT(reinterpret_cast<PyObject*>(&FastSiteType), 1);  // as PyObject_HEAD_INIT
  FastSiteType.tp_name = "fastlaunch.runtime._core.FastSite";
  FastSiteType.tp_basicsize = sizeof(FastSiteObject);
  FastSiteType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  FastSiteType.tp_doc = "The steady state of one planned call site (see fast_site.cpp).";
  FastSiteType.tp_vectorcall_offset = offsetof(FastSiteObject, vectorcall);
  FastSiteType.tp_call = FastSiteTpCall;
  FastSiteType.tp_traverse = FastSiteTraverse;
  FastSiteType.tp_clear = FastSiteClear;
  FastSiteType.tp_dealloc = FastSiteDealloc;
  FastSiteType.tp_getset = kGetSet;
  if (PyType_Ready(&FastSiteType) < 0) return false;
  Py_INCREF(&FastSiteType);
  return PyModule_AddObject(module, "FastSite", reinterpret_cast<PyObject*>(&FastSiteType)) == 0;
}

}  // namespace fastlaunch
