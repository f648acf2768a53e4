// SPDX-License-Identifier: Apache-2.0
// CUDA driver launch of a planned kernel. libcuda is opened at run time, so
// this builds and imports on machines without the CUDA toolkit or driver.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/launcher.h"
#include "core/plan.h"

namespace fastlaunch {

// Returns "" when libcuda and every needed symbol resolved, else the reason.
std::string CudaDriverStatus();

// (offset, size) of each kernel parameter, from cuFuncGetParamInfo; empty
// when the driver lacks that call (older than CUDA 12.4).
std::vector<std::pair<size_t, size_t>> CudaParamInfo(uint64_t function);

int CudaCurrentDevice();

class CudaLauncher final : public Launcher {
 public:
  CudaLauncher(std::shared_ptr<Plan> plan, uint64_t function, int num_warps,
               unsigned shared_bytes, int device);

  // Packs and launches with cuLaunchKernel on `stream`. Returns false when
  // the grid is empty (nothing launched). Throws InputError subclasses before
  // anything is submitted, LaunchError when the driver refused the launch.
  bool Launch(uint64_t stream, const int64_t grid[3], PyObject* args) const override;

  int device() const { return device_; }
  unsigned block_x() const { return block_x_; }
  unsigned shared_bytes() const { return shared_; }

 private:
  void* function_;
  unsigned block_x_;
  unsigned shared_;
  int device_;
};

}  // namespace fastlaunch
