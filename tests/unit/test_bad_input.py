# SPDX-License-Identifier: Apache-2.0
"""Bad input: a FastLaunchError naming the field, the value and what was expected."""

import pytest

from fastlaunch import CallRefused, FastLaunchError, abi
from fastlaunch.testing import pack_bytes, pack_bytes_reference

PACKERS = [pack_bytes, pack_bytes_reference]


@pytest.mark.parametrize("pack", PACKERS)
def test_wrong_arg_count(pack):
    with pytest.raises(FastLaunchError, match=r"args: got 1 values, expected 2"):
        pack("npu", ["*fp32", "i32"], [0], (1, 1, 1))


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("sig", "value", "field", "expected"), [
    ("*fp32", 1.5, "arg 0", "a tensor, an int address or None"),
    ("*fp32", "buf0", "arg 0", "a tensor, an int address or None"),
    ("*fp32", -1, "arg 0", "an address in 0..2\\*\\*64-1"),
    ("i32", 2.5, "arg 0", "an int for i32"),
    ("i32", None, "arg 0", "an int for i32"),
    ("fp32", None, "arg 0", "a float for fp32"),
    ("fp32", "x", "arg 0", "a float for fp32"),
])
def test_wrong_category(pack, sig, value, field, expected):
    with pytest.raises(FastLaunchError, match=expected) as info:
        pack("npu", [sig], [value], (1, 1, 1))
    assert field in str(info.value)
    assert repr(value)[:10] in str(info.value)


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("abi_name", "sig", "value"), [
    ("npu", "i32", 2**31), ("npu", "i32", -(2**31) - 1), ("npu", "u32", -1),
    ("npu", "i8", 128), ("cuda", "u8", 256), ("cuda", "i16", -40000), ("cuda", "i64", 2**63),
    ("cuda", "u64", 2**64), ("cuda", "i1", 2), ("npu", "u1", -1),
])
def test_out_of_range_ints_are_errors_not_wraps(pack, abi_name, sig, value):
    with pytest.raises(FastLaunchError, match=rf"got int {value}.*expected an int in") as info:
        pack(abi_name, [sig], [value], (1, 1, 1) if abi_name == "npu" else None)
    assert info.value.reason == "bad_argument"


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("sig", "value"), [("fp16", 65520.0), ("fp16", 1e6), ("fp32", 1e39),
                                            ("bf16", -1e39)])
def test_float_overflow_is_an_error(pack, sig, value):
    with pytest.raises(FastLaunchError, match="fits in"):
        pack("cuda", [sig], [value])


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("grid", "message"), [
    ((0, 1, 1), r"grid\[0\]: got 0, expected 1..2147483647"),
    ((1, -2, 1), r"grid\[1\]: got -2"),
    ((1, 1, 2**31), r"grid\[2\]: got 2147483648"),
    ((256, 256, 1), "exceeds 65535"),
])
def test_npu_grid_refused(pack, grid, message):
    with pytest.raises(CallRefused, match=message) as info:
        pack("npu", ["i32"], [1], grid)
    assert info.value.recoverable


@pytest.mark.parametrize("pack", PACKERS)
def test_grid_rank_not_three(pack):
    with pytest.raises(CallRefused, match="expected 3"):
        pack("npu", ["i32"], [1], (1, 1))


@pytest.mark.parametrize(("grid", "ok"), [((0, 1, 1), 0), ((5, 0, 3), 0), ((3, 2, 1), 1)])
def test_cuda_zero_grid_launches_nothing(grid, ok):
    assert abi.check_grid("cuda", grid) == ok


@pytest.mark.parametrize("grid", [(-1, 1, 1), (1, 65536, 1), (2**31, 1, 1)])
def test_cuda_grid_limits(grid):
    with pytest.raises(CallRefused, match="on cuda"):
        abi.check_grid("cuda", grid)


def test_unknown_type_string():
    with pytest.raises(FastLaunchError, match="'nvTmaDesc' is not supported"):
        pack_bytes("cuda", ["nvTmaDesc"], [0])


def test_data_ptr_raising_is_reported():
    class Broken:
        def data_ptr(self):
            raise RuntimeError("freed")

    with pytest.raises(FastLaunchError, match="data_ptr"):
        pack_bytes("npu", ["*fp32"], [Broken()], (1, 1, 1))
