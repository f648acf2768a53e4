// SPDX-License-Identifier: Apache-2.0
// A tensor's sizes and strides read in C++, for the planned call's native
// size/stride asserts (csrc/engine/planned_call.cpp). Built against the installed
// torch by fastlaunch.builds (loaded by tensor_geometry.py); the core gets the function through a capsule.
#include <torch/csrc/autograd/python_variable.h>
#include <torch/extension.h>

#include <cstdint>

namespace {

// 1: *ndim, *sizes, *strides point into the tensor (valid while it lives);
// 0: declined (not a tensor, symbolic or Python-defined sizes): the caller
// runs the original assert instead.
int Geometry(PyObject* obj, int64_t* ndim, const int64_t** sizes, const int64_t** strides) {
  if (!THPVariable_Check(obj)) return 0;
  const at::Tensor& tensor = THPVariable_Unpack(obj);
  if (!tensor.defined()) return 0;
  c10::TensorImpl* impl = tensor.unsafeGetTensorImpl();
  if (impl->has_symbolic_sizes_strides() || impl->is_python_dispatch()) return 0;
  try {
    c10::IntArrayRef s = impl->sizes();
    c10::IntArrayRef st = impl->strides();
    *ndim = static_cast<int64_t>(s.size());
    *sizes = s.data();
    *strides = st.data();
    return 1;
  } catch (const std::exception&) {
    return 0;  // a layout without strides (sparse, nested): the original decides
  }
}

}  // namespace

extern "C" int fastlaunch_tensor_geometry(PyObject* obj, int64_t* ndim, const int64_t** sizes,
                                          const int64_t** strides) {
  return Geometry(obj, ndim, sizes, strides);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("capsule", []() {
    return py::capsule(reinterpret_cast<void*>(&fastlaunch_tensor_geometry),
                       "fastlaunch.tensor_geometry.v1");
  });
}
