# SPDX-License-Identifier: Apache-2.0
"""What triton-ascend's generator decided for one kernel's launch, typed.

``kernel_meta.describe`` makes these; a hand-written mapping is checked by
``NpuOptions.of`` (``runtime.options``: the rule both backends' options follow).
"""

from __future__ import annotations

import dataclasses

from ..options import LaunchOptions


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class NpuOptions(LaunchOptions):
    """One kernel's launch options (``kernel_meta.describe`` explains each)."""

    refusal = "bad_npu_options"

    family: str | None = None       # launch family; None: the installed one
    ffts: bool = False
    pure_simt: bool = False         # no lock/workspace slots
    simt: bool = False
    simt_launch: bool = False       # rtKernelLaunchWithFlagV2
    local_memory: int = 0           # bytes, for the SIMT launch
    workspace_size: int = 0         # bytes per block; -1: the metadata has none
    lock_num: int = 0               # sync-block locks; -1: the metadata has none
    lock_init_value: int = 0
    mix_mode: str = ""
    bs_task_type: int = 0
    coalesce_factor: int = 1
    check_pointers: bool = False    # aclrtPointerGetAttributes on every tensor
    device_print: bool = False
    taskqueue: bool = True          # False: launch inline, then synchronise
    blocks_parallel: bool = False
    grid_warn_print: bool = False
    register_tensor_msprof: bool = False
