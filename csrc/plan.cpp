// SPDX-License-Identifier: Apache-2.0
#include "plan.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace fastlaunch {
namespace {

struct KindName {
  const char* name;
  Kind kind;
};

constexpr KindName kScalarKinds[] = {
    {"i1", Kind::I1},     {"i8", Kind::I8},     {"i16", Kind::I16},
    {"i32", Kind::I32},   {"i64", Kind::I64},   {"u1", Kind::U1},
    {"u8", Kind::U8},     {"u16", Kind::U16},   {"u32", Kind::U32},
    {"u64", Kind::U64},   {"fp16", Kind::FP16}, {"bf16", Kind::BF16},
    {"fp32", Kind::FP32}, {"fp64", Kind::FP64},
};

const char* KindName(Kind kind) {
  if (kind == Kind::Ptr) return "pointer";
  for (const auto& k : kScalarKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

size_t StoreSize(Store store) {
  switch (store) {
    case Store::S8: case Store::U8: return 1;
    case Store::S16: case Store::U16: case Store::Half: case Store::BFloat:
      return 2;
    case Store::S32: case Store::U32: case Store::Float: return 4;
    default: return 8;
  }
}

// triton-ascend's ty_to_cpp: i1 as int32, u1 as uint32, every float below
// 64 bits as a 32-bit float.
Store NpuStore(Kind kind) {
  switch (kind) {
    case Kind::Ptr: return Store::Ptr;
    case Kind::I1: return Store::S32;
    case Kind::I8: return Store::S8;
    case Kind::I16: return Store::S16;
    case Kind::I32: return Store::S32;
    case Kind::I64: return Store::S64;
    case Kind::U1: return Store::U32;
    case Kind::U8: return Store::U8;
    case Kind::U16: return Store::U16;
    case Kind::U32: return Store::U32;
    case Kind::U64: return Store::U64;
    case Kind::FP16: case Kind::BF16: case Kind::FP32: return Store::Float;
    case Kind::FP64: return Store::Double;
  }
  return Store::Ptr;
}

// CUDA kernel parameters at their natural width; i1 is one byte
// (cuFuncGetParamInfo on Triton 3.6 kernels), fp16/bf16 are 16 bits.
Store CudaStore(Kind kind) {
  switch (kind) {
    case Kind::I1: return Store::S8;
    case Kind::U1: return Store::U8;
    case Kind::FP16: return Store::Half;
    case Kind::BF16: return Store::BFloat;
    case Kind::FP32: return Store::Float;
    default: return NpuStore(kind);
  }
}

std::string TypeOfObject(PyObject* value) {
  std::string name = Py_TYPE(value)->tp_name;
  PyObject* r = PyObject_Repr(value);
  if (r == nullptr) {
    PyErr_Clear();
    return name;
  }
  const char* s = PyUnicode_AsUTF8(r);
  std::string repr = s ? s : "";
  if (!s) PyErr_Clear();
  Py_DECREF(r);
  if (repr.size() > 60) repr = repr.substr(0, 57) + "...";
  return name + " " + repr;
}

[[noreturn]] void Fail(const std::string& label, PyObject* value,
                       const std::string& expected) {
  throw InputError(label + ": got " + TypeOfObject(value) + ", expected " +
                   expected);
}

TensorAccessor g_tensor_accessor = nullptr;

PyObject* DataPtrName() {
  static PyObject* name = PyUnicode_InternFromString("data_ptr");
  return name;
}

// Tensors (and other buffers) are recognised by a data_ptr attribute.
bool HasDataPtr(PyObject* value) {
  if (PyLong_CheckExact(value) || PyFloat_CheckExact(value) || value == Py_None ||
      PyBool_Check(value)) {
    return false;
  }
  PyObject* attr = PyObject_GetAttr(value, DataPtrName());
  if (attr == nullptr) {
    PyErr_Clear();
    return false;
  }
  Py_DECREF(attr);
  return true;
}

uint64_t PointerValue(const ArgSlot& slot, PyObject* value) {
  static const char* kExpected = "a tensor, an int address or None";
  if (value == Py_None) return 0;
  PyObject* address = nullptr;
  if (PyLong_Check(value) && !PyBool_Check(value)) {
    address = value;
    Py_INCREF(address);
  } else if (!PyFloat_Check(value) && !PyBool_Check(value)) {
    uint64_t fast = 0;
    if (g_tensor_accessor != nullptr && g_tensor_accessor(value, &fast) == 1) return fast;
    address = PyObject_CallMethodObjArgs(value, DataPtrName(), nullptr);
    if (address == nullptr) {
      const bool missing = PyErr_ExceptionMatches(PyExc_AttributeError);
      PyErr_Clear();
      Fail(slot.label, value, missing ? kExpected : "data_ptr() to succeed");
    }
    if (!PyLong_Check(address)) {
      Py_DECREF(address);
      Fail(slot.label, value, "data_ptr() to return an int");
    }
  } else {
    Fail(slot.label, value, kExpected);
  }
  uint64_t result = PyLong_AsUnsignedLongLong(address);
  Py_DECREF(address);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    Fail(slot.label, value, "an address in 0..2**64-1");
  }
  return result;
}

// Integers are range-checked for their slot, never wrapped.
void WriteInteger(const ArgSlot& slot, PyObject* value, uint8_t* dst) {
  if (!PyLong_CheckExact(value) && (PyFloat_Check(value) || HasDataPtr(value))) {
    Fail(slot.label, value, std::string("an int for ") + KindName(slot.kind));
  }
  PyObject* index = PyNumber_Index(value);
  if (index == nullptr) {
    PyErr_Clear();
    Fail(slot.label, value, std::string("an int for ") + KindName(slot.kind));
  }
  int overflow = 0;
  long long s = PyLong_AsLongLongAndOverflow(index, &overflow);
  bool negative = overflow < 0 || (overflow == 0 && s < 0);
  unsigned long long u = 0;
  bool u_ok = false;
  if (!negative) {
    u = PyLong_AsUnsignedLongLong(index);
    u_ok = !PyErr_Occurred();
    PyErr_Clear();
  }
  Py_DECREF(index);
  auto range = [&](long long lo, unsigned long long hi) {
    bool ok = negative ? (overflow == 0 && s >= lo) : (u_ok && u <= hi);
    if (!ok) {
      Fail(slot.label, value,
           std::string("an int in ") + std::to_string(lo) + ".." +
               std::to_string(hi) + " for " + KindName(slot.kind));
    }
  };
  bool one_bit = slot.kind == Kind::I1 || slot.kind == Kind::U1;
  switch (slot.store) {
    case Store::S8: {
      one_bit ? range(0, 1) : range(INT8_MIN, INT8_MAX);
      int8_t v = static_cast<int8_t>(s);
      std::memcpy(dst, &v, 1);
      return;
    }
    case Store::U8: {
      one_bit ? range(0, 1) : range(0, UINT8_MAX);
      uint8_t v = static_cast<uint8_t>(u);
      std::memcpy(dst, &v, 1);
      return;
    }
    case Store::S16: {
      range(INT16_MIN, INT16_MAX);
      int16_t v = static_cast<int16_t>(s);
      std::memcpy(dst, &v, 2);
      return;
    }
    case Store::U16: {
      range(0, UINT16_MAX);
      uint16_t v = static_cast<uint16_t>(u);
      std::memcpy(dst, &v, 2);
      return;
    }
    case Store::S32: {
      one_bit ? range(0, 1) : range(INT32_MIN, INT32_MAX);
      int32_t v = static_cast<int32_t>(negative ? s : static_cast<long long>(u));
      std::memcpy(dst, &v, 4);
      return;
    }
    case Store::U32: {
      one_bit ? range(0, 1) : range(0, UINT32_MAX);
      uint32_t v = static_cast<uint32_t>(u);
      std::memcpy(dst, &v, 4);
      return;
    }
    case Store::S64: {
      range(INT64_MIN, INT64_MAX);
      int64_t v = negative ? s : static_cast<int64_t>(u);
      std::memcpy(dst, &v, 8);
      return;
    }
    case Store::U64: {
      range(0, UINT64_MAX);
      std::memcpy(dst, &u, 8);
      return;
    }
    default:
      throw InputError(slot.label + ": internal error, not an integer slot");
  }
}

double FloatValue(const ArgSlot& slot, PyObject* value) {
  if (PyFloat_CheckExact(value)) return PyFloat_AS_DOUBLE(value);
  if (value == Py_None || HasDataPtr(value)) {
    Fail(slot.label, value, std::string("a float for ") + KindName(slot.kind));
  }
  double v = PyFloat_AsDouble(value);
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    Fail(slot.label, value, std::string("a float for ") + KindName(slot.kind));
  }
  return v;
}

float ToFloat(const ArgSlot& slot, double v) {
  float f = static_cast<float>(v);
  if (std::isinf(f) && !std::isinf(v)) {
    throw InputError(slot.label + ": got float " + std::to_string(v) +
                     ", expected a value that fits in fp32");
  }
  return f;
}

}  // namespace

void SetTensorAccessor(TensorAccessor accessor) { g_tensor_accessor = accessor; }
bool HasTensorAccessor() { return g_tensor_accessor != nullptr; }

Kind ParseKind(const std::string& type_name) {
  if (!type_name.empty() && type_name[0] == '*') return Kind::Ptr;
  for (const auto& k : kScalarKinds) {
    if (type_name == k.name) return k.kind;
  }
  if (type_name == "fp32" || type_name == "f32") return Kind::FP32;
  throw InputError("signature type '" + type_name +
                   "' is not supported: expected a pointer (*T) or one of "
                   "i1 i8 i16 i32 i64 u1 u8 u16 u32 u64 fp16 bf16 fp32 fp64");
}

Abi ParseAbi(const std::string& abi) {
  if (abi == "npu") return Abi::Npu;
  if (abi == "cuda") return Abi::Cuda;
  throw InputError("abi '" + abi + "' is not supported: expected npu or cuda");
}

uint16_t DoubleToHalfBits(double value, const std::string& label) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  const int exp = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t man = bits & ((uint64_t{1} << 52) - 1);
  if (exp == 0x7ff) return sign | (man ? 0x7e00 : 0x7c00);
  const int e = exp - 1023;
  auto overflow = [&]() -> uint16_t {
    throw InputError(label + ": got float " + std::to_string(value) +
                     ", expected a value that fits in fp16 (|x| < 65520)");
  };
  if (e > 15) return overflow();
  if (e >= -14) {
    uint32_t h = (static_cast<uint32_t>(e + 15) << 10) |
                 static_cast<uint32_t>(man >> 42);
    const uint64_t rem = man & ((uint64_t{1} << 42) - 1);
    const uint64_t halfway = uint64_t{1} << 41;
    if (rem > halfway || (rem == halfway && (h & 1))) ++h;
    if (h >= 0x7c00) return overflow();
    return sign | static_cast<uint16_t>(h);
  }
  if (exp == 0) return sign;  // double subnormals round to zero
  const uint64_t sig = man | (uint64_t{1} << 52);
  const int shift = 28 - e;
  if (shift >= 54) return sign;
  uint64_t h = sig >> shift;
  const uint64_t rem = sig & ((uint64_t{1} << shift) - 1);
  const uint64_t halfway = uint64_t{1} << (shift - 1);
  if (rem > halfway || (rem == halfway && (h & 1))) ++h;
  return sign | static_cast<uint16_t>(h);
}

void WriteValue(const ArgSlot& slot, PyObject* value, uint8_t* dst) {
  switch (slot.store) {
    case Store::Ptr: {
      uint64_t p = PointerValue(slot, value);
      std::memcpy(dst, &p, 8);
      return;
    }
    case Store::Float: {
      float f = ToFloat(slot, FloatValue(slot, value));
      std::memcpy(dst, &f, 4);
      return;
    }
    case Store::Double: {
      double d = FloatValue(slot, value);
      std::memcpy(dst, &d, 8);
      return;
    }
    case Store::Half: {
      uint16_t h = DoubleToHalfBits(FloatValue(slot, value), slot.label);
      std::memcpy(dst, &h, 2);
      return;
    }
    case Store::BFloat: {
      // Triton's pack_bf16: the upper half of the fp32 bits (truncation).
      float f = ToFloat(slot, FloatValue(slot, value));
      uint32_t u;
      std::memcpy(&u, &f, 4);
      uint16_t h = static_cast<uint16_t>(u >> 16);
      std::memcpy(dst, &h, 2);
      return;
    }
    default:
      WriteInteger(slot, value, dst);
  }
}

size_t Plan::AddField(const std::string& name, size_t size, size_t align) {
  size_t offset = (end_ + align - 1) / align * align;
  fields_.push_back({name, offset, size});
  end_ = offset + size;
  if (align > max_align_) max_align_ = align;
  return offset;
}

Plan::Plan(const PlanOptions& options) : abi_(options.abi) {
  const auto& sig = options.signature;
  if (!options.names.empty() && options.names.size() != sig.size()) {
    throw InputError("names: got " + std::to_string(options.names.size()) +
                     " names, expected one per signature entry (" +
                     std::to_string(sig.size()) + ")");
  }
  runtime_arg_count_ = options.runtime_arg_count == SIZE_MAX
                           ? sig.size()
                           : options.runtime_arg_count;
  if (runtime_arg_count_ > sig.size()) {
    throw InputError("runtime_arg_count: got " +
                     std::to_string(runtime_arg_count_) + ", expected at most " +
                     std::to_string(sig.size()));
  }
  input_count_ = options.input_count == SIZE_MAX ? runtime_arg_count_
                                                 : options.input_count;
  positions_ = options.positions;
  if (positions_.empty()) {
    if (input_count_ != runtime_arg_count_) {
      throw InputError("positions: required when input_count (" +
                       std::to_string(input_count_) +
                       ") differs from runtime_arg_count (" +
                       std::to_string(runtime_arg_count_) + ")");
    }
    for (size_t i = 0; i < runtime_arg_count_; ++i) positions_.push_back(i);
  }
  if (positions_.size() != runtime_arg_count_) {
    throw InputError("positions: got " + std::to_string(positions_.size()) +
                     " entries, expected " + std::to_string(runtime_arg_count_));
  }
  for (size_t p : positions_) {
    if (p >= input_count_) {
      throw InputError("positions: got index " + std::to_string(p) +
                       ", expected < input_count " +
                       std::to_string(input_count_));
    }
  }
  const bool npu = abi_ == Abi::Npu;
  if (npu) {
    max_align_ = 4;  // the int32 grid is always present
    if (options.ffts) {
      if (options.ffts_addr == 0) {
        throw InputError("ffts_addr: got 0, expected the non-zero FFTS "
                         "control address of the device");
      }
      ffts_offset_ = AddField("ffts_addr", 8, 8);
    }
    if (!options.pure_simt) {
      sync_lock_offset_ = AddField("sync_block_lock", 8, 8);
      workspace_offset_ = AddField("workspace_addr", 8, 8);
    }
  }
  for (size_t i = 0; i < sig.size(); ++i) {
    const Kind kind = ParseKind(sig[i]);
    const Store store = npu ? NpuStore(kind) : CudaStore(kind);
    const size_t size = StoreSize(store);
    size_t align = size;
    if (npu) {
      const std::string& t = sig[i];
      bool wide = kind == Kind::Ptr ||
                  (t.size() >= 2 && t.compare(t.size() - 2, 2, "64") == 0);
      align = wide ? 8 : 4;
    }
    std::string name = options.names.empty() ? "arg" + std::to_string(i)
                                             : options.names[i];
    size_t offset = AddField(name, size, align);
    std::string label = "arg " + std::to_string(i) + " '" + name + "' (" +
                        sig[i] + ")";
    slots_.push_back({kind, store, offset, size, label});
  }
  if (npu) {
    grid_offsets_[0] = AddField("grid_x", 4, 4);
    grid_offsets_[1] = AddField("grid_y", 4, 4);
    grid_offsets_[2] = AddField("grid_z", 4, 4);
  } else {
    static const char* kScratch[] = {"global_scratch", "profile_scratch"};
    if (options.n_scratch < 0 || options.n_scratch > 2) {
      throw InputError("n_scratch: got " + std::to_string(options.n_scratch) +
                       ", expected 0, 1 or 2");
    }
    for (int i = 0; i < options.n_scratch; ++i) AddField(kScratch[i], 8, 8);
  }
  size_ = (end_ + max_align_ - 1) / max_align_ * max_align_;
  template_.assign(size_, 0);
  if (ffts_offset_ != SIZE_MAX) {
    std::memcpy(template_.data() + ffts_offset_, &options.ffts_addr, 8);
  }
  const size_t n_fixed = sig.size() - runtime_arg_count_;
  PyObject* fixed = options.fixed_args;
  const Py_ssize_t got = fixed ? PyTuple_GET_SIZE(fixed) : 0;
  if (static_cast<size_t>(got) != n_fixed) {
    throw InputError("fixed_args: got " + std::to_string(got) +
                     " values, expected " + std::to_string(n_fixed) +
                     " to complete the signature");
  }
  for (size_t i = 0; i < n_fixed; ++i) {
    const ArgSlot& slot = slots_[runtime_arg_count_ + i];
    if (slot.kind == Kind::Ptr) {
      throw InputError(slot.label + ": fixed pointer arguments are not "
                       "supported, expected a scalar");
    }
    WriteValue(slot, PyTuple_GET_ITEM(fixed, i), template_.data() + slot.offset);
  }
  if (options.static_grid) {
    const auto& g = *options.static_grid;
    static_block_dim_ = CheckGrid(g[0], g[1], g[2]);
    WriteGrid(template_.data(), g.data());
    has_static_grid_ = true;
  }
}

uint32_t Plan::CheckGrid(int64_t g0, int64_t g1, int64_t g2) const {
  const int64_t g[3] = {g0, g1, g2};
  if (abi_ == Abi::Npu) {
    int64_t product = 1;
    for (int i = 0; i < 3; ++i) {
      if (g[i] < 1 || g[i] > INT32_MAX) {
        throw GridError("grid[" + std::to_string(i) + "]: got " +
                         std::to_string(g[i]) +
                         ", expected 1..2147483647 on npu");
      }
      product *= g[i];
      if (product > 65535) {
        throw GridError("grid: product of (" + std::to_string(g0) + ", " +
                         std::to_string(g1) + ", " + std::to_string(g2) +
                         ") exceeds 65535, the npu blockDim limit");
      }
    }
    return static_cast<uint32_t>(product);
  }
  static const int64_t kLimit[3] = {INT32_MAX, 65535, 65535};
  bool empty = false;
  for (int i = 0; i < 3; ++i) {
    if (g[i] < 0 || g[i] > kLimit[i]) {
      throw GridError("grid[" + std::to_string(i) + "]: got " +
                       std::to_string(g[i]) + ", expected 0.." +
                       std::to_string(kLimit[i]) + " on cuda");
    }
    empty = empty || g[i] == 0;
  }
  return empty ? 0 : 1;
}

void Plan::WriteGrid(uint8_t* buf, const int64_t* grid) const {
  if (abi_ != Abi::Npu) return;
  for (int i = 0; i < 3; ++i) {
    int32_t v = static_cast<int32_t>(grid[i]);
    std::memcpy(buf + grid_offsets_[i], &v, 4);
  }
}

void Plan::Pack(PyObject* args, const int64_t* grid, uint64_t workspace,
                uint64_t sync_lock, std::vector<uint8_t>* out) const {
  out->resize(size_);
  PackInto(args, grid, workspace, sync_lock, out->data());
}

void Plan::PackInto(PyObject* args, const int64_t* grid, uint64_t workspace,
                    uint64_t sync_lock, uint8_t* buf) const {
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (static_cast<size_t>(n) != input_count_) {
    throw InputError("args: got " + std::to_string(n) + " values, expected " +
                     std::to_string(input_count_));
  }
  if ((workspace || sync_lock) && sync_lock_offset_ == SIZE_MAX) {
    throw InputError("workspace/sync_lock: this plan has no hidden slots "
                     "(pure-SIMT or cuda), expected 0");
  }
  if (size_ != 0) std::memcpy(buf, template_.data(), size_);
  for (size_t i = 0; i < runtime_arg_count_; ++i) {
    const ArgSlot& slot = slots_[i];
    WriteValue(slot, PyTuple_GET_ITEM(args, positions_[i]), buf + slot.offset);
  }
  if (sync_lock_offset_ != SIZE_MAX) {
    std::memcpy(buf + sync_lock_offset_, &sync_lock, 8);
    std::memcpy(buf + workspace_offset_, &workspace, 8);
  }
  if (!has_static_grid_ && grid != nullptr) WriteGrid(buf, grid);
}

}  // namespace fastlaunch
