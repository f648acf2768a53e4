// SPDX-License-Identifier: Apache-2.0
// Bindings of the CUDA launcher.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>

#include "bind/bindings.h"
#include "cuda/cuda_launch.h"

namespace py = pybind11;

namespace fastlaunch {
namespace {

// An int argument of the constructor, or InputError naming it (never a raw
// pybind11 TypeError).
int64_t IntArg(py::handle value, const char* field, int64_t lo, int64_t hi) {
  if (!value.is_none() && PyIndex_Check(value.ptr())) {
    int overflow = 0;
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
    if (!index) throw py::error_already_set();
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow == 0 && !(v == -1 && PyErr_Occurred()) && v >= lo && v <= hi) return v;
    PyErr_Clear();
  }
  std::string got = PyLong_Check(value.ptr()) ? std::string(py::str(value))
                                              : std::string(Py_TYPE(value.ptr())->tp_name);
  throw InputError(std::string(field) + ": got " + got +
                   ", expected an int in [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "]");
}

std::shared_ptr<CudaLauncher> MakeLauncher(py::handle plan, py::handle function,
                                           py::handle num_warps, py::handle shared,
                                           py::handle device) {
  if (!py::isinstance<Plan>(plan)) {
    throw InputError(std::string("plan: got ") + Py_TYPE(plan.ptr())->tp_name +
                     ", expected a fastlaunch.runtime._core.Plan");
  }
  auto p = py::cast<std::shared_ptr<Plan>>(plan);
  auto fn = static_cast<uint64_t>(IntArg(function, "function", 0, INT64_MAX));
  return std::make_shared<CudaLauncher>(
      std::move(p), fn, static_cast<int>(IntArg(num_warps, "num_warps", 1, 32)),
      static_cast<unsigned>(IntArg(shared, "shared", 0, UINT32_MAX)),
      static_cast<int>(IntArg(device, "device", 0, INT32_MAX)));
}

}  // namespace

void BindCuda(py::module_& m) {
  m.def("cuda_driver_status", &CudaDriverStatus);
  m.def("cuda_param_info", &CudaParamInfo);
  m.def("cuda_current_device", &CudaCurrentDevice);
  py::class_<CudaLauncher, Launcher, std::shared_ptr<CudaLauncher>>(m, "CudaLauncher")
      .def(py::init(&MakeLauncher), py::arg("plan"), py::arg("function"), py::arg("num_warps"),
           py::arg("shared"), py::arg("device"))
      .def("__repr__",
           [](const CudaLauncher& l) {
             return "<CudaLauncher cuLaunchKernel device=" + std::to_string(l.device()) +
                    " block_x=" + std::to_string(l.block_x()) +
                    " shared=" + std::to_string(l.shared_bytes()) +
                    " params=" + std::to_string(l.plan()->size()) + "B>";
           })
      .def_property_readonly("device", &CudaLauncher::device)
      .def_property_readonly("block_x", &CudaLauncher::block_x)
      .def_property_readonly("shared", &CudaLauncher::shared_bytes)
      .def("launch",
           [](const CudaLauncher& l, py::handle stream, py::handle grid,
              py::handle args) {
             CallArgs c = ReadCall(stream, grid, args);
             return l.Launch(c.stream, c.grid, c.args);
           },
           "launch(stream, grid, args) -> bool (False: empty grid, nothing launched)");
}

}  // namespace fastlaunch
