// SPDX-License-Identifier: Apache-2.0
// The native launcher interface: what a FastSite calls, for every backend.
//
// A launcher packs one call with its plan and submits it to its runtime
// (cuda_launch.h, npu_launch.h). FastSite and the core bindings know only
// this interface; they hold launchers by shared_ptr, so a launcher lives as
// long as the last FastSite or Python object that uses it.
#pragma once

#include <Python.h>

#include <cstdint>
#include <memory>

#include "core/plan.h"

namespace fastlaunch {

class Launcher {
 public:
  virtual ~Launcher() = default;

  // Packs `args` (a tuple of the plan's input_count() values) and submits
  // one launch of grid `grid` on `stream`. Returns false when nothing was
  // launched (an empty CUDA grid). Throws InputError subclasses (and
  // PythonError) before anything is submitted, LaunchError when the runtime
  // call itself failed.
  virtual bool Launch(uint64_t stream, const int64_t grid[3], PyObject* args) const = 0;

  // The plan every launch packs with.
  const std::shared_ptr<Plan>& plan() const { return plan_; }

 protected:
  explicit Launcher(std::shared_ptr<Plan> plan) : plan_(std::move(plan)) {}

  std::shared_ptr<Plan> plan_;
};

}  // namespace fastlaunch
