# SPDX-License-Identifier: Apache-2.0
"""Byte-exact packing: the C++ packer, the numpy reference and a C-struct oracle."""

import math
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastlaunch import FastLaunchError
from fastlaunch.runtime import abi
from fastlaunch.testing import numpy_packer, pack_bytes, pack_bytes_reference
from helpers.oracle import cc, oracle_bytes
from helpers.values import Tensor

needs_cc = pytest.mark.skipif(cc() is None, reason="no system C compiler for the struct oracle")

INT_RANGES = {"i8": (-(2**7), 2**7 - 1), "i16": (-(2**15), 2**15 - 1),
              "i32": (-(2**31), 2**31 - 1), "i64": (-(2**63), 2**63 - 1), "u8": (0, 2**8 - 1),
              "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1)}
TYPES = ["*fp32", "*i8", "*bf16", "i1", "u1", *INT_RANGES, "fp16", "bf16", "fp32", "fp64"]


# npu: what triton-ascend's PyArg_ParseTuple units accept ('b' is 0..255,
# unsigned units wrap, i1/u1 are 32-bit); cuda: range-checked per type.
NPU_INT_RANGES = {**INT_RANGES, "i1": INT_RANGES["i32"], "i8": (0, 2**8 - 1),
                  **{t: (-(2**70), 2**70) for t in ("u1", "u8", "u16", "u32", "u64")}}
UNSIGNED_BITS = {"u1": 32, "u8": 8, "u16": 16, "u32": 32, "u64": 64}


def value_strategy(type_name, abi_name="cuda"):
    if type_name.startswith("*"):
        return st.one_of(st.none(), st.integers(0, 2**64 - 1),
                         st.integers(0, 2**48).map(Tensor))
    if abi_name == "npu" and type_name in NPU_INT_RANGES:
        return st.one_of(st.booleans(), st.integers(*NPU_INT_RANGES[type_name]))
    if type_name in ("i1", "u1"):
        return st.booleans()
    if type_name in INT_RANGES:
        return st.integers(*INT_RANGES[type_name])
    limit = {"fp16": 65504.0, "bf16": 3.0e38, "fp32": 3.0e38, "fp64": 1e300}[type_name]
    return st.floats(-limit, limit, allow_nan=False, allow_subnormal=True, width=64)


@st.composite
def cases(draw, abi_name):
    sig = draw(st.lists(st.sampled_from(TYPES), max_size=10))
    args = [draw(value_strategy(t, abi_name)) for t in sig]
    case = {"signature": sig, "args": args}
    if abi_name == "npu":
        case["grid"] = draw(st.tuples(st.integers(1, 40), st.integers(1, 40), st.integers(1, 40)))
        case["ffts"] = draw(st.booleans())
        case["ffts_addr"] = draw(st.integers(1, 2**64 - 1))
        case["pure_simt"] = draw(st.booleans())
    else:
        case["grid"] = None
        case["n_scratch"] = draw(st.integers(0, 2))
    return case


def flags(case):
    return {k: case[k] for k in ("ffts", "ffts_addr", "pure_simt", "n_scratch") if k in case}


def both(abi_name, case):
    native = pack_bytes(abi_name, case["signature"], case["args"], case["grid"], **flags(case))
    reference = pack_bytes_reference(abi_name, case["signature"], case["args"], case["grid"],
                                     **flags(case))
    assert native == reference
    return native


def oracle_args(abi_name, case):
    """The oracle takes plain values: tensors become their addresses; npu
    unsigned values are reduced as getargs' masks do (the C cast of the
    masked value)."""
    def plain(type_name, value):
        if isinstance(value, Tensor):
            return value.address
        if abi_name == "npu" and type_name in UNSIGNED_BITS and not isinstance(value, bool):
            return value & ((1 << UNSIGNED_BITS[type_name]) - 1)
        return value

    return {**case, "args": [plain(t, a) for t, a in zip(case["signature"], case["args"])]}


@pytest.mark.parametrize("abi_name", ["npu", "cuda"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_native_equals_numpy_reference(abi_name, data):
    both(abi_name, data.draw(cases(abi_name)))


@needs_cc
@pytest.mark.parametrize("abi_name", ["npu", "cuda"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.data_too_large,
                                                                HealthCheck.too_slow])
@given(data=st.data())
def test_native_equals_c_struct_oracle(abi_name, data):
    batch = [data.draw(cases(abi_name)) for _ in range(40)]
    expected = oracle_bytes(abi_name, [oracle_args(abi_name, c) for c in batch])
    for case, want in zip(batch, expected):
        assert both(abi_name, case) == want, case


@needs_cc
def test_worked_example_against_oracle():
    case = {"signature": ["*fp32", "*fp32", "i32", "fp32", "i64"],
            "args": [0x1000, 0x2000, -5, 1.25, 2**40], "grid": (4, 2, 3), "ffts": True,
            "ffts_addr": 0xABCDEF, "pure_simt": False}
    data = both("npu", case)
    assert data == oracle_bytes("npu", [case])[0]
    assert len(data) == 72
    assert struct.unpack_from("<QQQQQ", data, 0) == (0xABCDEF, 0, 0, 0x1000, 0x2000)
    assert struct.unpack_from("<ifq", data, 40) == (-5, 1.25, 2**40)
    assert struct.unpack_from("<iii", data, 56) == (4, 2, 3)


def test_conversion_rules():
    sig = ["*fp32", "*fp32", "*fp32", "i1", "u1", "fp16", "bf16"]
    data = both("cuda", {"signature": sig, "args": [Tensor(0x10), 0x20, None, True, False,
                                                    1.0 / 3, 1.0 / 3], "grid": None})
    assert struct.unpack_from("<QQQ", data) == (0x10, 0x20, 0)
    assert data[24:26] == b"\x01\x00"
    assert data[26:28] == np.float16(1.0 / 3).tobytes()
    bf16 = struct.unpack("<I", struct.pack("<f", 1.0 / 3))[0] >> 16  # truncation, as Triton
    assert data[28:30] == bf16.to_bytes(2, "little")


@pytest.mark.parametrize("value", [65504.0, 65519.99, 6.0e-8, 2.0**-25, 2.0**-24 * 1.5,
                                   -0.0, math.inf, -math.inf, 1.0009765625])
def test_fp16_rounds_to_nearest_even_like_numpy(value):
    data = pack_bytes("cuda", ["fp16"], [value], n_scratch=0)
    assert data == np.float64(value).astype(np.float16).tobytes()


def test_nan_is_a_quiet_nan():
    assert pack_bytes("cuda", ["fp16"], [math.nan], n_scratch=0) == b"\x00\x7e"
    assert pack_bytes_reference("cuda", ["fp16"], [math.nan], n_scratch=0) == b"\x00\x7e"


def test_npu_floats_below_64_bits_are_fp32():
    data = both("npu", {"signature": ["fp16", "bf16", "fp32"], "args": [1.5, 2.5, 3.5],
                        "grid": (1, 1, 1), "pure_simt": True})
    assert struct.unpack_from("<fff", data) == (1.5, 2.5, 3.5)


def test_numpy_scalars_are_accepted():
    data = both("cuda", {"signature": ["i32", "fp32"], "args": [np.int64(7), np.float32(0.5)],
                         "grid": None, "n_scratch": 0})
    assert struct.unpack("<if", data) == (7, 0.5)


def test_packing_returns_a_fresh_buffer_each_time():
    first = pack_bytes("npu", ["i32"], [1], (1, 1, 1))
    second = pack_bytes("npu", ["i32"], [2], (1, 1, 1))
    assert first != second
    assert first == pack_bytes("npu", ["i32"], [1], (1, 1, 1))


def test_layout_helper_names_fields():
    lay = abi.layout("npu", ["*fp32", "i32"], names=["in_ptr0", "xnumel"], ffts=True)
    assert lay.field("xnumel").offset == 32
    with pytest.raises(FastLaunchError):
        numpy_packer.pack("npu", ["i32"], [1], (1, 1, 1), ffts=True, ffts_addr=0)


# ---- device check of tensor pointer arguments, with a fake v2 accessor ----

ACCESSOR_C = r"""
#include <Python.h>
#include <stdint.h>
#include <string.h>
/* Objects of a class named "DeviceTensor" are read from their `where`
   attribute, (address, device_type, device_index); the rest are declined. */
int accessor(PyObject* obj, uint64_t* out, int32_t* type, int32_t* index) {
  if (strcmp(Py_TYPE(obj)->tp_name, "DeviceTensor") != 0) return 0;
  PyObject* where = PyObject_GetAttrString(obj, "where");
  if (where == NULL) { PyErr_Clear(); return 0; }
  *out = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(where, 0));
  *type = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(where, 1));
  *index = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(where, 2));
  Py_DECREF(where);
  return 1;
}
void* accessor_address(void) { return (void*)&accessor; }
"""
CAPSULE_NAME = b"fastlaunch.tensor_accessor.v2"  # kept alive: the capsule holds the pointer


class DeviceTensor:
    def __init__(self, address, device_type, device_index):
        self.where = (address, device_type, device_index)

    def data_ptr(self):
        raise AssertionError("the accessor reads this type")


@pytest.fixture(scope="module")
def accessor_capsule(tmp_path_factory):
    import ctypes
    import subprocess
    import sysconfig

    tmp = tmp_path_factory.mktemp("accessor")
    (tmp / "accessor.c").write_text(ACCESSOR_C)
    subprocess.run([cc(), "-shared", "-fPIC", "-O1", f"-I{sysconfig.get_paths()['include']}",
                    str(tmp / "accessor.c"), "-o", str(tmp / "accessor.so")], check=True,
                   capture_output=True)
    lib = ctypes.PyDLL(str(tmp / "accessor.so"))
    lib.accessor_address.restype = ctypes.c_void_p
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(lib.accessor_address(), CAPSULE_NAME, None), lib


@pytest.fixture
def accessor(accessor_capsule):
    from fastlaunch.runtime import _core

    _core.set_tensor_accessor(accessor_capsule[0])
    try:
        yield
    finally:
        _core.set_tensor_accessor(None)


@needs_cc
@pytest.mark.parametrize("abi_name", ["npu", "cuda"])
def test_accessor_device_check(accessor, abi_name):
    from fastlaunch import CallRefused

    grid = (1, 1, 1) if abi_name == "npu" else None
    flags = {"expected_device": (1, 0)} if abi_name == "cuda" else {"expected_device": (20, 1)}
    here = flags["expected_device"]
    data = pack_bytes(abi_name, ["*fp32"], [DeviceTensor(0xABC, *here)], grid, **flags)
    assert data == pack_bytes_reference(abi_name, ["*fp32"], [0xABC], grid, **flags)
    for elsewhere in [(0, -1), (here[0], here[1] + 1), (here[0] + 1, here[1])]:
        with pytest.raises(CallRefused, match="device") as info:
            pack_bytes(abi_name, ["*fp32"], [DeviceTensor(0xABC, *elsewhere)], grid, **flags)
        assert info.value.reason == "device_mismatch"
    # without an expected device nothing is checked
    assert pack_bytes(abi_name, ["*fp32"], [DeviceTensor(0xABC, 0, -1)], grid) == (
        pack_bytes_reference(abi_name, ["*fp32"], [0xABC], grid))


@pytest.mark.parametrize(("device", "ok"), [
    (("cuda", 0), True), (("cuda", 1), False), (("cpu", None), False), (("npu", 0), False),
    (None, True)])
def test_declined_path_checks_the_device_attribute(device, ok):
    """Objects the accessor declines: their .device (a torch.device) is compared."""
    import types

    from fastlaunch import CallRefused

    class Buffer:
        def data_ptr(self):
            return 0x40

    value = Buffer()
    if device is not None:
        value.device = types.SimpleNamespace(type=device[0], index=device[1])
    for pack in (pack_bytes, pack_bytes_reference):
        if ok:
            assert pack("cuda", ["*fp32"], [value], expected_device=(1, 0))[:8] == (
                (0x40).to_bytes(8, "little"))
        else:
            with pytest.raises(CallRefused) as info:
                pack("cuda", ["*fp32"], [value], expected_device=(1, 0))
            assert info.value.reason == "device_mismatch"
