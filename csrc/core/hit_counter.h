// SPDX-License-Identifier: Apache-2.0
// One call site's count of native launches: FastSite adds to it, the Python
// counters read and reset it (fastlaunch.runtime.counters), so launches made
// in C are counted per site like every other decision.
#pragma once

#include <atomic>
#include <cstdint>

namespace fastlaunch {

struct HitCounter {
  std::atomic<uint64_t> value{0};
};

}  // namespace fastlaunch
