// SPDX-License-Identifier: Apache-2.0
// What native segments could save per op (benchmarks/bench_segment_ceiling.py):
// each rung is a C++ loop timed around itself (ns for `iters` calls), cycling
// through the given (size, stride) problems. Pairs differ only in what
// segments would remove:
//   alloc_wrapped  the allocation as the ATen shim makes it today (guards'
//                  _empty_strided_<device>, a Python tensor, freed by its
//                  last reference: a `del`)
//   alloc_native   the same allocation kept in C++ and freed there
//   view_wrapped   torch's _reinterpret_tensor of a base, as a Python tensor
//   view_native    the same view kept in C++
//   gil_pair       one release and reacquire of the GIL (the shim releases it
//                  around each GEMM, SDPA and convolution, as torch's bindings do)
//   args_tuple     the tuple a launch's arguments are packed from today
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/inductor/inductor_ops.h>
#include <torch/extension.h>

#include <ATen/EmptyTensor.h>
#ifdef SEGMENT_CEILING_CUDA
#include <ATen/cuda/EmptyTensor.h>
#endif

#include <chrono>
#include <stdexcept>
#include <vector>

namespace {

struct Problem {
  std::vector<int64_t> size;
  std::vector<int64_t> stride;
};

using Given = std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>;

std::vector<Problem> ReadProblems(const Given& given) {
  if (given.empty()) throw std::invalid_argument("problems: got none, expected at least one");
  std::vector<Problem> out;
  for (const auto& [size, stride] : given) {
    if (size.size() != stride.size()) {
      throw std::invalid_argument("problems: a size and its stride differ in length");
    }
    out.push_back(Problem{size, stride});
  }
  return out;
}

at::Tensor Allocate(const Problem& p, bool cuda) {
#ifdef SEGMENT_CEILING_CUDA
  if (cuda) {
    return at::detail::empty_strided_cuda(p.size, p.stride, at::kFloat, c10::DeviceType::CUDA);
  }
#else
  if (cuda) throw std::invalid_argument("cuda: this build has no CUDA");
#endif
  return at::detail::empty_strided_cpu(p.size, p.stride, at::kFloat);
}

template <typename F>
int64_t Timed(int64_t iters, F&& body) {
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iters; ++i) body(i);
  auto elapsed = std::chrono::steady_clock::now() - t0;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
}

int64_t AllocWrapped(const Given& given, bool cuda, int64_t iters) {
  auto problems = ReadProblems(given);
  return Timed(iters, [&](int64_t i) {
    PyObject* t = THPVariable_Wrap(Allocate(problems[i % problems.size()], cuda));
    if (t == nullptr) throw pybind11::error_already_set();
    Py_DECREF(t);
  });
}

int64_t AllocNative(const Given& given, bool cuda, int64_t iters) {
  auto problems = ReadProblems(given);
  return Timed(iters, [&](int64_t i) {
    at::Tensor t = Allocate(problems[i % problems.size()], cuda);
  });
}

int64_t ViewWrapped(const at::Tensor& base, const Given& given, int64_t iters) {
  auto problems = ReadProblems(given);
  return Timed(iters, [&](int64_t i) {
    const Problem& p = problems[i % problems.size()];
    at::Tensor view = torch::inductor::_reinterpret_tensor(base, p.size, p.stride, 0);
    PyObject* t = THPVariable_Wrap(std::move(view));
    if (t == nullptr) throw pybind11::error_already_set();
    Py_DECREF(t);
  });
}

int64_t ViewNative(const at::Tensor& base, const Given& given, int64_t iters) {
  auto problems = ReadProblems(given);
  return Timed(iters, [&](int64_t i) {
    const Problem& p = problems[i % problems.size()];
    at::Tensor t = torch::inductor::_reinterpret_tensor(base, p.size, p.stride, 0);
  });
}

int64_t GilPair(int64_t iters) {
  return Timed(iters, [](int64_t) {
    PyThreadState* state = PyEval_SaveThread();
    PyEval_RestoreThread(state);
  });
}

int64_t ArgsTuple(pybind11::tuple args, int64_t iters) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  return Timed(iters, [&](int64_t) {
    PyObject* tuple = PyTuple_New(n);
    if (tuple == nullptr) throw pybind11::error_already_set();
    for (Py_ssize_t k = 0; k < n; ++k) {
      PyObject* item = PyTuple_GET_ITEM(args.ptr(), k);
      Py_INCREF(item);
      PyTuple_SET_ITEM(tuple, k, item);
    }
    Py_DECREF(tuple);
  });
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("alloc_wrapped", &AllocWrapped);
  m.def("alloc_native", &AllocNative);
  m.def("view_wrapped", &ViewWrapped);
  m.def("view_native", &ViewNative);
  m.def("gil_pair", &GilPair);
  m.def("args_tuple", &ArgsTuple);
}
