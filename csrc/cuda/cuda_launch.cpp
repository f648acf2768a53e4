// SPDX-License-Identifier: Apache-2.0
#include "cuda/cuda_launch.h"

#include <dlfcn.h>

#include <mutex>

namespace fastlaunch {
namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
using CUfunction = void*;
using CUstream = void*;

constexpr CUresult kSuccess = 0;
void* const kParamBufferPointer = reinterpret_cast<void*>(1);
void* const kParamBufferSize = reinterpret_cast<void*>(2);
void* const kParamEnd = nullptr;

struct Driver {
  std::string error;
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                            unsigned, unsigned, unsigned, CUstream, void**,
                            void**) = nullptr;
  CUresult (*ctx_get_device)(CUdevice*) = nullptr;
  CUresult (*ctx_get_current)(CUcontext*) = nullptr;
  CUresult (*ctx_set_current)(CUcontext) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*primary_ctx_retain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*get_error_string)(CUresult, const char**) = nullptr;
  CUresult (*func_get_param_info)(CUfunction, size_t, size_t*,
                                  size_t*) = nullptr;
};

template <typename T>
bool Resolve(void* lib, const char* name, T* out, std::string* error) {
  *out = reinterpret_cast<T>(dlsym(lib, name));
  if (*out == nullptr && error->empty()) {
    *error = std::string("libcuda lacks symbol ") + name;
  }
  return *out != nullptr;
}

const Driver& GetDriver() {
  static Driver driver;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      const char* why = dlerror();
      driver.error = std::string("cannot load libcuda.so.1: ") +
                     (why ? why : "unknown dlopen error");
      return;
    }
    Resolve(lib, "cuLaunchKernel", &driver.launch_kernel, &driver.error);
    Resolve(lib, "cuCtxGetDevice", &driver.ctx_get_device, &driver.error);
    Resolve(lib, "cuCtxGetCurrent", &driver.ctx_get_current, &driver.error);
    Resolve(lib, "cuCtxSetCurrent", &driver.ctx_set_current, &driver.error);
    Resolve(lib, "cuDeviceGet", &driver.device_get, &driver.error);
    Resolve(lib, "cuDevicePrimaryCtxRetain", &driver.primary_ctx_retain,
            &driver.error);
    Resolve(lib, "cuGetErrorString", &driver.get_error_string, &driver.error);
    // Optional: present from CUDA 12.4.
    driver.func_get_param_info = reinterpret_cast<decltype(
        driver.func_get_param_info)>(dlsym(lib, "cuFuncGetParamInfo"));
  });
  return driver;
}

std::string ErrorText(const Driver& d, CUresult rc) {
  const char* text = nullptr;
  if (d.get_error_string == nullptr || d.get_error_string(rc, &text) != 0 ||
      text == nullptr) {
    text = "unknown error";
  }
  return "CUDA error " + std::to_string(rc) + ": " + text;
}

const Driver& RequireDriver() {
  const Driver& d = GetDriver();
  if (!d.error.empty()) throw LaunchError(d.error);
  return d;
}

// The device's primary context, retained once per process and device (as
// the CUDA runtime and torch do; it is never released while loaded code may
// still launch into it).
CUcontext PrimaryContext(const Driver& d, int ordinal) {
  static std::mutex mutex;
  static std::vector<CUcontext> retained;
  std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<size_t>(ordinal) < retained.size() && retained[ordinal] != nullptr) {
    return retained[ordinal];
  }
  CUdevice device = 0;
  CUresult rc = d.device_get(&device, ordinal);
  if (rc != kSuccess) {
    throw DeviceMismatch("device: cuDeviceGet(" + std::to_string(ordinal) +
                         ") failed: " + ErrorText(d, rc));
  }
  CUcontext ctx = nullptr;
  rc = d.primary_ctx_retain(&ctx, device);
  if (rc != kSuccess || ctx == nullptr) {
    throw DeviceMismatch("device: cuDevicePrimaryCtxRetain(" + std::to_string(ordinal) +
                         ") failed: " + ErrorText(d, rc));
  }
  if (retained.size() <= static_cast<size_t>(ordinal)) retained.resize(ordinal + 1);
  retained[ordinal] = ctx;
  return ctx;
}

// Makes sure a context is current in this thread: with none (a thread that
// never touched CUDA, e.g. autograd's backward thread or a new Python
// thread), the plan's device's primary context becomes current, as the
// static launcher does (it uses device 0). Returns the current device.
int EnsureContext(const Driver& d, int device) {
  CUcontext ctx = nullptr;
  CUresult rc = d.ctx_get_current(&ctx);
  if (rc != kSuccess) {
    throw DeviceMismatch("device: cuCtxGetCurrent failed: " + ErrorText(d, rc));
  }
  if (ctx == nullptr) {
    rc = d.ctx_set_current(PrimaryContext(d, device));
    if (rc != kSuccess) {
      throw DeviceMismatch("device: cuCtxSetCurrent(primary context of device " +
                           std::to_string(device) + ") failed: " + ErrorText(d, rc));
    }
  }
  CUdevice dev = -1;
  rc = d.ctx_get_device(&dev);
  if (rc != kSuccess) {
    throw DeviceMismatch("device: cuCtxGetDevice failed: " + ErrorText(d, rc));
  }
  return dev;
}

}  // namespace

std::string CudaDriverStatus() { return GetDriver().error; }

std::vector<std::pair<size_t, size_t>> CudaParamInfo(uint64_t function) {
  const Driver& d = RequireDriver();
  std::vector<std::pair<size_t, size_t>> info;
  if (d.func_get_param_info == nullptr) return info;
  auto f = reinterpret_cast<CUfunction>(function);
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    if (d.func_get_param_info(f, i, &offset, &size) != kSuccess) break;
    info.emplace_back(offset, size);
  }
  return info;
}

int CudaCurrentDevice() {
  const Driver& d = RequireDriver();
  CUdevice dev = -1;
  CUresult rc = d.ctx_get_device(&dev);
  if (rc != kSuccess) {
    throw DeviceMismatch("device: no current CUDA context (" +
                         ErrorText(d, rc) + ")");
  }
  return dev;
}

CudaLauncher::CudaLauncher(std::shared_ptr<Plan> plan, uint64_t function,
                           int num_warps, unsigned shared_bytes, int device)
    : Launcher(std::move(plan)),
      function_(reinterpret_cast<void*>(function)),
      shared_(shared_bytes),
      device_(device) {
  if (plan_ == nullptr) {
    throw InputError("plan: got None, expected a fastlaunch.runtime._core.Plan");
  }
  if (device < 0) {
    throw InputError("device: got " + std::to_string(device) +
                     ", expected a CUDA device ordinal >= 0");
  }
  RequireDriver();
  if (plan_->abi() != Abi::Cuda) {
    throw InputError("plan: got an npu plan, expected a cuda plan");
  }
  if (plan_->has_static_grid()) {
    throw InputError("static_grid: the cuda backend takes the grid per call");
  }
  if (function == 0) throw InputError("function: got 0, expected a CUfunction");
  if (num_warps < 1 || num_warps > 32) {
    throw InputError("num_warps: got " + std::to_string(num_warps) +
                     ", expected 1..32");
  }
  block_x_ = 32u * static_cast<unsigned>(num_warps);
}

bool CudaLauncher::Launch(uint64_t stream, const int64_t grid[3], PyObject* args) const {
  const Driver& d = GetDriver();
  const int64_t g0 = grid[0], g1 = grid[1], g2 = grid[2];
  if (plan_->CheckGrid(g0, g1, g2) == 0) return false;
  int dev = EnsureContext(d, device_);
  if (dev != device_) {
    throw DeviceMismatch("device: current CUDA device is " + std::to_string(dev) +
                         ", this plan was made for device " + std::to_string(device_));
  }
  // A fresh buffer per launch: on the stack for the usual sizes. The driver
  // copies the parameters during cuLaunchKernel.
  alignas(16) uint8_t stack[512];
  std::vector<uint8_t> heap;
  size_t size = plan_->size();
  uint8_t* buffer = stack;
  if (size > sizeof(stack)) {
    heap.resize(size);
    buffer = heap.data();
  }
  plan_->PackInto(args, nullptr, 0, 0, buffer);
  void* extra[] = {kParamBufferPointer, buffer, kParamBufferSize, &size, kParamEnd};
  CUresult rc = d.launch_kernel(function_, static_cast<unsigned>(g0),
                       static_cast<unsigned>(g1), static_cast<unsigned>(g2),
                       block_x_, 1, 1, shared_, reinterpret_cast<CUstream>(stream),
                       nullptr, extra);
  if (rc != kSuccess) throw LaunchError("cuLaunchKernel: " + ErrorText(d, rc));
  return true;
}

}  // namespace fastlaunch
