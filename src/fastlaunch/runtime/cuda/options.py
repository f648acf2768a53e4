# SPDX-License-Identifier: Apache-2.0
"""What Triton decided for one CUDA kernel's launch, typed (``runtime.options``)."""

from __future__ import annotations

import dataclasses

from ..options import LaunchOptions


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class CudaOptions(LaunchOptions):
    """One kernel's ``cuLaunchKernel`` options, as Triton's launcher has them."""

    refusal = "bad_cuda_options"

    num_warps: int = 4
    shared: int = 0           # dynamic shared memory, bytes
    n_scratch: int = 2        # trailing scratch pointers (global and profile scratch)
    launcher_kind: str = ""   # which Triton launcher the spec was read from (reports only)
