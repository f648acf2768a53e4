// SPDX-License-Identifier: Apache-2.0
// Submission of fastlaunch NPU tasks through torch_npu's task queue: an
// OpCommand custom handler on the current NPU stream, as triton-ascend's
// launcher does. Built on first use against the installed torch_npu (see
// queue.py); the core reaches it through a PyCapsule, so the core itself
// never links torch.
#include <torch/extension.h>

#include <memory>
#include <string>

#include "torch_npu/csrc/core/npu/NPUWorkspaceAllocator.h"
#include "torch_npu/csrc/framework/OpCommand.h"

namespace {

using TaskRun = int (*)(void*);
using TaskRelease = void (*)(void*);

// The task owns its packed buffer; shared ownership releases it exactly
// once, whether the handler ran or the queue dropped it.
extern "C" int fastlaunch_npu_submit(const char* name, TaskRun run, TaskRelease release,
                                     void* ctx) {
  try {
    std::shared_ptr<void> task(ctx, release);
    at_npu::native::OpCommand cmd;
    cmd.Name(std::string(name)).SetCustomHandler([task, run]() -> int { return run(task.get()); })
        .Run();
    return 0;
  } catch (const std::exception&) {
    return -1;
  }
}

// Sync-block locks, taken inside the task as triton-ascend's launcher does:
// torch_npu's workspace allocator on the launch stream. The tensor is the
// owner; dropping it after the launch returns the block to the pool.
void* fastlaunch_npu_alloc(uint64_t size, void* stream, void** owner) {
  try {
    auto* tensor = new at::Tensor(at_npu::native::allocate_workspace(size, stream));
    *owner = tensor;
    return const_cast<void*>(tensor->storage().data());
  } catch (const std::exception&) {
    *owner = nullptr;
    return nullptr;
  }
}

void fastlaunch_npu_release(void* owner) { delete static_cast<at::Tensor*>(owner); }

struct WorkspaceAllocator {
  void* (*alloc)(uint64_t, void*, void**);
  void (*release)(void*);
};
const WorkspaceAllocator kAllocator{&fastlaunch_npu_alloc, &fastlaunch_npu_release};

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("submit_capsule", []() {
    return py::capsule(reinterpret_cast<void*>(&fastlaunch_npu_submit), "fastlaunch.npu_submit");
  });
  m.def("allocator_capsule", []() {
    return py::capsule(const_cast<WorkspaceAllocator*>(&kAllocator), "fastlaunch.npu_workspace");
  });
}
