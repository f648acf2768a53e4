// SPDX-License-Identifier: Apache-2.0
// PlannedCall: an Inductor wrapper's `call(args)`, translated once into a
// program over numbered value slots (fastlaunch/engine/planned_call), run
// here on every call.
//
// Each op calls exactly what the Python `call()` calls, with the same
// arguments, in the same order, through vectorcall on callables that are
// constants of the program (module attributes resolved when the program was
// made) or read from the module's globals per call (bare names, as
// LOAD_GLOBAL does). References are taken and dropped where the Python frame
// takes and drops them (assignment, `del`, end of a statement's temporaries,
// the return), so the caching allocator sees the same sequence. Statements
// the translator does not know run as Python islands: a compiled code object
// executed with the live values moved into a fresh namespace and back.
//
// Calls the planner tagged (extern GEMMs, convolution, attention) go first to
// the torch-built ATen shim (csrc/shims/aten_ops.cpp) through one function
// pointer: it runs them through ATen's C++ API, views folded into them
// included, or declines, and then the Python callable runs as above.
//
// Like the Python function it stands for, a PlannedCall keeps every attribute
// others hang on it (on that function: PlannedCallGetAttr), and each run takes
// one level of the interpreter's recursion count.
//
// Whole-call fallback (before any op runs): the module's original `call`
// through `fallback(reason, args)` when a reason fixed at build is set, the
// run-time switch is off, the autograd profiler is on, or a dispatch mode is
// active. Errors of an op propagate unchanged (entered context managers get
// their `__exit__` first); nothing is ever replayed.
#include "engine/planned_call.h"

#if defined(__linux__)
#include <pthread.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/program_format.h"

namespace fastlaunch {
namespace {

using namespace program_format;  // the opcodes, operators, sub bits and operand table

// The comparison operators are CPython's rich comparisons, offset.
static_assert(kLt - kCompare == Py_LT && kLe - kCompare == Py_LE && kEq - kCompare == Py_EQ &&
                  kNe - kCompare == Py_NE && kGt - kCompare == Py_GT && kGe - kCompare == Py_GE,
              "BinaryOp's comparisons follow Py_LT..Py_GE");

struct Op {
  int code = 0;
  int dst = -1;
  int a = 0;
  int b = 0;
  int sub = 0;
  std::vector<int> operands;
  // Owned once a PlannedCall holds the program (MakePlannedCall takes the
  // references); borrowed from the ops list while ReadOps checks it, so a
  // refused program takes none.
  PyObject* extra = nullptr;   // kwnames, unpacker, island code
  PyObject* extra2 = nullptr;  // method/attribute name, island names
};

std::atomic<uint64_t> g_planned_runs{0};

// The torch-built geometry reader (csrc/shims/tensor_geometry.cpp), or NULL.
using GeometryFn = int (*)(PyObject*, int64_t*, const int64_t**, const int64_t**);
std::atomic<GeometryFn> g_geometry{nullptr};
uint64_t g_native_asserts = 0;  // asserts that matched natively (under the GIL)

// The torch-built ATen shim (csrc/shims/aten_ops.cpp), or NULL. It runs native op
// `kind` on the vectorcall arguments: a new reference, NULL with an error set,
// or NULL with none set when it declines (then the Python callable runs).
using NativeOpFn = PyObject* (*)(int kind, PyObject* const* args, size_t npos, PyObject* kwnames);
std::atomic<NativeOpFn> g_native_op{nullptr};
uint64_t g_native_ran[kNativeKinds] = {};       // under the GIL
uint64_t g_native_declined[kNativeKinds] = {};  // under the GIL
std::atomic<bool> g_profiling{false};
// Runs nested in one thread at most: about 1.5 KB of C stack each (measured),
// 4.5 MB of the usual 8 MB thread stack.
constexpr int kMaxNestedRuns = 3000;
// What a run must find left of its thread's C stack: the frames a program and
// the calls it makes take (several times more under AddressSanitizer, whose
// frames carry redzones: 3000 nested runs overflow 8 MB there).
#if defined(__SANITIZE_ADDRESS__)
constexpr uintptr_t kStackReserve = 2u << 20;
#else
constexpr uintptr_t kStackReserve = 512u << 10;
#endif

// The lowest address a run may start at on this thread's stack (0: not known,
// then only kMaxNestedRuns guards): a thread started with a small stack, or a
// sanitizer's larger frames, stop nested runs before the stack ends.
uintptr_t StackFloor() {
#if defined(__linux__)
  thread_local uintptr_t floor = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t{0};
    void* low = nullptr;
    size_t size = 0;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || size <= 2 * kStackReserve) return uintptr_t{0};
    return reinterpret_cast<uintptr_t>(low) + kStackReserve;
  }();
  return floor;
#else
  return 0;
#endif
}
uint64_t g_bypassed = 0;  // calls sent to `original` by `bypass` (under the GIL)
PyObject* kEnterName = nullptr;
PyObject* kExitName = nullptr;
PyObject* kOnName = nullptr;
PyObject* kDocName = nullptr;
PyObject* kModuleName = nullptr;

struct PlannedCallObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  std::vector<Op>* ops;
  PyObject* consts;         // tuple
  PyObject* names;          // tuple of str: globals read per call
  PyObject* local_names;    // tuple of str per slot ("" for temporaries)
  PyObject* globals;        // the wrapper module's dict
  PyObject* builtins;       // dict
  PyObject* bound_self;     // `self` of a `Runner.call`, or NULL
  PyObject* fallback;       // (reason, *args, **kwargs) -> the original call's result
  PyObject* switch_obj;     // has `.on`
  PyObject* profiler;       // has the attribute profiler_flag names
  PyObject* profiler_flag;  // str (engine.probes.PROFILER_FLAG)
  PyObject* dispatch_len;   // () -> int, or NULL
  PyObject* static_reason;  // str, or NULL
  PyObject* original;       // the original `call`
  PyObject* slot_kwnames;   // (the call site's slot keyword,): kwnames of its bind call
  PyObject* function;       // the function behind it (its `__func__` when bound): attributes
  Py_ssize_t n_slots;
  int self_slot;
  int args_slot;
  std::vector<uint64_t>* profile;  // per op: ns, runs (while g_profiling)
  int bypass;                      // 1: every call runs `original` (A/B measurements)
};

// ---- operands ---------------------------------------------------------------
// v >= 0: slot v; v < 0, w = -v - 1: constant w / 2 (w even) or global w / 2 (w odd).

void Unbound(PlannedCallObject* self, int slot) {
  PyObject* name = PyTuple_GET_ITEM(self->local_names, slot);
#if PY_VERSION_HEX >= 0x030B0000
  PyErr_Format(PyExc_UnboundLocalError,
               "cannot access local variable '%U' where it is not associated with a value", name);
#else
  PyErr_Format(PyExc_UnboundLocalError, "local variable '%U' referenced before assignment", name);
#endif
}

PyObject* Load(PlannedCallObject* self, PyObject** slots, int v) {
  if (v >= 0) {
    PyObject* o = slots[v];
    if (o == nullptr) {
      Unbound(self, v);
      return nullptr;
    }
    Py_INCREF(o);
    return o;
  }
  int w = -v - 1;
  if ((w & 1) == 0) {
    PyObject* o = PyTuple_GET_ITEM(self->consts, w >> 1);
    Py_INCREF(o);
    return o;
  }
  PyObject* name = PyTuple_GET_ITEM(self->names, w >> 1);
  PyObject* o = PyDict_GetItemWithError(self->globals, name);
  if (o == nullptr) {
    if (PyErr_Occurred()) return nullptr;
    o = PyDict_GetItemWithError(self->builtins, name);
    if (o == nullptr) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_NameError, "name '%U' is not defined", name);
      return nullptr;
    }
  }
  Py_INCREF(o);
  return o;
}

// Stores a new reference (dst < 0: the value is dropped, as an expression
// statement drops it). The old value goes after the new one is in place, as
// STORE_FAST does.
void Store(PyObject** slots, int dst, PyObject* value) {
  if (dst < 0) {
    Py_DECREF(value);
    return;
  }
  PyObject* old = slots[dst];
  slots[dst] = value;
  Py_XDECREF(old);
}

// argv[0] is spare (PY_VECTORCALL_ARGUMENTS_OFFSET); argv[first..] get new references.
class Args {
 public:
  explicit Args(size_t n) : n_(n) {
    ptr_ = n <= kSmall ? small_ : (big_.resize(n), big_.data());
    std::memset(ptr_, 0, n * sizeof(PyObject*));
  }
  ~Args() {
    for (size_t i = 0; i < n_; ++i) Py_XDECREF(ptr_[i]);
  }
  Args(const Args&) = delete;
  Args& operator=(const Args&) = delete;
  PyObject** data() { return ptr_; }
  bool Fill(PlannedCallObject* self, PyObject** slots, const int* ops, size_t count,
            size_t first) {
    for (size_t i = 0; i < count; ++i) {
      ptr_[first + i] = Load(self, slots, ops[i]);
      if (ptr_[first + i] == nullptr) return false;
    }
    return true;
  }

 private:
  static constexpr size_t kSmall = 24;
  PyObject* small_[kSmall];
  std::vector<PyObject*> big_;
  PyObject** ptr_;
  size_t n_;
};

PyObject* Binary(int sub, PyObject* x, PyObject* y) {
  switch (sub) {
    case kAdd: return PyNumber_Add(x, y);
    case kSub: return PyNumber_Subtract(x, y);
    case kMul: return PyNumber_Multiply(x, y);
    case kFloorDiv: return PyNumber_FloorDivide(x, y);
    case kMod: return PyNumber_Remainder(x, y);
    case kTrueDiv: return PyNumber_TrueDivide(x, y);
    case kPow: return PyNumber_Power(x, y, Py_None);
    case kLShift: return PyNumber_Lshift(x, y);
    case kRShift: return PyNumber_Rshift(x, y);
    case kAnd: return PyNumber_And(x, y);
    case kOr: return PyNumber_Or(x, y);
    case kXor: return PyNumber_Xor(x, y);
    case kMatMul: return PyNumber_MatrixMultiply(x, y);
    case kIs: return PyBool_FromLong(x == y);
    case kIsNot: return PyBool_FromLong(x != y);
    case kIn:
    case kNotIn: {
      int r = PySequence_Contains(y, x);
      if (r < 0) return nullptr;
      return PyBool_FromLong(sub == kIn ? r : !r);
    }
    default: return PyObject_RichCompare(x, y, sub - kCompare);
  }
}

PyObject* Unary(int sub, PyObject* x) {
  switch (sub) {
    case kNeg: return PyNumber_Negative(x);
    case kPos: return PyNumber_Positive(x);
    case kInvert: return PyNumber_Invert(x);
    default: {
      int r = PyObject_Not(x);
      return r < 0 ? nullptr : PyBool_FromLong(r);
    }
  }
}

// True only when `t`'s sizes and strides are exactly `size` and `stride`
// (tuples of ints): then torch's assert_size_stride, which is more lenient
// (it ignores the stride of a size-1 dimension), passes too. Anything else
// (false) runs the original, so a mismatch raises torch's own error.
bool SizeStrideMatch(PyObject* t, PyObject* size, PyObject* stride) {
  GeometryFn geometry = g_geometry.load(std::memory_order_acquire);
  int64_t ndim = 0;
  const int64_t* sizes = nullptr;
  const int64_t* strides = nullptr;
  if (geometry == nullptr || !geometry(t, &ndim, &sizes, &strides)) return false;
  if (!PyTuple_CheckExact(size) || !PyTuple_CheckExact(stride) ||
      PyTuple_GET_SIZE(size) != ndim || PyTuple_GET_SIZE(stride) != ndim) {
    return false;
  }
  for (int64_t i = 0; i < ndim; ++i) {
    PyObject* want[2] = {PyTuple_GET_ITEM(size, i), PyTuple_GET_ITEM(stride, i)};
    const int64_t have[2] = {sizes[i], strides[i]};
    for (int k = 0; k < 2; ++k) {
      if (!PyLong_CheckExact(want[k])) return false;
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(want[k], &overflow);
      if (overflow != 0 || v != have[k]) return false;
    }
  }
  return true;
}

// ---- ops ----------------------------------------------------------------------

struct Context {
  int slot;
  int exit_pc;
};

// Calls `callee` (or, when name != NULL, the method `name` of operands' first
// value) with the op's operands; a new reference or NULL.
PyObject* CallOp(PlannedCallObject* self, PyObject** slots, const int* operands, size_t count,
                 PyObject* callee, PyObject* name, PyObject* kwnames) {
  size_t n_kw = kwnames == nullptr ? 0 : static_cast<size_t>(PyTuple_GET_SIZE(kwnames));
  if (name != nullptr) {
    Args argv(count + 2);
    argv.data()[1] = callee;
    Py_INCREF(callee);
    if (!argv.Fill(self, slots, operands, count, 2)) return nullptr;
    size_t npos = 1 + count - n_kw;
    return PyObject_VectorcallMethod(name, argv.data() + 1,
                                     npos | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
  }
  Args argv(count + 1);
  if (!argv.Fill(self, slots, operands, count, 1)) return nullptr;
  return PyObject_Vectorcall(callee, argv.data() + 1,
                             (count - n_kw) | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
}

// A CALL the planner tagged with a native kind: the shim runs it on the same
// arguments when it takes them, else the callable runs as in CallOp.
PyObject* NativeCall(PlannedCallObject* self, PyObject** slots, const Op& op, PyObject* callee) {
  size_t count = op.operands.size();
  size_t n_kw = op.extra == nullptr ? 0 : static_cast<size_t>(PyTuple_GET_SIZE(op.extra));
  Args argv(count + 1);
  if (!argv.Fill(self, slots, op.operands.data(), count, 1)) return nullptr;
  NativeOpFn native = g_native_op.load(std::memory_order_acquire);
  int kind = op.sub & kNativeKindMask;
  if (native != nullptr) {
    PyObject* r = native(op.sub, argv.data() + 1, count - n_kw, op.extra);
    if (r != nullptr) {
      ++g_native_ran[kind];
      return r;
    }
    if (PyErr_Occurred()) return nullptr;
    ++g_native_declined[kind];
  }
  // The Python callable takes tensors: each folded view is made now, in operand order.
  for (int views = op.sub >> kViewShift, k = 0; views != 0; views >>= 1, ++k) {
    if ((views & 1) == 0) continue;
    PyObject*& slot = argv.data()[1 + k];
    if (!PyTuple_Check(slot)) {  // the program's TUPLE op makes it: a hand-made one may not
      PyErr_SetString(PyExc_SystemError, "planned call: a folded view operand is not a tuple");
      return nullptr;
    }
    PyObject* view = PyObject_Call(op.extra2, slot, nullptr);
    if (view == nullptr) return nullptr;
    Py_DECREF(slot);
    slot = view;
  }
  return PyObject_Vectorcall(callee, argv.data() + 1,
                             (count - n_kw) | PY_VECTORCALL_ARGUMENTS_OFFSET, op.extra);
}

int Unpack(PlannedCallObject* self, PyObject** slots, const Op& op) {
  PyObject* src = Load(self, slots, op.a);
  if (src == nullptr) return -1;
  Py_ssize_t n = static_cast<Py_ssize_t>(op.operands.size());
  PyObject* seq = src;
  if (!((PyTuple_CheckExact(src) && PyTuple_GET_SIZE(src) == n) ||
        (PyList_CheckExact(src) && PyList_GET_SIZE(src) == n))) {
    // Anything else (another length, an iterator) goes through Python's own
    // unpacking, so its result or its error is the interpreter's.
    seq = PyObject_CallOneArg(op.extra, src);
    Py_DECREF(src);
    if (seq == nullptr) return -1;
    if (!PyTuple_CheckExact(seq) || PyTuple_GET_SIZE(seq) != n) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_SystemError, "planned call: the unpacker returned a wrong value");
      return -1;
    }
  }
  std::vector<PyObject*> items(static_cast<size_t>(n));
  PyObject** source = PyTuple_CheckExact(seq) ? &PyTuple_GET_ITEM(seq, 0)
                                              : &PyList_GET_ITEM(seq, 0);
  for (Py_ssize_t i = 0; i < n; ++i) {
    items[static_cast<size_t>(i)] = source[i];
    Py_INCREF(source[i]);
  }
  Py_DECREF(seq);
  for (Py_ssize_t i = 0; i < n; ++i) Store(slots, op.operands[static_cast<size_t>(i)],
                                          items[static_cast<size_t>(i)]);
  return 0;
}

// The island's namespace: a plain dict while every slot it reads (the first
// `b` operands) is bound and it can unbind none (sub 0), else one made by `a`
// (program.IslandNamespace, a dict in which a name of those slots, read while
// unbound, raises UnboundLocalError where a plain one would read a module
// global). A new reference or NULL.
PyObject* IslandNamespace(PlannedCallObject* self, PyObject** slots, const Op& op) {
  bool guarded = op.sub == kIslandUnbinds;
  for (int i = 0; i < op.b && !guarded; ++i) {
    guarded = slots[op.operands[static_cast<size_t>(i)]] == nullptr;
  }
  if (!guarded) return PyDict_New();
  PyObject* make = Load(self, slots, op.a);
  if (make == nullptr) return nullptr;
  PyObject* ns = PyObject_CallNoArgs(make);
  Py_DECREF(make);
  if (ns != nullptr && !PyDict_Check(ns)) {
    Py_DECREF(ns);
    PyErr_SetString(PyExc_SystemError, "planned call: an island's namespace is not a dict");
    return nullptr;
  }
  return ns;
}

// The live values named by the island move into a fresh namespace (the slots
// let go, so a `del` there frees exactly there) and back after it ran.
int Island(PlannedCallObject* self, PyObject** slots, const Op& op) {
  PyObject* ns = IslandNamespace(self, slots, op);
  if (ns == nullptr) return -1;
  size_t n = op.operands.size();
  bool moved = true;
  for (size_t i = 0; i < n && moved; ++i) {
    int s = op.operands[i];
    if (slots[s] == nullptr) continue;
    moved = PyDict_SetItem(ns, PyTuple_GET_ITEM(op.extra2, i), slots[s]) == 0;
    if (moved) Py_CLEAR(slots[s]);
  }
  // A failed move runs nothing: what was moved comes back below.
  PyObject* r = moved ? PyEval_EvalCode(op.extra, self->globals, ns) : nullptr;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  int rc = r == nullptr ? -1 : 0;
  Py_XDECREF(r);
  for (size_t i = 0; i < n; ++i) {
    PyObject* v = PyDict_GetItemWithError(ns, PyTuple_GET_ITEM(op.extra2, i));
    if (v == nullptr && PyErr_Occurred()) {
      if (type == nullptr) {
        PyErr_Fetch(&type, &value, &tb);
      } else {
        PyErr_Clear();  // the island's own error is the one raised
      }
      rc = -1;
      continue;
    }
    if (v == nullptr) continue;  // deleted (or never bound) by the island
    Py_INCREF(v);
    Store(slots, op.operands[i], v);
  }
  Py_DECREF(ns);
  if (type != nullptr) PyErr_Restore(type, value, tb);
  return rc;
}

// fastlaunch's call site: the bound callable in the slot list, bound now
// when the slot is still empty (what the three generated statements do before
// the launch's arguments are evaluated). A new reference or NULL.
PyObject* Site(PlannedCallObject* self, PyObject** slots, const Op& op) {
  const int* o = op.operands.data();
  PyObject* call_slot = Load(self, slots, o[0]);
  if (call_slot == nullptr) return nullptr;
  PyObject* fn = PySequence_GetItem(call_slot, 0);
  if (fn != Py_None) {
    Py_DECREF(call_slot);
    return fn;
  }
  Py_DECREF(fn);
  PyObject* bind = Load(self, slots, o[3]);
  Args argv(4);
  if (bind == nullptr || !argv.Fill(self, slots, o + 1, 2, 1)) {
    Py_XDECREF(bind);
    Py_DECREF(call_slot);
    return nullptr;
  }
  argv.data()[3] = call_slot;  // Args drops this reference
  fn = PyObject_Vectorcall(bind, argv.data() + 1, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                           self->slot_kwnames);
  Py_DECREF(bind);
  return fn;
}

// An error is set; `__exit__(type, value, tb)` of the context in `slot`.
// 1: it suppressed the error (cleared); 0: an error is set (the same, or
// the one `__exit__` raised, chained to it).
int ExitWithError(PyObject** slots, int slot) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (tb != nullptr) PyException_SetTraceback(value, tb);
  PyObject* argv[5] = {nullptr, slots[slot], type, value, tb != nullptr ? tb : Py_None};
  PyObject* r = PyObject_VectorcallMethod(kExitName, argv + 1,
                                          4 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
  int suppress = r == nullptr ? -1 : PyObject_IsTrue(r);
  Py_XDECREF(r);
  if (suppress > 0) {
    Py_DECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return 1;
  }
  if (suppress < 0) {  // __exit__ raised: that error, with the original as its context
    PyObject *t2, *v2, *tb2;
    PyErr_Fetch(&t2, &v2, &tb2);
    PyErr_NormalizeException(&t2, &v2, &tb2);
    if (tb2 != nullptr) PyException_SetTraceback(v2, tb2);
    PyException_SetContext(v2, value);  // steals value
    Py_DECREF(type);
    Py_XDECREF(tb);
    PyErr_Restore(t2, v2, tb2);
    return 0;
  }
  PyErr_Restore(type, value, tb);
  return 0;
}

// 0: next op (pc advanced), 1: returned (*result set), -1: error.
int Step(PlannedCallObject* self, PyObject** slots, const Op& op, size_t* pc,
         std::vector<Context>& contexts, PyObject** result) {
  ++*pc;
  switch (op.code) {
    case kAssert:
      if (op.operands.size() >= 3 && op.operands[0] >= 0 && op.operands[1] < 0 &&
          op.operands[2] < 0) {
        // the common shape: a local tensor, constant size and stride tuples
        int w1 = -op.operands[1] - 1, w2 = -op.operands[2] - 1;
        if (((w1 | w2) & 1) == 0 && slots[op.operands[0]] != nullptr &&
            SizeStrideMatch(slots[op.operands[0]], PyTuple_GET_ITEM(self->consts, w1 >> 1),
                            PyTuple_GET_ITEM(self->consts, w2 >> 1))) {
          ++g_native_asserts;
          return 0;
        }
      } else if (op.operands.size() >= 3) {
        PyObject* v[3] = {nullptr, nullptr, nullptr};
        bool loaded = true;
        for (int k = 0; k < 3 && loaded; ++k) {
          v[k] = Load(self, slots, op.operands[static_cast<size_t>(k)]);
          loaded = v[k] != nullptr;
        }
        bool match = loaded && SizeStrideMatch(v[0], v[1], v[2]);
        for (PyObject* x : v) Py_XDECREF(x);
        if (!loaded) return -1;
        if (match) {
          ++g_native_asserts;
          return 0;
        }
      }
      [[fallthrough]];
    case kCall: {
      PyObject* callee = Load(self, slots, op.a);
      if (callee == nullptr) return -1;
      PyObject* r = op.sub > 0 && op.code == kCall
                        ? NativeCall(self, slots, op, callee)
                        : CallOp(self, slots, op.operands.data(), op.operands.size(), callee,
                                 nullptr, op.extra);
      Py_DECREF(callee);
      if (r == nullptr) return -1;
      Store(slots, op.dst, r);
      return 0;
    }
    case kMethod: {
      PyObject* obj = Load(self, slots, op.a);
      if (obj == nullptr) return -1;
      PyObject* r = CallOp(self, slots, op.operands.data(), op.operands.size(), obj,
                           op.extra2, op.extra);
      Py_DECREF(obj);
      if (r == nullptr) return -1;
      Store(slots, op.dst, r);
      return 0;
    }
    case kAttr: {
      PyObject* obj = Load(self, slots, op.a);
      if (obj == nullptr) return -1;
      PyObject* r = PyObject_GetAttr(obj, op.extra2);
      Py_DECREF(obj);
      if (r == nullptr) return -1;
      Store(slots, op.dst, r);
      return 0;
    }
    case kItem:
    case kBinary: {
      PyObject* x = Load(self, slots, op.a);
      if (x == nullptr) return -1;
      PyObject* y = Load(self, slots, op.b);
      if (y == nullptr) {
        Py_DECREF(x);
        return -1;
      }
      PyObject* r = op.code == kItem ? PyObject_GetItem(x, y) : Binary(op.sub, x, y);
      Py_DECREF(x);
      Py_DECREF(y);
      if (r == nullptr) return -1;
      Store(slots, op.dst, r);
      return 0;
    }
    case kUnary:
    case kMove: {
      PyObject* x = Load(self, slots, op.a);
      if (x == nullptr) return -1;
      if (op.code == kMove) {
        Store(slots, op.dst, x);
        return 0;
      }
      PyObject* r = Unary(op.sub, x);
      Py_DECREF(x);
      if (r == nullptr) return -1;
      Store(slots, op.dst, r);
      return 0;
    }
    case kTuple:
    case kList: {
      Py_ssize_t n = static_cast<Py_ssize_t>(op.operands.size());
      PyObject* r = op.code == kTuple ? PyTuple_New(n) : PyList_New(n);
      if (r == nullptr) return -1;
      for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = Load(self, slots, op.operands[static_cast<size_t>(i)]);
        if (v == nullptr) {
          Py_DECREF(r);
          return -1;
        }
        if (op.code == kTuple) {
          PyTuple_SET_ITEM(r, i, v);
        } else {
          PyList_SET_ITEM(r, i, v);
        }
      }
      Store(slots, op.dst, r);
      return 0;
    }
    case kDel:
      if (slots[op.dst] == nullptr) {
        Unbound(self, op.dst);
        return -1;
      }
      Py_CLEAR(slots[op.dst]);
      return 0;
    case kFree:
      Py_CLEAR(slots[op.dst]);
      return 0;
    case kUnpack:
      return Unpack(self, slots, op);
    case kIsland:
      return Island(self, slots, op);
    case kEnter: {
      PyObject* ctx = Load(self, slots, op.a);
      if (ctx == nullptr) return -1;
      Store(slots, op.dst, ctx);
      PyObject* argv[2] = {nullptr, ctx};
      PyObject* r = PyObject_VectorcallMethod(kEnterName, argv + 1,
                                              1 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
      if (r == nullptr) {
        Py_CLEAR(slots[op.dst]);
        return -1;
      }
      contexts.push_back(Context{op.dst, op.b});
      if (op.operands.empty()) {
        Py_DECREF(r);
      } else {
        Store(slots, op.operands[0], r);
      }
      return 0;
    }
    case kExit: {
      contexts.pop_back();
      PyObject* argv[5] = {nullptr, slots[op.dst], Py_None, Py_None, Py_None};
      PyObject* r = PyObject_VectorcallMethod(kExitName, argv + 1,
                                              4 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
      Py_CLEAR(slots[op.dst]);
      if (r == nullptr) return -1;
      Py_DECREF(r);
      return 0;
    }
    case kReturn:
      *result = Load(self, slots, op.a);
      return *result == nullptr ? -1 : 1;
    case kSite: {
      PyObject* fn = Site(self, slots, op);
      if (fn == nullptr) return -1;
      Store(slots, op.dst, fn);
      return 0;
    }
    default:
      PyErr_Format(PyExc_SystemError, "planned call: unknown op %d", op.code);
      return -1;
  }
}

PyObject* Run(PlannedCallObject* self, PyObject* args) {
  constexpr Py_ssize_t kSmall = 64;
  PyObject* small[kSmall];
  std::vector<PyObject*> big;
  PyObject** slots = self->n_slots <= kSmall
                         ? small
                         : (big.resize(static_cast<size_t>(self->n_slots)), big.data());
  std::memset(slots, 0, static_cast<size_t>(self->n_slots) * sizeof(PyObject*));
  if (self->self_slot >= 0) {
    Py_INCREF(self->bound_self);
    slots[self->self_slot] = self->bound_self;
  }
  Py_INCREF(args);
  slots[self->args_slot] = args;
  std::vector<Context> contexts;
  const std::vector<Op>& ops = *self->ops;
  PyObject* result = nullptr;
  size_t pc = 0;
  const bool profiling = g_profiling.load(std::memory_order_relaxed);
  while (true) {
    if (pc >= ops.size()) {  // fell off the end: None, as a Python function returns
      Py_INCREF(Py_None);
      result = Py_None;
      break;
    }
    int rc;
    if (profiling) {
      size_t at = pc;
      auto t0 = std::chrono::steady_clock::now();
      rc = Step(self, slots, ops[pc], &pc, contexts, &result);
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - t0).count();
      (*self->profile)[2 * at] += static_cast<uint64_t>(ns);
      (*self->profile)[2 * at + 1] += 1;
    } else {
      rc = Step(self, slots, ops[pc], &pc, contexts, &result);
    }
    if (rc == 0) continue;
    if (rc == 1) {
      // A return inside `with`: each open context exits normally, innermost first.
      while (!contexts.empty() && result != nullptr) {
        Context c = contexts.back();
        contexts.pop_back();
        PyObject* argv[5] = {nullptr, slots[c.slot], Py_None, Py_None, Py_None};
        PyObject* r = PyObject_VectorcallMethod(kExitName, argv + 1,
                                                4 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
        Py_CLEAR(slots[c.slot]);
        if (r == nullptr) Py_CLEAR(result);
        Py_XDECREF(r);
      }
      if (result != nullptr) break;
    }
    bool resumed = false;
    while (!contexts.empty()) {
      Context c = contexts.back();
      contexts.pop_back();
      int suppressed = ExitWithError(slots, c.slot);
      Py_CLEAR(slots[c.slot]);
      if (suppressed == 1) {
        // After the `with` statement: its temporaries are gone (the
        // interpreter popped them while unwinding), outer contexts stay.
        for (Py_ssize_t i = 0; i < self->n_slots; ++i) {
          bool holds_context = false;
          for (const Context& open : contexts) holds_context |= open.slot == i;
          if (!holds_context && PyUnicode_GET_LENGTH(PyTuple_GET_ITEM(self->local_names, i)) == 0) {
            Py_CLEAR(slots[i]);
          }
        }
        pc = static_cast<size_t>(c.exit_pc) + 1;
        resumed = true;
        break;
      }
    }
    if (!resumed) break;
  }
  // The frame's end: locals in slot order, as CPython clears a frame.
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  if (result == nullptr) PyErr_Fetch(&type, &value, &tb);
  for (Py_ssize_t i = 0; i < self->n_slots; ++i) Py_CLEAR(slots[i]);
  if (result == nullptr) {
    PyErr_Restore(type, value, tb);
  } else {
    g_planned_runs.fetch_add(1, std::memory_order_relaxed);
  }
  return result;
}

// 1: reason found (*reason a new reference), 0: none, -1: a non-Exception error.
int FallbackReason(PlannedCallObject* self, PyObject** reason) {
  auto set = [reason](const char* text) {
    *reason = PyUnicode_InternFromString(text);
    return *reason == nullptr ? -1 : 1;
  };
  auto probe_failed = [&set]() {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) return -1;  // KeyboardInterrupt & co.
    PyErr_Clear();
    return set("probe_error");
  };
  if (self->static_reason != nullptr) {
    Py_INCREF(self->static_reason);
    *reason = self->static_reason;
    return 1;
  }
  PyObject* on = PyObject_GetAttr(self->switch_obj, kOnName);
  int truth = on == nullptr ? -1 : PyObject_IsTrue(on);
  Py_XDECREF(on);
  if (truth < 0) return probe_failed();
  if (!truth) return set("disabled");
  PyObject* flag = PyObject_GetAttr(self->profiler, self->profiler_flag);
  truth = flag == nullptr ? -1 : PyObject_IsTrue(flag);
  Py_XDECREF(flag);
  if (truth < 0) return probe_failed();
  if (truth) return set("profiler");
  if (self->dispatch_len != nullptr) {
    PyObject* n = PyObject_CallNoArgs(self->dispatch_len);
    truth = n == nullptr ? -1 : PyObject_IsTrue(n);
    Py_XDECREF(n);
    if (truth < 0) return probe_failed();
    if (truth) return set("dispatch_mode");
  }
  return 0;
}

PyObject* PlannedCallVectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                                PyObject* kwnames) {
  auto* self = reinterpret_cast<PlannedCallObject*>(callable);
  if (self->bypass) {
    ++g_bypassed;
    return PyObject_Vectorcall(self->original, args, nargsf, kwnames);
  }
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* reason = nullptr;
  int found = 0;
  if (nargs != 1 || kwnames != nullptr) {
    reason = PyUnicode_InternFromString("signature");
    found = reason == nullptr ? -1 : 1;
  } else {
    found = FallbackReason(self, &reason);
  }
  if (found < 0) return nullptr;
  if (found == 0) {
    // One level of the interpreter's recursion count per program run, as the
    // Python call's frame takes one, so recursion through planned calls raises
    // RecursionError, with the interpreter's message, where the Python call
    // would. Unlike Python frames (3.11+), runs nest on the C stack: from 3.12
    // the count above is the C one (10000 deep on 3.13), and a raised limit
    // would let them overflow it, so nested runs also stop at the recursion
    // limit, at kMaxNestedRuns and where the thread's C stack runs short.
    if (Py_EnterRecursiveCall("")) return nullptr;
    thread_local int nested_runs = 0;
    uintptr_t floor = StackFloor();
    if (nested_runs >= std::min(Py_GetRecursionLimit(), kMaxNestedRuns) ||
        (floor != 0 && reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < floor)) {
      Py_LeaveRecursiveCall();
      PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
      return nullptr;
    }
    ++nested_runs;
    PyObject* result = Run(self, args[0]);
    --nested_runs;
    Py_LeaveRecursiveCall();
    return result;
  }
  Py_ssize_t n_kw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  std::vector<PyObject*> argv(static_cast<size_t>(nargs + n_kw + 2));
  argv[1] = reason;
  for (Py_ssize_t i = 0; i < nargs + n_kw; ++i) argv[static_cast<size_t>(i + 2)] = args[i];
  PyObject* r = PyObject_Vectorcall(self->fallback, argv.data() + 1,
                                    static_cast<size_t>(nargs + 1) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                    kwnames);
  Py_DECREF(reason);
  return r;
}

int PlannedCallTraverse(PyObject* obj, visitproc visit, void* arg) {
  auto* self = reinterpret_cast<PlannedCallObject*>(obj);
  Py_VISIT(self->consts);
  Py_VISIT(self->globals);
  Py_VISIT(self->builtins);
  Py_VISIT(self->bound_self);
  Py_VISIT(self->fallback);
  Py_VISIT(self->switch_obj);
  Py_VISIT(self->profiler);
  Py_VISIT(self->dispatch_len);
  Py_VISIT(self->original);
  Py_VISIT(self->function);
  if (self->ops != nullptr) {
    for (const Op& op : *self->ops) {
      Py_VISIT(op.extra);
      Py_VISIT(op.extra2);
    }
  }
  return 0;
}

int PlannedCallClear(PyObject* obj) {
  auto* self = reinterpret_cast<PlannedCallObject*>(obj);
  Py_CLEAR(self->consts);
  Py_CLEAR(self->names);
  Py_CLEAR(self->local_names);
  Py_CLEAR(self->globals);
  Py_CLEAR(self->builtins);
  Py_CLEAR(self->bound_self);
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->switch_obj);
  Py_CLEAR(self->profiler);
  Py_CLEAR(self->profiler_flag);
  Py_CLEAR(self->dispatch_len);
  Py_CLEAR(self->static_reason);
  Py_CLEAR(self->original);
  Py_CLEAR(self->slot_kwnames);
  Py_CLEAR(self->function);
  if (self->ops != nullptr) {
    for (Op& op : *self->ops) {
      Py_CLEAR(op.extra);
      Py_CLEAR(op.extra2);
    }
  }
  return 0;
}

void PlannedCallDealloc(PyObject* obj) {
  PyObject_GC_UnTrack(obj);
  PlannedCallClear(obj);
  auto* self = reinterpret_cast<PlannedCallObject*>(obj);
  delete self->ops;
  self->ops = nullptr;
  delete self->profile;
  self->profile = nullptr;
  Py_TYPE(obj)->tp_free(obj);
}

PyObject* PlannedCallTpCall(PyObject* callable, PyObject* args, PyObject* kwargs) {
  return PyVectorcall_Call(callable, args, kwargs);
}

PyObject* GetOriginal(PyObject* obj, void*) {
  auto* self = reinterpret_cast<PlannedCallObject*>(obj);
  Py_INCREF(self->original);
  return self->original;
}

PyObject* GetBypass(PyObject* obj, void*) {
  return PyBool_FromLong(reinterpret_cast<PlannedCallObject*>(obj)->bypass);
}

int SetBypass(PyObject* obj, PyObject* value, void*) {
  int truth = value == nullptr ? -1 : PyObject_IsTrue(value);
  if (truth < 0) {
    if (value == nullptr) PyErr_SetString(PyExc_TypeError, "bypass: cannot be deleted");
    return -1;
  }
  reinterpret_cast<PlannedCallObject*>(obj)->bypass = truth;
  return 0;
}

PyGetSetDef kGetSet[] = {
    {"original", GetOriginal, nullptr, "the wrapper module's own call", nullptr},
    {"__wrapped__", GetOriginal, nullptr, "the wrapper module's own call (inspect.unwrap)",
     nullptr},
    {"bypass", GetBypass, SetBypass,
     "True: every call runs the original call, counted as call.bypassed (A/B benchmarks)",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject PlannedCallType{};

// Attributes: the type's own (`original`, `bypass`, `__wrapped__`, `__class__`
// and the slots) and everything else on the wrapper's function, which keeps
// the one storage: what torch_npu or Inductor hang on `call`, at module level
// before the module was planned or later through either object, reads back
// through both. `__doc__` and `__module__`, which the type has too, are the
// function's, as `__name__`, `__qualname__` and `__dict__` are.
//
// 1: `name` (a str) is the type's own attribute; 0: the function's; -1: error.
int TypesOwn(PyObject* obj, PyObject* name) {
  if (_PyType_Lookup(Py_TYPE(obj), name) == nullptr) return 0;  // sets no error
  for (PyObject* functions : {kDocName, kModuleName}) {
    int cmp = PyUnicode_Compare(name, functions);
    if (cmp == -1 && PyErr_Occurred()) return -1;
    if (cmp == 0) return 0;
  }
  return 1;
}

PyObject* PlannedCallGetAttr(PyObject* obj, PyObject* name) {
  if (!PyUnicode_Check(name)) return PyObject_GenericGetAttr(obj, name);  // its TypeError
  int types = TypesOwn(obj, name);
  if (types < 0) return nullptr;
  if (types == 1) return PyObject_GenericGetAttr(obj, name);
  // The original call's: a bound `Runner.call` reads its function's (and `__self__`).
  return PyObject_GetAttr(reinterpret_cast<PlannedCallObject*>(obj)->original, name);
}

int PlannedCallSetAttr(PyObject* obj, PyObject* name, PyObject* value) {
  if (!PyUnicode_Check(name)) return PyObject_GenericSetAttr(obj, name, value);
  int types = TypesOwn(obj, name);
  if (types < 0) return -1;
  // `bypass` is settable; `original`, `__wrapped__` and the slots are read-only.
  if (types == 1) return PyObject_GenericSetAttr(obj, name, value);
  // value NULL: `del`, with the function's own error when it has no such attribute.
  return PyObject_SetAttr(reinterpret_cast<PlannedCallObject*>(obj)->function, name, value);
}

// ---- construction -------------------------------------------------------------

[[noreturn]] void Bad(const std::string& what) { throw InputError("planned call: " + what); }

// Checks each op against its row of kOpFormats (core/program_format.h); every
// refusal is an InputError naming the op, its kind and the field.
class Checker {
 public:
  Checker(Py_ssize_t n_slots, Py_ssize_t n_consts, Py_ssize_t n_names)
      : n_slots_(n_slots), n_consts_(n_consts), n_names_(n_names) {}
  void Slot(const std::string& label, const std::string& field, int v) const {
    if (v < 0 || v >= n_slots_) {
      Bad(label + " " + field + ": got slot " + std::to_string(v) +
          ", expected 0 <= slot < " + std::to_string(n_slots_));
    }
  }
  void Operand(const std::string& label, const std::string& field, int v) const {
    if (v >= 0) return Slot(label, field, v);
    int w = -(v + 1);
    Py_ssize_t index = w >> 1;
    Py_ssize_t limit = (w & 1) == 0 ? n_consts_ : n_names_;
    if (index >= limit) {
      Bad(label + " " + field + ": got operand " + std::to_string(v) +
          ", expected a " + ((w & 1) == 0 ? "constant" : "global") + " index below " +
          std::to_string(limit));
    }
  }
  // dst, a or b as `holds` says (kExitPc and kReadCount need the op's other
  // fields: ReadOps checks them).
  void Int(const std::string& label, const char* field, IntField holds, int v,
           int unused) const {
    switch (holds) {
      case IntField::kUnused:
        if (v != unused) {
          Bad(label + " " + field + ": got " + std::to_string(v) + ", expected " +
              std::to_string(unused) + " (unused)");
        }
        return;
      case IntField::kSlot:
        return Slot(label, field, v);
      case IntField::kSlotOrDrop:
        if (v != -1) Slot(label, field, v);
        return;
      case IntField::kOperand:
        return Operand(label, field, v);
      case IntField::kExitPc:
      case IntField::kReadCount:
        return;
    }
  }

 private:
  Py_ssize_t n_slots_, n_consts_, n_names_;
};

// "op 3 (call)", or "op 3" while its code is not known to be valid.
std::string OpLabel(size_t pc, int code) {
  std::string label = "op " + std::to_string(pc);
  if (code >= 0 && code < kOpCount) label += std::string(" (") + kOpFormats[code].name + ")";
  return label;
}

// One int field of an op: an int that fits the executor's 32-bit fields, or
// an InputError naming the op, its kind and the field (never truncated, never
// a bare OverflowError).
int IntValue(PyObject* v, const std::string& label, const std::string& field) {
  if (!PyLong_Check(v)) {
    Bad(label + " " + field + ": got " + Py_TYPE(v)->tp_name + ", expected an int");
  }
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (x == -1 && PyErr_Occurred()) throw PythonError();
  if (overflow != 0 || x < INT32_MIN || x > INT32_MAX) {
    PyObject* text = PyObject_Repr(v);
    if (text == nullptr) throw PythonError();
    std::string shown = PyUnicode_AsUTF8(text) != nullptr ? PyUnicode_AsUTF8(text) : "?";
    Py_DECREF(text);
    Bad(label + " " + field + ": got " + shown + ", expected an int in [-2**31, 2**31)");
  }
  return static_cast<int>(x);
}

// sub as the op's row says.
void CheckSub(const Op& op, SubField holds, const std::string& label) {
  auto refuse = [&](const std::string& expected) {
    Bad(label + " sub: got " + std::to_string(op.sub) + ", expected " + expected);
  };
  switch (holds) {
    case SubField::kUnused:
      if (op.sub != 0) refuse("0 (unused)");
      return;
    case SubField::kFoldedView:
      if (op.sub != 0 && op.sub != kFoldedView) refuse("0 or 1 (a folded view)");
      return;
    case SubField::kIslandUnbinds:
      if (op.sub != 0 && op.sub != kIslandUnbinds) {
        refuse("0 or 1 (the island can unbind a local)");
      }
      return;
    case SubField::kBinaryOp:
      if (!((op.sub >= kAdd && op.sub <= kNotIn) || (op.sub >= kLt && op.sub <= kGe))) {
        refuse("a binary operator");
      }
      return;
    case SubField::kUnaryOp:
      if (op.sub < kNeg || op.sub > kNot) {
        refuse("a unary operator");
      }
      return;
    case SubField::kNativeCall: {
      int kind = op.sub & kNativeKindMask;
      int views = op.sub >> kViewShift;
      if (op.sub < 0 || kind >= kNativeKinds || (kind == kNotNative && views != 0)) {
        refuse("a native kind below " + std::to_string(kNativeKinds) +
               ", with view bits only with a kind");
      }
      if (kind >= kFirstViewlessKind && views != 0) {
        refuse("no view bits with kind " + std::to_string(kind) + " (kinds from " +
               std::to_string(kFirstViewlessKind) + " take no folded views)");
      }
      size_t viewable = std::min(op.operands.size(), static_cast<size_t>(kMaxViewOperands));
      if (views >> viewable != 0) {
        refuse("view bits within its " + std::to_string(op.operands.size()) +
               " operands (at most " + std::to_string(kMaxViewOperands) + ")");
      }
      return;
    }
  }
}

// extra or extra2 as the op's row says: the value the op keeps (borrowed), or NULL.
PyObject* CheckExtra(PyObject* v, ExtraField holds, const Op& op, const std::string& label,
                     const char* field) {
  auto refuse = [&](const char* role, const std::string& expected) {
    Bad(label + " " + field + " (" + role + "): got " + Py_TYPE(v)->tp_name + ", expected " +
        expected);
  };
  switch (holds) {
    case ExtraField::kUnused:
      if (v != Py_None) refuse("unused", "None");
      return nullptr;
    case ExtraField::kKwnames:
      if (v == Py_None) return nullptr;
      if (!PyTuple_Check(v)) refuse("kwnames", "a tuple of str");
      for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(v); ++k) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(v, k))) {
          Bad(label + " " + field + " (kwnames): expected str items");
        }
      }
      if (static_cast<size_t>(PyTuple_GET_SIZE(v)) > op.operands.size()) {
        Bad(label + " " + field + " (kwnames): more names than values");
      }
      return v;
    case ExtraField::kUnpacker:
      if (!PyCallable_Check(v)) refuse("unpacker", "a callable");
      return v;
    case ExtraField::kCode:
      if (!PyCode_Check(v)) refuse("island code", "a code object");
      return v;
    case ExtraField::kName:
      if (!PyUnicode_Check(v)) refuse("name", "a str");
      return v;
    case ExtraField::kViewMaker:
      if (op.sub >> kViewShift == 0) {
        if (v != Py_None) refuse("view maker", "None (no folded views)");
        return nullptr;
      }
      if (!PyCallable_Check(v)) refuse("view maker", "a callable");
      return v;
    case ExtraField::kIslandNames:
      if (!PyTuple_Check(v) || static_cast<size_t>(PyTuple_GET_SIZE(v)) != op.operands.size()) {
        refuse("island names", "a tuple of one str per slot");
      }
      for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(v); ++k) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(v, k))) refuse("island names", "str items");
      }
      return v;
  }
  return nullptr;
}

// Each op: kOpFields fields, (code, dst, a, b, sub, operands, extra, extra2),
// each as its row of kOpFormats says; contexts nest (each ENTER's b is the pc
// of the EXIT that closes it) and their slots stay theirs until then. The
// ops' extras are borrowed from `ops_list`.
std::vector<Op>* ReadOps(PyObject* ops_list, const Checker& check) {
  if (!PyList_Check(ops_list)) Bad("ops: expected a list of op tuples");
  auto ops = std::make_unique<std::vector<Op>>();
  Py_ssize_t n = PyList_GET_SIZE(ops_list);
  std::vector<size_t> open_contexts;  // the pcs of the ENTERs not yet exited
  for (Py_ssize_t i = 0; i < n; ++i) {
    size_t pc = static_cast<size_t>(i);
    PyObject* item = PyList_GET_ITEM(ops_list, i);
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != kOpFields) {
      Bad(OpLabel(pc, -1) + ": expected a tuple of " + std::to_string(kOpFields) + " fields");
    }
    Op op;
    op.code = IntValue(PyTuple_GET_ITEM(item, 0), OpLabel(pc, -1), "code");
    const std::string label = OpLabel(pc, op.code);
    op.dst = IntValue(PyTuple_GET_ITEM(item, 1), label, "dst");
    op.a = IntValue(PyTuple_GET_ITEM(item, 2), label, "a");
    op.b = IntValue(PyTuple_GET_ITEM(item, 3), label, "b");
    op.sub = IntValue(PyTuple_GET_ITEM(item, 4), label, "sub");
    PyObject* operands = PyTuple_GET_ITEM(item, 5);
    if (!PyTuple_Check(operands)) Bad(label + " operands: expected a tuple");
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(operands); ++k) {
      op.operands.push_back(IntValue(PyTuple_GET_ITEM(operands, k), label,
                                     "operands[" + std::to_string(k) + "]"));
    }
    if (op.code < 0 || op.code >= kOpCount) {
      Bad(label + " code: got " + std::to_string(op.code) +
          ", expected 0 <= code < " + std::to_string(kOpCount));
    }
    const OpFormat& format = kOpFormats[op.code];
    check.Int(label, "dst", format.dst, op.dst, -1);
    check.Int(label, "a", format.a, op.a, 0);
    check.Int(label, "b", format.b, op.b, 0);
    int count = static_cast<int>(op.operands.size());
    if (count < format.min_operands || count > format.max_operands) {
      Bad(label + " operands: got " + std::to_string(count) + ", expected " +
          (format.min_operands == format.max_operands
               ? std::to_string(format.min_operands)
               : "at most " + std::to_string(format.max_operands)));
    }
    for (size_t k = 0; k < op.operands.size(); ++k) {
      const std::string field = "operands[" + std::to_string(k) + "]";
      if (format.operands == OperandsField::kSlots) {
        check.Slot(label, field, op.operands[k]);
      } else {
        check.Operand(label, field, op.operands[k]);
      }
    }
    CheckSub(op, format.sub, label);
    // Inside a `with`, only its EXIT touches the slot holding the context
    // (the EXIT, and the unwinding of an error, call its __exit__).
    auto not_a_holder = [&](const std::string& field, int slot) {
      for (size_t enter : open_contexts) {
        if ((*ops)[enter].dst == slot) {
          Bad(label + " " + field + ": got slot " + std::to_string(slot) +
              ", which holds the context op " + std::to_string(enter) + " entered");
        }
      }
    };
    if (op.code != kExit) not_a_holder("dst", op.dst);
    if (format.operands == OperandsField::kSlots) {
      for (size_t k = 0; k < op.operands.size(); ++k) {
        not_a_holder("operands[" + std::to_string(k) + "]", op.operands[k]);
      }
    }
    if (format.b == IntField::kReadCount && (op.b < 0 || op.b > count)) {
      Bad(label + " b: got " + std::to_string(op.b) + ", expected 0 <= b <= " +
          std::to_string(count) + " (the slots it reads)");
    }
    if (format.b == IntField::kExitPc) {
      if (op.b <= i || op.b >= n) Bad(label + " b: expected the pc of its exit");
      open_contexts.push_back(pc);
    }
    op.extra = CheckExtra(PyTuple_GET_ITEM(item, 6), format.extra, op, label, "extra");
    op.extra2 = CheckExtra(PyTuple_GET_ITEM(item, 7), format.extra2, op, label, "extra2");
    if (op.code == kExit) {
      if (open_contexts.empty()) Bad(label + ": exit without enter");
      const Op& enter = (*ops)[open_contexts.back()];
      if (static_cast<size_t>(enter.b) != pc || enter.dst != op.dst) {
        Bad(OpLabel(open_contexts.back(), kEnter) + " b: expected the pc of the exit of slot " +
            std::to_string(enter.dst) + " (got " + std::to_string(enter.b) + ")");
      }
      open_contexts.pop_back();
    }
    ops->push_back(std::move(op));
  }
  if (!open_contexts.empty()) {
    Bad(OpLabel(open_contexts.back(), kEnter) + " b: expected the pc of its exit");
  }
  return ops.release();
}

}  // namespace

PyObject* MakePlannedCall(const PlannedCallArgs& args) {
  const Py_ssize_t n_slots = PyTuple_GET_SIZE(args.local_names);
  if (n_slots < 1) Bad("local_names: expected one name per slot, the args slot included");
  for (Py_ssize_t i = 0; i < n_slots; ++i) {  // read as str when a slot is unbound
    PyObject* name = PyTuple_GET_ITEM(args.local_names, i);
    if (!PyUnicode_CheckExact(name)) {
      Bad("local_names[" + std::to_string(i) + "]: got " + DescribeValue(name) +
          ", expected a str");
    }
  }
  Checker check(n_slots, PyTuple_GET_SIZE(args.consts), PyTuple_GET_SIZE(args.names));
  check.Slot("program", "args_slot", args.args_slot);
  if (args.self_slot >= 0) {
    check.Slot("program", "self_slot", args.self_slot);
    if (args.bound_self == Py_None) Bad("bound_self: expected the Runner with self_slot set");
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args.names); ++i) {
    if (!PyUnicode_Check(PyTuple_GET_ITEM(args.names, i))) Bad("names: expected str items");
  }
  if (!PyCallable_Check(args.fallback)) Bad("fallback: expected a callable");
  std::unique_ptr<std::vector<Op>> program(ReadOps(args.ops, check));
  PyObject* slot_kwnames = PyTuple_Pack(1, args.slot_keyword);
  if (slot_kwnames == nullptr) throw PythonError();
  auto* self = PyObject_GC_New(PlannedCallObject, &PlannedCallType);
  if (self == nullptr) {
    Py_DECREF(slot_kwnames);
    throw PythonError();
  }
  self->vectorcall = PlannedCallVectorcall;
  self->ops = program.release();
  self->profile = new std::vector<uint64_t>(2 * self->ops->size(), 0);
  for (Op& op : *self->ops) {  // nothing throws from here: the PlannedCall owns them
    Py_XINCREF(op.extra);
    Py_XINCREF(op.extra2);
  }
  self->bypass = 0;
  auto own = [](PyObject* o) {
    Py_XINCREF(o);
    return o;
  };
  self->consts = own(args.consts);
  self->names = own(args.names);
  self->local_names = own(args.local_names);
  self->globals = own(args.globals);
  self->builtins = own(args.builtins);
  self->bound_self = args.self_slot >= 0 ? own(args.bound_self) : nullptr;
  self->fallback = own(args.fallback);
  self->switch_obj = own(args.switch_obj);
  self->profiler = own(args.profiler);
  self->profiler_flag = own(args.profiler_flag);
  self->dispatch_len = own(args.dispatch_len);
  self->static_reason = own(args.static_reason);
  self->original = own(args.original);
  self->slot_kwnames = slot_kwnames;
  self->function = own(PyMethod_Check(args.original) ? PyMethod_GET_FUNCTION(args.original)
                                                     : args.original);
  self->n_slots = n_slots;
  self->self_slot = args.self_slot;
  self->args_slot = args.args_slot;
  PyObject_GC_Track(reinterpret_cast<PyObject*>(self));
  return reinterpret_cast<PyObject*>(self);
}

bool InitPlannedCallType(PyObject* module) {
  kEnterName = PyUnicode_InternFromString("__enter__");
  kExitName = PyUnicode_InternFromString("__exit__");
  kOnName = PyUnicode_InternFromString("on");
  kDocName = PyUnicode_InternFromString("__doc__");
  kModuleName = PyUnicode_InternFromString("__module__");
  if (!kEnterName || !kExitName || !kOnName || !kDocName || !kModuleName) {
    return false;
  }
  Py_SET_REFCNT(reinterpret_cast<PyObject*>(&PlannedCallType), 1);
  PlannedCallType.tp_name = "fastlaunch.runtime._core.PlannedCall";
  PlannedCallType.tp_basicsize = sizeof(PlannedCallObject);
  PlannedCallType.tp_flags =
      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  PlannedCallType.tp_doc = "A wrapper's call(args) run as a planned program (planned_call.cpp).";
  PlannedCallType.tp_vectorcall_offset = offsetof(PlannedCallObject, vectorcall);
  PlannedCallType.tp_call = PlannedCallTpCall;
  PlannedCallType.tp_traverse = PlannedCallTraverse;
  PlannedCallType.tp_clear = PlannedCallClear;
  PlannedCallType.tp_dealloc = PlannedCallDealloc;
  PlannedCallType.tp_getset = kGetSet;
  PlannedCallType.tp_getattro = PlannedCallGetAttr;
  PlannedCallType.tp_setattro = PlannedCallSetAttr;
  if (PyType_Ready(&PlannedCallType) < 0) return false;
  Py_INCREF(&PlannedCallType);
  return PyModule_AddObject(module, "PlannedCall",
                            reinterpret_cast<PyObject*>(&PlannedCallType)) == 0;
}

bool IsPlannedCall(PyObject* obj) { return PyObject_TypeCheck(obj, &PlannedCallType); }

void SetTensorGeometryReader(void* fn) {
  g_geometry.store(reinterpret_cast<GeometryFn>(fn), std::memory_order_release);
}

bool HasTensorGeometryReader() { return g_geometry.load() != nullptr; }

void SetAtenOps(void* fn) {
  g_native_op.store(reinterpret_cast<NativeOpFn>(fn), std::memory_order_release);
}

bool HasAtenOps() { return g_native_op.load() != nullptr; }

std::vector<NativeOpCount> PlannedCallNativeOps() {
  std::vector<NativeOpCount> out;
  for (int k = 1; k < kNativeKinds; ++k) {
    if (g_native_ran[k] || g_native_declined[k]) {
      out.push_back({k, g_native_ran[k], g_native_declined[k]});
    }
  }
  return out;
}

uint64_t PlannedCallRuns() { return g_planned_runs.load(); }
uint64_t PlannedCallNativeAsserts() { return g_native_asserts; }
uint64_t PlannedCallBypassed() { return g_bypassed; }

void ResetPlannedCallCounters() {
  g_planned_runs.store(0);
  g_native_asserts = 0;
  for (int k = 0; k < kNativeKinds; ++k) g_native_ran[k] = g_native_declined[k] = 0;
  g_bypassed = 0;
}

void SetPlannedCallProfiling(bool on) { g_profiling.store(on); }

std::vector<std::pair<uint64_t, uint64_t>> TakePlannedCallProfile(PyObject* planned) {
  auto* self = reinterpret_cast<PlannedCallObject*>(planned);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i + 1 < self->profile->size(); i += 2) {
    out.emplace_back((*self->profile)[i], (*self->profile)[i + 1]);
    (*self->profile)[i] = (*self->profile)[i + 1] = 0;
  }
  return out;
}

}  // namespace fastlaunch
