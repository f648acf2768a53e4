# SPDX-License-Identifier: Apache-2.0
"""Compiled DDP and FSDP2 training with the planned call: two gloo ranks on the CPU.

Per scenario (``helpers.distributed_training``: DDP with the gradient all-reduce
in the backward wrapper, FSDP2 over compiled layers, DTensor-sharded parameters
gathered and reduce-scattered inside the wrappers) a group with fast launch off
runs first and fills Inductor's caches; a group with ``FASTLAUNCH=1`` then
loads the same wrappers and kernels from them and plans their ``call``. Every
rank's losses and parameters must be bit-equal to the off group's, every rank
must count translated and planned calls, and every wrapper, those holding the
collectives included, must have run as a planned program. Each group has a hard
timeout after which all its processes are killed.
``tests/hw/test_distributed_planned_call.py`` runs the same checks on two GPUs.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="torch is not installed")
dist = pytest.importorskip("torch.distributed", reason="torch.distributed is not available")
if not dist.is_available() or not dist.is_gloo_available():
    pytest.skip("torch was built without distributed gloo support", allow_module_level=True)

from helpers import distributed_training as training  # noqa: E402

GROUP_TIMEOUT_S = 300  # a hang guard: a group takes 20 to 70 s on two idle cores


@pytest.mark.parametrize("scenario", training.SCENARIOS)
def test_two_gloo_ranks_equal_fast_launch_off(tmp_path, scenario):
    training.check_equal_to_off(tmp_path, "cpu", scenario, GROUP_TIMEOUT_S)
