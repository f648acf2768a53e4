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

import os

import pytest

pytest.importorskip("torch", reason="torch is not installed")
dist = pytest.importorskip("torch.distributed", reason="torch.distributed is not available")
if not dist.is_available() or not dist.is_gloo_available():
    pytest.skip("torch was built without distributed gloo support", allow_module_level=True)

from helpers import distributed_training as training  # noqa: E402

# A hang guard: a group takes 20 to 70 s on two idle cores, and a few times that
# under the asan env's sanitizers (which its ranks and their compilers inherit).
GROUP_TIMEOUT_S = 900 if "libasan" in os.environ.get("LD_PRELOAD", "") else 300


@pytest.mark.parametrize("scenario", training.SCENARIOS)
def test_two_gloo_ranks_equal_fast_launch_off(tmp_path, scenario):
    training.check_equal_to_off(tmp_path, "cpu", scenario, GROUP_TIMEOUT_S)


def test_a_failing_rank_fails_the_group_at_once_and_leaves_no_process(tmp_path):
    """Rank 0 waits at DDP's first collective for rank 1, which has raised: the
    group fails with rank 1's error long before any timeout, and every process
    of both ranks' sessions is gone."""
    import time

    start = time.monotonic()
    with pytest.raises(AssertionError, match="injected failure before training") as failed:
        training.run_group(tmp_path / "group", 2, "cpu", training.FAILING, True,
                           tmp_path / "cache", GROUP_TIMEOUT_S)
    assert time.monotonic() - start < GROUP_TIMEOUT_S / 2, failed.value
    assert "ranks failed" in str(failed.value)
    for rank in range(2):
        assert not (tmp_path / "group" / f"rank{rank}.pt").exists()
    assert len(training.last_group_pids) == 2
    left = training.last_group_pids
    deadline = time.monotonic() + 10  # killed children are reaped by init, not at once
    while left and time.monotonic() < deadline:
        left = [pid for pid in left if _session_has_processes(pid)]
        time.sleep(0.1)
    assert left == [], f"processes left in the sessions of ranks {left}"


def _session_has_processes(leader: int) -> bool:
    import os

    try:
        os.killpg(leader, 0)  # each rank leads its own session and process group
    except ProcessLookupError:
        return False
    return True
