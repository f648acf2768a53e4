# SPDX-License-Identifier: Apache-2.0
"""Layout rules per launch ABI, in Python (abi.layout) and C++ (_core.Plan)."""

import pytest

from fastlaunch import FastLaunchError
from fastlaunch.runtime import abi
from fastlaunch.testing import native_plan


def offsets(lay):
    return [(f.name, f.offset, f.size) for f in lay.fields]


def both(abi_name, sig, **flags):
    """Python and native layouts must be identical; return them."""
    py = abi.layout(abi_name, sig, **flags)
    native_flags = dict(flags)
    if native_flags.get("ffts"):
        native_flags["ffts_addr"] = 0x1000
    plan = native_plan(abi_name, sig, **native_flags)
    assert [tuple(f) for f in plan.fields] == offsets(py)
    assert plan.size == py.size
    return py


# The reference's worked examples (triton-ascend's packed launcher struct).
@pytest.mark.parametrize(("sig", "ffts", "pure", "expected", "total"), [
    (["*fp32", "*fp32", "i32", "fp32", "i64"], True, False,
     [0, 8, 16, 24, 32, 40, 44, 48, 56, 60, 64], 72),
    (["*fp32", "i32"], False, False, [0, 8, 16, 24, 28, 32, 36], 40),
    (["*fp32", "i32", "i32"], False, True, [0, 8, 12, 16, 20, 24], 32),
    (["i32"], False, True, [0, 4, 8, 12], 16),
])
def test_npu_worked_examples(sig, ffts, pure, expected, total):
    lay = both("npu", sig, ffts=ffts, pure_simt=pure)
    assert [f.offset for f in lay.fields] == expected
    assert lay.size == total


@pytest.mark.parametrize(("type_name", "size", "align"), [
    ("*fp16", 8, 8), ("*i8", 8, 8), ("i1", 4, 4), ("u1", 4, 4), ("i8", 1, 4), ("u8", 1, 4),
    ("i16", 2, 4), ("u16", 2, 4), ("i32", 4, 4), ("u32", 4, 4), ("i64", 8, 8), ("u64", 8, 8),
    ("fp16", 4, 4), ("bf16", 4, 4), ("fp32", 4, 4), ("fp64", 8, 8),
])
def test_npu_each_type_size_and_alignment(type_name, size, align):
    # pure-SIMT, preceded by an i8 at 0: the field lands at the next multiple of its alignment
    lay = both("npu", ["i8", type_name], pure_simt=True)
    field = lay.fields[1]
    assert (field.offset, field.size) == (align, size)


def test_npu_i8_then_i16_both_aligned_to_4():
    lay = both("npu", ["i8", "i16"], pure_simt=True)
    assert [f.offset for f in lay.fields[:2]] == [0, 4]
    assert lay.size == 20  # grid at 8/12/16, tail padded to 4


def test_npu_hidden_slots_only_without_pure_simt():
    assert [f.name for f in both("npu", [], ffts=True).fields] == [
        "ffts_addr", "sync_block_lock", "workspace_addr", "grid_x", "grid_y", "grid_z"]
    assert [f.name for f in both("npu", [], pure_simt=True).fields] == ["grid_x", "grid_y",
                                                                         "grid_z"]


def test_cuda_layout_matches_driver_measurement_on_h200():
    # cuFuncGetParamInfo on a Triton 3.6 kernel (shared/reference, appendix)
    sig = ["*fp32", "i1", "i8", "i16", "fp16", "bf16", "fp32", "i64", "u8", "*fp32"]
    lay = both("cuda", sig)
    assert [(f.offset, f.size) for f in lay.fields] == [
        (0, 8), (8, 1), (9, 1), (10, 2), (12, 2), (14, 2), (16, 4), (24, 8), (32, 1), (40, 8),
        (48, 8), (56, 8)]
    assert lay.size == 64
    assert abi.CUDA_I1_BYTES == 1


@pytest.mark.parametrize("n_scratch", [0, 1, 2])
def test_cuda_scratch_pointers_trail_the_parameters(n_scratch):
    lay = both("cuda", ["i32"], n_scratch=n_scratch)
    assert [f.name for f in lay.fields[1:]] == list(abi.CUDA_SCRATCH[:n_scratch])
    assert lay.size == (4 if n_scratch == 0 else 8 + 8 * n_scratch)


@pytest.mark.parametrize("bad", ["nvTmaDesc", "fp8e4nv", "constexpr", "tensordesc<fp16[64]>",
                                 "", "i128"])
def test_unsupported_types_are_refused_by_name(bad):
    with pytest.raises(FastLaunchError) as info:
        abi.layout("npu", ["*fp32", bad])
    assert info.value.reason == "signature_type_unsupported"
    assert repr(bad) in str(info.value)
    with pytest.raises(FastLaunchError, match="not supported"):
        native_plan("cuda", ["*fp32", bad])


def test_runtime_signature_drops_constexprs_and_constants():
    sig = {"in_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "constexpr", "ks0": "i64"}
    assert abi.runtime_signature(sig) == ["*fp32", "i32", "i64"]
    assert abi.runtime_signature(sig, constants={"ks0": 1}) == ["*fp32", "i32"]
    assert abi.runtime_signature(["*fp32", "i32"], constants=[1]) == ["*fp32"]


def test_unknown_abi_is_refused():
    with pytest.raises(FastLaunchError, match="abi"):
        abi.layout("rocm", [])
    with pytest.raises(FastLaunchError, match="abi 'rocm'"):
        native_plan("rocm", [])
