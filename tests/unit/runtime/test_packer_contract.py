# SPDX-License-Identifier: Apache-2.0
"""One packer contract: for any input, random or adversarial, the C++ packer
(``testing.pack_bytes``) and its numpy twin (``testing.numpy_packer.pack``) either return the
same bytes or raise the same exception type with the same reason slug; a
KeyboardInterrupt raised by a value propagates from both. No other exception
(pybind11's TypeError, a crash) reaches the caller.

The npu scalar rules are CPython's ``PyArg_ParseTuple`` (triton-ascend's
launcher parses its scalars with it); the twin is checked against the real
function here, through ctypes."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastlaunch import FastLaunchError
from fastlaunch.runtime import abi
from fastlaunch.testing import numpy_packer, pack_bytes, pack_bytes_reference
from helpers.values import Raises, Tensor

# Values whose __index__ returns an int subclass warn (both packers alike);
# numpy warns while the strategies build float32 values from huge floats.
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")]


class Index:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value

    def __repr__(self):
        return f"Index({self.value!r})"


class Float:
    def __init__(self, value):
        self.value = value

    def __float__(self):
        return self.value

    def __repr__(self):
        return f"Float({self.value!r})"


class GetattrRaises:
    def __init__(self, exc):
        self.exc = exc

    def __getattr__(self, name):
        raise self.exc(name)


class NotCallable:
    data_ptr = 5


class IntSub(int):
    pass


class FloatWithIndex(float):
    def __index__(self):
        return 3


EXCEPTIONS = st.sampled_from([ValueError, TypeError, AttributeError, OverflowError])
BIG = st.one_of(st.integers(-(2**70), 2**70), st.integers(-(2**300), 2**300),
                st.sampled_from([0, 1, -1, 2**7, 2**8, 2**15, 2**16, 2**31, 2**32, 2**63,
                                 2**64, -(2**31) - 1, -(2**63) - 1, 255, 256]))
FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([1e39, -1e39, 65504.0, 65520.0, 3.4028235e38, -0.0]))


def values():
    plain = st.one_of(
        BIG, FLOATS, st.booleans(), st.none(), st.sampled_from(["1.5", "x", b"1", "é" * 70]),
        st.binary(max_size=3).map(bytearray),
        BIG.filter(lambda v: -(2**63) <= v < 2**63).map(np.int64),
        st.integers(-128, 127).map(np.int8), st.integers(0, 2**64 - 1).map(np.uint64),
        FLOATS.map(np.float32), FLOATS.map(np.float64), st.booleans().map(np.bool_),
        BIG.map(IntSub), st.just(FloatWithIndex(2.5)))
    return st.one_of(
        plain, plain.map(Index), plain.map(Float), EXCEPTIONS.map(Raises),
        EXCEPTIONS.map(lambda e: Raises(e, repr_raises=True)), EXCEPTIONS.map(GetattrRaises),
        st.just(NotCallable()),
        st.builds(Tensor, st.one_of(BIG, plain),
                  st.one_of(st.none(), st.tuples(st.sampled_from(["cuda", "cpu", "npu", 5]),
                                                 st.one_of(st.none(), st.integers(-2, 2),
                                                           st.just("0"))))))


TYPES = [*abi.SCALAR_TYPES, "*fp32", "*i8", "f32"]
INT_BITS = {"i1": 1, "u1": 1, "i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32,
            "i64": 64, "u64": 64}


def good_value(abi_name, type_name):
    """A value the type takes (mostly), so that calls reach the packing itself."""
    if type_name.startswith("*"):
        return st.one_of(st.none(), st.integers(0, 2**64 - 1),
                         st.builds(Tensor, st.integers(0, 2**48),
                                   st.sampled_from([None, ("cuda", 0), ("npu", 0)])))
    if type_name in INT_BITS:
        bits = INT_BITS[type_name]
        if bits == 1:
            return st.one_of(st.booleans(), st.integers(0, 1))
        if type_name.startswith("u"):
            return st.integers(0, 2**bits - 1) if abi_name == "cuda" else st.integers(
                -(2**(bits + 2)), 2**(bits + 2))
        if type_name == "i8" and abi_name == "npu":
            return st.integers(0, 255)
        return st.integers(-(2**(bits - 1)), 2**(bits - 1) - 1)
    return st.floats(-6e4, 6e4, allow_nan=False)


def corrupt(draw, call):
    """One bad part: the plan, the grid, the args or the hidden slots."""
    abi_name, sig, args, grid, flags, hidden = call
    part = draw(st.sampled_from([
        "abi", "sig_type", "sig_container", "names_short", "names_bytes", "ffts", "ffts_addr",
        "pure_simt", "n_scratch", "expected_device", "grid", "grid", "grid", "args_count",
        "args_container", "hidden"]))
    if part == "abi":
        abi_name = draw(st.sampled_from(["rocm", b"npu", None, "NPU"]))
    elif part == "sig_type":
        sig = [*sig, draw(st.sampled_from([b"i32", 5, "nvTmaDesc", "fp8", "", None]))]
        args = [*args, 1]
    elif part == "sig_container":
        sig = draw(st.sampled_from(["".join(sig), None, 5, set(sig)]))
    elif part == "names_short":
        flags["names"] = [f"n{i}" for i in range(len(sig) + draw(st.sampled_from([-1, 1])))]
    elif part == "names_bytes":
        flags["names"] = [b"n"] * len(sig)
    elif part in ("ffts", "pure_simt"):
        flags[part] = draw(st.sampled_from([None, 1, 0, "yes", not flags[part]]))
    elif part == "ffts_addr":
        flags["ffts_addr"] = draw(st.one_of(BIG, st.sampled_from([0, -1, 2**64, 1.0, None])))
    elif part == "n_scratch":
        flags["n_scratch"] = draw(st.sampled_from([-1, 3, True, 2.0, None, 2**70]))
    elif part == "expected_device":
        flags["expected_device"] = draw(st.sampled_from(
            [(1,), (1, 2**40), (-1, 0), [1, 1], "cuda", (1, 0, 0), (1.0, 0)]))
    elif part == "grid":
        grid = draw(st.one_of(
            st.tuples(BIG, BIG, BIG), st.lists(st.integers(-1, 70000), min_size=3, max_size=3),
            st.sampled_from([None, (1, 1), (1, 1, 1, 1), 5, "abc", {1, 2, 3}]),
            st.tuples(values(), st.just(1), st.just(1))))
    elif part == "args_count":
        args = [*args, 1] if draw(st.booleans()) or not args else args[:-1]
    elif part == "args_container":
        args = draw(st.sampled_from([7, None, "ab", set(range(len(args)))]))
    else:
        hidden = {"workspace": draw(st.one_of(BIG, st.just(1.5))),
                  "sync_lock": draw(st.one_of(BIG, st.just(0)))}
    return abi_name, sig, args, grid, flags, hidden


@st.composite
def calls(draw):
    abi_name = draw(st.sampled_from(["npu", "cuda"]))
    npu = abi_name == "npu"
    sig = draw(st.lists(st.sampled_from(TYPES), max_size=6))
    flags = {"ffts": npu and draw(st.booleans()), "pure_simt": npu and draw(st.booleans()),
             "n_scratch": draw(st.integers(0, 2)),
             "expected_device": draw(st.sampled_from([None, (1, 0), (20, 0)]))}
    flags["ffts_addr"] = draw(st.integers(1, 2**64 - 1)) if flags["ffts"] else 0
    if draw(st.booleans()):
        flags["names"] = draw(st.sampled_from([list, tuple]))(f"a{i}" for i in range(len(sig)))
    args = draw(st.sampled_from([list, tuple]))(
        draw(st.one_of(good_value(abi_name, t), good_value(abi_name, t), values()))
        for t in sig)
    grid = draw(st.tuples(st.integers(1, 8), st.integers(1, 8), st.integers(1, 8)) if npu else
                st.one_of(st.none(), st.tuples(st.integers(0, 8), st.integers(0, 8),
                                               st.integers(0, 8))))
    call = (abi_name, sig, args, grid, flags, {})
    return corrupt(draw, call) if draw(st.integers(0, 4)) == 0 else call


def outcome(pack, abi_name, signature, args, grid, flags, hidden):
    try:
        return "bytes", pack(abi_name, signature, args, grid, **flags, **hidden)
    except KeyboardInterrupt:
        return "interrupt", None
    except FastLaunchError as err:
        return type(err).__name__, err.reason


@settings(max_examples=1500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(calls())
def test_native_and_twin_agree(call):
    native = outcome(pack_bytes, *call)
    twin = outcome(pack_bytes_reference, *call)
    if native[0] == "bytes" and twin[0] == "bytes":
        assert native[1].hex() == twin[1].hex()
    else:
        assert native == twin


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["npu", "cuda"]), st.sampled_from(TYPES), values())
def test_one_value_agrees(abi_name, type_name, value):
    call = (abi_name, [type_name], [value], (1, 1, 1) if abi_name == "npu" else None,
            {"expected_device": (1, 0)}, {})
    assert outcome(pack_bytes, *call) == outcome(pack_bytes_reference, *call)


def test_keyboard_interrupt_is_one_of_the_outcomes():
    call = ("npu", ["i32"], [Raises(KeyboardInterrupt)], (1, 1, 1), {}, {})
    assert outcome(pack_bytes, *call) == outcome(pack_bytes_reference, *call) == (
        "interrupt", None)


# ---- the twin's npu rules against CPython's own PyArg_ParseTuple ----------

C_TYPES = {"b": ctypes.c_ubyte, "h": ctypes.c_short, "i": ctypes.c_int, "L": ctypes.c_longlong,
           "B": ctypes.c_ubyte, "H": ctypes.c_ushort, "I": ctypes.c_uint,
           "K": ctypes.c_ulonglong, "f": ctypes.c_float, "d": ctypes.c_double}


def getargs(code, value):
    """What PyArg_ParseTuple((value,), code) stores (as bytes), or None when it raises."""
    out = C_TYPES[code]()
    try:
        ctypes.pythonapi.PyArg_ParseTuple(ctypes.py_object((value,)), code.encode(),
                                          ctypes.byref(out))
    except Exception:
        return None
    return bytes(out)


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(sorted(numpy_packer.NPU_GETARGS.items())), values())
def test_twin_npu_rules_are_cpython_getargs(kind_code, value):
    kind, code = kind_code
    want = getargs(code, value)
    try:
        got = numpy_packer.getargs_value("v", code, value)
    except FastLaunchError as err:
        got = err.reason
    assert got == (want if want is not None else "bad_value")


@pytest.mark.parametrize(("code", "value"), [("b", 255), ("b", -1), ("K", -1), ("K", 2.0),
                                             ("I", 2**40 + 1), ("f", 1e39), ("f", "1"),
                                             ("L", 2**63), ("h", Index(7))])
def test_getargs_oracle_spot_checks(code, value):
    try:
        got = numpy_packer.getargs_value("v", code, value)
    except FastLaunchError as err:
        got = err.reason
    want = getargs(code, value)
    assert got == (want if want is not None else "bad_value")


# The cases the audit found, and the device check, always run.
KNOWN = [
    ("npu", ["i32", "i32"], [1, 2], (1, 1, 1), {"names": ["a"]}),
    ("cuda", ["i32"], [1], None, {"n_scratch": -1}),
    ("cuda", ["i32"], [1], None, {"n_scratch": 3}),
    ("cuda", ["fp32"], ["1.5"], None, {}),
    ("cuda", ["fp32"], [b"1"], None, {}),
    ("cuda", ["fp32"], [bytearray(b"1")], None, {}),
    ("npu", ["fp32"], ["1.5"], (1, 1, 1), {}),
    ("cuda", ["i32"], [1], (1, 70000, 1), {}),
    ("cuda", ["i32"], [1], None, {"ffts": True, "ffts_addr": 5}),
    ("npu", [b"i32"], [1], (1, 1, 1), {}),
    ("npu", ["i32"], [1], (1, 1, 1), {"ffts": None}),
    ("npu", ["i32"], [1], (2**200, 1, 1), {}),
    ("npu", ["i32"], [1], (1, 1, 1), {"ffts": True, "ffts_addr": -1}),
    ("npu", ["*fp32"], [Tensor(5, ("npu", 0))], (1, 1, 1), {"expected_device": (20, 0)}),
    ("npu", ["*fp32"], [Tensor(5, ("npu", 1))], (1, 1, 1), {"expected_device": (20, 0)}),
    ("cuda", ["*fp32"], [Tensor(5, ("cpu", None))], None, {"expected_device": (1, 0)}),
    ("cuda", ["*fp32"], [Tensor(5)], None, {"expected_device": (1, 0)}),
    ("cuda", ["*fp32"], [Raises(ValueError)], None, {"expected_device": (1, 0)}),
    ("cuda", ["*fp32"], [GetattrRaises(ValueError)], None, {"expected_device": (1, 0)}),
]


@pytest.mark.parametrize("case", KNOWN, ids=range(len(KNOWN)))
def test_known_cases_agree(case):
    abi_name, sig, args, grid, flags = case
    native = outcome(pack_bytes, abi_name, sig, args, grid, flags, {})
    assert native == outcome(pack_bytes_reference, abi_name, sig, args, grid, flags, {})
    if case in KNOWN[:13]:
        assert native[0] != "bytes"
