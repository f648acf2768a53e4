// SPDX-License-Identifier: Apache-2.0
#include "core/plan.h"

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

// The PyArg_ParseTuple format unit triton-ascend's generated launcher uses
// for each scalar kind (by its C type: i1 as int32_t, u1 as uint32_t,
// fp16/bf16 as float).
char NpuGetargs(Kind kind) {
  switch (kind) {
    case Kind::Ptr: return '\0';
    case Kind::I8: return 'b';
    case Kind::I16: return 'h';
    case Kind::I1: case Kind::I32: return 'i';
    case Kind::I64: return 'L';
    case Kind::U8: return 'B';
    case Kind::U16: return 'H';
    case Kind::U1: case Kind::U32: return 'I';
    case Kind::U64: return 'K';
    case Kind::FP16: case Kind::BF16: case Kind::FP32: return 'f';
    case Kind::FP64: return 'd';
  }
  return '\0';
}

[[noreturn]] void Fail(const std::string& label, PyObject* value,
                       const std::string& expected, const char* reason = "bad_value") {
  throw InputError(label + ": got " + DescribeValue(value) + ", expected " + expected, reason);
}

// A float as Python's repr writes it (1e+300, not 300 digits), for messages.
std::string FloatText(double value) {
  char* text = PyOS_double_to_string(value, 'r', 0, Py_DTSF_ADD_DOT_0, nullptr);
  if (text == nullptr) {
    PyErr_Clear();
    return "?";
  }
  std::string out(text);
  PyMem_Free(text);
  return out;
}

TensorAccessor g_tensor_accessor = nullptr;

PyObject* Interned(const char* name) { return PyUnicode_InternFromString(name); }

PyObject* DataPtrName() {
  static PyObject* name = Interned("data_ptr");
  return name;
}

// obj.<name> into *out (new reference): true when found, false when absent.
// An absent attribute raises nothing (no exception object is made: this runs
// per tensor argument on the declined-accessor path); other Exceptions fail
// the slot, anything else propagates.
bool GetAttrOrAbsent(const ArgSlot& slot, PyObject* obj, PyObject* value, PyObject* name,
                     PyObject** out) {
#if PY_VERSION_HEX >= 0x030D0000
  const int found = PyObject_GetOptionalAttr(obj, name, out);
#else
  const int found = _PyObject_LookupAttr(obj, name, out);
#endif
  if (found > 0) return true;
  if (found == 0) return false;
  ClearOrThrow();
  Fail(slot.label, value, std::string("a readable .") + PyUnicode_AsUTF8(name));
}

PyObject* DeviceName() {
  static PyObject* name = Interned("device");
  return name;
}

PyObject* TypeName() {
  static PyObject* name = Interned("type");
  return name;
}

PyObject* IndexName() {
  static PyObject* name = Interned("index");
  return name;
}

// Tensors (and other buffers) are recognised by a data_ptr attribute; any
// Exception while looking it up means "no".
bool HasDataPtr(PyObject* value) {
  if (PyLong_CheckExact(value) || PyFloat_CheckExact(value) || value == Py_None ||
      PyBool_Check(value)) {
    return false;
  }
  PyObject* attr = PyObject_GetAttr(value, DataPtrName());
  if (attr == nullptr) {
    ClearOrThrow();
    return false;
  }
  Py_DECREF(attr);
  return true;
}

std::string DeviceText(int32_t type, int32_t index) {
  return "(type " + std::to_string(type) + ", index " + std::to_string(index) + ")";
}

[[noreturn]] void WrongDevice(const ArgSlot& slot, PyObject* value, const std::string& got,
                              const std::array<int32_t, 2>& want) {
  throw DeviceMismatch(slot.label + ": got " + DescribeValue(value) + " on device " + got +
                           ", expected a tensor on the plan's device " +
                           DeviceText(want[0], want[1]),
                       "device_mismatch");
}

// c10::DeviceType names as torch.device.type spells them.
bool DeviceTypeNamed(int32_t type, const std::string& name) {
  switch (type) {
    case 0: return name == "cpu";
    case 1: return name == "cuda";
    case 20: return name == "npu" || name == "privateuseone";
    default: return false;
  }
}

// The declined-accessor path: compares obj.device (a torch.device: .type str,
// .index int or None) with the plan's device. Objects without a .device, or
// whose .device.type is not a str, are not checked.
void CheckDeviceAttribute(const ArgSlot& slot, PyObject* value,
                          const std::array<int32_t, 2>& want) {
  PyObject* device = nullptr;
  if (!GetAttrOrAbsent(slot, value, value, DeviceName(), &device)) return;
  PyObject* type = nullptr;
  PyObject* index = nullptr;
  bool found = false;
  try {
    found = GetAttrOrAbsent(slot, device, value, TypeName(), &type) &&
            GetAttrOrAbsent(slot, device, value, IndexName(), &index);
  } catch (...) {
    Py_DECREF(device);
    Py_XDECREF(type);
    throw;
  }
  Py_DECREF(device);
  std::string name;
  int64_t idx = -2;
  bool checkable = found && PyUnicode_Check(type) &&
                   (index == Py_None || (PyLong_CheckExact(index)));
  if (checkable) {
    const char* s = PyUnicode_AsUTF8(type);
    if (s == nullptr) {
      ClearOrThrow();
      checkable = false;
    } else {
      name = s;
    }
    if (index == Py_None) {
      idx = -1;
    } else {
      int overflow = 0;
      idx = PyLong_AsLongLongAndOverflow(index, &overflow);
      if (overflow != 0) idx = -2;
    }
  }
  Py_XDECREF(type);
  Py_XDECREF(index);
  if (!checkable) return;
  if (!DeviceTypeNamed(want[0], name) || idx != want[1]) {
    WrongDevice(slot, value, "(" + name + ", index " + std::to_string(idx) + ")", want);
  }
}

// A pointer slot's address. `bool_address`: a bool is the address 0 or 1, as
// triton-ascend's getPointer reads any int (cuda keeps refusing it).
uint64_t PointerValue(const ArgSlot& slot, PyObject* value,
                      const std::optional<std::array<int32_t, 2>>& want, bool bool_address) {
  static const char* kExpected = "a tensor, an int address or None";
  if (value == Py_None) return 0;
  PyObject* address = nullptr;
  if (PyLong_Check(value) && (bool_address || !PyBool_Check(value))) {
    address = value;
    Py_INCREF(address);
  } else if (!PyFloat_Check(value) && !PyBool_Check(value)) {
    uint64_t fast = 0;
    int32_t type = -1;
    int32_t index = -1;
    if (g_tensor_accessor != nullptr && g_tensor_accessor(value, &fast, &type, &index) == 1) {
      if (want && (type != (*want)[0] || index != (*want)[1])) {
        WrongDevice(slot, value, DeviceText(type, index), *want);
      }
      return fast;
    }
    if (want) CheckDeviceAttribute(slot, value, *want);
    address = PyObject_CallMethodObjArgs(value, DataPtrName(), nullptr);
    if (address == nullptr) {
      const bool missing = PyErr_ExceptionMatches(PyExc_AttributeError);
      ClearOrThrow();
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
  if (result == static_cast<uint64_t>(-1) && PyErr_Occurred()) {
    ClearOrThrow();
    Fail(slot.label, value, "an address in 0..2**64-1");
  }
  return result;
}

// cuda: integers are range-checked for their slot, never wrapped.
void WriteInteger(const ArgSlot& slot, PyObject* value, uint8_t* dst) {
  if (!PyLong_CheckExact(value) && (PyFloat_Check(value) || HasDataPtr(value))) {
    Fail(slot.label, value, std::string("an int for ") + KindName(slot.kind));
  }
  PyObject* index = PyNumber_Index(value);
  if (index == nullptr) {
    ClearOrThrow();
    Fail(slot.label, value, std::string("an int for ") + KindName(slot.kind));
  }
  int overflow = 0;
  long long s = PyLong_AsLongLongAndOverflow(index, &overflow);
  bool negative = overflow < 0 || (overflow == 0 && s < 0);
  unsigned long long u = 0;
  bool u_ok = false;
  if (!negative) {
    u = PyLong_AsUnsignedLongLong(index);
    u_ok = !(u == static_cast<unsigned long long>(-1) && PyErr_Occurred());
    if (!u_ok) PyErr_Clear();  // OverflowError of an int: nothing user-defined ran
  }
  Py_DECREF(index);
  auto range = [&](long long lo, unsigned long long hi) {
    bool ok = negative ? (overflow == 0 && s >= lo) : (u_ok && u <= hi);
    if (!ok) {
      Fail(slot.label, value,
           std::string("an int in ") + std::to_string(lo) + ".." + std::to_string(hi) +
               " for " + KindName(slot.kind));
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
      throw InputError(slot.label + ": internal error, not an integer slot", "bad_plan");
  }
}

// cuda: floats (and ints) by PyFloat_AsDouble; tensors and None refused.
double FloatValue(const ArgSlot& slot, PyObject* value) {
  if (PyFloat_CheckExact(value)) return PyFloat_AS_DOUBLE(value);
  if (value == Py_None || HasDataPtr(value)) {
    Fail(slot.label, value, std::string("a float for ") + KindName(slot.kind));
  }
  double v = PyFloat_AsDouble(value);
  if (v == -1.0 && PyErr_Occurred()) {
    ClearOrThrow();
    Fail(slot.label, value, std::string("a float for ") + KindName(slot.kind));
  }
  return v;
}

float ToFloat(const ArgSlot& slot, double v) {
  float f = static_cast<float>(v);
  if (std::isinf(f) && !std::isinf(v)) {
    throw InputError(slot.label + ": got float " + FloatText(v) +
                     ", expected a value that fits in fp32");
  }
  return f;
}

// npu: what PyArg_ParseTuple stores for one format unit of triton-ascend's
// launcher. Exact ints and floats take the same C-API calls getargs makes;
// anything else goes through PyArg_ParseTuple itself, so every rule
// (__index__, __float__, masks, range checks, warnings) is CPython's own.
void WriteGetargs(const ArgSlot& slot, PyObject* value, uint8_t* dst) {
  const char code = slot.getargs;
  const size_t size = StoreSize(slot.store);
  auto refuse = [&](const std::string& why) {
    Fail(slot.label, value,
         std::string("a value PyArg_ParseTuple '") + code + "' accepts (" + why + ")");
  };
  if (PyLong_CheckExact(value)) {
    if (code == 'f' || code == 'd') {
      const double d = PyLong_AsDouble(value);
      if (d == -1.0 && PyErr_Occurred()) {
        ClearOrThrow();
        refuse("OverflowError: int too large to convert to float");
      }
      if (code == 'd') {
        std::memcpy(dst, &d, 8);
      } else {
        const float f = static_cast<float>(d);
        std::memcpy(dst, &f, 4);
      }
      return;
    }
    if (code == 'B' || code == 'H' || code == 'I' || code == 'K') {
      const unsigned long long m = PyLong_AsUnsignedLongLongMask(value);
      std::memcpy(dst, &m, size);  // little-endian: the low bytes, as the C cast keeps
      return;
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    long long lo = INT64_MIN, hi = INT64_MAX;
    if (code == 'b') lo = 0, hi = UINT8_MAX;
    if (code == 'h') lo = INT16_MIN, hi = INT16_MAX;
    if (code == 'i') lo = INT32_MIN, hi = INT32_MAX;
    if (overflow != 0 || v < lo || v > hi) {
      refuse("OverflowError: out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    }
    if (code == 'b') {
      const uint8_t b = static_cast<uint8_t>(v);
      std::memcpy(dst, &b, 1);
    } else if (code == 'h') {
      const int16_t h = static_cast<int16_t>(v);
      std::memcpy(dst, &h, 2);
    } else if (code == 'i') {
      const int32_t i = static_cast<int32_t>(v);
      std::memcpy(dst, &i, 4);
    } else {
      std::memcpy(dst, &v, 8);
    }
    return;
  }
  if (PyFloat_CheckExact(value) && (code == 'f' || code == 'd')) {
    const double d = PyFloat_AS_DOUBLE(value);
    if (code == 'd') {
      std::memcpy(dst, &d, 8);
    } else {
      const float f = static_cast<float>(d);  // as getargs: overflow gives inf
      std::memcpy(dst, &f, 4);
    }
    return;
  }
  union {
    unsigned char b;
    short h;
    int i;
    long long ll;
    unsigned short uh;
    unsigned int ui;
    unsigned long long ull;
    float f;
    double d;
  } out;
  std::memset(&out, 0, sizeof out);
  PyObject* tuple = PyTuple_Pack(1, value);
  if (tuple == nullptr) {
    ClearOrThrow();
    refuse("no memory");
  }
  const char format[2] = {code, '\0'};
  const int ok = PyArg_ParseTuple(tuple, format, &out);
  Py_DECREF(tuple);
  if (!ok) {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) throw PythonError();
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    std::string why = reinterpret_cast<PyTypeObject*>(type)->tp_name;
    PyObject* text = exc != nullptr ? PyObject_Str(exc) : nullptr;
    const char* s = text != nullptr ? PyUnicode_AsUTF8(text) : nullptr;
    if (s != nullptr) why += std::string(": ") + s;
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
    if (PyErr_Occurred()) ClearOrThrow();
    refuse(why);
  }
  std::memcpy(dst, &out, size);
}

}  // namespace

struct PythonError::Fetched {
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* traceback = nullptr;
  ~Fetched() {  // destroyed where it is caught, with the GIL held
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
  }
};

PythonError::PythonError() : fetched_(std::make_shared<Fetched>()) {
  PyErr_Fetch(&fetched_->type, &fetched_->value, &fetched_->traceback);
}

void PythonError::Restore() const {
  if (fetched_->type == nullptr) return;
  PyErr_Restore(fetched_->type, fetched_->value, fetched_->traceback);
  fetched_->type = fetched_->value = fetched_->traceback = nullptr;
}

void ClearOrThrow() {
  if (!PyErr_Occurred()) return;
  if (!PyErr_ExceptionMatches(PyExc_Exception)) throw PythonError();
  PyErr_Clear();
}

std::string DescribeValue(PyObject* value) {
  std::string text = Py_TYPE(value)->tp_name;
  PyObject* repr = PyObject_Repr(value);
  if (repr == nullptr) {
    ClearOrThrow();
    return text;
  }
  // Cut by characters, never inside one: the message stays valid UTF-8.
  const Py_ssize_t length = PyUnicode_GetLength(repr);
  PyObject* cut = length > 60 ? PyUnicode_Substring(repr, 0, 57) : repr;
  if (cut != repr) Py_DECREF(repr);
  PyObject* bytes = cut != nullptr ? PyUnicode_AsEncodedString(cut, "utf-8", "backslashreplace")
                                   : nullptr;
  Py_XDECREF(cut);
  if (bytes == nullptr) {
    ClearOrThrow();
    return text;
  }
  text += " ";
  text.append(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  if (length > 60) text += "...";
  return text;
}

bool ReadGridItem(PyObject* item, int64_t* out) {
  PyObject* index = nullptr;
  if (PyLong_CheckExact(item)) {
    index = item;
    Py_INCREF(index);
  } else {
    index = PyNumber_Index(item);
    if (index == nullptr) {
      ClearOrThrow();
      return false;
    }
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  *out = overflow == 0 ? v : (overflow > 0 ? INT64_MAX : INT64_MIN);
  return true;
}

void ReadGrid(PyObject* grid, int64_t out[3]) {
  if (!PyTuple_Check(grid) && !PyList_Check(grid)) {
    throw GridError("grid: got " + DescribeValue(grid) + ", expected a tuple or list of 3 ints",
                    "grid_rank");
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(grid);
  if (n != 3) {
    throw GridError("grid: got " + std::to_string(n) + " values, expected 3", "grid_rank");
  }
  for (int i = 0; i < 3; ++i) {
    // A list may change under a user's __index__: hold the item.
    if (PySequence_Fast_GET_SIZE(grid) != 3) {
      throw GridError("grid: changed size while being read", "grid_rank");
    }
    PyObject* item = PySequence_Fast_GET_ITEM(grid, i);
    Py_INCREF(item);
    bool ok = false;
    try {
      ok = ReadGridItem(item, &out[i]);
    } catch (...) {
      Py_DECREF(item);
      throw;
    }
    if (!ok) {
      std::string text = DescribeValue(item);
      Py_DECREF(item);
      throw GridError("grid[" + std::to_string(i) + "]: got " + text + ", expected an int",
                      "grid_type");
    }
    Py_DECREF(item);
  }
}

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
                   "i1 i8 i16 i32 i64 u1 u8 u16 u32 u64 fp16 bf16 fp32 fp64",
                   "signature_type_unsupported");
}

Abi ParseAbi(const std::string& abi) {
  if (abi == "npu") return Abi::Npu;
  if (abi == "cuda") return Abi::Cuda;
  throw InputError("abi '" + abi + "' is not supported: expected npu or cuda",
                   "abi_unsupported");
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
    throw InputError(label + ": got float " + FloatText(value) +
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

void Plan::WriteValue(const ArgSlot& slot, PyObject* value, uint8_t* dst) const {
  if (slot.store == Store::Ptr) {
    uint64_t p = PointerValue(slot, value, expected_device_, abi_ == Abi::Npu);
    std::memcpy(dst, &p, 8);
    return;
  }
  if (slot.getargs != 0) {
    WriteGetargs(slot, value, dst);
    return;
  }
  switch (slot.store) {
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

// The numpy twin (fastlaunch.runtime.abi) checks the same things in the same
// order: the flags, the inputs, the layout, then the template's values.
Plan::Plan(const PlanOptions& options)
    : abi_(options.abi), expected_device_(options.expected_device) {
  CheckFlags(options);
  ResolveInputs(options);
  LayOut(options);
  BuildTemplate(options);
}

void Plan::CheckFlags(const PlanOptions& options) const {
  const auto& sig = options.signature;
  const bool npu = abi_ == Abi::Npu;
  if (!options.names.empty() && options.names.size() != sig.size()) {
    throw InputError("names: got " + std::to_string(options.names.size()) +
                     " names, expected one per signature entry (" +
                     std::to_string(sig.size()) + ")", "bad_plan");
  }
  if (!npu && (options.ffts || options.pure_simt || options.ffts_addr != 0)) {
    throw InputError("ffts/ffts_addr/pure_simt: npu flags given for a cuda plan, expected "
                     "False, 0 and False", "bad_plan");
  }
  if (npu && options.ffts && options.ffts_addr == 0) {
    throw InputError("ffts_addr: got 0, expected the non-zero FFTS control address of "
                     "the device", "bad_plan");
  }
  if (options.n_scratch < 0 || options.n_scratch > 2) {
    throw InputError("n_scratch: got " + std::to_string(options.n_scratch) +
                     ", expected 0, 1 or 2", "bad_plan");
  }
}

void Plan::ResolveInputs(const PlanOptions& options) {
  const auto& sig = options.signature;
  runtime_arg_count_ = options.runtime_arg_count == SIZE_MAX
                           ? sig.size()
                           : options.runtime_arg_count;
  if (runtime_arg_count_ > sig.size()) {
    throw InputError("runtime_arg_count: got " +
                     std::to_string(runtime_arg_count_) + ", expected at most " +
                     std::to_string(sig.size()), "bad_plan");
  }
  input_count_ = options.input_count == SIZE_MAX ? runtime_arg_count_
                                                 : options.input_count;
  positions_ = options.positions;
  if (positions_.empty()) {
    if (input_count_ != runtime_arg_count_) {
      throw InputError("positions: required when input_count (" +
                       std::to_string(input_count_) +
                       ") differs from runtime_arg_count (" +
                       std::to_string(runtime_arg_count_) + ")", "bad_plan");
    }
    for (size_t i = 0; i < runtime_arg_count_; ++i) positions_.push_back(i);
  }
  if (positions_.size() != runtime_arg_count_) {
    throw InputError("positions: got " + std::to_string(positions_.size()) +
                     " entries, expected " + std::to_string(runtime_arg_count_),
                     "bad_plan");
  }
  for (size_t p : positions_) {
    if (p >= input_count_) {
      throw InputError("positions: got index " + std::to_string(p) +
                       ", expected < input_count " + std::to_string(input_count_),
                       "bad_plan");
    }
  }
}

// Offsets of every field: the hidden NPU slots, the arguments, then the grid
// (npu) or the scratch pointers (cuda); size_ rounds to the widest alignment.
void Plan::LayOut(const PlanOptions& options) {
  const auto& sig = options.signature;
  const bool npu = abi_ == Abi::Npu;
  if (npu) {
    max_align_ = 4;  // the int32 grid is always present
    if (options.ffts) ffts_offset_ = AddField("ffts_addr", 8, 8);
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
    slots_.push_back({kind, store, npu ? NpuGetargs(kind) : '\0', offset, size, label});
  }
  if (npu) {
    grid_offsets_[0] = AddField("grid_x", 4, 4);
    grid_offsets_[1] = AddField("grid_y", 4, 4);
    grid_offsets_[2] = AddField("grid_z", 4, 4);
  } else {
    static const char* kScratch[] = {"global_scratch", "profile_scratch"};
    for (int i = 0; i < options.n_scratch; ++i) AddField(kScratch[i], 8, 8);
  }
  size_ = (end_ + max_align_ - 1) / max_align_ * max_align_;
}

// The bytes every call starts from: the FFTS address, the fixed trailing
// arguments and a static grid; and the pointer slots checked per call.
void Plan::BuildTemplate(const PlanOptions& options) {
  template_.assign(size_, 0);
  if (ffts_offset_ != SIZE_MAX) {
    std::memcpy(template_.data() + ffts_offset_, &options.ffts_addr, 8);
  }
  for (size_t i = 0; i < runtime_arg_count_; ++i) {
    if (slots_[i].kind == Kind::Ptr) {
      pointer_slots_.push_back({slots_[i].offset, positions_[i], slots_[i].label});
    }
  }
  const size_t n_fixed = options.signature.size() - runtime_arg_count_;
  PyObject* fixed = options.fixed_args;
  const Py_ssize_t got = fixed ? PyTuple_GET_SIZE(fixed) : 0;
  if (static_cast<size_t>(got) != n_fixed) {
    throw InputError("fixed_args: got " + std::to_string(got) +
                     " values, expected " + std::to_string(n_fixed) +
                     " to complete the signature", "bad_plan");
  }
  for (size_t i = 0; i < n_fixed; ++i) {
    const ArgSlot& slot = slots_[runtime_arg_count_ + i];
    if (slot.kind == Kind::Ptr) {
      throw InputError(slot.label + ": fixed pointer arguments are not "
                       "supported, expected a scalar", "bad_plan");
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
                         ", expected 1..2147483647 on npu", "grid_out_of_range");
      }
      product *= g[i];
      if (product > 65535) {
        throw GridError("grid: product of (" + std::to_string(g0) + ", " +
                         std::to_string(g1) + ", " + std::to_string(g2) +
                         ") exceeds 65535, the npu blockDim limit", "grid_out_of_range");
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
                       std::to_string(kLimit[i]) + " on cuda", "grid_out_of_range");
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
                     std::to_string(input_count_), "arg_count_mismatch");
  }
  if ((workspace || sync_lock) && sync_lock_offset_ == SIZE_MAX) {
    throw InputError("workspace/sync_lock: this plan has no hidden slots "
                     "(pure-SIMT or cuda), expected 0", "no_hidden_slots");
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
