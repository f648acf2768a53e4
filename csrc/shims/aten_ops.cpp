// SPDX-License-Identifier: Apache-2.0
// The planned call's native ops: the extern kernels and torch.ops.aten calls
// of Inductor's Python wrapper, run through ATen's C++ API on the very
// arguments the wrapper passes, without torch's Python argument parsing.
// Built against the installed torch by fastlaunch.builds (loaded by
// aten_ops.py); csrc/engine/planned_call.cpp gets fastlaunch_aten_op through a
// capsule.
//
// It takes a call only when every argument has exactly the type and form the
// Python binding would turn into the same C++ values (plain or Parameter
// tensors, no torch function mode, Python ints/floats/bools for scalars);
// anything else is declined (NULL, no error set) and the Python callable
// runs, so it raises or dispatches as it does in the Python call(). Like the
// bindings, it releases the GIL around the ATen call, and turns C++ errors
// into torch's Python exceptions. Operands the planner folded are
// (base, size, stride, offset) tuples: their views are made here, as
// reinterpret_tensor makes them, with no Python tensor.
//
// It also runs the wrapper's allocations and named-buffer views, as
// torch/csrc/dynamo/guards.cpp's _empty_strided_{cpu,cuda} and
// _reinterpret_tensor do (with the GIL held, as they do), and the alignment
// asserts that pass. The CUDA allocation
// needs libtorch_cuda: fastlaunch.builds defines FASTLAUNCH_TORCH_CUDA and links it
// only when the installed torch has CUDA; without it that kind is declined.
#include <torch/csrc/Device.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/inductor/inductor_ops.h>
#include <torch/csrc/utils/device_lazy_init.h>
#include <torch/extension.h>

#include <ATen/EmptyTensor.h>
#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/core/dispatch/DispatchKeyExtractor.h>
#include <ATen/record_function.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu_cpu_dispatch.h>
#include <ATen/ops/addmm_cpu_dispatch.h>
#include <ATen/ops/baddbmm_cpu_dispatch.h>
#include <ATen/ops/bmm_cpu_dispatch.h>
#include <ATen/ops/convolution_compositeexplicitautograd_dispatch.h>
#include <ATen/ops/mm_cpu_dispatch.h>
#include <c10/core/GradMode.h>
#ifdef FASTLAUNCH_TORCH_CUDA
#include <ATen/cuda/EmptyTensor.h>
#include <ATen/ops/_scaled_dot_product_cudnn_attention_cuda_dispatch.h>
#include <ATen/ops/_scaled_dot_product_efficient_attention_cuda_dispatch.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_cuda_dispatch.h>
#include <ATen/ops/addmm_cuda_dispatch.h>
#include <ATen/ops/baddbmm_cuda_dispatch.h>
#include <ATen/ops/bmm_cuda_dispatch.h>
#include <ATen/ops/mm_cuda_dispatch.h>
#endif
#include <ATen/ops/_scaled_dot_product_cudnn_attention.h>
#include <ATen/ops/_scaled_dot_product_efficient_attention.h>
#include <ATen/ops/_scaled_dot_product_flash_attention.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/convolution.h>
#include <ATen/ops/mm.h>

#include <cstring>
#include <initializer_list>
#include <optional>
#include <tuple>

// The cached cuBLASLt tier needs CUDA's headers (fastlaunch.builds defines
// FASTLAUNCH_CUBLASLT where it found them) and ATen's cuBLASLt workspace
// (torch 2.9 and later).
#if defined(FASTLAUNCH_TORCH_CUDA) && defined(FASTLAUNCH_CUBLASLT) && \
    (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 9))
#define FASTLAUNCH_LT_TIER 1
#include <c10/cuda/CUDAGraphsC10Utils.h>
#include <c10/cuda/CUDAGuard.h>
#endif

#include "core/program_format.h"
#ifdef FASTLAUNCH_LT_TIER
#include "shims/cublaslt_plans.h"
#endif

namespace {

// The native kinds and a CALL's sub bits (kind | folded views << kViewShift).
using namespace fastlaunch::program_format;  // NOLINT(google-build-using-namespace)

constexpr int kMaxParams = 10;

// One bound parameter: its Python value (NULL: not given) and, for a folded
// view operand, the view the shim made of its (base, size, stride, offset).
struct Param {
  PyObject* obj = nullptr;
  const at::Tensor* view = nullptr;
};

// Binds vectorcall arguments to parameter names, as the binding's parser
// would: the first `positional` names may come by position, any by keyword.
// False (declined) on anything it does not take: too many, unknown or
// repeated names.
bool Bind(PyObject* const* args, size_t npos, PyObject* kwnames, const at::Tensor* views,
          const char* const* names, int n_names, int positional, Param* out) {
  for (int i = 0; i < n_names; ++i) out[i] = Param{};
  if (npos > static_cast<size_t>(positional)) return false;
  auto at_index = [&](size_t i) {
    return Param{args[i], i < kMaxViewOperands && views[i].defined() ? &views[i] : nullptr};
  };
  for (size_t i = 0; i < npos; ++i) out[i] = at_index(i);
  Py_ssize_t n_kw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < n_kw; ++k) {
    const char* name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (name == nullptr) {
      PyErr_Clear();
      return false;
    }
    int at = -1;
    for (int i = 0; i < n_names && at < 0; ++i) {
      if (std::strcmp(names[i], name) == 0) at = i;
    }
    if (at < 0 || out[at].obj != nullptr) return false;
    out[at] = at_index(npos + static_cast<size_t>(k));
  }
  return true;
}

// A tensor the binding would pass on unchanged: a torch.Tensor or an
// nn.Parameter (whose __torch_function__ is the disabled one), no torch
// function mode active. Subclasses are declined: theirs may override it.
bool PlainTensor(PyObject* obj) {
  PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(obj));
  return (type == THPVariableClass || type == ParameterClass) &&
         !at::impl::torch_function_mode_enabled();
}

bool TensorArg(const Param& p, const at::Tensor** tensor) {
  if (p.view != nullptr) {
    *tensor = p.view;
    return true;
  }
  if (p.obj == nullptr || !PlainTensor(p.obj)) return false;
  *tensor = &THPVariable_Unpack(p.obj);
  return true;
}

bool OptionalTensorArg(const Param& p, std::optional<at::Tensor>* tensor) {
  if (p.view == nullptr && (p.obj == nullptr || p.obj == Py_None)) return true;
  const at::Tensor* t = nullptr;
  if (!TensorArg(p, &t)) return false;
  *tensor = *t;
  return true;
}

// What every scalar reader settles before it converts: a folded view is no
// scalar (false: declined), a parameter not given takes `fallback` (true).
// Empty: the reader converts p.obj.
template <typename T>
std::optional<bool> Preset(const Param& p, const T& fallback, T* value) {
  if (p.view != nullptr) return false;
  if (p.obj != nullptr) return std::nullopt;
  *value = fallback;
  return true;
}

// A Scalar from a Python bool, int or float (what the binding accepts for
// `Scalar beta=1`); missing: `fallback`.
bool ScalarArg(const Param& p, const at::Scalar& fallback, at::Scalar* scalar) {
  if (auto settled = Preset(p, fallback, scalar)) return *settled;
  PyObject* obj = p.obj;
  if (PyBool_Check(obj)) {
    *scalar = at::Scalar(obj == Py_True);
    return true;
  }
  if (PyLong_CheckExact(obj)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    *scalar = at::Scalar(static_cast<int64_t>(v));
    return true;
  }
  if (PyFloat_CheckExact(obj)) {
    *scalar = at::Scalar(PyFloat_AS_DOUBLE(obj));
    return true;
  }
  return false;
}

bool BoolArg(const Param& p, bool fallback, bool* value) {
  if (auto settled = Preset(p, fallback, value)) return *settled;
  PyObject* obj = p.obj;
  if (!PyBool_Check(obj)) return false;
  *value = obj == Py_True;
  return true;
}

bool DoubleArg(const Param& p, double fallback, double* value) {
  if (auto settled = Preset(p, fallback, value)) return *settled;
  PyObject* obj = p.obj;
  if (PyFloat_CheckExact(obj)) {
    *value = PyFloat_AS_DOUBLE(obj);
    return true;
  }
  if (PyLong_CheckExact(obj)) {
    *value = PyLong_AsDouble(obj);
    if (*value == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    return true;
  }
  return false;
}

bool OptionalDoubleArg(const Param& p, std::optional<double>* value) {
  if (p.view == nullptr && (p.obj == nullptr || p.obj == Py_None)) return true;
  double v = 0.0;
  if (!DoubleArg(p, 0.0, &v)) return false;
  *value = v;
  return true;
}

bool IntArg(PyObject* obj, int64_t* value) {
  if (obj == nullptr || !PyLong_CheckExact(obj)) return false;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  *value = static_cast<int64_t>(v);
  return true;
}

bool IntParam(const Param& p, int64_t* value) {
  return p.view == nullptr && IntArg(p.obj, value);
}

// A tuple or list of Python ints (an `int[]` argument), at most 8 long.
struct IntList {
  int64_t values[8];
  size_t size = 0;
  at::IntArrayRef ref() const { return at::IntArrayRef(values, size); }
};

bool IntListArg(const Param& p, IntList* list) {
  PyObject* obj = p.view != nullptr ? nullptr : p.obj;
  if (obj == nullptr || !(PyTuple_CheckExact(obj) || PyList_CheckExact(obj))) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
  if (n > 8) return false;
  PyObject** items = PySequence_Fast_ITEMS(obj);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!IntArg(items[i], &list->values[i])) return false;
  }
  list->size = static_cast<size_t>(n);
  return true;
}

PyObject* NewRef(PyObject* obj) {
  Py_INCREF(obj);
  return obj;
}

// The ATen call with the GIL released, as the Python bindings make it.
template <typename F>
auto WithoutGil(F&& f) {
  struct Release {
    PyThreadState* state = PyEval_SaveThread();
    ~Release() { PyEval_RestoreThread(state); }
  } release;
  return f();
}

// Calls run through static dispatch (at::cpu::mm_out, at::cuda::mm_out, ...,
// as AOTI's C shim calls them), per kind; the rest went through the dispatcher.
uint64_t g_static_ops[kNativeKinds] = {};  // under the GIL
bool g_prepared = true;  // FASTLAUNCH_PREPARED_OPS (aten_ops.py sets it at load), under the GIL
bool g_cublaslt = true;  // with g_prepared: the cached cuBLASLt tier too (A/B measurements)

// The backend kernel the dispatcher would end at for these tensors (nullptr:
// an optional tensor not given), when the keys it passes on the way are only
// the Autograd and ADInplaceOrView kernels (and BackendSelect's fallthrough),
// whose work the static call does itself: their checks (it declines where an
// out= op's would raise and a functional op's would record a grad_fn: grad
// needed, forward AD), their TLS and an out= op's version bump of `out` (a
// functional op's ADInplaceOrView kernel is a fallthrough). Anything else on
// the way (autocast on, a dispatch mode, functionalization, conjugate or
// negative bits, sparse, nested, mixed devices), or a RecordFunction callback
// that the dispatcher would call for the op (an execution-trace observer, any
// at::addGlobalCallback user): nullopt, and the dispatcher runs the call.
struct StaticRoute {
  c10::DeviceType device;
  bool bump_version;
  bool autograd;  // the Autograd kernel is on the way (it sets the TLS below it)
};

std::optional<StaticRoute> RouteStatically(std::initializer_list<const at::Tensor*> tensors) {
  if (at::hasCallbacks()) return std::nullopt;
  const c10::DeviceType device = tensors.begin()[0]->device().type();
  c10::DispatchKey dense, autograd;
  if (device == c10::DeviceType::CPU) {
    dense = c10::DispatchKey::CPU;
    autograd = c10::DispatchKey::AutogradCPU;
#ifdef FASTLAUNCH_TORCH_CUDA
  } else if (device == c10::DeviceType::CUDA) {
    dense = c10::DispatchKey::CUDA;
    autograd = c10::DispatchKey::AutogradCUDA;
#endif
  } else {
    return std::nullopt;
  }
  c10::DispatchKeySet keys;
  bool requires_grad = false, forward_ad = false;
  for (const at::Tensor* t : tensors) {
    if (t == nullptr) continue;
    keys = keys | t->key_set();
    requires_grad = requires_grad || t->requires_grad();
    forward_ad = forward_ad || t->_fw_grad(0).defined();
  }
  // (not const: torch before 2.8 declares DispatchKeySet::raw_repr non-const)
  c10::DispatchKeySet effective =
      c10::impl::computeDispatchKeySet(keys, c10::DispatchKeySet(c10::DispatchKeySet::FULL));
  // BackendSelect is in every thread's included set; for these ops it is a
  // fallthrough (it has kernels for factory functions only).
  c10::DispatchKeySet passed(
      {dense, autograd, c10::DispatchKey::ADInplaceOrView, c10::DispatchKey::BackendSelect});
  // (raw bits: DispatchKeySet's `-` never removes backend bits, and a second
  // device's bit must decline too)
  if (!effective.has(dense) || (effective.raw_repr() & ~passed.raw_repr()) != 0) {
    return std::nullopt;
  }
  // The Autograd kernel raises for an out= op when grad is needed (GradMode
  // on) and after the call when forward AD is, and records a functional op's
  // grad_fn (and forward grads): the dispatcher's call does that.
  if (effective.has(autograd) &&
      ((requires_grad && c10::GradMode::is_enabled()) || forward_ad)) {
    return std::nullopt;
  }
  return StaticRoute{device, effective.has(c10::DispatchKey::ADInplaceOrView),
                     effective.has(autograd)};
}

// The static route of a functional op whose backend kernel (the one
// `at::<key>::op` calls) is registered for `device` alone; another device's
// call is the dispatcher's (it raises or reaches another kernel there).
std::optional<StaticRoute> RouteOn(c10::DeviceType device,
                                   std::initializer_list<const at::Tensor*> tensors) {
  if (!g_prepared) return std::nullopt;
  std::optional<StaticRoute> route = RouteStatically(tensors);
  if (!route || route->device != device) return std::nullopt;
  return route;
}

// A functional op through `static_call` (its backend kernel) where `route` is,
// else through `dispatched` (ATen's dispatcher). The kernel runs with the TLS
// the Autograd kernel, when it is on the way, sets below itself
// (at::AutoDispatchBelowADInplaceOrView: VariableType's guard for an op that is
// neither in-place nor a view), so what it calls inside sees the same keys.
template <typename Static, typename Dispatched>
auto RunFunctional(int kind, const std::optional<StaticRoute>& route, Static&& static_call,
                   Dispatched&& dispatched) {
  if (!route) return WithoutGil(dispatched);
  auto result = WithoutGil([&] {
    std::optional<at::AutoDispatchBelowADInplaceOrView> below;
    if (route->autograd) below.emplace();
    return static_call();
  });
  ++g_static_ops[kind];  // ran (an error propagates uncounted, as call.native_op)
  return result;
}

// One GEMM on its backend kernel, with the TLS the Autograd kernel, when it is
// on the way, sets below itself (so what the kernel calls inside sees the same
// keys), then the version bump ADInplaceOrView makes after an out= op.
void StaticGemm(const StaticRoute& route, int kind, at::Tensor& out, const at::Tensor* x,
                const at::Tensor& a, const at::Tensor& b, const at::Scalar& beta,
                const at::Scalar& alpha) {
  {
    std::optional<at::AutoDispatchBelowADInplaceOrView> below;
    if (route.autograd) below.emplace();
#ifdef FASTLAUNCH_TORCH_CUDA
    if (route.device == c10::DeviceType::CUDA) {
      switch (kind) {
        case kMm: at::cuda::mm_out(out, a, b); break;
        case kBmm: at::cuda::bmm_out(out, a, b); break;
        case kAddmm: at::cuda::addmm_out(out, *x, a, b, beta, alpha); break;
        default: at::cuda::baddbmm_out(out, *x, a, b, beta, alpha); break;
      }
    } else
#endif
    {
      switch (kind) {
        case kMm: at::cpu::mm_out(out, a, b); break;
        case kBmm: at::cpu::bmm_out(out, a, b); break;
        case kAddmm: at::cpu::addmm_out(out, *x, a, b, beta, alpha); break;
        default: at::cpu::baddbmm_out(out, *x, a, b, beta, alpha); break;
      }
    }
  }
  if (route.bump_version) torch::autograd::impl::bump_version(out);
}

#ifdef FASTLAUNCH_LT_TIER
// The cached cuBLASLt tier (shims/cublaslt_plans.h): the plans, and per
// kind the GEMMs they ran and per reason the CUDA GEMMs they did not.
static_assert(kMm == 1 && kAddmm == 2 && kBmm == 3 && kBaddbmm == 4, "the GEMMs come first");
fastlaunch::cublaslt::Plans g_plans;                               // under the GIL
uint64_t g_planned_gemms[kBaddbmm + 1] = {};                       // under the GIL
uint64_t g_kept_static[fastlaunch::cublaslt::kDeclineCount] = {};  // under the GIL

// Runs a CUDA GEMM through its problem's plan (nullopt), or returns why not
// (nothing ran, static dispatch takes the call). A problem's first call builds
// and checks its plan, then runs ATen's kernel like any call that is declined.
// A plan that fails to build, or whose cuBLASLt call fails (nothing was
// queued), is refused for good with one warning naming the problem and why.
std::optional<fastlaunch::cublaslt::Decline> TryPlanned(
    const StaticRoute& route, int kind, at::Tensor& out, const at::Tensor* x,
    const at::Tensor& a, const at::Tensor& b, const at::Scalar& beta, const at::Scalar& alpha) {
  namespace lt = fastlaunch::cublaslt;
  c10::cuda::CUDAGuard device(out.device());  // Describe reads the device's workspace size
  lt::Call call;
  if (auto declined = lt::Describe(kind, out, x, a, b, beta, alpha, &call)) return declined;
  auto found = g_plans.find(call.problem);
  if (found == g_plans.end()) {
    const bool large = lt::Large(call.problem);
    if (g_plans.size() >= lt::kMaxPlans) return large ? lt::kLarge : lt::kFull;
    if (large) {  // a negative entry: later calls find it without measuring again
      auto plan = std::make_unique<lt::Plan>();
      plan->refused = lt::kLarge;
      g_plans.emplace(call.problem, std::move(plan));
      return lt::kLarge;
    }
    if (c10::cuda::warning_state().get_sync_debug_mode() !=
        c10::cuda::SyncDebugMode::L_DISABLED) {
      return lt::kSyncDebug;  // the check synchronizes: it would warn or raise there
    }
    if (c10::cuda::currentStreamCaptureStatusMayInitCtx() != c10::cuda::CaptureStatus::None) {
      return lt::kCapture;  // the check synchronizes: a call outside a capture plans it
    }
    if (!lt::FindWorkspace(static_cast<size_t>(call.problem.v[lt::Problem::kWorkspace]))) {
      return lt::kWorkspace;  // not kept: ATen may make one later
    }
    const StaticRoute scratch{route.device, false, route.autograd};  // no version to bump
    auto reference = [&](at::Tensor& o, const at::Tensor* bias, const at::Tensor& m1,
                         const at::Tensor& m2) {
      StaticGemm(scratch, kind, o, bias, m1, m2, beta, alpha);
    };
    std::unique_ptr<lt::Plan> plan;
    try {
      plan = WithoutGil([&] { return lt::MakePlan(call, out, x, a, b, reference); });
    } catch (const lt::NoWorkspace&) {
      return lt::kWorkspace;  // cleared meanwhile: not kept
    } catch (const std::exception& err) {
      TORCH_WARN("fastlaunch: no cuBLASLt plan for the GEMM (", lt::Text(call.problem),
                 "): ", err.what(), "; it keeps ATen's kernel");
      plan = std::make_unique<lt::Plan>();
      plan->refused = lt::kError;
    }
    const std::optional<lt::Decline> refused = plan->refused;
    g_plans.emplace(call.problem, std::move(plan));
    return refused.value_or(lt::kFirstCall);
  }
  lt::Plan& plan = *found->second;
  if (plan.refused) return plan.refused;
  try {
    WithoutGil([&] { lt::Run(plan, call); });
  } catch (const lt::NoWorkspace&) {
    return lt::kWorkspace;
  } catch (const c10::Error& err) {  // cuBLASLt refused the call: nothing was queued
    TORCH_WARN("fastlaunch: the cuBLASLt plan of the GEMM (", lt::Text(call.problem),
               ") failed: ", err.what_without_backtrace(), "; it keeps ATen's kernel");
    plan.refused = lt::kError;
    return lt::kError;
  }
  if (route.bump_version) torch::autograd::impl::bump_version(out);
  return std::nullopt;
}
#endif  // FASTLAUNCH_LT_TIER

// torch.mm / torch.bmm (a, b, *, out=out); torch.addmm / torch.baddbmm
// (input, a, b, *, beta=1, alpha=1, out=out): the out= forms Inductor writes.
PyObject* Gemm(int kind, PyObject* const* args, size_t npos, PyObject* kwnames,
                const at::Tensor* views) {
  static const char* const kPlain[] = {"input", "mat2", "out"};
  static const char* const kAdd[] = {"input", "mat1", "mat2", "beta", "alpha", "out"};
  static const char* const kBatch[] = {"input", "batch1", "batch2", "beta", "alpha", "out"};
  bool add = kind == kAddmm || kind == kBaddbmm;
  Param p[kMaxParams];
  const char* const* names = add ? (kind == kAddmm ? kAdd : kBatch) : kPlain;
  if (!Bind(args, npos, kwnames, views, names, add ? 6 : 3, add ? 3 : 2, p)) return nullptr;
  const Param& out_param = p[add ? 5 : 2];
  const at::Tensor *out = nullptr, *x = nullptr, *a = nullptr, *b = nullptr;
  at::Scalar beta(1), alpha(1);
  // no out= (a new tensor) or a folded view as out: left to Python
  if (out_param.view != nullptr || !TensorArg(out_param, &out)) return nullptr;
  if (add) {
    if (!TensorArg(p[0], &x) || !TensorArg(p[1], &a) || !TensorArg(p[2], &b) ||
        !ScalarArg(p[3], at::Scalar(1), &beta) || !ScalarArg(p[4], at::Scalar(1), &alpha)) {
      return nullptr;
    }
  } else if (!TensorArg(p[0], &a) || !TensorArg(p[1], &b)) {
    return nullptr;
  }
  at::Tensor& target = const_cast<at::Tensor&>(*out);
  std::optional<StaticRoute> route;
  if (g_prepared) route = add ? RouteStatically({out, x, a, b}) : RouteStatically({out, a, b});
  if (route) {
#ifdef FASTLAUNCH_LT_TIER
    if (route->device == c10::DeviceType::CUDA && g_cublaslt) {
      const auto why = TryPlanned(*route, kind, target, x, *a, *b, beta, alpha);
      if (!why) {
        ++g_planned_gemms[kind];
        return NewRef(out_param.obj);
      }
      WithoutGil([&] { StaticGemm(*route, kind, target, x, *a, *b, beta, alpha); });
      ++g_kept_static[*why];  // ran (an error propagates uncounted)
      ++g_static_ops[kind];
      return NewRef(out_param.obj);
    }
#endif
    WithoutGil([&] { StaticGemm(*route, kind, target, x, *a, *b, beta, alpha); });
    ++g_static_ops[kind];  // ran (an error propagates uncounted, as call.native_op)
  } else {
    WithoutGil([&] {
      switch (kind) {
        case kMm: return at::mm_out(target, *a, *b);
        case kBmm: return at::bmm_out(target, *a, *b);
        case kAddmm: return at::addmm_out(target, *x, *a, *b, beta, alpha);
        default: return at::baddbmm_out(target, *x, *a, *b, beta, alpha);
      }
    });
  }
  return NewRef(out_param.obj);  // the binding returns the out tensor's own object
}

// The 9-tuple of _scaled_dot_product_{flash,cudnn}_attention, as torch.ops
// returns it: its SymInts (max_q, max_k) as Python ints.
using FusedAttention = std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, c10::SymInt,
                                  c10::SymInt, at::Tensor, at::Tensor, at::Tensor>;

PyObject* FusedAttentionTuple(const FusedAttention& r) {
  // the ints first: expect_int may throw, and no new reference may be made before it
  const auto max_q = static_cast<long long>(std::get<4>(r).expect_int());
  const auto max_k = static_cast<long long>(std::get<5>(r).expect_int());
  return Py_BuildValue(
      "(NNNNLLNNN)", THPVariable_Wrap(std::get<0>(r)), THPVariable_Wrap(std::get<1>(r)),
      THPVariable_Wrap(std::get<2>(r)), THPVariable_Wrap(std::get<3>(r)), max_q, max_k,
      THPVariable_Wrap(std::get<6>(r)), THPVariable_Wrap(std::get<7>(r)),
      THPVariable_Wrap(std::get<8>(r)));
}

// aten._scaled_dot_product_efficient_attention.default(query, key, value,
// attn_bias, compute_log_sumexp, dropout_p=0.0, is_causal=False, *, scale=None).
PyObject* SdpaEfficient(PyObject* const* args, size_t npos, PyObject* kwnames,
                        const at::Tensor* views) {
  static const char* const kNames[] = {"query", "key", "value", "attn_bias",
                                       "compute_log_sumexp", "dropout_p", "is_causal", "scale"};
  Param p[kMaxParams];
  if (!Bind(args, npos, kwnames, views, kNames, 8, 7, p) || p[3].obj == nullptr ||
      p[4].obj == nullptr) {
    return nullptr;
  }
  const at::Tensor *q = nullptr, *k = nullptr, *v = nullptr;
  std::optional<at::Tensor> bias;
  bool lse = false, causal = false;
  double dropout = 0.0;
  std::optional<double> scale;
  if (!TensorArg(p[0], &q) || !TensorArg(p[1], &k) || !TensorArg(p[2], &v) ||
      !OptionalTensorArg(p[3], &bias) || !BoolArg(p[4], false, &lse) ||
      !DoubleArg(p[5], 0.0, &dropout) || !BoolArg(p[6], false, &causal) ||
      !OptionalDoubleArg(p[7], &scale)) {
    return nullptr;
  }
  auto dispatched = [&] {
    return at::_scaled_dot_product_efficient_attention(*q, *k, *v, bias, lse, dropout, causal,
                                                       scale);
  };
#ifdef FASTLAUNCH_TORCH_CUDA
  auto r = RunFunctional(
      kScaledDotProductEfficientAttention,
      RouteOn(c10::DeviceType::CUDA, {q, k, v, bias ? &*bias : nullptr}),
      [&] {
        return at::cuda::_scaled_dot_product_efficient_attention(*q, *k, *v, bias, lse, dropout,
                                                                 causal, scale);
      },
      dispatched);
#else
  auto r = WithoutGil(dispatched);  // its only kernel is CUDA's, not in this torch
#endif
  return Py_BuildValue("(NNNN)", THPVariable_Wrap(std::get<0>(r)),
                       THPVariable_Wrap(std::get<1>(r)), THPVariable_Wrap(std::get<2>(r)),
                       THPVariable_Wrap(std::get<3>(r)));
}

// aten._scaled_dot_product_flash_attention.default(query, key, value,
// dropout_p=0.0, is_causal=False, return_debug_mask=False, *, scale=None).
PyObject* SdpaFlash(PyObject* const* args, size_t npos, PyObject* kwnames,
                    const at::Tensor* views) {
  static const char* const kNames[] = {"query",     "key",               "value", "dropout_p",
                                       "is_causal", "return_debug_mask", "scale"};
  Param p[kMaxParams];
  if (!Bind(args, npos, kwnames, views, kNames, 7, 6, p)) return nullptr;
  const at::Tensor *q = nullptr, *k = nullptr, *v = nullptr;
  bool causal = false, debug_mask = false;
  double dropout = 0.0;
  std::optional<double> scale;
  if (!TensorArg(p[0], &q) || !TensorArg(p[1], &k) || !TensorArg(p[2], &v) ||
      !DoubleArg(p[3], 0.0, &dropout) || !BoolArg(p[4], false, &causal) ||
      !BoolArg(p[5], false, &debug_mask) || !OptionalDoubleArg(p[6], &scale)) {
    return nullptr;
  }
  auto dispatched = [&] {
    return at::_scaled_dot_product_flash_attention(*q, *k, *v, dropout, causal, debug_mask,
                                                   scale);
  };
#ifdef FASTLAUNCH_TORCH_CUDA
  FusedAttention r = RunFunctional(
      kScaledDotProductFlashAttention, RouteOn(c10::DeviceType::CUDA, {q, k, v}),
      [&] {
        return at::cuda::_scaled_dot_product_flash_attention(*q, *k, *v, dropout, causal,
                                                             debug_mask, scale);
      },
      dispatched);
#else
  FusedAttention r = WithoutGil(dispatched);  // its only kernel is CUDA's, not in this torch
#endif
  return FusedAttentionTuple(r);
}

// aten._scaled_dot_product_cudnn_attention.default(query, key, value, attn_bias,
// compute_log_sumexp, dropout_p=0.0, is_causal=False, return_debug_mask=False,
// *, scale=None).
PyObject* SdpaCudnn(PyObject* const* args, size_t npos, PyObject* kwnames,
                    const at::Tensor* views) {
  static const char* const kNames[] = {"query",     "key",       "value",
                                       "attn_bias", "compute_log_sumexp", "dropout_p",
                                       "is_causal", "return_debug_mask",  "scale"};
  Param p[kMaxParams];
  if (!Bind(args, npos, kwnames, views, kNames, 9, 8, p) || p[3].obj == nullptr ||
      p[4].obj == nullptr) {
    return nullptr;
  }
  const at::Tensor *q = nullptr, *k = nullptr, *v = nullptr;
  std::optional<at::Tensor> bias;
  bool lse = false, causal = false, debug_mask = false;
  double dropout = 0.0;
  std::optional<double> scale;
  if (!TensorArg(p[0], &q) || !TensorArg(p[1], &k) || !TensorArg(p[2], &v) ||
      !OptionalTensorArg(p[3], &bias) || !BoolArg(p[4], false, &lse) ||
      !DoubleArg(p[5], 0.0, &dropout) || !BoolArg(p[6], false, &causal) ||
      !BoolArg(p[7], false, &debug_mask) || !OptionalDoubleArg(p[8], &scale)) {
    return nullptr;
  }
  auto dispatched = [&] {
    return at::_scaled_dot_product_cudnn_attention(*q, *k, *v, bias, lse, dropout, causal,
                                                   debug_mask, scale);
  };
#ifdef FASTLAUNCH_TORCH_CUDA
  FusedAttention r = RunFunctional(
      kScaledDotProductCudnnAttention,
      RouteOn(c10::DeviceType::CUDA, {q, k, v, bias ? &*bias : nullptr}),
      [&] {
        return at::cuda::_scaled_dot_product_cudnn_attention(*q, *k, *v, bias, lse, dropout,
                                                             causal, debug_mask, scale);
      },
      dispatched);
#else
  FusedAttention r = WithoutGil(dispatched);  // its only kernel is CUDA's, not in this torch
#endif
  return FusedAttentionTuple(r);
}

// aten._scaled_dot_product_flash_attention_for_cpu.default(query, key, value,
// dropout_p=0.0, is_causal=False, *, attn_mask=None, scale=None).
PyObject* SdpaFlashCpu(PyObject* const* args, size_t npos, PyObject* kwnames,
                       const at::Tensor* views) {
  static const char* const kNames[] = {"query", "key", "value", "dropout_p", "is_causal",
                                       "attn_mask", "scale"};
  Param p[kMaxParams];
  if (!Bind(args, npos, kwnames, views, kNames, 7, 5, p)) return nullptr;
  const at::Tensor *q = nullptr, *k = nullptr, *v = nullptr;
  std::optional<at::Tensor> mask;
  bool causal = false;
  double dropout = 0.0;
  std::optional<double> scale;
  if (!TensorArg(p[0], &q) || !TensorArg(p[1], &k) || !TensorArg(p[2], &v) ||
      !DoubleArg(p[3], 0.0, &dropout) || !BoolArg(p[4], false, &causal) ||
      !OptionalTensorArg(p[5], &mask) || !OptionalDoubleArg(p[6], &scale)) {
    return nullptr;
  }
  auto r = RunFunctional(
      kScaledDotProductFlashAttentionForCpu,
      RouteOn(c10::DeviceType::CPU, {q, k, v, mask ? &*mask : nullptr}),
      [&] {
        return at::cpu::_scaled_dot_product_flash_attention_for_cpu(*q, *k, *v, dropout, causal,
                                                                    mask, scale);
      },
      [&] {
        return at::_scaled_dot_product_flash_attention_for_cpu(*q, *k, *v, dropout, causal, mask,
                                                               scale);
      });
  return Py_BuildValue("(NN)", THPVariable_Wrap(std::get<0>(r)),
                       THPVariable_Wrap(std::get<1>(r)));
}

// torch.convolution(input, weight, bias, stride, padding, dilation, transposed,
// output_padding, groups), as extern_kernels.convolution is called. Its kernel is
// CompositeExplicitAutograd's for every backend (AOTI's C shim calls it so too).
PyObject* Convolution(PyObject* const* args, size_t npos, PyObject* kwnames,
                      const at::Tensor* views) {
  static const char* const kNames[] = {"input", "weight", "bias", "stride", "padding",
                                       "dilation", "transposed", "output_padding", "groups"};
  Param p[kMaxParams];
  if (!Bind(args, npos, kwnames, views, kNames, 9, 9, p)) return nullptr;
  const at::Tensor *x = nullptr, *w = nullptr;
  std::optional<at::Tensor> bias;
  IntList stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 0;
  if (p[2].obj == nullptr || p[6].obj == nullptr || !TensorArg(p[0], &x) ||
      !TensorArg(p[1], &w) || !OptionalTensorArg(p[2], &bias) || !IntListArg(p[3], &stride) ||
      !IntListArg(p[4], &padding) || !IntListArg(p[5], &dilation) ||
      !BoolArg(p[6], false, &transposed) || !IntListArg(p[7], &output_padding) ||
      !IntParam(p[8], &groups)) {
    return nullptr;
  }
  std::optional<StaticRoute> route;
  if (g_prepared) route = RouteStatically({x, w, bias ? &*bias : nullptr});
  at::Tensor r = RunFunctional(
      kConvolution, route,
      [&] {
        return at::compositeexplicitautograd::convolution(
            *x, *w, bias, stride.ref(), padding.ref(), dilation.ref(), transposed,
            output_padding.ref(), groups);
      },
      [&] {
        return at::convolution(*x, *w, bias, stride.ref(), padding.ref(), dilation.ref(),
                               transposed, output_padding.ref(), groups);
      });
  return THPVariable_Wrap(std::move(r));
}

// An exact tuple of exact Python ints that fit int64_t (non-negative with
// `sizes`, as guards.cpp's unwrap_size_tuple requires): what torch's C
// functions take without any conversion.
bool IntTuple(PyObject* obj, bool sizes, c10::SmallVector<int64_t, 8>* out) {
  if (!PyTuple_CheckExact(obj)) return false;
  Py_ssize_t n = PyTuple_GET_SIZE(obj);
  out->resize(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    int64_t v = 0;
    if (!IntArg(PyTuple_GET_ITEM(obj, i), &v) || (sizes && v < 0)) return false;
    (*out)[static_cast<size_t>(i)] = v;
  }
  return true;
}

bool HasKeywords(PyObject* kwnames) {
  return kwnames != nullptr && PyTuple_GET_SIZE(kwnames) > 0;
}

// torch._C._dynamo.guards._empty_strided_{cpu,cuda}(size, stride, dtype):
// METH_VARARGS, exactly three positional arguments, no torch function
// handling (so a mode does not see it in Python either).
PyObject* EmptyStridedOn(int kind, PyObject* const* args, size_t npos, PyObject* kwnames) {
  c10::SmallVector<int64_t, 8> size, stride;
  if (HasKeywords(kwnames) || npos != 3 || !IntTuple(args[0], true, &size) ||
      !IntTuple(args[1], true, &stride) || !THPDtype_Check(args[2])) {
    return nullptr;
  }
  at::ScalarType dtype = reinterpret_cast<THPDtype*>(args[2])->scalar_type;
  if (kind == kEmptyStridedCpu) {
    return THPVariable_Wrap(at::detail::empty_strided_cpu(size, stride, dtype));
  }
#ifdef FASTLAUNCH_TORCH_CUDA
  return THPVariable_Wrap(
      at::detail::empty_strided_cuda(size, stride, dtype, c10::DeviceType::CUDA));
#else
  return nullptr;  // built without libtorch_cuda: Python runs it
#endif
}

// torch.empty_strided(size, stride, *, dtype=dtype, device=device): the
// allocation Inductor writes for a device with no _empty_strided_<device> (on
// Ascend, device='npu'). Taken in exactly that form (two tuples of ints, dtype
// and device as keywords, the device a str or a torch.device; no torch
// function mode, which sees factory calls): what torch's binding then does,
// the device's lazy init and torch::empty_strided through the dispatcher, so
// the device's own kernel allocates (torch_npu's on PrivateUse1). Anything
// else, an unparsable device string included, is left to the binding.
PyObject* EmptyStrided(PyObject* const* args, size_t npos, PyObject* kwnames) {
  c10::SmallVector<int64_t, 8> size, stride;
  if (npos != 2 || kwnames == nullptr || PyTuple_GET_SIZE(kwnames) != 2 ||
      at::impl::torch_function_mode_enabled() || !IntTuple(args[0], true, &size) ||
      !IntTuple(args[1], false, &stride)) {
    return nullptr;
  }
  PyObject *dtype = nullptr, *device = nullptr;
  for (Py_ssize_t k = 0; k < 2; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    PyObject* value = args[npos + static_cast<size_t>(k)];
    if (PyUnicode_CompareWithASCIIString(name, "dtype") == 0) {
      dtype = value;
    } else if (PyUnicode_CompareWithASCIIString(name, "device") == 0) {
      device = value;
    }
  }
  if (dtype == nullptr || device == nullptr || !THPDtype_Check(dtype)) return nullptr;
  std::optional<at::Device> where;
  if (THPDevice_Check(device)) {
    where = reinterpret_cast<THPDevice*>(device)->device;
  } else if (PyUnicode_CheckExact(device)) {
    const char* text = PyUnicode_AsUTF8(device);
    if (text == nullptr) return nullptr;  // the error propagates
    try {
      where = at::Device(std::string(text));
    } catch (const c10::Error&) {
      return nullptr;  // the binding parses it again and raises its own error
    }
  } else {
    return nullptr;
  }
  const at::TensorOptions options = at::TensorOptions()
                                        .dtype(reinterpret_cast<THPDtype*>(dtype)->scalar_type)
                                        .device(*where);
  torch::utils::maybe_initialize_device(options);
  return THPVariable_Wrap(WithoutGil([&] { return torch::empty_strided(size, stride, options); }));
}

// torch._C._dynamo.guards._reinterpret_tensor(base, sizes, strides,
// offset_increment=0): METH_VARARGS (torch's parser gets no kwargs); its
// parser is traceable, so a torch function mode or a subclass base is declined.
PyObject* ReinterpretTensor(PyObject* const* args, size_t npos, PyObject* kwnames) {
  c10::SmallVector<int64_t, 8> size, stride;
  int64_t offset = 0;
  if (HasKeywords(kwnames) || npos < 3 || npos > 4 || !PlainTensor(args[0]) ||
      !IntTuple(args[1], false, &size) || !IntTuple(args[2], false, &stride) ||
      (npos == 4 && !IntArg(args[3], &offset))) {
    return nullptr;
  }
  return THPVariable_Wrap(
      torch::inductor::_reinterpret_tensor(THPVariable_Unpack(args[0]), size, stride, offset));
}

// torch._C._dynamo.guards.assert_alignment(tensor, alignment[, op_name]):
// METH_VARARGS; true when the tensor's storage offset in bytes is a multiple of
// `alignment`, as torch's own test computes it. Only that passing case runs
// here; a tensor it would refuse, an alignment of 0 or any other form declines,
// and torch's function raises its own error.
PyObject* AssertAlignment(PyObject* const* args, size_t npos, PyObject* kwnames) {
  int64_t alignment = 0;
  if (HasKeywords(kwnames) || npos < 2 || npos > 3 || !PlainTensor(args[0]) ||
      !IntArg(args[1], &alignment) || alignment <= 0) {
    return nullptr;
  }
  if (npos == 3) {  // what the "s" format takes: a str whose UTF-8 has no NUL
    if (!PyUnicode_Check(args[2])) return nullptr;
    Py_ssize_t length = 0;
    const char* text = PyUnicode_AsUTF8AndSize(args[2], &length);
    if (text == nullptr) {
      if (!PyErr_ExceptionMatches(PyExc_Exception)) return nullptr;  // it propagates
      PyErr_Clear();  // torch's parser raises it again
      return nullptr;
    }
    if (std::strlen(text) != static_cast<size_t>(length)) return nullptr;
  }
  const c10::TensorImpl* impl = THPVariable_Unpack(args[0]).unsafeGetTensorImpl();
  if (impl->has_symbolic_sizes_strides()) return nullptr;
  const auto offset = static_cast<uint64_t>(impl->storage_offset());
  if (offset * impl->dtype().itemsize() % static_cast<uint64_t>(alignment) != 0) return nullptr;
  Py_RETURN_TRUE;
}

// The views of a call's folded operands (bit k of `views`: operand k), made
// by torch's own reinterpret_tensor function. False: declined.
bool MakeViews(PyObject* const* args, size_t n_args, int views, at::Tensor* out) {
  for (int k = 0; views != 0; views >>= 1, ++k) {
    if ((views & 1) == 0) continue;
    if (static_cast<size_t>(k) >= n_args || k >= kMaxViewOperands) return false;
    PyObject* spec = args[k];
    if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != 4) return false;
    PyObject* base = PyTuple_GET_ITEM(spec, 0);
    IntList size, stride;
    int64_t offset = 0;
    if (!PlainTensor(base) || !IntListArg(Param{PyTuple_GET_ITEM(spec, 1)}, &size) ||
        !IntListArg(Param{PyTuple_GET_ITEM(spec, 2)}, &stride) ||
        !IntArg(PyTuple_GET_ITEM(spec, 3), &offset)) {
      return false;
    }
    out[k] = torch::inductor::_reinterpret_tensor(THPVariable_Unpack(base), size.ref(),
                                                  stride.ref(), offset);
  }
  return true;
}

PyObject* Dispatch(int sub, PyObject* const* args, size_t npos, PyObject* kwnames) {
  at::Tensor views[kMaxViewOperands];
  size_t n_args = npos + (kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames));
  if (!MakeViews(args, n_args, sub >> kViewShift, views)) return nullptr;
  int kind = sub & kNativeKindMask;
  switch (kind) {
    case kMm:
    case kAddmm:
    case kBmm:
    case kBaddbmm:
      return Gemm(kind, args, npos, kwnames, views);
    case kScaledDotProductEfficientAttention:
      return SdpaEfficient(args, npos, kwnames, views);
    case kScaledDotProductFlashAttentionForCpu:
      return SdpaFlashCpu(args, npos, kwnames, views);
    case kConvolution:
      return Convolution(args, npos, kwnames, views);
    case kScaledDotProductFlashAttention:
      return SdpaFlash(args, npos, kwnames, views);
    case kScaledDotProductCudnnAttention:
      return SdpaCudnn(args, npos, kwnames, views);
    case kReinterpretTensor:
      return ReinterpretTensor(args, npos, kwnames);
    case kEmptyStridedCpu:
    case kEmptyStridedCuda:
      return EmptyStridedOn(kind, args, npos, kwnames);
    case kEmptyStrided:
      return EmptyStrided(args, npos, kwnames);
    case kAssertAlignment:
      return AssertAlignment(args, npos, kwnames);
    default:
      return nullptr;  // a kind this build does not know: Python runs it
  }
}

}  // namespace

// A new reference; NULL with a Python error (torch's, as the binding raises
// it); NULL with no error: declined.
extern "C" PyObject* fastlaunch_aten_op(int sub, PyObject* const* args, size_t npos,
                                        PyObject* kwnames) {
  HANDLE_TH_ERRORS
  return Dispatch(sub, args, npos, kwnames);
  END_HANDLE_TH_ERRORS
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("capsule", []() {
    return py::capsule(reinterpret_cast<void*>(&fastlaunch_aten_op), "fastlaunch.aten_ops.v1");
  });
  m.def("static_ops", []() {
    py::dict counts;
    for (int kind = 1; kind < kNativeKinds; ++kind) {
      if (g_static_ops[kind] != 0) counts[py::int_(kind)] = g_static_ops[kind];
    }
    return counts;
  }, "{native kind: calls run through static dispatch} since the last reset (none: left out)");
  m.def("set_prepared_ops", [](bool on, bool cublaslt) {
    g_prepared = on;
    g_cublaslt = cublaslt;
  }, "ops through static dispatch where it is the same call, and the CUDA GEMMs the tier "
     "takes through checked cuBLASLt plans (cublaslt), or through ATen's dispatcher (on=False)");
  m.def("reset_static_ops", []() {
    for (uint64_t& count : g_static_ops) count = 0;
  });
  m.def("cublaslt", []() {
    py::dict gemms, declined;
#ifdef FASTLAUNCH_LT_TIER
    for (int kind = kMm; kind <= kBaddbmm; ++kind) {
      if (g_planned_gemms[kind] != 0) gemms[py::int_(kind)] = g_planned_gemms[kind];
    }
    for (int why = 0; why < fastlaunch::cublaslt::kDeclineCount; ++why) {
      if (g_kept_static[why] != 0) {
        declined[fastlaunch::cublaslt::kDeclineNames[why]] = g_kept_static[why];
      }
    }
    return py::make_tuple(true, gemms, declined);
#else
    return py::make_tuple(false, gemms, declined);
#endif
  }, "(built with the cuBLASLt tier, {native kind: GEMMs run through a plan}, "
     "{reason: CUDA GEMMs that kept static dispatch}) since the last reset");
  m.def("reset_cublaslt", []() {
#ifdef FASTLAUNCH_LT_TIER
    for (uint64_t& count : g_planned_gemms) count = 0;
    for (uint64_t& count : g_kept_static) count = 0;
#endif
  });
}
