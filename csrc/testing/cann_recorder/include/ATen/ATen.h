// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for ATen: the TensorOptions / at::empty / storage bits a
// generated triton-ascend launcher uses for its workspace. Memory comes from
// the recorder, which logs each allocation.
#ifndef FASTLAUNCH_STUB_ATEN_H
#define FASTLAUNCH_STUB_ATEN_H

#include <cstdint>

#include "recorder.h"

namespace at {

enum DeviceType { kPrivateUse1 = 20 };
enum ScalarType { kByte = 0 };

struct TensorOptions {
  TensorOptions device(DeviceType) const { return *this; }
  TensorOptions dtype(ScalarType) const { return *this; }
};

struct Storage {
  uint64_t address;
  void* data() const { return reinterpret_cast<void*>(address); }
};

class Tensor {
 public:
  explicit Tensor(uint64_t address = 0) : storage_{address} {}
  Storage storage() const { return storage_; }

 private:
  Storage storage_;
};

inline Tensor empty(uint64_t size, TensorOptions) { return Tensor(rec_alloc(0, size, 0)); }

}  // namespace at
#endif
