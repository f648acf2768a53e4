# SPDX-License-Identifier: Apache-2.0
"""The two-rank planned-call training checks of ``tests/unit/integrations/test_distributed_cpu.py``
on two GPUs (nccl): DDP with the gradient all-reduce in the backward wrapper, FSDP2
over compiled layers, DTensor-sharded parameters gathered inside the wrappers."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

from helpers import distributed_training as training  # noqa: E402

GPUS = torch.cuda.device_count() if torch.cuda.is_available() else 0
GROUP_TIMEOUT_S = 420

pytestmark = [pytest.mark.multigpu,
              pytest.mark.skipif(GPUS < 2, reason=f"needs two CUDA devices, found {GPUS} "
                                 "(run on nvidia-h200-x2)")]


@pytest.mark.parametrize("scenario", training.SCENARIOS)
def test_two_nccl_ranks_equal_fast_launch_off(tmp_path, scenario):
    training.check_equal_to_off(tmp_path, "cuda", scenario, GROUP_TIMEOUT_S)
