# SPDX-License-Identifier: Apache-2.0
"""torch_npu's aclgraph update plan survives the planned call, per release.

The releases that have it (``_aclgraph_update_plan``) write
``call._torch_npu_aclgraph_update_plan = [...]`` at module level of the
wrapper, and their NPU graph tree reads it back from the compiled callable
on every replay to refresh per-call operands (``actual_seq_lengths``). With
fastlaunch's planned call in place of ``call``, the release's own codegen,
graph-tree read and resolver (``helpers.npu_update_plan_driver``) must see the
same plan and resolve the same updates on every replay as with the Python
``call``, and the planned call must have run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import npu_release, wheels

TESTS = Path(__file__).resolve().parents[2]
#: Releases whose wheel ships the update plan (read from the wheels).
WITH_UPDATE_PLAN = {"2.7.1.post11", "2.10.0.post7", "2.11.0.post3", "2.12.0.post3",
                    "2.13.0", "2.14.0"}


@pytest.fixture(scope="module")
def triton_package():
    pytest.importorskip("torch", reason="the releases' Inductor code runs on torch")
    return npu_release.triton_ascend_package()


@pytest.mark.parametrize("version", sorted(npu_release.RELEASES))
def test_update_plan_reads_back_through_the_planned_call(version, triton_package, tmp_path):
    root = npu_release.extracted(version)  # skips, naming the wheel, when it cannot be fetched
    has_plan = (root / "torch_npu" / "_inductor" / "_aclgraph_update_plan").is_dir()
    assert has_plan == (version in WITH_UPDATE_PLAN)
    out = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(triton_package), str(TESTS)]),
               FASTLAUNCH_WHEEL_CACHE=str(wheels.cache_dir()), FASTLAUNCH="1")
    done = subprocess.run([sys.executable, "-m", "helpers.npu_update_plan_driver", version,
                           str(tmp_path), str(out)], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text())
    if not has_plan:
        assert report["absent"]
        return
    assert report["line"].startswith("call._torch_npu_aclgraph_update_plan = [")
    assert any("wrapped_function.model" in read for read in report["reads"]), report["reads"]
    assert report["planned"] is True and report["type"] == "PlannedCall", report
    assert report["planned_runs"] == 3, report  # each replay's call ran as a planned program
    for replay, lengths in zip(report["replays"], ([3, 5, 8, 8], [1, 2, 3, 4], [8, 8, 8, 8])):
        planned, python = replay["planned"], replay["python"]
        assert planned == python
        assert all(planned["plans"]), "the graph tree read an empty update plan"
        assert planned["updates"] == [{"actual_seq_lengths": lengths}]
    assert report["set_later"] is True
