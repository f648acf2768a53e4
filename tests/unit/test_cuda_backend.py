# SPDX-License-Identifier: Apache-2.0
"""The CUDA backend on a machine without a GPU: it builds, packs and says why
it cannot launch."""

import ctypes.util

import pytest

from fastlaunch import PlanUnavailable, _core
from fastlaunch.backends.cuda import CudaBackend
from fastlaunch.testing import pack_bytes_reference


@pytest.mark.skipif(ctypes.util.find_library("cuda") is not None,
                    reason="libcuda is present: the unavailable path cannot be observed here")
def test_unavailable_without_libcuda_names_the_library():
    ok, why = CudaBackend().available()
    assert not ok and "libcuda.so.1" in why
    with pytest.raises(_core.LaunchError, match="libcuda"):
        _core.CudaLauncher(_core.Plan("cuda", ["i32"]), 1, 4, 0, 0)


def test_cuda_plan_packs_like_the_reference():
    plan = _core.Plan("cuda", ["*fp32", "i1", "fp16", "bf16", "i64"], n_scratch=2)
    args = (0x1000, True, 1.5, -2.0, -9)
    assert plan.pack(args) == pack_bytes_reference("cuda", ["*fp32", "i1", "fp16", "bf16", "i64"],
                                                   args)


def test_fixed_args_are_refused_for_cuda():
    from fastlaunch import fakes

    with pytest.raises(PlanUnavailable, match="fixed_args_unsupported"):
        CudaBackend().make_plan(fakes.spec("k", ["i32", "i32"]), input_count=1, fixed_args=(4,))
