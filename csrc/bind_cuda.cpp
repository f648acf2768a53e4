// SPDX-License-Identifier: Apache-2.0
// Bindings of the CUDA launcher.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "cuda_launch.h"

namespace py = pybind11;

namespace fastlaunch {

void BindCuda(py::module_& m) {
  m.def("cuda_driver_status", &CudaDriverStatus);
  m.def("cuda_param_info", &CudaParamInfo);
  m.def("cuda_current_device", &CudaCurrentDevice);
  py::class_<CudaLauncher>(m, "CudaLauncher", py::dynamic_attr())
      .def(py::init<std::shared_ptr<Plan>, uint64_t, int, unsigned, int>(),
           py::arg("plan"), py::arg("function"), py::arg("num_warps"),
           py::arg("shared"), py::arg("device"))
      .def("__repr__",
           [](const CudaLauncher& l) {
             return "<CudaLauncher cuLaunchKernel device=" + std::to_string(l.device()) +
                    " block_x=" + std::to_string(l.block_x()) +
                    " shared=" + std::to_string(l.shared_bytes()) +
                    " params=" + std::to_string(l.plan()->size()) + "B>";
           })
      .def_property_readonly("plan", &CudaLauncher::plan)
      .def_property_readonly("device", &CudaLauncher::device)
      .def_property_readonly("block_x", &CudaLauncher::block_x)
      .def_property_readonly("shared", &CudaLauncher::shared_bytes)
      .def("launch",
           [](const CudaLauncher& l, py::handle stream, py::handle grid,
              py::handle args) {
             CallArgs c = ReadCall(stream, grid, args);
             return l.Launch(c.stream, c.grid[0], c.grid[1], c.grid[2], c.args);
           },
           "launch(stream, grid, args) -> bool (False: empty grid, nothing launched)");
}

}  // namespace fastlaunch
