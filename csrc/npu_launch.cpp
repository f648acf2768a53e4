// SPDX-License-Identifier: Apache-2.0
#include "npu_launch.h"

#include <dlfcn.h>

#include <utility>

namespace fastlaunch {
namespace {

// One queued launch. It owns its packed buffer because the task queue runs
// it later, on another thread, after the Python call has returned.
struct Task {
  std::shared_ptr<const NpuRuntime> runtime;
  void* function;
  uint32_t block_dim;
  void* stream;
  bool simt;
  uint32_t dyn_ubuf_size;
  std::vector<uint8_t> args;
};

int RunTask(void* ctx) {
  auto* t = static_cast<Task*>(ctx);
  const NpuRuntime& rt = *t->runtime;
  if (rt.acl_launch != nullptr) {
    cann::LaunchKernelAttr attr{};
    cann::LaunchKernelCfg cfg{&attr, 1};
    attr.id = cann::kAttrDynUbufSize;
    attr.value.dyn_ubuf_size = t->dyn_ubuf_size;
    return rt.acl_launch(t->function, t->block_dim, t->stream,
                         t->simt ? &cfg : nullptr, t->args.data(),
                         t->args.size(), nullptr, 0);
  }
  if (t->simt) {
    cann::RtArgsEx info{};
    info.args = t->args.data();
    info.args_size = static_cast<uint32_t>(t->args.size());
    cann::RtTaskCfgInfo cfg{};
    cfg.local_memory_size = t->dyn_ubuf_size;
    return rt.rt_launch_v2(t->function, t->block_dim, &info, nullptr,
                           t->stream, 0, &cfg);
  }
  return rt.rt_launch(t->function, t->block_dim, t->args.data(),
                      static_cast<uint32_t>(t->args.size()), nullptr,
                      t->stream);
}

void ReleaseTask(void* ctx) { delete static_cast<Task*>(ctx); }

template <typename T>
void Find(const std::vector<void*>& libs, const char* name, T* out) {
  for (void* lib : libs) {
    if (void* sym = dlsym(lib, name)) {
      *out = reinterpret_cast<T>(sym);
      return;
    }
  }
}

}  // namespace

NpuRuntime::NpuRuntime(const std::vector<std::string>& libraries) {
  std::vector<void*> handles;
  std::string load_errors;
  for (const auto& path : libraries) {
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      handles.push_back(h);
    } else {
      const char* why = dlerror();
      load_errors += (load_errors.empty() ? "" : "; ") +
                     std::string(why ? why : path + ": unknown dlopen error");
    }
  }
  Find(handles, "aclrtLaunchKernelWithHostArgs", &acl_launch);
  Find(handles, "aclrtGetHardwareSyncAddr", &acl_sync_addr);
  Find(handles, "rtKernelLaunch", &rt_launch);
  Find(handles, "rtKernelLaunchWithFlagV2", &rt_launch_v2);
  Find(handles, "rtGetC2cCtrlAddr", &rt_c2c_addr);
  if (acl_launch == nullptr && rt_launch == nullptr) {
    missing_ = "no CANN launch symbol (aclrtLaunchKernelWithHostArgs or "
               "rtKernelLaunch) in the loaded libraries";
    if (!load_errors.empty()) missing_ += " (" + load_errors + ")";
  }
}

std::string NpuRuntime::launch_api() const {
  if (acl_launch != nullptr) return "acl";
  if (rt_launch != nullptr) return "rt";
  return "";
}

bool NpuRuntime::has_simt_launch() const {
  return acl_launch != nullptr || rt_launch_v2 != nullptr;
}

uint64_t NpuRuntime::FftsAddress() const {
  uint64_t addr = 0;
  if (acl_sync_addr != nullptr) {
    void* p = nullptr;
    int rc = acl_sync_addr(&p);
    if (rc != 0) {
      throw LaunchError("aclrtGetHardwareSyncAddr failed with code " +
                        std::to_string(rc));
    }
    addr = reinterpret_cast<uint64_t>(p);
  } else if (rt_c2c_addr != nullptr) {
    uint32_t len = 0;
    int rc = rt_c2c_addr(&addr, &len);
    if (rc != 0) {
      throw LaunchError("rtGetC2cCtrlAddr failed with code " +
                        std::to_string(rc));
    }
  } else {
    throw LaunchError("no FFTS address query (aclrtGetHardwareSyncAddr or "
                      "rtGetC2cCtrlAddr) in the loaded CANN libraries");
  }
  if (addr == 0) throw LaunchError("the FFTS control address is 0");
  return addr;
}

NpuLauncher::NpuLauncher(std::shared_ptr<Plan> plan,
                         std::shared_ptr<const NpuRuntime> runtime,
                         std::string name, uint64_t function, bool simt,
                         uint32_t dyn_ubuf_size, cann::Submit submit)
    : plan_(std::move(plan)),
      runtime_(std::move(runtime)),
      name_(std::move(name)),
      function_(reinterpret_cast<void*>(function)),
      simt_(simt),
      dyn_ubuf_size_(dyn_ubuf_size),
      submit_(submit) {
  if (plan_->abi() != Abi::Npu) {
    throw InputError("plan: got a cuda plan, expected an npu plan");
  }
  if (!runtime_->missing().empty()) throw LaunchError(runtime_->missing());
  if (function == 0) throw InputError("function: got 0, expected a handle");
  if (simt_ && !runtime_->has_simt_launch()) {
    throw LaunchError("SIMT kernel: the loaded CANN has neither "
                      "aclrtLaunchKernelWithHostArgs nor "
                      "rtKernelLaunchWithFlagV2");
  }
}

std::string NpuLauncher::api() const {
  std::string api = runtime_->launch_api();
  if (api == "rt" && simt_) return "rt-v2";
  return api;
}

void NpuLauncher::Launch(uint64_t stream, int64_t g0, int64_t g1, int64_t g2,
                         PyObject* args, uint64_t workspace,
                         uint64_t sync_lock) const {
  if (stream == 0) throw InputError("stream: got 0, expected an NPU stream");
  const int64_t grid[3] = {g0, g1, g2};
  const uint32_t block_dim = plan_->has_static_grid()
                                 ? plan_->static_block_dim()
                                 : plan_->CheckGrid(g0, g1, g2);
  auto task = std::make_unique<Task>();
  task->runtime = runtime_;
  task->function = function_;
  task->block_dim = block_dim;
  task->stream = reinterpret_cast<void*>(stream);
  task->simt = simt_;
  task->dyn_ubuf_size = dyn_ubuf_size_;
  plan_->Pack(args, grid, workspace, sync_lock, &task->args);
  if (submit_ != nullptr) {
    // The queue owns the task from here, also when submission fails.
    int rc = submit_(name_.c_str(), RunTask, ReleaseTask, task.release());
    if (rc != 0) {
      throw LaunchError("task queue submission of " + name_ +
                        " failed with code " + std::to_string(rc));
    }
    return;
  }
  int rc = RunTask(task.get());
  if (rc != 0) {
    throw LaunchError(api() + " launch of " + name_ + " failed with code " +
                      std::to_string(rc));
  }
}

}  // namespace fastlaunch
