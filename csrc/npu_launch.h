// SPDX-License-Identifier: Apache-2.0
// Ascend launch of a planned kernel through CANN, resolved at run time.
//
// The launch API is not chosen here: it is the family of the installed
// triton-ascend (how its loader made the kernel handle), decided in Python
// (fastlaunch/backends/npu/family.py) and passed per launcher. This file only
// checks that the loaded CANN has that family's entry points.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cuda_launch.h"  // LaunchError
#include "npu_abi.h"
#include "plan.h"

namespace fastlaunch {

enum class LaunchFamily { Rt, Acl };

// Parses "rt" or "acl"; throws InputError naming the field otherwise.
LaunchFamily ParseLaunchFamily(const std::string& family);

// The CANN entry points found in the loaded libraries.
class NpuRuntime {
 public:
  // dlopen each library (already-loaded ones are shared) and resolve the
  // launch, FFTS, memcpy, sync and msprof symbols. Never throws: see
  // missing(). Registers the msprof switch callback once per msprof found.
  explicit NpuRuntime(const std::vector<std::string>& libraries);

  // Families whose launch entry point resolved: "rt", "acl", "rt,acl" or "".
  std::string families() const;
  // Empty when `family` (with a SIMT launch when `simt`) can launch, else
  // what is missing.
  std::string MissingFor(LaunchFamily family, bool simt) const;
  // Empty when any family can launch, else what is missing.
  std::string missing() const { return missing_; }
  // The FFTS control address of `device`, queried once per device with the
  // family's own query (rtGetC2cCtrlAddr / aclrtGetHardwareSyncAddr; the
  // device must be current when first asked); throws LaunchError on a
  // failed or zero query or when another device is current.
  uint64_t FftsAddress(LaunchFamily family, int device);
  // The family's host-to-device copy and stream synchronisation (the other
  // family's when the family's own is absent), or nullptr.
  cann::Memcpy MemcpyFor(LaunchFamily family) const;
  cann::StreamSynchronize SyncFor(LaunchFamily family) const;

  cann::AclLaunchWithHostArgs acl_launch = nullptr;
  cann::AclGetHardwareSyncAddr acl_sync_addr = nullptr;
  cann::RtKernelLaunch rt_launch = nullptr;
  cann::RtKernelLaunchWithFlagV2 rt_launch_v2 = nullptr;
  cann::RtGetC2cCtrlAddr rt_c2c_addr = nullptr;
  cann::Memcpy rt_memcpy = nullptr;
  cann::Memcpy acl_memcpy = nullptr;
  cann::StreamSynchronize rt_stream_sync = nullptr;
  cann::StreamSynchronize acl_stream_sync = nullptr;
  cann::GetDevice get_device = nullptr;

 private:
  std::string missing_;
  std::mutex ffts_mutex_;
  std::map<std::pair<LaunchFamily, int>, uint64_t> ffts_;
};

// Whether msprof is collecting: the L0 or L1 switch of the last start
// command delivered to the callback NpuRuntime registered (false before).
bool MsprofCollecting();
// Whether the callback is registered (msprof found in the loaded CANN).
bool MsprofRegistered();
// The callback itself, for tests that play msprof's part.
int MsprofControl(uint32_t ctrl_type, void* data, uint32_t len);

struct NpuLaunchOptions {
  std::string name;            // task name (triton-ascend's 49-char cut)
  uint64_t function = 0;       // the kernel handle, as the family made it
  LaunchFamily family = LaunchFamily::Rt;
  bool simt_launch = false;    // rtKernelLaunchWithFlagV2 / DYN_UBUF_SIZE
  uint32_t local_memory = 0;   // bytes for the SIMT launch
  bool taskqueue = true;       // false: launch inline, then synchronise
  uint32_t lock_num = 0;       // int64 sync-block locks, made in the task
  int64_t lock_init = 0;
};

class NpuLauncher {
 public:
  NpuLauncher(std::shared_ptr<Plan> plan, std::shared_ptr<NpuRuntime> runtime,
              NpuLaunchOptions options, cann::Submit submit,
              const cann::WorkspaceAllocator* allocator);

  // Packs and submits. Grid and argument errors throw InputError before
  // anything is queued; a failed runtime call throws LaunchError.
  void Launch(uint64_t stream, int64_t g0, int64_t g1, int64_t g2,
              PyObject* args, uint64_t workspace, uint64_t sync_lock) const;

  // "rt", "rt-v2" (rtKernelLaunchWithFlagV2), "acl" or "acl-dyn-ubuf".
  std::string api() const;
  std::shared_ptr<Plan> plan() const { return plan_; }
  const NpuLaunchOptions& options() const { return options_; }
  bool queued() const { return submit_ != nullptr && options_.taskqueue; }

 private:
  std::shared_ptr<Plan> plan_;
  std::shared_ptr<const NpuRuntime> runtime_;
  NpuLaunchOptions options_;
  void* function_;
  size_t lock_offset_ = SIZE_MAX;
  cann::Submit submit_;
  const cann::WorkspaceAllocator* allocator_;
};

}  // namespace fastlaunch
