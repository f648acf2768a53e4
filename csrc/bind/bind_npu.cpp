// SPDX-License-Identifier: Apache-2.0
// Bindings of the CANN runtime and the NPU launcher.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind/bindings.h"
#include "npu/npu_launch.h"

namespace py = pybind11;

namespace fastlaunch {
namespace {

template <typename T>
T* FromCapsule(const py::object& capsule, const char* name, const char* field) {
  if (capsule.is_none()) return nullptr;
  if (!PyCapsule_IsValid(capsule.ptr(), name)) {
    throw InputError(std::string(field) + ": got " +
                     std::string(py::str(py::type::of(capsule).attr("__name__"))) +
                     ", expected None or a PyCapsule named '" + name + "'");
  }
  return reinterpret_cast<T*>(PyCapsule_GetPointer(capsule.ptr(), name));
}

// The stream as triton-ascend's launcher parses it (PyArg_ParseTuple "K"):
// any int, wrapped modulo 2**64; 0 is the default stream.
uint64_t ReadStream(py::handle stream) {
  if (!PyLong_Check(stream.ptr())) {
    throw InputError("stream: got " +
                     std::string(Py_TYPE(stream.ptr())->tp_name) +
                     ", expected an int (a raw NPU stream)",
                     "bad_stream");
  }
  return PyLong_AsUnsignedLongLongMask(stream.ptr());
}

// `allocator_owner` is whatever holds the allocator capsule's table: the
// launcher keeps it alive, so the table outlives every launch.
std::shared_ptr<NpuLauncher> MakeLauncher(std::shared_ptr<Plan> plan,
                                          std::shared_ptr<NpuRuntime> runtime,
                                          const std::string& name, uint64_t function,
                                          bool simt_launch, uint32_t local_memory,
                                          const py::object& submit, bool taskqueue,
                                          uint32_t lock_num, int64_t lock_init,
                                          const py::object& allocator,
                                          const py::object& allocator_owner,
                                          bool check_pointers) {
  NpuLaunchOptions o;
  o.name = name;
  o.function = function;
  o.simt_launch = simt_launch;
  o.local_memory = local_memory;
  o.taskqueue = taskqueue;
  o.lock_num = lock_num;
  o.lock_init = lock_init;
  o.check_pointers = check_pointers;
  auto* submit_fn = FromCapsule<void>(submit, cann::kSubmitCapsule, "submit");
  auto* launcher = new NpuLauncher(
      std::move(plan), std::move(runtime), std::move(o),
      reinterpret_cast<cann::Submit>(submit_fn),
      FromCapsule<const cann::WorkspaceAllocator>(
          allocator, cann::kWorkspaceCapsule, "allocator"));
  // The last owner (a FastSite or the Python object) drops it with the GIL held.
  py::object owner = allocator_owner;
  return std::shared_ptr<NpuLauncher>(launcher, [owner](NpuLauncher* l) { delete l; });
}

}  // namespace

void BindNpu(py::module_& m) {
  py::class_<NpuRuntime, std::shared_ptr<NpuRuntime>>(m, "NpuRuntime")
      .def(py::init<const std::vector<std::string>&>(), py::arg("libraries"))
      .def_property_readonly("missing", &NpuRuntime::missing)
      .def_property_readonly(
          "pointer_query",
          [](const NpuRuntime& r) { return r.pointer_attributes != nullptr; })
      .def("missing_for", &NpuRuntime::MissingFor, py::arg("simt") = false)
      .def("ffts_address", &NpuRuntime::FftsAddress, py::arg("device"));
  m.def("npu_msprof_collecting", &MsprofCollecting,
        "whether msprof's L0/L1 switch is on (the state triton-ascend's "
        "generated launcher reports by)");
  m.def("npu_msprof_registered", &MsprofRegistered);
  m.def(
      "npu_msprof_control",
      [](uint32_t ctrl_type, const py::bytes& data) {
        std::string buf = data;
        return MsprofControl(ctrl_type, buf.data(),
                             static_cast<uint32_t>(buf.size()));
      },
      py::arg("ctrl_type"), py::arg("data"),
      "deliver an msprof control command, as msprof does (tests)");
  py::class_<NpuLauncher, Launcher, std::shared_ptr<NpuLauncher>>(m, "NpuLauncher")
      .def(py::init(&MakeLauncher), py::arg("plan"), py::arg("runtime"),
           py::arg("name"), py::arg("function"),
           py::arg("simt_launch") = false, py::arg("local_memory") = 0,
           py::arg("submit") = py::none(), py::arg("taskqueue") = true,
           py::arg("lock_num") = 0, py::arg("lock_init") = 0,
           py::arg("allocator") = py::none(), py::arg("allocator_owner") = py::none(),
           py::arg("check_pointers") = false)
      .def("__repr__",
           [](const NpuLauncher& l) {
             const auto& o = l.options();
             return "<NpuLauncher " + o.name + " api=" + l.api() +
                    " args=" + std::to_string(l.plan()->size()) + "B " +
                    (l.queued() ? "task-queue" : o.taskqueue ? "inline" : "inline+sync") +
                    (o.lock_num ? " locks=" + std::to_string(o.lock_num) : "") +
                    (o.check_pointers ? " pointer-checks" : "") + ">";
           })
      .def_property_readonly("api", &NpuLauncher::api)
      .def_property_readonly("queued", &NpuLauncher::queued)
      .def_property_readonly("name", [](const NpuLauncher& l) { return l.options().name; })
      .def("launch",
           [](const NpuLauncher& l, py::handle stream, py::handle grid,
              py::handle args, uint64_t workspace, uint64_t sync_lock) {
             const uint64_t raw = ReadStream(stream);
             CallArgs c = ReadCall(py::int_(0), grid, args);
             l.LaunchWith(raw, c.grid, c.args, workspace, sync_lock);
           },
           py::arg("stream"), py::arg("grid"), py::arg("args"),
           py::arg("workspace") = 0, py::arg("sync_lock") = 0);
}

}  // namespace fastlaunch
