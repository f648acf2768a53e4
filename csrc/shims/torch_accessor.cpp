// SPDX-License-Identifier: Apache-2.0
// Reads a torch.Tensor's data pointer and device in C++ (THPVariable_Unpack),
// skipping the Python data_ptr() method call per tensor argument. Built
// against the installed torch (torch_accessor.py); the core gets the function
// through a PyCapsule and falls back to data_ptr() for anything it declines.
#include <torch/csrc/autograd/python_variable.h>
#include <torch/extension.h>

#include <cstdint>

namespace {

// 1: *out (and the device) read; 0: declined, the caller uses data_ptr().
int Read(PyObject* obj, uint64_t* out, int32_t* device_type, int32_t* device_index) {
  if (!THPVariable_CheckExact(obj)) return 0;  // subclasses keep their own data_ptr()
  try {
    const at::Tensor& tensor = THPVariable_Unpack(obj);
    const c10::Device device = tensor.device();
    *out = reinterpret_cast<uint64_t>(tensor.data_ptr());
    *device_type = static_cast<int32_t>(device.type());
    *device_index = device.index();
    return 1;
  } catch (const std::exception&) {
    return 0;  // no storage (meta, fake): data_ptr() raises the proper error
  }
}

}  // namespace

// The accessor contract of csrc/core/plan.h (TensorAccessor): the pointer and the
// device (c10::DeviceType value and index; CPU tensors: 0 and -1), so the core
// can refuse a tensor that is not on the plan's device.
extern "C" int fastlaunch_tensor_device_ptr(PyObject* obj, uint64_t* out, int32_t* device_type,
                                            int32_t* device_index) {
  return Read(obj, out, device_type, device_index);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("capsule", []() {
    return py::capsule(reinterpret_cast<void*>(&fastlaunch_tensor_device_ptr),
                       "fastlaunch.tensor_accessor.v2");
  });
}
