# SPDX-License-Identifier: Apache-2.0
"""torch_npu's Triton Inductor backend, one adapter per layout."""
