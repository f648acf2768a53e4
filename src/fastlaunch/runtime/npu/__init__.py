# SPDX-License-Identifier: Apache-2.0
"""Ascend: torch_npu + triton-ascend kernels launched through CANN."""

from .backend import NpuBackend, NpuPlan
from .options import NpuOptions

__all__ = ["NpuBackend", "NpuOptions", "NpuPlan"]
