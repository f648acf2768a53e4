// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for torch_npu's workspace allocator (sync-block locks).
#ifndef FASTLAUNCH_STUB_NPU_WORKSPACE_ALLOCATOR_H
#define FASTLAUNCH_STUB_NPU_WORKSPACE_ALLOCATOR_H

#include <ATen/ATen.h>

namespace at_npu::native {

inline at::Tensor allocate_workspace(uint64_t size, void* stream) {
  return at::Tensor(rec_alloc(1, size, reinterpret_cast<uint64_t>(stream)));
}

}  // namespace at_npu::native
#endif
