// SPDX-License-Identifier: Apache-2.0
// Launch plans: argument ABI, byte layout and per-call packing.
//
// A plan is built once per (call site, launcher). It fixes every offset and
// the bytes that never change (hidden slots, fixed trailing args, a static
// grid) in a template; each launch copies the template into a fresh buffer
// and writes only the per-call values.
#pragma once

#include <Python.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fastlaunch {

// Raised for bad input; mapped to fastlaunch.FastLaunchError in Python.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The grid is outside the ABI's limits; raised before anything is packed,
// so the caller may take another path for this one call.
struct GridError : InputError {
  using InputError::InputError;
};

enum class Abi { Npu, Cuda };

enum class Kind : uint8_t {
  Ptr, I1, I8, I16, I32, I64, U1, U8, U16, U32, U64, FP16, BF16, FP32, FP64
};

// How a value is stored in its slot.
enum class Store : uint8_t {
  Ptr, S8, S16, S32, S64, U8, U16, U32, U64, Half, BFloat, Float, Double
};

// Triton type string ("*fp32", "i32", ...) to kind; throws InputError naming
// the type for anything the engine cannot pack.
Kind ParseKind(const std::string& type_name);
Abi ParseAbi(const std::string& abi);

struct Field {
  std::string name;
  size_t offset;
  size_t size;
};

struct ArgSlot {
  Kind kind;
  Store store;
  size_t offset;
  size_t size;
  std::string label;  // "arg 2 'xnumel' (i32)", used in error messages
};

struct PlanOptions {
  Abi abi = Abi::Npu;
  std::vector<std::string> signature;  // Triton types, constexprs removed
  std::vector<std::string> names;      // optional, same length
  size_t runtime_arg_count = SIZE_MAX; // leading args passed per call
  // Where each runtime arg sits in the per-call tuple, when that tuple holds
  // more values than the kernel takes (e.g. grid-only launcher args).
  std::vector<size_t> positions;
  size_t input_count = SIZE_MAX;       // per-call tuple size; default: runtime args
  PyObject* fixed_args = nullptr;      // tuple, values of the remaining args
  // npu
  bool ffts = false;
  uint64_t ffts_addr = 0;
  bool pure_simt = false;
  // cuda
  int n_scratch = 2;
  // both
  std::optional<std::array<int64_t, 3>> static_grid;
};

class Plan {
 public:
  explicit Plan(const PlanOptions& options);

  Abi abi() const { return abi_; }
  size_t size() const { return size_; }
  size_t runtime_arg_count() const { return runtime_arg_count_; }
  size_t input_count() const { return input_count_; }
  const std::vector<Field>& fields() const { return fields_; }
  bool has_static_grid() const { return has_static_grid_; }
  bool has_hidden_slots() const { return sync_lock_offset_ != SIZE_MAX; }

  // Validates a grid for this ABI. NPU: returns blockDim (product). CUDA:
  // returns 0 when any dimension is zero (nothing to launch), else 1.
  uint32_t CheckGrid(int64_t g0, int64_t g1, int64_t g2) const;

  // Packs one launch into `out` (resized to size()). `args` must be a tuple
  // of input_count() values. `grid` is ignored with a static grid.
  void Pack(PyObject* args, const int64_t* grid, uint64_t workspace,
            uint64_t sync_lock, std::vector<uint8_t>* out) const;
  // The same into `buf` of at least size() bytes.
  void PackInto(PyObject* args, const int64_t* grid, uint64_t workspace,
                uint64_t sync_lock, uint8_t* buf) const;

  uint32_t static_block_dim() const { return static_block_dim_; }

 private:
  size_t AddField(const std::string& name, size_t size, size_t align);
  void WriteGrid(uint8_t* buf, const int64_t* grid) const;

  Abi abi_;
  std::vector<Field> fields_;
  std::vector<ArgSlot> slots_;
  size_t end_ = 0;
  size_t max_align_ = 1;
  size_t size_ = 0;
  size_t runtime_arg_count_ = 0;
  size_t input_count_ = 0;
  std::vector<size_t> positions_;
  size_t ffts_offset_ = SIZE_MAX;
  size_t sync_lock_offset_ = SIZE_MAX;
  size_t workspace_offset_ = SIZE_MAX;
  size_t grid_offsets_[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
  bool has_static_grid_ = false;
  uint32_t static_block_dim_ = 0;
  std::vector<uint8_t> template_;
};

// Reads a tensor's data pointer without calling its Python method: returns 1
// and sets *out for objects it knows, 0 for anything else (the Python
// data_ptr() path then runs). Installed from a torch-built shim, see
// fastlaunch/backends/torch_accessor.py.
using TensorAccessor = int (*)(PyObject* obj, uint64_t* out);
void SetTensorAccessor(TensorAccessor accessor);
bool HasTensorAccessor();

// Writes one Python value into a slot; throws InputError naming the slot.
void WriteValue(const ArgSlot& slot, PyObject* value, uint8_t* dst);

// IEEE binary16 bits of a double, round to nearest even (as numpy and
// CPython's PyFloat_Pack2 do). Throws InputError when a finite value
// overflows.
uint16_t DoubleToHalfBits(double value, const std::string& label);

}  // namespace fastlaunch
