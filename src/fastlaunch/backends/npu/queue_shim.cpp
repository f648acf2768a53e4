// SPDX-License-Identifier: Apache-2.0
// Submission of fastlaunch NPU tasks through torch_npu's task queue: an
// OpCommand custom handler on the current NPU stream, as triton-ascend's
// launcher does. Built on first use against the installed torch_npu (see
// queue.py); the core reaches it through a PyCapsule, so the core itself
// never links torch.
#include <torch/extension.h>

#include <memory>
#include <string>

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

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("submit_capsule", []() {
    return py::capsule(reinterpret_cast<void*>(&fastlaunch_npu_submit), "fastlaunch.npu_submit");
  });
}
