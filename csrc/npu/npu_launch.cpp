// SPDX-License-Identifier: Apache-2.0
#include "npu/npu_launch.h"

#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <set>
#include <utility>

namespace fastlaunch {
namespace {

std::atomic<uint64_t> g_msprof_switch{0};
// The msprof implementations the callback is registered with (one in a real
// process; tests load several fakes).
std::mutex g_msprof_mutex;
std::set<void*> g_msprof_registered;

// The steps of a task that can fail; Launch names the one that did.
enum class Step { None, LockAlloc, LockCopy, Launch };

// One launch. It owns its packed buffer because the task queue runs it
// later, on another thread, after the Python call has returned.
struct Task {
  std::shared_ptr<const NpuRuntime> runtime;
  void* function;
  uint32_t block_dim;
  void* stream;
  bool simt_launch;
  uint32_t local_memory;
  uint32_t lock_num;
  int64_t lock_init;
  size_t lock_offset;
  const cann::WorkspaceAllocator* allocator;
  std::vector<uint8_t> args;
  Step failed = Step::None;
};

int CallLaunch(const Task& t, uint8_t* args) {
  const NpuRuntime& rt = *t.runtime;
  if (t.simt_launch) {
    cann::RtArgsEx info{};
    info.args = args;
    info.args_size = static_cast<uint32_t>(t.args.size());
    cann::RtTaskCfgInfo cfg{};
    cfg.local_memory_size = t.local_memory;
    return rt.rt_launch_v2(t.function, t.block_dim, &info, nullptr, t.stream, 0,
                           &cfg);
  }
  return rt.rt_launch(t.function, t.block_dim, args,
                      static_cast<uint32_t>(t.args.size()), nullptr, t.stream);
}

// The body triton-ascend's launcher queues: sync-block locks (allocated on
// the stream, one host-to-device copy of their initial values), then the
// launch. The locks go back to the allocator once the launch is queued on
// the device stream, as the original's tensor does when its lambda returns.
int RunTask(void* ctx) {
  auto* t = static_cast<Task*>(ctx);
  void* owner = nullptr;
  if (t->lock_num > 0) {
    const uint64_t size = uint64_t{t->lock_num} * sizeof(int64_t);
    void* locks = t->allocator->alloc(size, t->stream, &owner);
    if (locks == nullptr) {
      t->failed = Step::LockAlloc;
      return 1;  // what the original's task returns
    }
    std::vector<int64_t> init(t->lock_num, t->lock_init);
    int rc = t->runtime->rt_memcpy(locks, size, init.data(), size,
                                   cann::kMemcpyHostToDevice);
    if (rc != 0) {
      t->allocator->release(owner);
      t->failed = Step::LockCopy;
      return rc;
    }
    if (t->lock_offset != SIZE_MAX) {
      std::memcpy(t->args.data() + t->lock_offset, &locks, sizeof(locks));
    }
  }
  int rc = CallLaunch(*t, t->args.data());
  if (rc != 0) t->failed = Step::Launch;
  if (owner != nullptr) t->allocator->release(owner);
  return rc;
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

int MsprofControl(uint32_t ctrl_type, void* data, uint32_t len) {
  // The generated launcher's ProfCtrlHandle: a switch command of type start
  // sets the L0/L1 flags from profSwitch. Stop and finalize clear them here
  // (the original keeps them, but msprof drops reports after a stop), so
  // calls return to the planned path once collection ends.
  if (data == nullptr || len == 0) return 1;
  if (ctrl_type != cann::kMsprofCtrlSwitch) return 0;
  if (len < sizeof(cann::MsprofCommandHead)) return 1;
  const auto* head = static_cast<const cann::MsprofCommandHead*>(data);
  if (head->type >= 6) return 1;
  if (head->type == cann::kMsprofCommandStart) {
    g_msprof_switch.store(
        head->prof_switch & (cann::kMsprofSwitchL0 | cann::kMsprofSwitchL1));
  } else if (head->type == cann::kMsprofCommandStop ||
             head->type == cann::kMsprofCommandFinalize) {
    g_msprof_switch.store(0);
  }
  return 0;
}

bool MsprofCollecting() {
  return g_msprof_switch.load(std::memory_order_relaxed) != 0;
}

bool MsprofRegistered() {
  std::lock_guard<std::mutex> lock(g_msprof_mutex);
  return !g_msprof_registered.empty();
}

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
  Find(handles, "rtKernelLaunch", &rt_launch);
  Find(handles, "rtKernelLaunchWithFlagV2", &rt_launch_v2);
  Find(handles, "rtGetC2cCtrlAddr", &rt_c2c_addr);
  Find(handles, "rtMemcpy", &rt_memcpy);
  Find(handles, "rtStreamSynchronize", &rt_stream_sync);
  Find(handles, "aclrtPointerGetAttributes", &pointer_attributes);
  Find(handles, "aclrtGetDevice", &get_device);
  if (get_device == nullptr) Find(handles, "rtGetDevice", &get_device);
  cann::MsprofRegisterCallback register_cb = nullptr;
  Find(handles, "MsprofRegisterCallback", &register_cb);
  if (register_cb != nullptr) {
    std::lock_guard<std::mutex> lock(g_msprof_mutex);
    void* key = reinterpret_cast<void*>(register_cb);
    if (g_msprof_registered.count(key) == 0 &&
        register_cb(cann::kMsprofModuleCce, &MsprofControl) == 0) {
      g_msprof_registered.insert(key);
    }
  }
  if (rt_launch == nullptr) {
    missing_ = "no rtKernelLaunch in the loaded CANN libraries";
    if (!load_errors.empty()) missing_ += " (" + load_errors + ")";
  }
}

std::string NpuRuntime::MissingFor(bool simt) const {
  if (rt_launch == nullptr) return "rtKernelLaunch is not in the loaded CANN";
  if (simt && rt_launch_v2 == nullptr) {
    return "rtKernelLaunchWithFlagV2 (SIMT launch) is not in the loaded CANN";
  }
  return "";
}

uint64_t NpuRuntime::FftsAddress(int device) {
  if (get_device != nullptr) {
    int32_t current = -1;
    int rc = get_device(&current);
    if (rc != 0) {
      throw LaunchError("querying the current device failed with code " +
                        std::to_string(rc));
    }
    if (current != device) {
      throw LaunchError("FFTS address of device " + std::to_string(device) +
                        " asked while device " + std::to_string(current) +
                        " is current");
    }
  }
  std::lock_guard<std::mutex> lock(ffts_mutex_);
  auto found = ffts_.find(device);
  if (found != ffts_.end()) return found->second;
  if (rt_c2c_addr == nullptr) {
    throw LaunchError("no FFTS address query (rtGetC2cCtrlAddr) in the loaded "
                      "CANN libraries");
  }
  uint64_t addr = 0;
  uint32_t len = 0;
  int rc = rt_c2c_addr(&addr, &len);
  if (rc != 0) {
    throw LaunchError("rtGetC2cCtrlAddr failed with code " + std::to_string(rc));
  }
  if (addr == 0) throw LaunchError("the FFTS control address is 0");
  ffts_[device] = addr;
  return addr;
}

NpuLauncher::NpuLauncher(std::shared_ptr<Plan> plan,
                         std::shared_ptr<NpuRuntime> runtime,
                         NpuLaunchOptions options, cann::Submit submit,
                         const cann::WorkspaceAllocator* allocator)
    : Launcher(std::move(plan)),
      runtime_(std::move(runtime)),
      options_(std::move(options)),
      function_(reinterpret_cast<void*>(options_.function)),
      submit_(submit),
      allocator_(allocator) {
  if (!plan_) throw InputError("plan: got None, expected a Plan");
  if (!runtime_) throw InputError("runtime: got None, expected an NpuRuntime");
  if (plan_->abi() != Abi::Npu) {
    throw InputError("plan: got a cuda plan, expected an npu plan");
  }
  if (options_.function == 0) {
    throw InputError("function: got 0, expected a kernel handle");
  }
  std::string missing = runtime_->MissingFor(options_.simt_launch);
  if (!missing.empty()) throw LaunchError(missing);
  if (options_.lock_num > 0) {
    if (allocator_ == nullptr) {
      throw InputError("allocator: got None, expected a workspace allocator "
                       "(lock_num is " + std::to_string(options_.lock_num) +
                       ")");
    }
    if (runtime_->rt_memcpy == nullptr) {
      throw LaunchError("sync-block locks need rtMemcpy, which the loaded CANN "
                        "lacks");
    }
  }
  if (options_.check_pointers && runtime_->pointer_attributes == nullptr) {
    throw LaunchError("the generated launcher checks tensor addresses with "
                      "aclrtPointerGetAttributes, which the loaded CANN lacks");
  }
  if (!options_.taskqueue && runtime_->rt_stream_sync == nullptr) {
    throw LaunchError("TRITON_ENABLE_TASKQUEUE is off, and the loaded CANN "
                      "has no stream synchronisation");
  }
  for (const auto& f : plan_->fields()) {
    if (f.name == "sync_block_lock") lock_offset_ = f.offset;
  }
}

void NpuLauncher::CheckPointers(PyObject* args,
                                const std::vector<uint8_t>& packed) const {
  // As the generated getPointer: ints (bools too) and None are not queried,
  // nor a tensor whose address is 0; a failed query and memory that is
  // neither device nor host-NUMA raise there before anything is launched.
  for (const auto& slot : plan_->PointerSlots()) {
    PyObject* value = PyTuple_GET_ITEM(args, slot.position);
    if (value == Py_None || PyLong_Check(value)) continue;
    uint64_t address = 0;
    std::memcpy(&address, packed.data() + slot.offset, sizeof(address));
    if (address == 0) continue;
    cann::PtrAttributes attributes{};
    const int rc = runtime_->pointer_attributes(
        reinterpret_cast<const void*>(address), &attributes);
    if (rc != 0) {
      throw InputError(slot.label + ": aclrtPointerGetAttributes failed with code " +
                           std::to_string(rc) + ", expected a device address",
                       "pointer_query_failed");
    }
    if (attributes.location_type != cann::kMemLocationDevice &&
        attributes.location_type != cann::kMemLocationHostNuma) {
      throw InputError(slot.label + ": got an address in memory of location type " +
                           std::to_string(attributes.location_type) +
                           ", expected device memory (a CPU tensor?)",
                       "host_pointer");
    }
  }
}

std::string NpuLauncher::api() const {
  return options_.simt_launch ? "rt-v2" : "rt";
}

bool NpuLauncher::Launch(uint64_t stream, const int64_t grid[3], PyObject* args) const {
  LaunchWith(stream, grid, args, 0, 0);
  return true;
}

void NpuLauncher::LaunchWith(uint64_t stream, const int64_t grid[3], PyObject* args,
                             uint64_t workspace, uint64_t sync_lock) const {
  const uint32_t block_dim = plan_->has_static_grid()
                                 ? plan_->static_block_dim()
                                 : plan_->CheckGrid(grid[0], grid[1], grid[2]);
  auto task = std::make_unique<Task>();
  task->runtime = runtime_;
  task->function = function_;
  task->block_dim = block_dim;
  task->stream = reinterpret_cast<void*>(stream);
  task->simt_launch = options_.simt_launch;
  task->local_memory = options_.local_memory;
  task->lock_num = options_.lock_num;
  task->lock_init = options_.lock_init;
  task->lock_offset = lock_offset_;
  task->allocator = allocator_;
  plan_->Pack(args, grid, workspace, sync_lock, &task->args);
  if (options_.check_pointers) CheckPointers(args, task->args);
  if (queued()) {
    // The queue owns the task from here, also when submission fails.
    int rc = submit_(options_.name.c_str(), RunTask, ReleaseTask,
                     task.release());
    if (rc != 0) {
      throw LaunchError("task queue submission of " + options_.name +
                        " failed with code " + std::to_string(rc));
    }
    return;
  }
  int rc = RunTask(task.get());
  switch (task->failed) {
    case Step::None:
      break;
    // Nothing was launched: the call can still take the original path.
    case Step::LockAlloc:
      throw InputError("sync-block lock allocation (" +
                           std::to_string(options_.lock_num) + " locks) for " +
                           options_.name + " failed; nothing was launched",
                       "lock_alloc_failed");
    case Step::LockCopy:
      throw InputError("rtMemcpy of the sync-block locks' initial values for " +
                           options_.name + " failed with code " +
                           std::to_string(rc) + "; nothing was launched",
                       "lock_copy_failed");
    case Step::Launch:
      throw LaunchError(api() + " launch of " + options_.name +
                        " failed with code " + std::to_string(rc));
  }
  if (!options_.taskqueue) {
    // The original's inline form: launch, then wait for the stream.
    rc = runtime_->rt_stream_sync(task->stream);
    if (rc != 0) {
      throw LaunchError("stream synchronisation after " + options_.name +
                        " failed with code " + std::to_string(rc));
    }
  }
}

}  // namespace fastlaunch
