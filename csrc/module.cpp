// SPDX-License-Identifier: Apache-2.0
// pybind11 bindings of the native core: fastlaunch._core.
#include <pybind11/pybind11.h>
#include "bindings.h"
#include "cuda_launch.h"
#include "fast_site.h"
#include "npu_launch.h"
#include "plan.h"

namespace py = pybind11;
using namespace fastlaunch;

namespace fastlaunch {
namespace {
PyObject* g_input_error = nullptr;
PyObject* g_grid_error = nullptr;
PyObject* g_device_mismatch = nullptr;
PyObject* g_launch_error = nullptr;
}  // namespace

void SetPythonError(const std::exception& err) {
  PyObject* type = PyExc_RuntimeError;
  if (dynamic_cast<const GridError*>(&err)) {
    type = g_grid_error;
  } else if (dynamic_cast<const DeviceMismatch*>(&err)) {
    type = g_device_mismatch;
  } else if (dynamic_cast<const InputError*>(&err)) {
    type = g_input_error;
  } else if (dynamic_cast<const LaunchError*>(&err)) {
    type = g_launch_error;
  }
  PyErr_SetString(type, err.what());
}
}  // namespace fastlaunch

PYBIND11_MODULE(_core, m) {
  m.doc() = "fastlaunch native core: plans, packing and launch backends";
  auto input_error =
      py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  auto grid_error = py::register_exception<GridError>(m, "GridError", input_error.ptr());
  auto device_mismatch = py::register_exception<DeviceMismatch>(m, "DeviceMismatch",
                                                                input_error.ptr());
  auto launch_error = py::register_exception<LaunchError>(m, "LaunchError", PyExc_RuntimeError);
  fastlaunch::g_input_error = input_error.ptr();
  fastlaunch::g_grid_error = grid_error.ptr();
  fastlaunch::g_device_mismatch = device_mismatch.ptr();
  fastlaunch::g_launch_error = launch_error.ptr();
  BindCore(m);
  BindCuda(m);
  BindNpu(m);
}
