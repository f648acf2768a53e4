# SPDX-License-Identifier: Apache-2.0
"""Argument kinds, per-ABI byte layouts and value conversion rules.

This is the Python statement of the rules; ``csrc/plan.cpp`` implements the
same rules natively and the tests hold the two (and a C compiler) to the same
bytes. See docs/abi.md for the tables.
"""

from __future__ import annotations

import dataclasses
import math
import struct
from collections.abc import Sequence

from .errors import CallRefused, FastLaunchError

SCALAR_TYPES = ("i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64",
                "fp16", "bf16", "fp32", "fp64")
ABIS = ("npu", "cuda")
CUDA_SCRATCH = ("global_scratch", "profile_scratch")

# CUDA: i1 is one byte. cuFuncGetParamInfo on a Triton 3.6 kernel reports a
# 1-byte parameter for i1 (docs/abi.md); the cuda backend re-checks this on
# every plan where the driver offers that query.
CUDA_I1_BYTES = 1

# (struct code, size) of the stored value.
_NPU_STORE = {"i1": "i", "i8": "b", "i16": "h", "i32": "i", "i64": "q", "u1": "I", "u8": "B",
              "u16": "H", "u32": "I", "u64": "Q", "fp16": "f", "bf16": "f", "fp32": "f",
              "fp64": "d"}
_CUDA_STORE = {**_NPU_STORE, "i1": "b", "u1": "B", "fp16": "e", "bf16": "bf16"}
_INT_RANGE = {"b": (-(2**7), 2**7 - 1), "h": (-(2**15), 2**15 - 1), "i": (-(2**31), 2**31 - 1),
              "q": (-(2**63), 2**63 - 1), "B": (0, 2**8 - 1), "H": (0, 2**16 - 1),
              "I": (0, 2**32 - 1), "Q": (0, 2**64 - 1)}


def kind_of(type_name: str) -> str:
    """Map a Triton signature type to an argument kind: ``ptr`` or the scalar type."""
    if not isinstance(type_name, str):
        raise FastLaunchError("signature_type_unsupported", stable=True,
                              detail=f"got {type_name!r}, expected a Triton type string")
    if type_name.startswith("*"):
        return "ptr"
    if type_name == "f32":
        return "fp32"
    if type_name in SCALAR_TYPES:
        return type_name
    raise FastLaunchError(
        "signature_type_unsupported", stable=True,
        detail=f"type {type_name!r} is not supported: expected a pointer (*T) or one of "
               f"{' '.join(SCALAR_TYPES)}")


def runtime_signature(signature: dict[str, str] | Sequence[str],
                      constants: object = ()) -> list[str]:
    """The runtime argument types: constexprs and compile-time constants removed."""
    names = signature.keys() if isinstance(signature, dict) else range(len(signature))
    types = signature.values() if isinstance(signature, dict) else signature
    const = set(constants or ())
    return [t for i, (n, t) in enumerate(zip(names, types))
            if t != "constexpr" and n not in const and i not in const]


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    offset: int
    size: int
    type: str  # Triton type, or "ptr" / "i32" for hidden slots


@dataclasses.dataclass(frozen=True)
class Layout:
    abi: str
    fields: tuple[Field, ...]
    size: int

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


def _store(abi: str, type_name: str) -> str:
    kind = kind_of(type_name)
    if kind == "ptr":
        return "Q"
    return (_NPU_STORE if abi == "npu" else _CUDA_STORE)[kind]


def _store_size(code: str) -> int:
    return 2 if code == "bf16" else struct.calcsize(code)


def layout(abi: str, signature: Sequence[str], *, names: Sequence[str] | None = None,
           ffts: bool = False, pure_simt: bool = False, n_scratch: int = 2) -> Layout:
    """Fields (name, offset, size) and total size of one launch buffer."""
    if abi not in ABIS:
        raise FastLaunchError("abi_unsupported", detail=f"got {abi!r}, expected one of {ABIS}")
    names = list(names) if names is not None else [f"arg{i}" for i in range(len(signature))]
    fields: list[Field] = []
    end, max_align = 0, 4 if abi == "npu" else 1

    def add(name: str, size: int, align: int, type_name: str) -> None:
        nonlocal end, max_align
        offset = -(-end // align) * align
        fields.append(Field(name, offset, size, type_name))
        end, max_align = offset + size, max(max_align, align)

    if abi == "npu":
        if ffts:
            add("ffts_addr", 8, 8, "ptr")
        if not pure_simt:
            add("sync_block_lock", 8, 8, "ptr")
            add("workspace_addr", 8, 8, "ptr")
    for name, type_name in zip(names, signature):
        size = _store_size(_store(abi, type_name))
        if abi == "npu":
            wide = type_name.startswith("*") or type_name.endswith("64")
            add(name, size, 8 if wide else 4, type_name)
        else:
            add(name, size, size, type_name)
    if abi == "npu":
        for axis in "xyz":
            add(f"grid_{axis}", 4, 4, "i32")
    else:
        for name in CUDA_SCRATCH[:n_scratch]:
            add(name, 8, 8, "ptr")
    return Layout(abi, tuple(fields), -(-end // max_align) * max_align)


def _bad(label: str, value: object, expected: str) -> FastLaunchError:
    text = repr(value)
    text = text if len(text) <= 60 else text[:57] + "..."
    got = f"{type(value).__name__} {text}"
    return FastLaunchError("bad_argument", detail=f"{label}: got {got}, expected {expected}")


def pointer_value(label: str, value: object) -> int:
    """tensor -> data_ptr(); int -> the address; None -> 0."""
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool):
        address = value
    elif hasattr(value, "data_ptr"):
        try:
            address = value.data_ptr()
        except Exception:
            raise _bad(label, value, "data_ptr() to succeed") from None
        if not isinstance(address, int):
            raise _bad(label, value, "data_ptr() to return an int")
    else:
        raise _bad(label, value, "a tensor, an int address or None")
    if not 0 <= address < 2**64:
        raise _bad(label, value, "an address in 0..2**64-1")
    return address


def integer_value(label: str, kind: str, code: str, value: object) -> int:
    """Range-checked for its slot; never wrapped. i1/u1 take bools or 0/1."""
    if hasattr(value, "data_ptr") or isinstance(value, float):
        raise _bad(label, value, f"an int for {kind}")
    try:
        number = value.__index__()  # type: ignore[attr-defined]
    except AttributeError:
        raise _bad(label, value, f"an int for {kind}") from None
    low, high = (0, 1) if kind in ("i1", "u1") else _INT_RANGE[code]
    if not low <= number <= high:
        raise _bad(label, value, f"an int in {low}..{high} for {kind}")
    return number


def float_value(label: str, kind: str, value: object) -> float:
    if value is None or hasattr(value, "data_ptr"):
        raise _bad(label, value, f"a float for {kind}")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise _bad(label, value, f"a float for {kind}") from None


def _fits(label: str, number: float, narrowed: float, kind: str) -> None:
    if math.isinf(narrowed) and not math.isinf(number):
        raise FastLaunchError("bad_argument",
                              detail=f"{label}: got float {number!r}, expected a value that "
                                     f"fits in {kind}")


def encode(abi: str, type_name: str, value: object, label: str = "value") -> bytes:
    """The bytes one argument occupies in its slot (before padding)."""
    import numpy as np

    code = _store(abi, type_name)
    kind = kind_of(type_name)
    if kind == "ptr":
        return struct.pack("<Q", pointer_value(label, value))
    if code in _INT_RANGE:
        return struct.pack("<" + code, integer_value(label, kind, code, value))
    number = float_value(label, kind, value)
    if code == "d":
        return struct.pack("<d", number)
    with np.errstate(over="ignore"):
        single = np.float32(number)
    _fits(label, number, float(single), "fp32" if code != "e" else "fp16")
    if code == "f":
        return single.tobytes()
    if code == "bf16":  # Triton's pack_bf16 keeps the upper half of the fp32 bits
        return (int(single.view(np.uint32)) >> 16).to_bytes(2, "little")
    if math.isnan(number):  # quiet NaN, sign kept
        return (0x7E00 | (0x8000 if math.copysign(1, number) < 0 else 0)).to_bytes(2, "little")
    with np.errstate(over="ignore"):
        half = np.float64(number).astype(np.float16)
    _fits(label, number, float(half), "fp16")
    return half.tobytes()


def check_grid(abi: str, grid: Sequence[int]) -> int:
    """npu: returns blockDim; cuda: 0 when the grid is empty, else 1."""
    if len(grid) != 3:
        raise CallRefused("grid_rank", detail=f"grid: got {len(grid)} values, expected 3")
    if abi == "npu":
        product = 1
        for i, g in enumerate(grid):
            if not 1 <= g <= 2**31 - 1:
                raise CallRefused("grid_out_of_range",
                                      detail=f"grid[{i}]: got {g}, expected 1..2147483647 on npu")
            product *= g
        if product > 65535:
            raise CallRefused("grid_out_of_range",
                                  detail=f"grid: product of {tuple(grid)} exceeds 65535, "
                                         "the npu blockDim limit")
        return product
    for i, (g, limit) in enumerate(zip(grid, (2**31 - 1, 65535, 65535))):
        if not 0 <= g <= limit:
            raise CallRefused("grid_out_of_range",
                                  detail=f"grid[{i}]: got {g}, expected 0..{limit} on cuda")
    return 0 if 0 in grid else 1


def pack(abi: str, signature: Sequence[str], args: Sequence[object],
         grid: Sequence[int] | None, *, names: Sequence[str] | None = None,
         ffts: bool = False, ffts_addr: int = 0, pure_simt: bool = False, n_scratch: int = 2,
         workspace: int = 0, sync_lock: int = 0) -> bytes:
    """Reference packer (numpy): one launch buffer, from the layout above."""
    import numpy as np

    lay = layout(abi, signature, names=names, ffts=ffts, pure_simt=pure_simt, n_scratch=n_scratch)
    if len(args) != len(signature):
        raise FastLaunchError("bad_argument",
                              detail=f"args: got {len(args)} values, expected {len(signature)}")
    if abi == "npu":
        if grid is None:
            raise FastLaunchError("grid_rank", detail="grid: got None, expected 3 ints")
        check_grid(abi, grid)
    buffer = np.zeros(lay.size, dtype=np.uint8)

    def put(field: Field, data: bytes) -> None:
        buffer[field.offset:field.offset + len(data)] = np.frombuffer(data, dtype=np.uint8)

    start = (int(ffts) + 2 * int(not pure_simt)) if abi == "npu" else 0
    hidden = list(lay.fields[:start])
    if ffts:
        if not ffts_addr:
            raise FastLaunchError("bad_argument", detail="ffts_addr: got 0, expected non-zero")
        put(hidden.pop(0), struct.pack("<Q", ffts_addr))
    if hidden:
        put(hidden[0], struct.pack("<Q", sync_lock))
        put(hidden[1], struct.pack("<Q", workspace))
    elif workspace or sync_lock:
        raise FastLaunchError("bad_argument",
                              detail="workspace/sync_lock: this layout has no hidden slots")
    arg_fields = lay.fields[start:start + len(signature)]
    for i, (field, type_name, value) in enumerate(zip(arg_fields, signature, args)):
        put(field, encode(abi, type_name, value, f"arg {i} '{field.name}' ({type_name})"))
    if abi == "npu":
        for field, g in zip(lay.fields[-3:], grid):
            put(field, struct.pack("<i", g))
    return buffer.tobytes()
