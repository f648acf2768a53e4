# SPDX-License-Identifier: Apache-2.0
"""The numpy reference packer: the test oracle for the native plan.

``pack`` states the ABI rules of docs/abi.md in Python, independently of
``csrc/core/plan.cpp``: the tests hold the two (and a C compiler, and
CPython's own ``PyArg_ParseTuple``) to the same bytes, and every bad input to
the same exception type and reason slug (tests/unit/runtime/test_packer_contract.py).
No backend packs with it; the fake backend packs with the native plan.
"""

from __future__ import annotations

import math
import operator
import struct
import warnings
from collections.abc import Sequence

from ..errors import CallRefused
from ..runtime.abi import (
    Field,
    check_grid,
    check_plan,
    describe,
    int_in,
    kind_of,
    layout,
    read_grid,
    store_code,
)

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


def _bad(label: str, value: object, expected: str, reason: str = "bad_value") -> CallRefused:
    return CallRefused(reason, detail=f"{label}: got {describe(value)}, expected {expected}")


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
                          detail=f"{label}: got {describe(value)} on device ({type_name}, "
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

    code = store_code(abi, type_name)
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
        int_in("ffts_addr", ffts_addr, 0, 2**64 - 1)
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
    workspace = int_in("workspace", workspace, 0, 2**64 - 1, _bad, "bad_value")
    sync_lock = int_in("sync_lock", sync_lock, 0, 2**64 - 1, _bad, "bad_value")
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
