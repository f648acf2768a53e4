// SPDX-License-Identifier: Apache-2.0
// The baseline for benchmarks/bench_npu.py: a launcher shaped like the one
// triton-ascend 3.2.0 generates per kernel signature (METH_VARARGS +
// PyArg_ParseTuple, metadata dict lookups, data_ptr() per pointer, the FFTS
// address queried per launch with rtGetC2cCtrlAddr, a packed struct built per
// call, rtKernelLaunch with the registered stub), for the
// signature (*fp32, *fp32, *fp32, *fp32, i32, fp32). It launches through the
// same fake CANN library as the planned path. Written for this benchmark;
// not triton-ascend's code.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <stdint.h>

typedef int (*launch_fn)(const void*, uint32_t, void*, uint32_t, void*, void*);
typedef int (*sync_addr_fn)(uint64_t*, uint32_t*);
static launch_fn launch_kernel = NULL;
static sync_addr_fn sync_addr = NULL;

typedef struct __attribute__((packed)) {
  void* ffts_addr __attribute__((aligned(8)));
  void* sync_block_lock __attribute__((aligned(8)));
  void* workspace_addr __attribute__((aligned(8)));
  void* a0 __attribute__((aligned(8)));
  void* a1 __attribute__((aligned(8)));
  void* a2 __attribute__((aligned(8)));
  void* a3 __attribute__((aligned(8)));
  int32_t a4 __attribute__((aligned(4)));
  float a5 __attribute__((aligned(4)));
  int32_t grid_x __attribute__((aligned(4)));
  int32_t grid_y __attribute__((aligned(4)));
  int32_t grid_z __attribute__((aligned(4)));
} Args;

static int get_pointer(PyObject* obj, void** out) {
  if (obj == Py_None) { *out = NULL; return 1; }
  if (PyLong_Check(obj)) { *out = PyLong_AsVoidPtr(obj); return !PyErr_Occurred(); }
  PyObject* ptr = PyObject_CallMethod(obj, "data_ptr", NULL);
  if (ptr == NULL) return 0;
  *out = PyLong_AsVoidPtr(ptr);
  Py_DECREF(ptr);
  return !PyErr_Occurred();
}

static PyObject* load(PyObject* self, PyObject* args) {
  const char* path;
  if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return PyErr_Format(PyExc_OSError, "%s", dlerror());
  launch_kernel = (launch_fn)dlsym(lib, "rtKernelLaunch");
  sync_addr = (sync_addr_fn)dlsym(lib, "rtGetC2cCtrlAddr");
  if (!launch_kernel || !sync_addr) return PyErr_Format(PyExc_OSError, "missing symbols");
  Py_RETURN_NONE;
}

static PyObject* launch(PyObject* self, PyObject* args) {
  int gx, gy, gz;
  unsigned long long stream, function;
  PyObject *packed_metadata, *launch_metadata, *enter_hook, *exit_hook;
  PyObject *p0, *p1, *p2, *p3;
  int32_t a4;
  float a5;
  if (!PyArg_ParseTuple(args, "iiiKKOOOOOOOOif", &gx, &gy, &gz, &stream, &function,
                        &packed_metadata, &launch_metadata, &enter_hook, &exit_hook, &p0, &p1,
                        &p2, &p3, &a4, &a5))
    return NULL;
  if (enter_hook != Py_None) {
    PyObject* r = PyObject_CallOneArg(enter_hook, launch_metadata);
    if (r == NULL) return NULL;
    Py_DECREF(r);
  }
  PyObject* name = PyDict_GetItemString(packed_metadata, "kernel_name");
  PyObject* kinds = PyDict_GetItemString(packed_metadata, "tensor_kinds");
  if (name == NULL || kinds == NULL) return PyErr_Format(PyExc_KeyError, "metadata");
  Args a = {0};
  if (!get_pointer(p0, &a.a0) || !get_pointer(p1, &a.a1) || !get_pointer(p2, &a.a2) ||
      !get_pointer(p3, &a.a3))
    return NULL;
  uint32_t ffts_len = 0;
  if (sync_addr((uint64_t*)&a.ffts_addr, &ffts_len) != 0)
    return PyErr_Format(PyExc_RuntimeError, "ffts");
  a.a4 = a4;
  a.a5 = a5;
  a.grid_x = gx;
  a.grid_y = gy;
  a.grid_z = gz;
  int rc = launch_kernel((const void*)function, (uint32_t)(gx * gy * gz), &a, sizeof a, NULL,
                         (void*)stream);
  if (rc != 0) return PyErr_Format(PyExc_RuntimeError, "launch failed %d", rc);
  if (exit_hook != Py_None) {
    PyObject* r = PyObject_CallOneArg(exit_hook, launch_metadata);
    if (r == NULL) return NULL;
    Py_DECREF(r);
  }
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {{"load", load, METH_VARARGS, NULL},
                                {"launch", launch, METH_VARARGS, NULL},
                                {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "generic_npu_launcher", NULL, -1,
                                    methods};
PyMODINIT_FUNC PyInit_generic_npu_launcher(void) { return PyModule_Create(&module); }
