// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for torch_npu's OpCommand custom-handler entry: Run()
// hands the handler to the recorder's task queue under the command's name.
#ifndef FASTLAUNCH_STUB_OPCOMMAND_H
#define FASTLAUNCH_STUB_OPCOMMAND_H

#include <functional>
#include <string>
#include <utility>

#include "recorder.h"

namespace at_npu::native {

class OpCommand {
 public:
  using Handler = std::function<int()>;

  OpCommand& Name(const std::string& name) {
    name_ = name;
    return *this;
  }
  OpCommand& SetCustomHandler(Handler handler) {
    handler_ = std::move(handler);
    return *this;
  }
  void Run() {
    rec_submit(name_.c_str(), &RunHandler, &ReleaseHandler, new Handler(std::move(handler_)));
  }

 private:
  static int RunHandler(void* ctx) { return (*static_cast<Handler*>(ctx))(); }
  static void ReleaseHandler(void* ctx) { delete static_cast<Handler*>(ctx); }

  std::string name_;
  Handler handler_;
};

}  // namespace at_npu::native
#endif
