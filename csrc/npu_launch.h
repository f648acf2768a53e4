// SPDX-License-Identifier: Apache-2.0
// Ascend launch of a planned kernel through CANN, resolved at run time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuda_launch.h"  // LaunchError
#include "npu_abi.h"
#include "plan.h"

namespace fastlaunch {

// The CANN entry points found in the loaded libraries.
class NpuRuntime {
 public:
  // dlopen each library (already-loaded ones are shared) and resolve the
  // launch and FFTS symbols. Never throws: see missing().
  explicit NpuRuntime(const std::vector<std::string>& libraries);

  // "acl" (aclrtLaunchKernelWithHostArgs), "rt" (rtKernelLaunch) or "".
  std::string launch_api() const;
  bool has_simt_launch() const;
  // Empty when usable, else what is missing.
  std::string missing() const { return missing_; }
  // The FFTS control address; throws LaunchError on a failed or zero query.
  uint64_t FftsAddress() const;

  cann::AclLaunchWithHostArgs acl_launch = nullptr;
  cann::AclGetHardwareSyncAddr acl_sync_addr = nullptr;
  cann::RtKernelLaunch rt_launch = nullptr;
  cann::RtKernelLaunchWithFlagV2 rt_launch_v2 = nullptr;
  cann::RtGetC2cCtrlAddr rt_c2c_addr = nullptr;

 private:
  std::string missing_;
};

class NpuLauncher {
 public:
  NpuLauncher(std::shared_ptr<Plan> plan,
              std::shared_ptr<const NpuRuntime> runtime, std::string name,
              uint64_t function, bool simt, uint32_t dyn_ubuf_size,
              cann::Submit submit);

  // Packs and submits. Grid and argument errors throw InputError before
  // anything is queued; a failed runtime call throws LaunchError.
  void Launch(uint64_t stream, int64_t g0, int64_t g1, int64_t g2,
              PyObject* args, uint64_t workspace, uint64_t sync_lock) const;

  std::string api() const;
  std::shared_ptr<Plan> plan() const { return plan_; }
  bool queued() const { return submit_ != nullptr; }

 private:
  std::shared_ptr<Plan> plan_;
  std::shared_ptr<const NpuRuntime> runtime_;
  std::string name_;
  void* function_;
  bool simt_;
  uint32_t dyn_ubuf_size_;
  cann::Submit submit_;
};

}  // namespace fastlaunch
