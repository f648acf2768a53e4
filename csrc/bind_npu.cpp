// SPDX-License-Identifier: Apache-2.0
// Bindings of the CANN runtime and the NPU launcher.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "npu_launch.h"

namespace py = pybind11;

namespace fastlaunch {
namespace {

cann::Submit SubmitFromCapsule(const py::object& capsule) {
  if (capsule.is_none()) return nullptr;
  void* p = PyCapsule_GetPointer(capsule.ptr(), cann::kSubmitCapsule);
  if (p == nullptr) throw py::error_already_set();
  return reinterpret_cast<cann::Submit>(p);
}

}  // namespace

void BindNpu(py::module_& m) {
  py::class_<NpuRuntime, std::shared_ptr<NpuRuntime>>(m, "NpuRuntime")
      .def(py::init<const std::vector<std::string>&>(), py::arg("libraries"))
      .def_property_readonly("launch_api", &NpuRuntime::launch_api)
      .def_property_readonly("missing", &NpuRuntime::missing)
      .def_property_readonly("has_simt_launch", &NpuRuntime::has_simt_launch)
      .def("ffts_address", &NpuRuntime::FftsAddress);
  py::class_<NpuLauncher>(m, "NpuLauncher", py::dynamic_attr())
      .def(py::init([](std::shared_ptr<Plan> plan,
                       std::shared_ptr<NpuRuntime> runtime,
                       const std::string& name, uint64_t function, bool simt,
                       uint32_t dyn_ubuf_size, const py::object& submit) {
             return new NpuLauncher(std::move(plan), std::move(runtime), name,
                                    function, simt, dyn_ubuf_size,
                                    SubmitFromCapsule(submit));
           }),
           py::arg("plan"), py::arg("runtime"), py::arg("name"),
           py::arg("function"), py::arg("simt"), py::arg("dyn_ubuf_size"),
           py::arg("submit") = py::none())
      .def("__repr__",
           [](const NpuLauncher& l) {
             return "<NpuLauncher api=" + l.api() + " args=" + std::to_string(l.plan()->size()) +
                    "B " + (l.queued() ? "task-queue" : "inline") + ">";
           })
      .def_property_readonly("plan", &NpuLauncher::plan)
      .def_property_readonly("api", &NpuLauncher::api)
      .def_property_readonly("queued", &NpuLauncher::queued)
      .def("launch",
           [](const NpuLauncher& l, py::handle stream, py::handle grid,
              py::handle args, uint64_t workspace, uint64_t sync_lock) {
             CallArgs c = ReadCall(stream, grid, args);
             l.Launch(c.stream, c.grid[0], c.grid[1], c.grid[2], c.args, workspace,
                      sync_lock);
           },
           py::arg("stream"), py::arg("grid"), py::arg("args"),
           py::arg("workspace") = 0, py::arg("sync_lock") = 0);
}

}  // namespace fastlaunch
