// SPDX-License-Identifier: Apache-2.0
// pybind11 bindings of the native core: fastlaunch.runtime._core.
#include <pybind11/pybind11.h>
#include "bind/bindings.h"
#include "core/errors.h"
#include "engine/fast_site.h"

namespace py = pybind11;
using namespace fastlaunch;

namespace fastlaunch {
namespace {
PyObject* g_input_error = nullptr;
PyObject* g_grid_error = nullptr;
PyObject* g_device_mismatch = nullptr;
PyObject* g_launch_error = nullptr;
}  // namespace

// Sets the Python exception for a native one: InputError and its subclasses
// carry their reason slug as `.reason`; a PythonError is restored as it was.
// The message is decoded with errors="replace", so it is always valid text.
void SetPythonError(const std::exception& err) {
  if (const auto* python = dynamic_cast<const PythonError*>(&err)) {
    python->Restore();
    return;
  }
  PyObject* type = PyExc_RuntimeError;
  const char* reason = nullptr;
  if (const auto* input = dynamic_cast<const InputError*>(&err)) {
    reason = input->reason();
    type = g_input_error;
    if (dynamic_cast<const GridError*>(&err)) {
      type = g_grid_error;
    } else if (dynamic_cast<const DeviceMismatch*>(&err)) {
      type = g_device_mismatch;
      if (input->explicit_reason() == nullptr) reason = "device_mismatch";
    }
  } else if (dynamic_cast<const LaunchError*>(&err)) {
    type = g_launch_error;
    reason = "launch_failed";
  }
  const std::string what = err.what();
  PyObject* message = PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()),
                                           "replace");
  if (message == nullptr) return;  // MemoryError is set
  PyObject* exc = PyObject_CallOneArg(type, message);
  Py_DECREF(message);
  if (exc == nullptr) return;
  if (reason != nullptr) {
    PyObject* slug = PyUnicode_FromString(reason);
    if (slug == nullptr || PyObject_SetAttrString(exc, "reason", slug) < 0) {
      Py_XDECREF(slug);
      Py_DECREF(exc);
      return;
    }
    Py_DECREF(slug);
  }
  PyErr_SetObject(type, exc);
  Py_DECREF(exc);
}
}  // namespace fastlaunch

PYBIND11_MODULE(_core, m) {
  m.doc() = "fastlaunch native core: plans, packing and launch backends";
  m.attr("__version__") = FASTLAUNCH_VERSION;  // the build hands _version.py's value in
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
  // Tried before the translators above: adds `.reason`, restores PythonError.
  py::register_local_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const PythonError& err) {
      err.Restore();
    } catch (const InputError& err) {
      SetPythonError(err);
    } catch (const LaunchError& err) {
      SetPythonError(err);
    }
  });
  BindCore(m);
  BindCuda(m);
  BindNpu(m);
  BindPlannedCall(m);
}
