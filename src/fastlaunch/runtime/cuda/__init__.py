# SPDX-License-Identifier: Apache-2.0
"""NVIDIA: stock Inductor kernels launched with cuLaunchKernel."""

from .backend import CudaBackend, CudaPlan
from .options import CudaOptions

__all__ = ["CudaBackend", "CudaOptions", "CudaPlan"]
