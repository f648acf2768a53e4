# SPDX-License-Identifier: Apache-2.0
"""Argument kinds, per-ABI byte layouts, and the plan and grid checks.

The Python statement of the layout rules that ``csrc/core/plan.cpp``
implements natively; the value conversion rules' Python statement is the
test oracle ``fastlaunch.testing.numpy_packer``. See docs/abi.md for the tables.

Errors: a bad plan (abi, signature, names, flags) raises ``FastLaunchError``;
a bad call (grid, args, values, device) raises ``CallRefused``, the
pre-submission error the engine answers with the original launcher.
"""

from __future__ import annotations

import dataclasses
import operator
import struct
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


def store_code(abi: str, type_name: str) -> str:
    kind = kind_of(type_name)
    if kind == "ptr":
        return "Q"
    return (_NPU_STORE if abi == "npu" else _CUDA_STORE)[kind]


def _store_size(code: str) -> int:
    return 2 if code == "bf16" else struct.calcsize(code)


def describe(value: object) -> str:
    """Type name and repr, cut between characters (as the core's messages)."""
    try:
        text = repr(value)
    except Exception:
        return type(value).__name__
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _plan_error(field: str, value: object, expected: str,
                reason: str = "bad_plan") -> FastLaunchError:
    return FastLaunchError(reason, detail=f"{field}: got {describe(value)}, expected {expected}")


def int_in(field: str, value: object, low: int, high: int, error=_plan_error,
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
        int_in("ffts_addr", ffts_addr, 0, 2**64 - 1)
    _flag("pure_simt", pure_simt)
    int_in("n_scratch", n_scratch, 0, 2)
    if expected_device is not None:
        if not isinstance(expected_device, (list, tuple)) or len(expected_device) != 2:
            raise _plan_error("expected_device", expected_device,
                              "None or (device_type, device_index)")
        int_in("expected_device[0]", expected_device[0], 0, 2**31 - 1)
        int_in("expected_device[1]", expected_device[1], -1, 2**31 - 1)
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
        size = _store_size(store_code(abi, type_name))
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


def read_grid(grid: object) -> tuple[int, int, int]:
    """A tuple or list of 3 ints (through __index__); values beyond int64
    clamp to its limits, which every ABI refuses."""
    if not isinstance(grid, (tuple, list)):
        raise CallRefused("grid_rank", detail=f"grid: got {describe(grid)}, expected a tuple or "
                                              "list of 3 ints")
    if len(grid) != 3:
        raise CallRefused("grid_rank", detail=f"grid: got {len(grid)} values, expected 3")
    out = []
    for i, item in enumerate(grid):
        try:
            number = item if type(item) is int else operator.index(item)
        except Exception:
            raise CallRefused("grid_type", detail=f"grid[{i}]: got {describe(item)}, expected "
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
