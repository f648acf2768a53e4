// SPDX-License-Identifier: Apache-2.0
// Reads a torch.Tensor's data pointer in C++ (THPVariable_Unpack), skipping
// the Python data_ptr() method call per tensor argument. Built on first use
// against the installed torch (torch_accessor.py); the core gets the function
// through a PyCapsule and falls back to data_ptr() for anything it declines.
#include <torch/csrc/autograd/python_variable.h>
#include <torch/extension.h>

#include <cstdint>

extern "C" int fastlaunch_tensor_data_ptr(PyObject* obj, uint64_t* out) {
  if (!THPVariable_CheckExact(obj)) return 0;  // subclasses keep their own data_ptr()
  try {
    const at::Tensor& tensor = THPVariable_Unpack(obj);
    *out = reinterpret_cast<uint64_t>(tensor.data_ptr());
    return 1;
  } catch (...) {
    return 0;  // no storage (meta, fake): data_ptr() raises the proper error
  }
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("capsule", []() {
    return py::capsule(reinterpret_cast<void*>(&fastlaunch_tensor_data_ptr),
                       "fastlaunch.tensor_accessor");
  });
}
