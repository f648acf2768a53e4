// SPDX-License-Identifier: Apache-2.0
// Ascend launch of a planned kernel through CANN, resolved at run time.
//
// Every triton-ascend branch registers kernels with rtFunctionRegister and
// launches the stub with rtKernelLaunch (rtKernelLaunchWithFlagV2 for SIMT on
// 910_95); what its generator decides per kernel is read in Python
// (fastlaunch/backends/npu/family.py, kernel_meta.py) and passed per launcher.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/launcher.h"
#include "npu/npu_abi.h"
#include "core/plan.h"

namespace fastlaunch {

// The CANN entry points found in the loaded libraries.
class NpuRuntime {
 public:
  // dlopen each library (already-loaded ones are shared) and resolve the
  // launch, FFTS, memcpy, sync, pointer-query and msprof symbols. Never
  // throws: see missing(). Registers the msprof switch callback once per
  // msprof found.
  explicit NpuRuntime(const std::vector<std::string>& libraries);

  // Empty when a launch (a SIMT one when `simt`) can be made, else what is
  // missing.
  std::string MissingFor(bool simt) const;
  // Empty when rtKernelLaunch resolved, else what is missing.
  std::string missing() const { return missing_; }
  // The FFTS control address of `device` (rtGetC2cCtrlAddr), queried once
  // per device (the device must be current when first asked); throws
  // LaunchError on a failed or zero query or when another device is current.
  uint64_t FftsAddress(int device);

  cann::RtKernelLaunch rt_launch = nullptr;
  cann::RtKernelLaunchWithFlagV2 rt_launch_v2 = nullptr;
  cann::RtGetC2cCtrlAddr rt_c2c_addr = nullptr;
  cann::Memcpy rt_memcpy = nullptr;
  cann::StreamSynchronize rt_stream_sync = nullptr;
  cann::PointerGetAttributes pointer_attributes = nullptr;
  cann::GetDevice get_device = nullptr;

 private:
  std::string missing_;
  std::mutex ffts_mutex_;
  std::map<int, uint64_t> ffts_;
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
  uint64_t function = 0;       // the rtFunctionRegister stub
  bool simt_launch = false;    // rtKernelLaunchWithFlagV2
  uint32_t local_memory = 0;   // bytes for the SIMT launch
  bool taskqueue = true;       // false: launch inline, then synchronise
  uint32_t lock_num = 0;       // int64 sync-block locks, made in the task
  int64_t lock_init = 0;
  // Query every tensor address with aclrtPointerGetAttributes before
  // submitting, as newer generated launchers do (host memory refused).
  bool check_pointers = false;
};

class NpuLauncher final : public Launcher {
 public:
  NpuLauncher(std::shared_ptr<Plan> plan, std::shared_ptr<NpuRuntime> runtime,
              NpuLaunchOptions options, cann::Submit submit,
              const cann::WorkspaceAllocator* allocator);

  // Packs and submits, with the workspace and sync-lock slots given. Grid,
  // argument and pointer-check errors throw InputError before anything is
  // queued; a failed runtime call throws LaunchError naming the step that
  // failed.
  void LaunchWith(uint64_t stream, const int64_t grid[3], PyObject* args, uint64_t workspace,
                  uint64_t sync_lock) const;
  // LaunchWith without a workspace; always true.
  bool Launch(uint64_t stream, const int64_t grid[3], PyObject* args) const override;

  // "rt" or "rt-v2" (rtKernelLaunchWithFlagV2).
  std::string api() const;
  const NpuLaunchOptions& options() const { return options_; }
  bool queued() const { return submit_ != nullptr && options_.taskqueue; }

 private:
  void CheckPointers(PyObject* args, const std::vector<uint8_t>& packed) const;

  std::shared_ptr<const NpuRuntime> runtime_;
  NpuLaunchOptions options_;
  void* function_;
  size_t lock_offset_ = SIZE_MAX;
  cann::Submit submit_;
  const cann::WorkspaceAllocator* allocator_;
};

}  // namespace fastlaunch
