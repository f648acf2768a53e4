# SPDX-License-Identifier: Apache-2.0
"""Argument kinds, per-ABI byte layouts and value conversion rules.

This is the Python statement of the rules; ``csrc/core/plan.cpp`` implements the
same rules natively and the tests hold the two (and a C compiler, and
CPython's own ``PyArg_ParseTuple``) to the same bytes, and every bad input to
the same exception type and reason slug (tests/unit/test_packer_contract.py).
See docs/abi.md for the tables.

Errors: a bad plan (abi, signature, names, flags) raises ``FastLaunchError``;
a bad call (grid, args, values, device) raises ``CallRefused``, the
pre-submission error the engine answers with the original launcher.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import struct
import warnings
from collections.abc import Sequence

from ..errors import CallRefused, FastLaunchError

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
# npu: the PyArg_ParseTuple format unit triton-ascend's generated launcher
# parses each scalar with (by its C type; i1 is int32_t, u1 uint32_t, fp16 and
# bf16 float). Values follow CPython's getargs rules for that unit exactly.
NPU_GETARGS = {"i1": "i", "i8": "b", "i16": "h", "i32": "i", "i64": "L", "u1": "I", "u8": "B",
               "u16": "H", "u32": "I", "u64": "K", "fp16": "f", "bf16": "f", "fp32": "f",
               "fp64": "d"}
_GETARGS_RANGE = {"b": (0, 2**8 - 1), "h": (-(2**15), 2**15 - 1), "i": (-(2**31), 2**31 - 1),
                  "L": (-(2**63), 2**63 - 1)}
_GETARGS_STRUCT = {"b": "B", "h": "h", "i": "i", "L": "q", "B": "B", "H": "H", "I": "I",
                   "K": "Q"}
# c10::DeviceType numbers (expected_device) as torch.device.type names them.
DEVICE_TYPE_NAMES = {0: ("cpu",), 1: ("cuda",), 20: ("npu", "privateuseone")}
_INT_RANGE = {"b": (-(2**7), 2**7 - 1), "h": (-(2**15), 2**15 - 1), "i": (-(2**31), 2**31 - 1),
              "q": (-(2**63), 2**63 - 1), "B": (0, 2**8 - 1), "H": (0, 2**16 - 1),
              "I": (0, 2**32 - 1), "Q": (0, 2**64 - 1)}


def kind_of(type_name: str) -> str:
    """Map a Triton signature type to an argument kind: ``ptr`` or the scalar type."""
    if not isinstance(type_name, str):
        raise FastLaunchError("signature_type_unsupported", stable=True,
                              detail=f"got {type_name!r}, expected a str")
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


def _describe(value: object) -> str:
    """Type name and repr, cut between characters (as the core's messages)."""
    try:
        text = repr(value)
    except Exception:
        return type(value).__name__
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _plan_error(field: str, value: object, expected: str,
                reason: str = "bad_plan") -> FastLaunchError:
    return FastLaunchError(reason, detail=f"{field}: got {_describe(value)}, expected {expected}")


def _int_in(field: str, value: object, low: int, high: int, error=_plan_error,
            reason: str = "bad_plan") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise error(field, value, f"an int in {low}..{high}", reason)
    return operator.index(value)


def _flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _plan_error(field, value, "True or False")
    return value


def check_plan(abi: str, signature: Sequence[str], *, names: Sequence[str] | None = None,
               ffts: bool = False, ffts_addr: int | None = 0, pure_simt: bool = False,
               n_scratch: int = 2, expected_device: tuple[int, int] | None = None) -> list[str]:
    """Every check ``_core.Plan`` makes, in its order; the names to use.
    ``ffts_addr=None``: not known yet (layout only)."""
    if not isinstance(abi, str) or abi not in ABIS:
        raise FastLaunchError("abi_unsupported", detail=f"got {abi!r}, expected one of {ABIS}")
    if not isinstance(signature, (list, tuple)):
        raise _plan_error("signature", signature, "a list or tuple of type strings")
    for type_name in signature:
        kind_of(type_name)
    if names is not None:
        if not isinstance(names, (list, tuple)):
            raise _plan_error("names", names, "a list or tuple of str")
        for i, name in enumerate(names):
            if not isinstance(name, str):
                field = f"names[{i}]"
                raise _plan_error(field, name, "a str")
    _flag("ffts", ffts)
    if ffts_addr is not None:
        _int_in("ffts_addr", ffts_addr, 0, 2**64 - 1)
    _flag("pure_simt", pure_simt)
    _int_in("n_scratch", n_scratch, 0, 2)
    if expected_device is not None:
        if not isinstance(expected_device, (list, tuple)) or len(expected_device) != 2:
            raise _plan_error("expected_device", expected_device,
                              "None or (device_type, device_index)")
        _int_in("expected_device[0]", expected_device[0], 0, 2**31 - 1)
        _int_in("expected_device[1]", expected_device[1], -1, 2**31 - 1)
    if names and len(names) != len(signature):
        raise FastLaunchError("bad_plan", detail=f"names: got {len(names)} names, expected one "
                                                 f"per signature entry ({len(signature)})")
    if abi == "cuda" and (ffts or pure_simt or ffts_addr):
        raise FastLaunchError("bad_plan", detail="ffts/ffts_addr/pure_simt: npu flags given for "
                                                 "a cuda plan, expected False, 0 and False")
    if abi == "npu" and ffts and ffts_addr == 0:
        raise FastLaunchError("bad_plan", detail="ffts_addr: got 0, expected the non-zero FFTS "
                                                 "control address of the device")
    return list(names) if names else [f"arg{i}" for i in range(len(signature))]


def layout(abi: str, signature: Sequence[str], *, names: Sequence[str] | None = None,
           ffts: bool = False, pure_simt: bool = False, n_scratch: int = 2) -> Layout:
    """Fields (name, offset, size) and total size of one launch buffer."""
    names = check_plan(abi, signature, names=names, ffts=ffts, ffts_addr=None,
                       pure_simt=pure_simt, n_scratch=n_scratch)
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


def _bad(label: str, value: object, expected: str, reason: str = "bad_value") -> CallRefused:
    return CallRefused(reason, detail=f"{label}: got {_describe(value)}, expected {expected}")


_ABSENT = object()


def _attr_or_absent(label: str, obj: object, value: object, name: str) -> object:
    """obj.<name>; _ABSENT on AttributeError; other Exceptions refuse the value."""
    try:
        return getattr(obj, name)
    except AttributeError:
        return _ABSENT
    except Exception:
        raise _bad(label, value, f"a readable .{name}") from None


def _check_device(label: str, value: object, want: tuple[int, int]) -> None:
    """obj.device (a torch.device) against the plan's device; objects without
    one, or whose .device.type is not a str, are not checked."""
    device = _attr_or_absent(label, value, value, "device")
    if device is _ABSENT:
        return
    type_name = _attr_or_absent(label, device, value, "type")
    if type_name is _ABSENT:
        return
    index = _attr_or_absent(label, device, value, "index")
    if index is _ABSENT or not isinstance(type_name, str):
        return
    if index is not None and type(index) is not int:
        return
    try:
        type_name.encode()
    except UnicodeEncodeError:
        return
    idx = -1 if index is None else (index if -(2**63) <= index < 2**63 else -2)
    if type_name not in DEVICE_TYPE_NAMES.get(want[0], ()) or idx != want[1]:
        raise CallRefused("device_mismatch",
                          detail=f"{label}: got {_describe(value)} on device ({type_name}, "
                                 f"index {idx}), expected a tensor on the plan's device "
                                 f"(type {want[0]}, index {want[1]})")


def pointer_value(label: str, value: object,
                  expected_device: tuple[int, int] | None = None,
                  bool_address: bool = False) -> int:
    """tensor -> data_ptr(); int -> the address; None -> 0. ``bool_address``
    (npu): a bool is the address 0 or 1, as triton-ascend's getPointer reads it."""
    expected = "a tensor, an int address or None"
    if value is None:
        return 0
    if isinstance(value, int) and (bool_address or not isinstance(value, bool)):
        address = operator.index(value)
    elif not isinstance(value, (float, bool)):
        if expected_device is not None:
            _check_device(label, value, expected_device)
        try:
            address = value.data_ptr()  # type: ignore[attr-defined]
        except Exception as err:
            raise _bad(label, value, expected if isinstance(err, AttributeError)
                       else "data_ptr() to succeed") from None
        if not isinstance(address, int):
            raise _bad(label, value, "data_ptr() to return an int")
        address = operator.index(address)
    else:
        raise _bad(label, value, expected)
    if not 0 <= address < 2**64:
        raise _bad(label, value, "an address in 0..2**64-1")
    return address


def as_double(value: object) -> float:
    """CPython's PyFloat_AsDouble: floats by value, then __float__, then
    __index__; anything else (str, bytes, None) is a TypeError."""
    if isinstance(value, float):
        return float.__float__(value)
    to_float = getattr(type(value), "__float__", None)
    if to_float is not None:
        result = to_float(value)
        if type(result) is float:
            return result
        message = (f"{type(value).__name__}.__float__ returned non-float "
                   f"(type {type(result).__name__})")
        if not isinstance(result, float):
            raise TypeError(message)
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return float.__float__(result)
    if getattr(type(value), "__index__", None) is not None:
        return float(operator.index(value))
    message = f"must be real number, not {type(value).__name__}"
    raise TypeError(message)


def _float32(number: float) -> bytes:
    import numpy as np

    with np.errstate(over="ignore"):
        return np.float32(number).tobytes()


def getargs_value(label: str, code: str, value: object) -> bytes:
    """The bytes PyArg_ParseTuple stores for one format unit, or CallRefused
    where it raises (npu scalars: what triton-ascend's launcher would pack)."""
    def refuse(why: str) -> CallRefused:
        return _bad(label, value, f"a value PyArg_ParseTuple {code!r} accepts ({why})")

    try:
        if code in "fd":
            number = value if type(value) is float else as_double(value)
            return struct.pack("<d", number) if code == "d" else _float32(number)
        if code == "K":
            if not isinstance(value, int):
                message = f"must be int, not {type(value).__name__}"
                raise TypeError(message)
            number = operator.index(value)
        else:
            number = value if type(value) is int else operator.index(value)
    except Exception as err:
        why = f"{type(err).__name__}: {err}"
        raise refuse(why) from None
    if code in _GETARGS_RANGE:
        low, high = _GETARGS_RANGE[code]
        if not low <= number <= high:
            why = f"OverflowError: out of range {low}..{high}"
            raise refuse(why)
    else:
        number &= (1 << (8 * struct.calcsize(_GETARGS_STRUCT[code]))) - 1
    return struct.pack("<" + _GETARGS_STRUCT[code], number)


def _has_data_ptr(value: object) -> bool:
    if type(value) in (int, float) or value is None or isinstance(value, bool):
        return False
    try:
        value.data_ptr  # noqa: B018 - the lookup is the test, as in the core
    except Exception:
        return False
    return True


def integer_value(label: str, kind: str, code: str, value: object) -> int:
    """cuda: range-checked for its slot; never wrapped. i1/u1 take bools or 0/1."""
    if type(value) is not int and (isinstance(value, float) or _has_data_ptr(value)):
        raise _bad(label, value, f"an int for {kind}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except Exception:
        raise _bad(label, value, f"an int for {kind}") from None
    low, high = (0, 1) if kind in ("i1", "u1") else _INT_RANGE[code]
    if not low <= number <= high:
        raise _bad(label, value, f"an int in {low}..{high} for {kind}")
    return number


def float_value(label: str, kind: str, value: object) -> float:
    """cuda: PyFloat_AsDouble's rules; tensors and None refused."""
    if type(value) is float:
        return value
    if value is None or _has_data_ptr(value):
        raise _bad(label, value, f"a float for {kind}")
    try:
        return as_double(value)
    except Exception:
        raise _bad(label, value, f"a float for {kind}") from None


def _fits(label: str, number: float, narrowed: float, kind: str) -> None:
    if math.isinf(narrowed) and not math.isinf(number):
        raise CallRefused("bad_value", detail=f"{label}: got float {number!r}, expected a "
                                              f"value that fits in {kind}")


def encode(abi: str, type_name: str, value: object, label: str = "value",
           expected_device: tuple[int, int] | None = None) -> bytes:
    """The bytes one argument occupies in its slot (before padding)."""
    import numpy as np

    code = _store(abi, type_name)
    kind = kind_of(type_name)
    if kind == "ptr":
        return struct.pack("<Q", pointer_value(label, value, expected_device,
                                               bool_address=abi == "npu"))
    if abi == "npu":
        return getargs_value(label, NPU_GETARGS[kind], value)
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


def read_grid(grid: object) -> tuple[int, int, int]:
    """A tuple or list of 3 ints (through __index__); values beyond int64
    clamp to its limits, which every ABI refuses."""
    if not isinstance(grid, (tuple, list)):
        raise CallRefused("grid_rank", detail=f"grid: got {_describe(grid)}, expected a tuple or "
                                              "list of 3 ints")
    if len(grid) != 3:
        raise CallRefused("grid_rank", detail=f"grid: got {len(grid)} values, expected 3")
    out = []
    for i, item in enumerate(grid):
        try:
            number = item if type(item) is int else operator.index(item)
        except Exception:
            raise CallRefused("grid_type", detail=f"grid[{i}]: got {_describe(item)}, expected "
                                                  "an int") from None
        out.append(min(max(number, -(2**63)), 2**63 - 1))
    return tuple(out)  # type: ignore[return-value]


def check_grid(abi: str, grid: object) -> int:
    """npu: returns blockDim; cuda: 0 when the grid is empty, else 1."""
    grid = read_grid(grid)
    if abi == "npu":
        product = 1
        for i, g in enumerate(grid):
            if not 1 <= g <= 2**31 - 1:
                raise CallRefused("grid_out_of_range",
                                  detail=f"grid[{i}]: got {g}, expected 1..2147483647 on npu")
            product *= g
            if product > 65535:
                raise CallRefused("grid_out_of_range",
                                  detail=f"grid: product of {grid} exceeds 65535, the npu "
                                         "blockDim limit")
        return product
    for i, (g, limit) in enumerate(zip(grid, (2**31 - 1, 65535, 65535))):
        if not 0 <= g <= limit:
            raise CallRefused("grid_out_of_range",
                              detail=f"grid[{i}]: got {g}, expected 0..{limit} on cuda")
    return 0 if 0 in grid else 1


def pack(abi: str, signature: Sequence[str], args: Sequence[object],
         grid: Sequence[int] | None, *, names: Sequence[str] | None = None,
         ffts: bool = False, ffts_addr: int = 0, pure_simt: bool = False, n_scratch: int = 2,
         workspace: int = 0, sync_lock: int = 0,
         expected_device: tuple[int, int] | None = None) -> bytes:
    """Reference packer (numpy): one launch buffer, from the layout above.
    The twin of ``_core.Plan(...).pack(...)``: same bytes, same checks in the
    same order, same exception type and reason."""
    import numpy as np

    if ffts_addr is None:  # layout() may leave it unknown; a packed buffer may not
        _int_in("ffts_addr", ffts_addr, 0, 2**64 - 1)
    check_plan(abi, signature, names=names, ffts=ffts, ffts_addr=ffts_addr,
               pure_simt=pure_simt, n_scratch=n_scratch, expected_device=expected_device)
    lay = layout(abi, signature, names=names, ffts=ffts, pure_simt=pure_simt,
                 n_scratch=n_scratch)
    if grid is not None:
        grid = read_grid(grid)
        check_grid(abi, grid)
    elif abi == "npu":
        raise CallRefused("grid_rank", detail="grid: got None, expected 3 ints (the plan has no "
                                              "static grid)")
    if not isinstance(args, (list, tuple)):
        raise _bad("args", args, "a tuple or list of values", "bad_args")
    workspace = _int_in("workspace", workspace, 0, 2**64 - 1, _bad, "bad_value")
    sync_lock = _int_in("sync_lock", sync_lock, 0, 2**64 - 1, _bad, "bad_value")
    if len(args) != len(signature):
        raise CallRefused("arg_count_mismatch",
                          detail=f"args: got {len(args)} values, expected {len(signature)}")
    buffer = np.zeros(lay.size, dtype=np.uint8)

    def put(field: Field, data: bytes) -> None:
        buffer[field.offset:field.offset + len(data)] = np.frombuffer(data, dtype=np.uint8)

    start = (int(ffts) + 2 * int(not pure_simt)) if abi == "npu" else 0
    hidden = list(lay.fields[:start])
    if ffts:
        put(hidden.pop(0), struct.pack("<Q", ffts_addr))
    if hidden:
        put(hidden[0], struct.pack("<Q", sync_lock))
        put(hidden[1], struct.pack("<Q", workspace))
    elif workspace or sync_lock:
        raise CallRefused("no_hidden_slots", detail="workspace/sync_lock: this plan has no "
                                                    "hidden slots (pure-SIMT or cuda), expected 0")
    arg_fields = lay.fields[start:start + len(signature)]
    for i, (field, type_name, value) in enumerate(zip(arg_fields, signature, args)):
        put(field, encode(abi, type_name, value, f"arg {i} '{field.name}' ({type_name})",
                          expected_device))
    if abi == "npu":
        for field, g in zip(lay.fields[-3:], grid):  # type: ignore[arg-type]
            put(field, struct.pack("<i", g))
    return buffer.tobytes()
