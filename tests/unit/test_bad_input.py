# SPDX-License-Identifier: Apache-2.0
"""Bad input: an error naming the field, the value and what was expected; the
C++ packer and its numpy twin raise the same type with the same reason."""

import ctypes

import numpy as np
import pytest

import fastlaunch
from fastlaunch import CallRefused, FastLaunchError
from fastlaunch.engine import routing
from fastlaunch.errors import PlanUnavailable
from fastlaunch.runtime import _core, abi
from fastlaunch.runtime.base import KernelSpec
from fastlaunch.runtime.cuda import CudaOptions
from fastlaunch.testing import fakes, pack_bytes, pack_bytes_reference

PACKERS = [pack_bytes, pack_bytes_reference]


@pytest.mark.parametrize("pack", PACKERS)
def test_wrong_arg_count(pack):
    with pytest.raises(CallRefused, match=r"args: got 1 values, expected 2") as info:
        pack("npu", ["*fp32", "i32"], [0], (1, 1, 1))
    assert info.value.reason == "arg_count_mismatch"


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("abi_name", "sig", "value", "expected"), [
    ("npu", "*fp32", 1.5, "a tensor, an int address or None"),
    ("npu", "*fp32", "buf0", "a tensor, an int address or None"),
    ("npu", "*fp32", -1, "an address in 0..2\\*\\*64-1"),
    ("npu", "i32", 2.5, "PyArg_ParseTuple 'i' accepts \\(TypeError"),
    ("npu", "i32", None, "PyArg_ParseTuple 'i' accepts \\(TypeError"),
    ("npu", "fp32", None, "PyArg_ParseTuple 'f' accepts \\(TypeError"),
    ("npu", "fp32", "x", "PyArg_ParseTuple 'f' accepts \\(TypeError"),
    ("npu", "u64", np.uint64(3), "PyArg_ParseTuple 'K' accepts \\(TypeError"),
    ("cuda", "i32", 2.5, "an int for i32"),
    ("cuda", "i32", None, "an int for i32"),
    ("cuda", "fp32", None, "a float for fp32"),
    ("cuda", "fp32", "1.5", "a float for fp32"),
    ("cuda", "fp32", b"1", "a float for fp32"),
    ("cuda", "fp64", bytearray(b"1"), "a float for fp64"),
])
def test_wrong_category(pack, abi_name, sig, value, expected):
    with pytest.raises(CallRefused, match=expected) as info:
        pack(abi_name, [sig], [value], (1, 1, 1))
    assert "arg 0 'arg0'" in str(info.value) and repr(value)[:10] in str(info.value)
    assert info.value.reason == "bad_value" and info.value.recoverable


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("abi_name", "sig", "value"), [
    ("npu", "i32", 2**31), ("npu", "i32", -(2**31) - 1), ("npu", "i8", -1), ("npu", "i8", 256),
    ("npu", "i16", 2**15), ("npu", "i64", 2**63),
    ("cuda", "u8", 256), ("cuda", "i16", -40000), ("cuda", "i64", 2**63),
    ("cuda", "u64", 2**64), ("cuda", "i1", 2), ("cuda", "u32", -1),
])
def test_out_of_range_ints_are_refused(pack, abi_name, sig, value):
    with pytest.raises(CallRefused, match=rf"got int {value}.*expected") as info:
        pack(abi_name, [sig], [value], (1, 1, 1))
    assert info.value.reason == "bad_value"


# triton-ascend parses npu scalars with PyArg_ParseTuple: unsigned units wrap,
# 'b' (int8) takes 0..255, i1 is a 32-bit int, float overflow is inf.
@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("sig", "value", "stored"), [
    ("u32", -1, b"\xff\xff\xff\xff"), ("u8", 257, b"\x01"), ("u16", -2, b"\xfe\xff"),
    ("u64", -1, b"\xff" * 8), ("u1", 2**40 + 5, b"\x05\x00\x00\x00"),
    ("i1", 2, b"\x02\x00\x00\x00"), ("i1", -7, b"\xf9\xff\xff\xff"), ("i8", 200, b"\xc8"),
    ("fp32", 1e39, b"\x00\x00\x80\x7f"), ("fp16", -1e39, b"\x00\x00\x80\xff"),
    ("i32", np.int64(-3), b"\xfd\xff\xff\xff"), ("fp32", np.float32(0.5), b"\x00\x00\x00\x3f"),
    ("i32", True, b"\x01\x00\x00\x00"),
])
def test_npu_scalars_follow_getargs(pack, sig, value, stored):
    data = pack("npu", [sig], [value], (1, 1, 1), pure_simt=True)
    assert data[:len(stored)] == stored


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("sig", "value"), [("fp16", 65520.0), ("fp16", 1e6), ("fp32", 1e39),
                                            ("bf16", -1e39)])
def test_cuda_float_overflow_is_refused(pack, sig, value):
    with pytest.raises(CallRefused, match="fits in") as info:
        pack("cuda", [sig], [value])
    assert info.value.reason == "bad_value"



@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("sig", "value", "text", "kind"), [
    ("fp32", 1e300, "1e+300", "fp32"),
    ("fp16", 1e6, "1000000.0", "fp16"),
    ("bf16", -3.5e38, "-3.5e+38", "fp32"),  # bf16 is the truncated fp32
])
def test_float_overflow_names_the_value_as_python_writes_it(pack, sig, value, text, kind):
    with pytest.raises(CallRefused) as info:
        pack("cuda", [sig], [value])
    assert f"got float {text}, expected a value that fits in {kind}" in str(info.value)
    assert len(str(info.value)) < 120, str(info.value)

@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("grid", "message"), [
    ((0, 1, 1), r"grid\[0\]: got 0, expected 1..2147483647"),
    ((1, -2, 1), r"grid\[1\]: got -2"),
    ((1, 1, 2**31), r"grid\[2\]: got 2147483648"),
    ((256, 256, 1), "exceeds 65535"),
    ((2**200, 1, 1), r"grid\[0\]: got 9223372036854775807"),
])
def test_npu_grid_refused(pack, grid, message):
    with pytest.raises(CallRefused, match=message) as info:
        pack("npu", ["i32"], [1], grid)
    assert info.value.recoverable and info.value.reason == "grid_out_of_range"


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("abi_name", "grid", "reason"), [
    ("npu", (1, 1), "grid_rank"), ("npu", None, "grid_rank"), ("npu", 5, "grid_rank"),
    ("npu", (1.0, 1, 1), "grid_type"), ("npu", (1, "2", 1), "grid_type"),
    ("cuda", (1, 65536, 1), "grid_out_of_range"), ("cuda", (-1, 1, 1), "grid_out_of_range"),
    ("cuda", (2**31, 1, 1), "grid_out_of_range"), ("cuda", [1, 1], "grid_rank"),
])
def test_bad_grids(pack, abi_name, grid, reason):
    with pytest.raises(CallRefused) as info:
        pack(abi_name, ["i32"], [1], grid)
    assert info.value.reason == reason


@pytest.mark.parametrize("pack", PACKERS)
def test_numpy_int_grid_is_read_through_index(pack):
    grid = (np.int64(2), np.int32(3), 1)
    assert pack("npu", ["i32"], [1], grid) == pack("npu", ["i32"], [1], (2, 3, 1))


@pytest.mark.parametrize(("grid", "ok"), [((0, 1, 1), 0), ((5, 0, 3), 0), ((3, 2, 1), 1)])
def test_cuda_zero_grid_launches_nothing(grid, ok):
    assert abi.check_grid("cuda", grid) == ok
    assert _core.Plan("cuda", ["i32"]).check_grid(*grid) == ok


# Bad plans: the same reason from both, never pybind11's TypeError.
@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("abi_name", "sig", "flags", "reason"), [
    ("npu", ["i32", "i32"], {"names": ["a"]}, "bad_plan"),
    ("npu", ["i32"], {"names": [b"a"]}, "bad_plan"),
    ("npu", ["i32"], {"names": "a"}, "bad_plan"),
    ("cuda", ["i32"], {"n_scratch": -1}, "bad_plan"),
    ("cuda", ["i32"], {"n_scratch": 3}, "bad_plan"),
    ("cuda", ["i32"], {"n_scratch": True}, "bad_plan"),
    ("npu", [b"i32"], {}, "signature_type_unsupported"),
    ("npu", "i32", {}, "bad_plan"),
    ("npu", ["i32"], {"ffts": None, "ffts_addr": 5}, "bad_plan"),
    ("npu", ["i32"], {"ffts": True, "ffts_addr": -1}, "bad_plan"),
    ("npu", ["i32"], {"ffts": True, "ffts_addr": 2**64}, "bad_plan"),
    ("npu", ["i32"], {"ffts": True, "ffts_addr": 0}, "bad_plan"),
    ("cuda", ["i32"], {"ffts": True, "ffts_addr": 5}, "bad_plan"),
    ("cuda", ["i32"], {"pure_simt": True}, "bad_plan"),
    ("npu", ["i32"], {"expected_device": (1,)}, "bad_plan"),
    ("npu", ["i32"], {"expected_device": (1, 2**40)}, "bad_plan"),
    ("rocm", ["i32"], {}, "abi_unsupported"),
    (b"npu", ["i32"], {}, "abi_unsupported"),
    ("cuda", ["nvTmaDesc"], {}, "signature_type_unsupported"),
])
def test_bad_plans(pack, abi_name, sig, flags, reason):
    with pytest.raises(FastLaunchError) as info:
        pack(abi_name, sig, [1] * len(sig), (1, 1, 1), **flags)
    assert type(info.value) is FastLaunchError and info.value.reason == reason


@pytest.mark.parametrize("bad", [{"workspace": -1}, {"sync_lock": 2**64}, {"workspace": 1.0}])
@pytest.mark.parametrize("pack", PACKERS)
def test_bad_hidden_slot_values(pack, bad):
    with pytest.raises(CallRefused) as info:
        pack("npu", ["i32"], [1], (1, 1, 1), **bad)
    assert info.value.reason == "bad_value"


def test_core_errors_name_reason_and_are_never_type_errors():
    with pytest.raises(_core.GridError) as info:
        _core.Plan("npu", ["i32"]).pack((1,), (2**200, 1, 1))
    assert info.value.reason == "grid_out_of_range"
    with pytest.raises(_core.InputError) as info:
        _core.Plan("npu", ["i32"], ffts=True, ffts_addr=-1)
    assert info.value.reason == "bad_plan" and "ffts_addr: got int -1" in str(info.value)
    with pytest.raises(_core.GridError):
        _core.Plan("npu", ["i32"]).check_grid(2**200, 1, 1)
    with pytest.raises(_core.InputError, match=r"tensor_accessor\.v2"):
        _core.set_tensor_accessor(object())


def test_unknown_type_string():
    with pytest.raises(FastLaunchError, match="'nvTmaDesc' is not supported"):
        pack_bytes("cuda", ["nvTmaDesc"], [0])


@pytest.mark.parametrize("pack", PACKERS)
def test_data_ptr_raising_is_reported(pack):
    class Broken:
        def data_ptr(self):
            raise RuntimeError("freed")

    with pytest.raises(CallRefused, match="data_ptr") as info:
        pack("npu", ["*fp32"], [Broken()], (1, 1, 1))
    assert info.value.reason == "bad_value"


@pytest.mark.parametrize("pack", PACKERS)
def test_long_non_ascii_repr_is_cut_between_characters(pack):
    with pytest.raises(CallRefused) as info:
        pack("npu", ["i32"], ["é" * 80], (1, 1, 1))
    message = str(info.value)
    assert "'" + "é" * 56 + "..." in message
    message.encode("utf-8")


class Interrupting:
    """Raises KeyboardInterrupt from the named method."""

    def __init__(self, method):
        self.method = method

    def __index__(self):
        if self.method == "__index__":
            raise KeyboardInterrupt
        return 1

    def __float__(self):
        if self.method == "__float__":
            raise KeyboardInterrupt
        return 1.0

    def __repr__(self):
        if self.method == "__repr__":
            raise KeyboardInterrupt
        return "Interrupting()"


class InterruptingTensor(Interrupting):
    def data_ptr(self):
        if self.method == "data_ptr":
            raise KeyboardInterrupt
        return 0x100


@pytest.mark.parametrize("pack", PACKERS)
@pytest.mark.parametrize(("abi_name", "sig", "method"), [
    ("npu", "i32", "__index__"), ("npu", "u64", "__index__"), ("npu", "fp32", "__float__"),
    ("npu", "*fp32", "data_ptr"), ("cuda", "i32", "__index__"), ("cuda", "fp32", "__float__"),
    ("cuda", "*fp32", "data_ptr"),
])
def test_keyboard_interrupt_propagates(pack, abi_name, sig, method):
    value = (InterruptingTensor if sig.startswith("*") else Interrupting)(method)
    if sig == "u64":  # 'K' takes ints only: the interrupt comes from the message's repr
        value.method = "__repr__"
    with pytest.raises(KeyboardInterrupt):
        pack(abi_name, [sig], [value], (1, 1, 1))


@pytest.mark.parametrize("pack", PACKERS)
def test_keyboard_interrupt_from_grid_item_propagates(pack):
    with pytest.raises(KeyboardInterrupt):
        pack("npu", ["i32"], [1], (Interrupting("__index__"), 1, 1))


def test_float_grid_on_fake_backend_is_a_refusal(npu_fake):
    """Nothing was submitted: the original launcher takes the call, counted by reason."""
    spec = fakes.spec("k", ["*fp32", "*fp32", "i32"], grid=lambda *a: (a[2] / 100, 1, 1))
    launcher = fakes.FakeLauncher(spec)
    tuner = fakes.FakeAutotuner([launcher])
    bound = routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 3}, tuner)
    for _ in range(3):
        bound(0x1000, 0x2000, 250, stream=7)
    assert len(npu_fake.launches) == 0 and len(launcher.calls) == 3
    assert fastlaunch.stats()["fallback.grid_type"] == 2


def test_getargs_is_cpython_own():
    """The npu rules above are CPython's: PyArg_ParseTuple agrees on one case per unit."""
    out = ctypes.c_ubyte()
    parse = ctypes.pythonapi.PyArg_ParseTuple
    assert parse(ctypes.py_object((200,)), b"b", ctypes.byref(out)) == 1 and out.value == 200
    with pytest.raises(OverflowError):
        parse(ctypes.py_object((-1,)), b"b", ctypes.byref(out))


@pytest.mark.parametrize("value", ["no", 0, None, 1])
def test_stats_per_site_must_be_a_bool(value):
    with pytest.raises(TypeError, match=rf"per_site: got {value!r}, expected True or False"):
        fastlaunch.stats(per_site=value)


@pytest.mark.parametrize("meta", [{"kernel_name": "k", "arg_count": 3},
                                  {"kernel_name": "k", "abi": "tpu", "arg_count": 3}])
def test_bind_without_a_known_abi_names_the_field(meta):
    with pytest.raises(ValueError, match=r"metadata\['abi'\]: got .*, expected one of 'npu', "
                                         r"'cuda'"):
        routing.bind(meta, object())


@pytest.mark.parametrize(("options", "message"), [
    ({"num_warp": 4}, "options: got unknown key 'num_warp', expected one of launcher_kind, "
                      "n_scratch, num_warps, shared"),
    ({"shared": "0"}, "options.shared: got '0' (str), expected an int"),
    ({"num_warps": True}, "options.num_warps: got True (bool), expected an int"),
])
def test_a_bad_cuda_option_is_refused_naming_it(options, message):
    with pytest.raises(PlanUnavailable) as info:
        CudaOptions.of(options)
    assert info.value.reason == "bad_cuda_options" and message in str(info.value)


def test_the_fake_checks_options_as_the_real_backend_does(cuda_fake):
    spec = KernelSpec(name="k", handle=1, signature=("*fp32",), names=("x",), positions=(0,),
                      grid=None, static_grid=(1, 1, 1), device=0, options={"warps": 4})
    with pytest.raises(PlanUnavailable) as info:
        cuda_fake.make_plan(spec, input_count=1, fixed_args=())
    assert info.value.reason == "bad_cuda_options"
