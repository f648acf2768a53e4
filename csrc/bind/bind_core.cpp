// SPDX-License-Identifier: Apache-2.0
// Bindings of the engine core: Plan, FastSite, tensor accessor, grid programs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind/bindings.h"
#include "engine/fast_site.h"
#include "core/launcher.h"
#include "core/plan.h"

namespace py = pybind11;

namespace fastlaunch {
namespace {

// Plan arguments are read by hand, not by pybind11's casters: a bad value is
// an InputError naming the field (reason bad_plan), never pybind11's
// TypeError, and bytes never pass for str nor None for bool. The numpy twin
// (fastlaunch.runtime.abi.layout/pack) checks the same things in the same order.
[[noreturn]] void BadPlan(const std::string& field, py::handle value,
                          const std::string& expected, const char* reason = "bad_plan") {
  throw InputError(field + ": got " + DescribeValue(value.ptr()) + ", expected " + expected,
                   reason);
}

bool IsSequence(py::handle h) { return PyList_Check(h.ptr()) || PyTuple_Check(h.ptr()); }

std::string ReadStr(py::handle h, const std::string& field, const std::string& expected,
                    const char* reason) {
  if (!PyUnicode_Check(h.ptr())) BadPlan(field, h, expected, reason);
  Py_ssize_t size = 0;
  const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
  if (s == nullptr) {
    ClearOrThrow();
    BadPlan(field, h, expected, reason);
  }
  return std::string(s, static_cast<size_t>(size));
}

std::vector<std::string> ReadStrs(py::handle h, const std::string& field, const char* reason) {
  if (!IsSequence(h)) BadPlan(field, h, "a list or tuple of str");
  py::tuple items = py::reinterpret_steal<py::tuple>(PySequence_Tuple(h.ptr()));
  if (!items) throw py::error_already_set();
  std::vector<std::string> out;
  for (size_t i = 0; i < items.size(); ++i) {
    out.push_back(ReadStr(items[i], field + "[" + std::to_string(i) + "]", "a str", reason));
  }
  return out;
}

bool ReadFlag(py::handle h, const std::string& field) {
  if (!PyBool_Check(h.ptr())) BadPlan(field, h, "True or False");
  return h.ptr() == Py_True;
}

// An int (not a bool) in lo..hi.
template <typename T>
T ReadInt(py::handle h, const std::string& field, T lo, T hi, const char* reason = "bad_plan") {
  const std::string expected =
      "an int in " + std::to_string(lo) + ".." + std::to_string(hi);
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) BadPlan(field, h, expected, reason);
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow < 0 || (overflow == 0 && s < 0)) {
    if (overflow != 0 || s < static_cast<long long>(lo)) BadPlan(field, h, expected, reason);
    return static_cast<T>(s);
  }
  const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
  if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();  // OverflowError of an int: no user code ran
    BadPlan(field, h, expected, reason);
  }
  if (u > static_cast<unsigned long long>(hi)) BadPlan(field, h, expected, reason);
  return static_cast<T>(u);
}

std::optional<size_t> ReadCount(py::handle h, const std::string& field) {
  if (h.is_none()) return std::nullopt;
  return ReadInt<size_t>(h, field, 0, SIZE_MAX - 1);
}

std::array<int64_t, 3> ReadGridArg(py::handle h) {
  std::array<int64_t, 3> g{};
  ReadGrid(h.ptr(), g.data());
  return g;
}

std::shared_ptr<Plan> MakePlan(py::handle abi, py::handle signature, py::handle names,
                               py::handle runtime_arg_count, py::handle positions,
                               py::handle input_count, py::handle fixed_args, py::handle ffts,
                               py::handle ffts_addr, py::handle pure_simt,
                               py::handle n_scratch, py::handle static_grid,
                               py::handle expected_device) {
  PlanOptions o;
  o.abi = ParseAbi(ReadStr(abi, "abi", "'npu' or 'cuda'", "abi_unsupported"));
  if (!IsSequence(signature)) BadPlan("signature", signature, "a list or tuple of type strings");
  o.signature = ReadStrs(signature, "signature", "signature_type_unsupported");
  for (const auto& t : o.signature) ParseKind(t);
  if (!names.is_none()) o.names = ReadStrs(names, "names", "bad_plan");
  o.ffts = ReadFlag(ffts, "ffts");
  o.ffts_addr = ReadInt<uint64_t>(ffts_addr, "ffts_addr", 0, UINT64_MAX);
  o.pure_simt = ReadFlag(pure_simt, "pure_simt");
  o.n_scratch = static_cast<int>(ReadInt<int64_t>(n_scratch, "n_scratch", 0, 2));
  if (!expected_device.is_none()) {
    if (!IsSequence(expected_device) || py::len(expected_device) != 2) {
      BadPlan("expected_device", expected_device, "None or (device_type, device_index)");
    }
    py::tuple d = py::reinterpret_steal<py::tuple>(PySequence_Tuple(expected_device.ptr()));
    o.expected_device = std::array<int32_t, 2>{
        ReadInt<int32_t>(d[0], "expected_device[0]", 0, INT32_MAX),
        ReadInt<int32_t>(d[1], "expected_device[1]", -1, INT32_MAX)};
  }
  o.runtime_arg_count = ReadCount(runtime_arg_count, "runtime_arg_count").value_or(SIZE_MAX);
  if (!IsSequence(positions)) BadPlan("positions", positions, "a list or tuple of ints");
  for (py::handle p : positions) o.positions.push_back(ReadInt<size_t>(p, "positions", 0, SIZE_MAX - 1));
  o.input_count = ReadCount(input_count, "input_count").value_or(SIZE_MAX);
  if (!PyTuple_Check(fixed_args.ptr())) BadPlan("fixed_args", fixed_args, "a tuple");
  o.fixed_args = fixed_args.ptr();
  if (!static_grid.is_none()) o.static_grid = ReadGridArg(static_grid);
  return std::make_shared<Plan>(o);
}

py::bytes Pack(const Plan& plan, py::handle args, py::handle grid, py::handle workspace,
               py::handle sync_lock) {
  std::optional<std::array<int64_t, 3>> g;
  if (!grid.is_none()) {
    g = ReadGridArg(grid);
    plan.CheckGrid((*g)[0], (*g)[1], (*g)[2]);
  } else if (!plan.has_static_grid() && plan.abi() == Abi::Npu) {
    throw GridError("grid: got None, expected 3 ints (the plan has no static grid)",
                    "grid_rank");
  }
  if (!IsSequence(args)) BadPlan("args", args, "a tuple or list of values", "bad_args");
  py::tuple values = py::reinterpret_steal<py::tuple>(PySequence_Tuple(args.ptr()));
  if (!values) throw py::error_already_set();
  const uint64_t ws = ReadInt<uint64_t>(workspace, "workspace", 0, UINT64_MAX, "bad_value");
  const uint64_t lock = ReadInt<uint64_t>(sync_lock, "sync_lock", 0, UINT64_MAX, "bad_value");
  std::vector<uint8_t> out;
  plan.Pack(values.ptr(), g ? g->data() : nullptr, ws, lock, &out);
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

constexpr SpecOf kSite{"site.", "FastSiteSpec", "bad_plan"};

// One attribute of the site description, or InputError naming it.
py::object SiteField(py::handle site, const char* name) {
  return ReadSpecField(kSite, site, name);
}

PyObject* OptionalCallable(const py::object& value, const char* name) {
  return ReadOptionalField(kSite, value, name, PyCallable_Check, "None or a callable");
}

py::object MakeFastSiteFrom(py::handle router, py::handle native, py::handle site) {
  if (!PyCallable_Check(router.ptr())) BadPlan("router", router, "a callable (the router)");
  py::object on_error = py::reinterpret_steal<py::object>(
      PyObject_GetAttrString(router.ptr(), "fast_site_failed"));
  if (!on_error) ClearOrThrow();
  if (!on_error || !PyCallable_Check(on_error.ptr())) {
    BadPlan("router", router, "a router with a callable fast_site_failed(site, exc, args, stream)");
  }
  if (!py::isinstance<Launcher>(native)) {
    BadPlan("native", native, "a native launcher (fastlaunch.runtime._core.Launcher)");
  }
  const py::object autotuner = SiteField(site, "autotuner");
  const py::object launcher = SiteField(site, "launcher");
  const py::object profiler = SiteField(site, "profiler");
  const py::object maybe_full = SiteField(site, "maybe_full");
  const py::object hooks = SiteField(site, "hooks");
  const py::object grid = SiteField(site, "grid");
  const py::object fixed = SiteField(site, "fixed");
  const py::object static_grid = SiteField(site, "static_grid");
  const py::object program = SiteField(site, "grid_program");
  const py::object hits = SiteField(site, "hits");
  const py::object profiler_flag = SiteField(site, "profiler_flag");
  FastSiteArgs a{};
  a.fallback = router.ptr();
  a.on_error = on_error.ptr();
  a.site = site.ptr();
  a.native = native.cast<std::shared_ptr<Launcher>>();
  a.autotuner = autotuner.ptr();
  a.launcher = launcher.ptr();
  a.profiler = profiler.ptr();
  if (!PyUnicode_Check(profiler_flag.ptr())) BadPlan("site.profiler_flag", profiler_flag, "a str");
  a.profiler_flag = profiler_flag.ptr();
  a.maybe_full = OptionalCallable(maybe_full, "maybe_full");
  if (!PyTuple_Check(hooks.ptr())) BadPlan("site.hooks", hooks, "a tuple of sized containers");
  a.hooks = hooks.ptr();
  a.grid = OptionalCallable(grid, "grid");
  if (!PyTuple_Check(fixed.ptr())) BadPlan("site.fixed", fixed, "a tuple");
  a.fixed = fixed.ptr();
  a.input_count = ReadInt<Py_ssize_t>(SiteField(site, "input_count"), "site.input_count", 0,
                                      PY_SSIZE_T_MAX);
  if (!static_grid.is_none()) a.static_grid = ReadGridArg(static_grid);
  if (a.grid == nullptr && !a.static_grid) {
    BadPlan("site.grid", grid, "a callable (the site has no static grid)");
  }
  a.best_launcher_mode = ReadFlag(SiteField(site, "best_launcher_mode"),
                                  "site.best_launcher_mode");
  if (!PyTuple_Check(program.ptr())) BadPlan("site.grid_program", program, "a tuple of ints");
  for (size_t i = 0; i < static_cast<size_t>(PyTuple_GET_SIZE(program.ptr())); ++i) {
    a.grid_program.push_back(ReadInt<int64_t>(PyTuple_GET_ITEM(program.ptr(), i),
                                              "site.grid_program[" + std::to_string(i) + "]",
                                              INT64_MIN, INT64_MAX));
  }
  if (!hits.is_none()) {
    if (!py::isinstance<HitCounter>(hits)) {
      BadPlan("site.hits", hits, "None or a fastlaunch.runtime._core.HitCounter");
    }
    a.hits = hits.cast<std::shared_ptr<HitCounter>>();
  }
  return py::reinterpret_steal<py::object>(MakeFastSite(a));
}

}  // namespace

void BadSpecField(const SpecOf& of, const std::string& name, py::handle value,
                  const std::string& expected) {
  throw InputError(of.prefix + name + ": got " + DescribeValue(value.ptr()) + ", expected " +
                       expected,
                   of.reason);
}

py::object ReadSpecField(const SpecOf& of, py::handle spec, const char* name) {
  PyObject* value = PyObject_GetAttrString(spec.ptr(), name);
  if (value == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw PythonError();
    PyErr_Clear();
    throw InputError(std::string(of.prefix) + name + ": missing, expected a " + of.type +
                         " field",
                     of.reason);
  }
  return py::reinterpret_steal<py::object>(value);
}

PyObject* ReadOptionalField(const SpecOf& of, const py::object& value, const char* name,
                            int (*check)(PyObject*), const char* expected) {
  if (value.is_none()) return nullptr;
  if (!check(value.ptr())) BadSpecField(of, name, value, expected);
  return value.ptr();
}

CallArgs ReadCall(py::handle stream, py::handle grid, py::handle args) {
  CallArgs c{};
  c.stream = PyLong_AsUnsignedLongLong(stream.ptr());
  if (c.stream == static_cast<uint64_t>(-1) && PyErr_Occurred()) {
    ClearOrThrow();
    throw InputError("stream: got " + DescribeValue(stream.ptr()) +
                         ", expected a raw stream handle (an int >= 0)",
                     "bad_stream");
  }
  if (!PyTuple_Check(args.ptr())) {
    throw InputError("args: got " + DescribeValue(args.ptr()) + ", expected a tuple", "bad_args");
  }
  c.args = args.ptr();
  ReadGrid(grid.ptr(), c.grid);
  return c;
}

void BindCore(py::module_& m) {
  if (!InitFastSiteType(m.ptr())) throw py::error_already_set();
  m.def("fast_hits", &FastHits, "launches made by FastSite objects since the last reset");
  m.def("reset_fast_hits", &ResetFastHits);
  py::class_<HitCounter, std::shared_ptr<HitCounter>>(
      m, "HitCounter", "One call site's count of launches made by its FastSite objects.")
      .def(py::init<>())
      .def_property_readonly("value", [](const HitCounter& c) { return c.value.load(); })
      .def("reset", [](HitCounter& c) { c.value.store(0); });
  py::class_<Launcher, std::shared_ptr<Launcher>>(
      m, "Launcher", "A native launcher (launcher.h): a CudaLauncher or an NpuLauncher.")
      .def_property_readonly("plan", &Launcher::plan);
  m.def("make_fast_site", &MakeFastSiteFrom, py::arg("router"), py::arg("native"),
        py::arg("site"),
        "A FastSite: the steady state of one planned call site. `router` is called for "
        "every call it does not launch, `router.fast_site_failed(site, exc, args, stream)` "
        "for every error from the grid on; `native` is the plan's native launcher; `site` "
        "the call site's description (fastlaunch.engine.routing.FastSiteSpec).");

  py::class_<Plan, std::shared_ptr<Plan>>(m, "Plan")
      .def(py::init(&MakePlan), py::arg("abi"), py::arg("signature"), py::kw_only(),
           py::arg("names") = py::none(), py::arg("runtime_arg_count") = py::none(),
           py::arg("positions") = py::tuple(), py::arg("input_count") = py::none(),
           py::arg("fixed_args") = py::tuple(), py::arg("ffts") = false,
           py::arg("ffts_addr") = 0, py::arg("pure_simt") = false, py::arg("n_scratch") = 2,
           py::arg("static_grid") = py::none(), py::arg("expected_device") = py::none())
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
      .def_property_readonly("expected_device",
                             [](const Plan& p) -> py::object {
                               if (!p.expected_device()) return py::none();
                               return py::make_tuple((*p.expected_device())[0],
                                                     (*p.expected_device())[1]);
                             })
      .def("check_grid",
           [](const Plan& p, py::handle g0, py::handle g1, py::handle g2) {
             int64_t g[3];
             py::handle items[3] = {g0, g1, g2};
             for (int i = 0; i < 3; ++i) {
               if (!ReadGridItem(items[i].ptr(), &g[i])) {
                 throw GridError("grid[" + std::to_string(i) + "]: got " +
                                     DescribeValue(items[i].ptr()) + ", expected an int",
                                 "grid_type");
               }
             }
             return p.CheckGrid(g[0], g[1], g[2]);
           })
      .def("pack", &Pack, py::arg("args"), py::arg("grid") = py::none(),
           py::arg("workspace") = 0, py::arg("sync_lock") = 0);

  m.def(
      "set_tensor_accessor",
      [](const py::object& capsule) {
        if (capsule.is_none()) {
          SetTensorAccessor(nullptr);
          return;
        }
        if (!PyCapsule_IsValid(capsule.ptr(), kTensorAccessorCapsule)) {
          throw InputError("accessor: got " + DescribeValue(capsule.ptr()) +
                               ", expected None or a capsule named " + kTensorAccessorCapsule,
                           "bad_plan");
        }
        void* p = PyCapsule_GetPointer(capsule.ptr(), kTensorAccessorCapsule);
        if (p == nullptr) throw py::error_already_set();
        SetTensorAccessor(reinterpret_cast<TensorAccessor>(p));
      },
      "Install (or with None, remove) the native tensor reader (contract: plan.h).");
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
      "Evaluate a fastlaunch.engine.gridexpr program; None when it cannot decide.");
}

}  // namespace fastlaunch
