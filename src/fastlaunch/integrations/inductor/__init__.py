# SPDX-License-Identifier: Apache-2.0
"""PyTorch Inductor's CUDA Triton backend."""
