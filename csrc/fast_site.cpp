// SPDX-License-Identifier: Apache-2.0
// FastSite: the steady state of one call site, in C.
//
// Once a call site has a plan, the generated wrapper's call slot holds a
// FastSite instead of the Python router. A call that looks exactly like the
// steady state (only `stream=` as keyword, profiler off, no dispatch mode,
// the planned launcher still selected, no launch hooks, the planned arg
// count, a stream, a grid the ABI accepts) is packed and launched here.
// Anything else goes, untouched, to the Python router (`fallback`), before
// anything was packed. Errors after packing started go to `on_error`, which
// never replays the launch.
#include "fast_site.h"

#include <atomic>
#include <cstring>

#include "cuda_launch.h"
#include "npu_launch.h"
#include "plan.h"

namespace fastlaunch {
namespace {

std::atomic<uint64_t> g_fast_hits{0};

struct FastSiteObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* fallback;      // the Python router (BoundLaunch)
  PyObject* on_error;      // (exc, args, stream) -> result, or raises
  PyObject* autotuner;
  PyObject* launcher;      // the planned launcher object (identity check)
  PyObject* profiler;      // module with _is_profiler_enabled
  PyObject* maybe_full;    // callable or NULL
  PyObject* hooks;         // tuple of sized containers
  PyObject* grid;          // callable or NULL (static grid)
  PyObject* fixed;         // tuple of fixed trailing inputs for the grid
  PyObject* native;        // the pybind launcher object (keeps it alive)
  const CudaLauncher* cuda;
  const NpuLauncher* npu;
  Py_ssize_t input_count;
  int64_t static_grid[3];
  bool has_static_grid;
  bool best_launcher_mode;  // autotuner.best_launcher vs autotuner.launchers[0]
  int64_t* grid_program;    // owned (new[]); NULL: call the Python grid resolver
  size_t grid_program_len;
};

PyObject* kStreamName = nullptr;
PyObject* kProfilerFlag = nullptr;
PyObject* kBestLauncher = nullptr;
PyObject* kLaunchers = nullptr;

PyObject* Fallback(FastSiteObject* self, PyObject* const* args, size_t nargsf,
                   PyObject* kwnames) {
  return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

// -1: error set; 0: false; 1: true
int Truthy(PyObject* obj) {
  if (obj == nullptr) return -1;
  int r = PyObject_IsTrue(obj);
  Py_DECREF(obj);
  return r;
}

bool SelectedIsPlanned(FastSiteObject* self) {
  if (self->best_launcher_mode) {
    PyObject* best = PyObject_GetAttr(self->autotuner, kBestLauncher);
    if (best == nullptr) {
      PyErr_Clear();
      return false;
    }
    bool same = best == self->launcher;
    Py_DECREF(best);
    return same;
  }
  PyObject* launchers = PyObject_GetAttr(self->autotuner, kLaunchers);
  if (launchers == nullptr) {
    PyErr_Clear();
    return false;
  }
  bool same = PyList_Check(launchers) && PyList_GET_SIZE(launchers) == 1 &&
              PyList_GET_ITEM(launchers, 0) == self->launcher;
  Py_DECREF(launchers);
  return same;
}

bool HooksActive(FastSiteObject* self) {
  const Py_ssize_t n = PyTuple_GET_SIZE(self->hooks);
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_ssize_t size = PyObject_Size(PyTuple_GET_ITEM(self->hooks, i));
    if (size != 0) {
      PyErr_Clear();
      return true;  // active, or unknowable: let the router decide
    }
  }
  return false;
}

// Grid of this call into out[3]; false (no error set) when the router should
// handle it.
bool ResolveGrid(FastSiteObject* self, PyObject* const* args, Py_ssize_t nargs,
                 int64_t out[3]) {
  if (self->has_static_grid) {
    std::memcpy(out, self->static_grid, sizeof(self->static_grid));
    return true;
  }
  if (self->grid_program != nullptr &&
      EvalGridProgram(self->grid_program, self->grid_program_len, args, nargs, self->fixed,
                      out)) {
    return true;
  }
  PyObject* result;
  const Py_ssize_t n_fixed = PyTuple_GET_SIZE(self->fixed);
  if (n_fixed == 0) {
    result = PyObject_Vectorcall(self->grid, args, nargs, nullptr);
  } else {
    PyObject* stack[64];
    if (nargs + n_fixed > 64) return false;
    for (Py_ssize_t i = 0; i < nargs; ++i) stack[i] = args[i];
    for (Py_ssize_t i = 0; i < n_fixed; ++i) {
      stack[nargs + i] = PyTuple_GET_ITEM(self->fixed, i);
    }
    result = PyObject_Vectorcall(self->grid, stack, nargs + n_fixed, nullptr);
  }
  if (result == nullptr) {
    PyErr_Clear();
    return false;
  }
  bool ok = PyTuple_Check(result) && PyTuple_GET_SIZE(result) == 3;
  for (int i = 0; ok && i < 3; ++i) {
    PyObject* item = PyTuple_GET_ITEM(result, i);
    int overflow = 0;
    ok = PyLong_Check(item);
    if (ok) out[i] = PyLong_AsLongLongAndOverflow(item, &overflow);
    ok = ok && overflow == 0 && !PyErr_Occurred();
  }
  Py_DECREF(result);
  PyErr_Clear();
  return ok;
}

PyObject* CallOnError(FastSiteObject* self, PyObject* tuple, PyObject* stream) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr) PyException_SetTraceback(value, traceback);
  PyObject* result = PyObject_CallFunctionObjArgs(self->on_error, value, tuple, stream, nullptr);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return result;
}

PyObject* FastSiteCall(PyObject* callable, PyObject* const* args, size_t nargsf,
                       PyObject* kwnames) {
  auto* self = reinterpret_cast<FastSiteObject*>(callable);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  // Shape of the call: positional args and exactly `stream=`.
  if (kwnames == nullptr || PyTuple_GET_SIZE(kwnames) != 1 ||
      PyUnicode_Compare(PyTuple_GET_ITEM(kwnames, 0), kStreamName) != 0 ||
      nargs != self->input_count) {
    PyErr_Clear();
    return Fallback(self, args, nargsf, kwnames);
  }
  PyObject* stream = args[nargs];
  if (stream == Py_None) return Fallback(self, args, nargsf, kwnames);
  int profiling = Truthy(PyObject_GetAttr(self->profiler, kProfilerFlag));
  if (profiling != 0) {
    PyErr_Clear();
    return Fallback(self, args, nargsf, kwnames);
  }
  if (self->maybe_full != nullptr) {
    int maybe = Truthy(PyObject_CallNoArgs(self->maybe_full));
    if (maybe != 0) {
      PyErr_Clear();
      return Fallback(self, args, nargsf, kwnames);
    }
  }
  if (!SelectedIsPlanned(self) || HooksActive(self)) {
    return Fallback(self, args, nargsf, kwnames);
  }
  uint64_t stream_value = PyLong_AsUnsignedLongLong(stream);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return Fallback(self, args, nargsf, kwnames);
  }
  int64_t grid[3];
  if (!ResolveGrid(self, args, nargs, grid)) return Fallback(self, args, nargsf, kwnames);
  PyObject* tuple = PyTuple_New(nargs);
  if (tuple == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(tuple, i, args[i]);
  }
  PyObject* result = nullptr;
  try {
    if (self->cuda != nullptr) {
      self->cuda->Launch(stream_value, grid[0], grid[1], grid[2], tuple);
    } else {
      self->npu->Launch(stream_value, grid[0], grid[1], grid[2], tuple, 0, 0);
    }
    g_fast_hits.fetch_add(1, std::memory_order_relaxed);
    Py_INCREF(Py_None);
    result = Py_None;
  } catch (const GridError&) {
    // Both launchers check the grid before anything else: nothing was packed,
    // so the router may still take the original path for this call.
    Py_DECREF(tuple);
    return Fallback(self, args, nargsf, kwnames);
  } catch (const std::exception& err) {
    SetPythonError(err);
    result = CallOnError(self, tuple, stream);
  }
  Py_DECREF(tuple);
  return result;
}

int FastSiteTraverse(PyObject* obj, visitproc visit, void* arg) {
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  Py_VISIT(self->fallback);
  Py_VISIT(self->on_error);
  Py_VISIT(self->autotuner);
  Py_VISIT(self->launcher);
  Py_VISIT(self->profiler);
  Py_VISIT(self->maybe_full);
  Py_VISIT(self->hooks);
  Py_VISIT(self->grid);
  Py_VISIT(self->fixed);
  Py_VISIT(self->native);
  return 0;
}

int FastSiteClear(PyObject* obj) {
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->on_error);
  Py_CLEAR(self->autotuner);
  Py_CLEAR(self->launcher);
  Py_CLEAR(self->profiler);
  Py_CLEAR(self->maybe_full);
  Py_CLEAR(self->hooks);
  Py_CLEAR(self->grid);
  Py_CLEAR(self->fixed);
  Py_CLEAR(self->native);
  self->cuda = nullptr;
  self->npu = nullptr;
  return 0;
}

void FastSiteDealloc(PyObject* obj) {
  PyObject_GC_UnTrack(obj);
  FastSiteClear(obj);
  auto* self = reinterpret_cast<FastSiteObject*>(obj);
  delete[] self->grid_program;
  self->grid_program = nullptr;
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

PyTypeObject FastSiteType = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace

PyObject* MakeFastSite(const FastSiteArgs& a) {
  if (kStreamName == nullptr) {
    kStreamName = PyUnicode_InternFromString("stream");
    kProfilerFlag = PyUnicode_InternFromString("_is_profiler_enabled");
    kBestLauncher = PyUnicode_InternFromString("best_launcher");
    kLaunchers = PyUnicode_InternFromString("launchers");
  }
  if ((a.cuda == nullptr) == (a.npu == nullptr)) {
    throw InputError("native: expected one cuda or npu launcher");
  }
  if (!PyTuple_Check(a.hooks) || !PyTuple_Check(a.fixed)) {
    throw InputError("hooks/fixed: expected tuples");
  }
  auto* self = PyObject_GC_New(FastSiteObject, &FastSiteType);
  if (self == nullptr) throw std::bad_alloc();
  self->vectorcall = FastSiteCall;
  PyObject* fields[] = {a.fallback, a.on_error, a.autotuner, a.launcher, a.profiler,
                        a.maybe_full, a.hooks, a.grid, a.fixed, a.native};
  for (PyObject* f : fields) Py_XINCREF(f);
  self->fallback = a.fallback;
  self->on_error = a.on_error;
  self->autotuner = a.autotuner;
  self->launcher = a.launcher;
  self->profiler = a.profiler;
  self->maybe_full = a.maybe_full;
  self->hooks = a.hooks;
  self->grid = a.grid;
  self->fixed = a.fixed;
  self->native = a.native;
  self->cuda = a.cuda;
  self->npu = a.npu;
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
  FastSiteType.tp_name = "fastlaunch._core.FastSite";
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
