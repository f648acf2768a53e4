// SPDX-License-Identifier: Apache-2.0
// Bindings of the engine core: Plan, FastSite, tensor accessor, grid programs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "cuda_launch.h"
#include "fast_site.h"
#include "npu_launch.h"
#include "plan.h"

namespace py = pybind11;

namespace fastlaunch {
namespace {

std::shared_ptr<Plan> MakePlan(const std::string& abi,
                               const std::vector<std::string>& signature,
                               const std::vector<std::string>& names,
                               std::optional<size_t> runtime_arg_count,
                               const std::vector<size_t>& positions,
                               std::optional<size_t> input_count,
                               const py::tuple& fixed_args, bool ffts,
                               uint64_t ffts_addr, bool pure_simt,
                               int n_scratch,
                               std::optional<std::array<int64_t, 3>> grid) {
  PlanOptions o;
  o.abi = ParseAbi(abi);
  o.signature = signature;
  o.names = names;
  o.runtime_arg_count = runtime_arg_count.value_or(SIZE_MAX);
  o.positions = positions;
  o.input_count = input_count.value_or(SIZE_MAX);
  o.fixed_args = fixed_args.ptr();
  o.ffts = ffts;
  o.ffts_addr = ffts_addr;
  o.pure_simt = pure_simt;
  o.n_scratch = n_scratch;
  o.static_grid = grid;
  return std::make_shared<Plan>(o);
}

py::bytes Pack(const Plan& plan, const py::tuple& args,
               std::optional<std::array<int64_t, 3>> grid, uint64_t workspace,
               uint64_t sync_lock) {
  if (grid) plan.CheckGrid((*grid)[0], (*grid)[1], (*grid)[2]);
  if (!grid && !plan.has_static_grid() && plan.abi() == Abi::Npu) {
    throw InputError("grid: got None, expected 3 ints (the plan has no "
                     "static grid)");
  }
  std::vector<uint8_t> out;
  plan.Pack(args.ptr(), grid ? grid->data() : nullptr, workspace, sync_lock,
            &out);
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

}  // namespace

CallArgs ReadCall(py::handle stream, py::handle grid, py::handle args) {
  CallArgs c{};
  c.stream = PyLong_AsUnsignedLongLong(stream.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw InputError("stream: expected a raw stream handle (an int >= 0)");
  }
  if (!PyTuple_Check(args.ptr())) throw InputError("args: expected a tuple");
  c.args = args.ptr();
  PyObject* seq = PySequence_Fast(grid.ptr(), "grid: expected 3 ints");
  if (seq == nullptr) {
    PyErr_Clear();
    throw GridError("grid: expected a sequence of 3 ints");
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n != 3) {
    Py_DECREF(seq);
    throw GridError("grid: got " + std::to_string(n) + " values, expected 3");
  }
  for (int i = 0; i < 3; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    int overflow = 0;
    c.grid[i] = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : -1;
    if (!PyLong_Check(item) || overflow != 0 || PyErr_Occurred()) {
      PyErr_Clear();
      Py_DECREF(seq);
      throw GridError("grid[" + std::to_string(i) + "]: expected an int in int64 range");
    }
  }
  Py_DECREF(seq);
  return c;
}

void BindCore(py::module_& m) {
  if (!InitFastSiteType(m.ptr())) throw py::error_already_set();
  m.def("fast_hits", &FastHits, "launches made by FastSite objects since the last reset");
  m.def("reset_fast_hits", &ResetFastHits);
  m.def(
      "make_fast_site",
      [](py::handle fallback, py::handle on_error, py::handle autotuner, py::handle launcher,
         py::handle profiler, py::handle maybe_full, py::handle hooks, py::handle grid,
         std::optional<std::array<int64_t, 3>> static_grid, py::handle fixed,
         py::handle native, Py_ssize_t input_count, bool best_launcher_mode,
         std::vector<int64_t> grid_program) {
        FastSiteArgs a{};
        a.fallback = fallback.ptr();
        a.on_error = on_error.ptr();
        a.autotuner = autotuner.ptr();
        a.launcher = launcher.ptr();
        a.profiler = profiler.ptr();
        a.maybe_full = maybe_full.is_none() ? nullptr : maybe_full.ptr();
        a.hooks = hooks.ptr();
        a.grid = grid.is_none() ? nullptr : grid.ptr();
        a.fixed = fixed.ptr();
        a.native = native.ptr();
        if (py::isinstance<CudaLauncher>(native)) {
          a.cuda = native.cast<const CudaLauncher*>();
        } else if (py::isinstance<NpuLauncher>(native)) {
          a.npu = native.cast<const NpuLauncher*>();
        } else {
          throw InputError("native: expected a CudaLauncher or NpuLauncher");
        }
        a.input_count = input_count;
        a.static_grid = static_grid;
        a.best_launcher_mode = best_launcher_mode;
        a.grid_program = std::move(grid_program);
        if (a.grid == nullptr && !static_grid) {
          throw InputError("grid: expected a callable or a static grid");
        }
        return py::reinterpret_steal<py::object>(MakeFastSite(a));
      },
      py::arg("fallback"), py::arg("on_error"), py::arg("autotuner"), py::arg("launcher"),
      py::arg("profiler"), py::arg("maybe_full"), py::arg("hooks"), py::arg("grid"),
      py::arg("static_grid"), py::arg("fixed"), py::arg("native"), py::arg("input_count"),
      py::arg("best_launcher_mode"), py::arg("grid_program") = std::vector<int64_t>{},
      "A FastSite: the steady state of one planned call site.");

  py::class_<Plan, std::shared_ptr<Plan>>(m, "Plan")
      .def(py::init(&MakePlan), py::arg("abi"), py::arg("signature"),
           py::kw_only(), py::arg("names") = std::vector<std::string>{},
           py::arg("runtime_arg_count") = py::none(),
           py::arg("positions") = std::vector<size_t>{},
           py::arg("input_count") = py::none(),
           py::arg("fixed_args") = py::tuple(), py::arg("ffts") = false,
           py::arg("ffts_addr") = 0, py::arg("pure_simt") = false,
           py::arg("n_scratch") = 2, py::arg("static_grid") = py::none())
      .def_property_readonly("abi",
                             [](const Plan& p) {
                               return p.abi() == Abi::Npu ? "npu" : "cuda";
                             })
      .def_property_readonly("size", &Plan::size)
      .def_property_readonly("runtime_arg_count", &Plan::runtime_arg_count)
      .def_property_readonly("input_count", &Plan::input_count)
      .def_property_readonly("has_static_grid", &Plan::has_static_grid)
      .def_property_readonly("has_hidden_slots", &Plan::has_hidden_slots)
      .def_property_readonly("fields",
                             [](const Plan& p) {
                               py::list out;
                               for (const auto& f : p.fields()) {
                                 out.append(py::make_tuple(f.name, f.offset,
                                                           f.size));
                               }
                               return out;
                             })
      .def("check_grid", &Plan::CheckGrid)
      .def("pack", &Pack, py::arg("args"), py::arg("grid") = py::none(),
           py::arg("workspace") = 0, py::arg("sync_lock") = 0);

  m.def(
      "set_tensor_accessor",
      [](const py::object& capsule) {
        if (capsule.is_none()) {
          SetTensorAccessor(nullptr);
          return;
        }
        void* p = PyCapsule_GetPointer(capsule.ptr(), "fastlaunch.tensor_accessor");
        if (p == nullptr) throw py::error_already_set();
        SetTensorAccessor(reinterpret_cast<TensorAccessor>(p));
      },
      "Install (or with None, remove) the native tensor data-pointer reader.");
  m.def("has_tensor_accessor", &HasTensorAccessor);
  m.def(
      "eval_grid_program",
      [](const std::vector<int64_t>& program, const py::tuple& inputs) -> py::object {
        int64_t out[3];
        PyObject* const* items = &PyTuple_GET_ITEM(inputs.ptr(), 0);
        if (!EvalGridProgram(program.data(), program.size(), items,
                             PyTuple_GET_SIZE(inputs.ptr()), nullptr, out)) {
          return py::none();
        }
        return py::make_tuple(out[0], out[1], out[2]);
      },
      "Evaluate a fastlaunch.gridexpr program; None when it cannot decide.");
}

}  // namespace fastlaunch
