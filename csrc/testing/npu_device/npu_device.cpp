// SPDX-License-Identifier: Apache-2.0
// A test device on PrivateUse1 (renamed `npu` by tests/helpers/npu_device.py),
// so the planned call's ATen shim runs on tensors shaped as torch_npu makes
// them: plain at::Tensors whose storage is on a PrivateUse1 device, with a
// device guard and an allocator, and no Python subclass anywhere.
//
// The mechanism is the one PyTorch documents for an out-of-tree backend and
// exercises with its OpenReg reference backend: an allocator registered for
// the device type, a DeviceGuardImpl, and TORCH_LIBRARY_IMPL(aten,
// PrivateUse1, ...) kernels. Memory is host memory, so each kernel runs the
// CPU kernel on CPU tensors aliasing the same bytes.
//
// The allocator is first fit over one malloc'd arena: the same allocations
// and frees in the same order give the same addresses (as a caching allocator
// does across identical steps), so a test can compare the addresses that
// reach the recording CANN runtime, and read the allocation log
// (torch.ops.fastlaunch_npu_device.allocations) to see each free happen
// where the Python call() does it.
//
// Built by torch.utils.cpp_extension.load (no Python module: the library's
// static registrations are all it has); includes kept small so it compiles
// in about a minute on one core.
#include <ATen/EmptyTensor.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_copy_from_native.h>
#include <ATen/ops/_local_scalar_dense_native.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_for_cpu.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/convolution.h>
#include <ATen/ops/copy_native.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/fill_native.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace {

constexpr c10::DeviceType kNpu = c10::DeviceType::PrivateUse1;

// ---- memory ------------------------------------------------------------------------------

class ArenaAllocator final : public c10::Allocator {
 public:
  static constexpr size_t kBytes = size_t{256} << 20;
  static constexpr size_t kAlign = 512;  // torch_npu's caching allocator rounds to 512 bytes

  c10::DataPtr allocate(size_t n) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (base_ == nullptr) {
      base_ = static_cast<char*>(std::malloc(kBytes));
      TORCH_CHECK(base_ != nullptr, "npu test device: malloc of its ", kBytes, "-byte arena failed");
    }
    size_t length = std::max(kAlign, (n + kAlign - 1) / kAlign * kAlign);
    size_t start = 0;
    for (const auto& [offset, used] : used_) {
      if (offset - start >= length) break;
      start = offset + used;
    }
    TORCH_CHECK_WITH(OutOfMemoryError, start + length <= kBytes, "npu test device: ", n,
                     " bytes do not fit its ", kBytes, "-byte arena");
    used_.emplace(start, length);
    log_.insert(log_.end(), {1, static_cast<int64_t>(start), static_cast<int64_t>(length)});
    char* ptr = base_ + start;
    return {ptr, ptr, &Free, c10::Device(kNpu, 0)};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &Free; }

  void copy_data(void* dest, const void* src, size_t count) const override {
    std::memcpy(dest, src, count);
  }

  // [1 (alloc) or 0 (free), offset in the arena, length] per event, flattened.
  std::vector<int64_t> TakeLog() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<int64_t> out;
    out.swap(log_);
    return out;
  }

 private:
  static void Free(void* ptr);

  std::mutex mutex_;
  char* base_ = nullptr;
  std::map<size_t, size_t> used_;  // offset -> length
  std::vector<int64_t> log_;
};

ArenaAllocator g_allocator;

void ArenaAllocator::Free(void* ptr) {
  std::lock_guard<std::mutex> lock(g_allocator.mutex_);
  size_t offset = static_cast<char*>(ptr) - g_allocator.base_;
  auto it = g_allocator.used_.find(offset);
  TORCH_INTERNAL_ASSERT(it != g_allocator.used_.end(), "npu test device: free of an unknown block");
  g_allocator.log_.insert(g_allocator.log_.end(),
                          {0, static_cast<int64_t>(offset), static_cast<int64_t>(it->second)});
  g_allocator.used_.erase(it);
}

REGISTER_ALLOCATOR(kNpu, &g_allocator);

// ---- device guard: one device, index 0, its default stream --------------------------------

struct NpuGuard final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kNpu; }
  c10::Device exchangeDevice(c10::Device d) const override {
    Check(d);
    return c10::Device(kNpu, 0);
  }
  c10::Device getDevice() const override { return c10::Device(kNpu, 0); }
  void setDevice(c10::Device d) const override { Check(d); }
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const override {
    return c10::Stream(c10::Stream::DEFAULT, s.device());
  }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }

 private:
  static void Check(c10::Device d) {
    TORCH_CHECK(d.type() == kNpu && d.index() <= 0, "npu test device: has only npu:0, got ", d);
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, NpuGuard);

// ---- kernels: the CPU kernel on CPU tensors over the same bytes ----------------------------

at::Tensor Host(const at::Tensor& t) {
  if (!t.defined() || t.is_cpu()) return t;
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

std::optional<at::Tensor> Host(const std::optional<at::Tensor>& t) {
  if (!t.has_value()) return t;
  return Host(*t);
}

// A device tensor with the CPU result's sizes, strides and bytes.
at::Tensor OnDevice(const at::Tensor& cpu) {
  at::Tensor out = at::empty_strided(cpu.sizes(), cpu.strides(),
                                     cpu.options().device(c10::Device(kNpu, 0)));
  Host(out).copy_(cpu);
  return out;
}

at::Tensor EmptyStrided(c10::IntArrayRef size, c10::IntArrayRef stride,
                        std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                        std::optional<at::Device> device, std::optional<bool> pin_memory) {
  TORCH_CHECK(c10::layout_or_default(layout) == at::Layout::Strided &&
                  !c10::pinned_memory_or_default(pin_memory),
              "npu test device: strided, unpinned tensors only");
  return at::detail::empty_strided_generic(size, stride, &g_allocator,
                                           c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                           c10::dtype_or_default(dtype));
}

at::Tensor Empty(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                 std::optional<at::Layout> layout, std::optional<at::Device> device,
                 std::optional<bool> pin_memory, std::optional<at::MemoryFormat> format) {
  TORCH_CHECK(c10::layout_or_default(layout) == at::Layout::Strided &&
                  !c10::pinned_memory_or_default(pin_memory),
              "npu test device: strided, unpinned tensors only");
  return at::detail::empty_generic(size, &g_allocator,
                                   c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                   c10::dtype_or_default(dtype), format);
}

at::Tensor AsStrided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                     std::optional<int64_t> offset) {
  return at::native::as_strided_tensorimpl(self, size, stride, offset);
}

at::Tensor CopyFrom(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  Host(dst).copy_(Host(self), non_blocking);
  return dst;
}

at::Tensor& Fill(at::Tensor& self, const at::Scalar& value) {
  Host(self).fill_(value);
  return self;
}

at::Scalar LocalScalarDense(const at::Tensor& self) {
  return at::native::_local_scalar_dense_cpu(Host(self));
}

at::Tensor& MmOut(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  at::Tensor host = Host(out);
  at::mm_out(host, Host(a), Host(b));
  return out;
}

at::Tensor& BmmOut(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  at::Tensor host = Host(out);
  at::bmm_out(host, Host(a), Host(b));
  return out;
}

at::Tensor& AddmmOut(const at::Tensor& x, const at::Tensor& a, const at::Tensor& b,
                     const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  at::Tensor host = Host(out);
  at::addmm_out(host, Host(x), Host(a), Host(b), beta, alpha);
  return out;
}

at::Tensor& BaddbmmOut(const at::Tensor& x, const at::Tensor& a, const at::Tensor& b,
                       const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  at::Tensor host = Host(out);
  at::baddbmm_out(host, Host(x), Host(a), Host(b), beta, alpha);
  return out;
}

// What at::convolution reaches for a device it has no backend for (torch_npu
// registers this too).
at::Tensor ConvolutionOverrideable(const at::Tensor& x, const at::Tensor& w,
                                   const std::optional<at::Tensor>& bias, c10::IntArrayRef stride,
                                   c10::IntArrayRef padding, c10::IntArrayRef dilation,
                                   bool transposed, c10::IntArrayRef output_padding,
                                   int64_t groups) {
  return OnDevice(at::convolution(Host(x), Host(w), Host(bias), stride, padding, dilation,
                                  transposed, output_padding, groups));
}

std::tuple<at::Tensor, at::Tensor> SdpaFlashCpu(const at::Tensor& q, const at::Tensor& k,
                                                const at::Tensor& v, double dropout, bool causal,
                                                const std::optional<at::Tensor>& mask,
                                                std::optional<double> scale) {
  auto [out, lse] = at::_scaled_dot_product_flash_attention_for_cpu(
      Host(q), Host(k), Host(v), dropout, causal, Host(mask), scale);
  return {OnDevice(out), OnDevice(lse)};
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(Empty));
  m.impl("empty_strided", TORCH_FN(EmptyStrided));
  m.impl("as_strided", TORCH_FN(AsStrided));
  m.impl("view", TORCH_FN(at::native::view));
  m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
  m.impl("_copy_from", TORCH_FN(CopyFrom));
  m.impl("fill_.Scalar", TORCH_FN(Fill));
  m.impl("_local_scalar_dense", TORCH_FN(LocalScalarDense));
  m.impl("mm.out", TORCH_FN(MmOut));
  m.impl("bmm.out", TORCH_FN(BmmOut));
  m.impl("addmm.out", TORCH_FN(AddmmOut));
  m.impl("baddbmm.out", TORCH_FN(BaddbmmOut));
  m.impl("convolution_overrideable", TORCH_FN(ConvolutionOverrideable));
  m.impl("_scaled_dot_product_flash_attention_for_cpu", TORCH_FN(SdpaFlashCpu));
}

TORCH_LIBRARY(fastlaunch_npu_device, m) {
  m.def("allocations() -> int[]", [] { return g_allocator.TakeLog(); });
}

}  // namespace
