# SPDX-License-Identifier: Apache-2.0
"""Ascend: torch_npu + triton-ascend kernels launched through CANN."""

from .backend import NpuBackend

__all__ = ["NpuBackend"]
