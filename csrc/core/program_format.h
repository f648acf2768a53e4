// SPDX-License-Identifier: Apache-2.0
// The planned call's program format: what an op is, as the translator makes
// it (fastlaunch/engine/planned_call/program.py, whose numbers are these:
// tests/unit/engine/test_program_format.py reads this file and fails when one side
// changes alone), the executor runs it (csrc/engine/planned_call.cpp, whose
// validator checks every op against kOpFormats) and the ATen shim takes a
// native call (csrc/shims/aten_ops.cpp, built against torch: it includes this
// file and nothing else of fastlaunch).
//
// An op is a tuple of kOpFields fields: (code, dst, a, b, sub, operands,
// extra, extra2). Every enumerator below is written with its number, so the
// test reads them as they are.
#pragma once

#include <cstdint>

namespace fastlaunch {
namespace program_format {

constexpr int kOpFields = 8;

enum OpCode : int {
  kCall = 0,     // dst = a(*operands, kwnames=extra); a native kind in sub: the shim first
  kMethod = 1,   // dst = a.<extra2>(*operands, kwnames=extra)
  kAttr = 2,     // dst = a.<extra2>
  kItem = 3,     // dst = a[b]
  kTuple = 4,    // dst = (*operands,); sub kFoldedView: a folded view's (base, size, stride, offset)
  kList = 5,     // dst = [*operands]
  kBinary = 6,   // dst = a <sub> b
  kUnary = 7,    // dst = <sub> a
  kMove = 8,     // dst = a
  kFree = 9,     // end of a temporary: slot dst cleared
  kDel = 10,     // `del name`: slot dst cleared, UnboundLocalError when unbound
  kUnpack = 11,  // operands (slots) = a; extra: Python's unpacker for anything else
  kIsland = 12,  // exec(extra, globals, ns) with the slots `operands` named `extra2`
  kEnter = 13,   // dst = a; a.__enter__() (to operands[0] when given); b = pc of its kExit
  kExit = 14,    // dst.__exit__(None, None, None); dst cleared
  kReturn = 15,  // return a
  kSite = 16,    // dst = the fastlaunch call site's callable: operands = (slot list, meta, kernel, bind)
  kAssert = 17,  // a(*operands): assert_size_stride(t, size, stride, ...), checked natively first
  kOpCount = 18,
};

// A BINARY's sub. Comparisons are kCompare + CPython's Py_LT..Py_GE.
enum BinaryOp : int {
  kAdd = 0,
  kSub = 1,
  kMul = 2,
  kFloorDiv = 3,
  kMod = 4,
  kTrueDiv = 5,
  kPow = 6,
  kLShift = 7,
  kRShift = 8,
  kAnd = 9,
  kOr = 10,
  kXor = 11,
  kMatMul = 12,
  kIs = 13,
  kIsNot = 14,
  kIn = 15,
  kNotIn = 16,
  kCompare = 20,
  kLt = 20,
  kLe = 21,
  kEq = 22,
  kNe = 23,
  kGt = 24,
  kGe = 25,
};

// A UNARY's sub.
enum UnaryOp : int { kNeg = 0, kPos = 1, kInvert = 2, kNot = 3 };

// What `sub` holds besides an operator: a TUPLE of a folded view; an ISLAND
// that can unbind a local (it then always runs in its guarding namespace); a
// CALL's native kind | folded view operands << kViewShift (bit k: operand k is
// a (base, size, stride, offset) tuple the shim makes the view of, or, when it
// declines, extra2(*operand) does).
constexpr int kFoldedView = 1;
constexpr int kIslandUnbinds = 1;
constexpr int kViewShift = 8;
constexpr int kNativeKindMask = 0xFF;
constexpr int kMaxViewOperands = 22;
static_assert(kNativeKindMask == (1 << kViewShift) - 1, "a kind fills the bits below the views");
static_assert(kViewShift + kMaxViewOperands <= 31, "a native CALL's sub fits a non-negative int");

// The calls the ATen shim runs: each named after its callable (program.NATIVE_KINDS).
enum NativeKind : int {
  kNotNative = 0,
  kMm = 1,
  kAddmm = 2,
  kBmm = 3,
  kBaddbmm = 4,
  kScaledDotProductEfficientAttention = 5,
  kScaledDotProductFlashAttentionForCpu = 6,
  kConvolution = 7,
  kScaledDotProductFlashAttention = 8,
  kScaledDotProductCudnnAttention = 9,
  kReinterpretTensor = 10,  // the allocations and views, from here on
  kEmptyStridedCpu = 11,
  kEmptyStridedCuda = 12,
  kEmptyStrided = 13,  // torch.empty_strided(size, stride, dtype=, device=): other devices
  kAssertAlignment = 14,  // passes natively; a tensor it would refuse goes to torch's
  kNativeKinds = 15,  // one past the last kind
};
static_assert(kNativeKinds - 1 <= kNativeKindMask, "every kind fits below the view bits");
// The kinds from here on take their arguments as given: a CALL of one has no
// view bits (the kinds below it are planner._VIEW_TAKERS).
constexpr int kFirstViewlessKind = kReinterpretTensor;

// ---- the operand table ------------------------------------------------------

// What an int field (dst, a, b) holds. A field an op does not use holds its
// default: dst -1, a and b 0 (Python's program.Op).
enum class IntField : uint8_t {
  kUnused,
  kSlot,        // a slot: 0 <= v < n_slots
  kSlotOrDrop,  // a slot, or -1: the value is dropped (an expression statement)
  kOperand,     // a slot, a constant or a global read per call
  kExitPc,      // ENTER's b: the pc of its EXIT (same dst), after it
  kReadCount,   // ISLAND's b: how many of its operands it reads (they come first)
};

// What sub holds (unused: 0).
enum class SubField : uint8_t {
  kUnused,
  kNativeCall,     // 0, or a kind below kNativeKinds; view bits only below kFirstViewlessKind
  kBinaryOp,       // a BinaryOp
  kUnaryOp,        // a UnaryOp
  kFoldedView,     // 0 or kFoldedView
  kIslandUnbinds,  // 0 or kIslandUnbinds
};

// What the operands tuple holds (each an int; unused: empty).
enum class OperandsField : uint8_t { kUnused, kValues, kSlots };

// What extra and extra2 hold (unused: None).
enum class ExtraField : uint8_t {
  kUnused,
  kKwnames,      // None, or a tuple of str, one for each of the last operands
  kUnpacker,     // Python's unpacking of the operand count (program.unpacker)
  kCode,         // the island's code object
  kName,         // the attribute or method name, a str
  kViewMaker,    // a callable when sub has view bits, else None
  kIslandNames,  // one str per operand: the local each slot is in the island
};

constexpr int kAnyCount = 0x40000000;  // max_operands of an op that takes any number

struct OpFormat {
  const char* name;
  IntField dst;
  IntField a;
  IntField b;
  SubField sub;
  OperandsField operands;
  int min_operands;
  int max_operands;
  ExtraField extra;
  ExtraField extra2;
};

// One row per OpCode, in its order.
// clang-format off
constexpr OpFormat kOpFormats[kOpCount] = {
    // name      dst                     a                   b                     sub                        operands                  min max        extra                  extra2
    {"call",   IntField::kSlotOrDrop, IntField::kOperand, IntField::kUnused,    SubField::kNativeCall,    OperandsField::kValues, 0, kAnyCount, ExtraField::kKwnames,  ExtraField::kViewMaker},
    {"method", IntField::kSlotOrDrop, IntField::kOperand, IntField::kUnused,    SubField::kUnused,        OperandsField::kValues, 0, kAnyCount, ExtraField::kKwnames,  ExtraField::kName},
    {"attr",   IntField::kSlotOrDrop, IntField::kOperand, IntField::kUnused,    SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kName},
    {"item",   IntField::kSlotOrDrop, IntField::kOperand, IntField::kOperand,   SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"tuple",  IntField::kSlotOrDrop, IntField::kUnused,  IntField::kUnused,    SubField::kFoldedView,    OperandsField::kValues, 0, kAnyCount, ExtraField::kUnused,   ExtraField::kUnused},
    {"list",   IntField::kSlotOrDrop, IntField::kUnused,  IntField::kUnused,    SubField::kUnused,        OperandsField::kValues, 0, kAnyCount, ExtraField::kUnused,   ExtraField::kUnused},
    {"binary", IntField::kSlotOrDrop, IntField::kOperand, IntField::kOperand,   SubField::kBinaryOp,      OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"unary",  IntField::kSlotOrDrop, IntField::kOperand, IntField::kUnused,    SubField::kUnaryOp,       OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"move",   IntField::kSlotOrDrop, IntField::kOperand, IntField::kUnused,    SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"free",   IntField::kSlot,       IntField::kUnused,  IntField::kUnused,    SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"del",    IntField::kSlot,       IntField::kUnused,  IntField::kUnused,    SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"unpack", IntField::kUnused,     IntField::kOperand, IntField::kUnused,    SubField::kUnused,        OperandsField::kSlots,  0, kAnyCount, ExtraField::kUnpacker, ExtraField::kUnused},
    {"island", IntField::kUnused,     IntField::kOperand, IntField::kReadCount, SubField::kIslandUnbinds, OperandsField::kSlots,  0, kAnyCount, ExtraField::kCode,     ExtraField::kIslandNames},
    {"enter",  IntField::kSlot,       IntField::kOperand, IntField::kExitPc,    SubField::kUnused,        OperandsField::kSlots,  0, 1,         ExtraField::kUnused,   ExtraField::kUnused},
    {"exit",   IntField::kSlot,       IntField::kUnused,  IntField::kUnused,    SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"return", IntField::kUnused,     IntField::kOperand, IntField::kUnused,    SubField::kUnused,        OperandsField::kUnused, 0, 0,         ExtraField::kUnused,   ExtraField::kUnused},
    {"site",   IntField::kSlotOrDrop, IntField::kUnused,  IntField::kUnused,    SubField::kUnused,        OperandsField::kValues, 4, 4,         ExtraField::kUnused,   ExtraField::kUnused},
    {"assert", IntField::kSlotOrDrop, IntField::kOperand, IntField::kUnused,    SubField::kUnused,        OperandsField::kValues, 0, kAnyCount, ExtraField::kKwnames,  ExtraField::kUnused},
};
// clang-format on

}  // namespace program_format
}  // namespace fastlaunch
