# SPDX-License-Identifier: Apache-2.0
"""The planned call on a real NVIDIA GPU: a model compiled with FASTLAUNCH=1
(a fresh process, as a user starts one) runs its wrapper's ``empty_strided_cuda``
allocations in the ATen shim, none declined, with the Python call()'s outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

from fastlaunch.builds import shims  # noqa: E402
from fastlaunch.engine.planned_call import program as P  # noqa: E402
from fastlaunch.runtime import aten_ops  # noqa: E402

pytestmark = pytest.mark.cuda
CUDA_KIND = next(k for k, path in P.NATIVE_KINDS.items() if path.endswith("_cuda"))

_CHILD = """
import json, torch, fastlaunch
from fastlaunch.runtime import _core

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                            torch.nn.Linear(128, 32)).cuda()
x = torch.randn(16, 64, device="cuda")
compiled = torch.compile(model)
with torch.no_grad():
    compiled(x)  # AOTAutograd's first call runs under its dispatch mode: the Python call
    before, runs = dict(_core.planned_call_native_ops()), _core.planned_call_runs()
    planned = compiled(x)
    torch.cuda.synchronize()
    after, runs = dict(_core.planned_call_native_ops()), _core.planned_call_runs() - runs
    with fastlaunch.enabled(False):
        python = compiled(x)
counts = {k: [r - before.get(k, (0, 0))[0], d - before.get(k, (0, 0))[1]]
          for k, (r, d) in after.items()}
same = (torch.equal(planned, python) and planned.stride() == python.stride()
        and planned.dtype == python.dtype)
print(json.dumps({"runs": runs, "counts": counts, "aten_ops": _core.has_aten_ops(),
                  "equal": bool(same)}))
"""


def test_compiled_model_allocates_in_the_shim(tmp_path):
    assert shims.torch_has_cuda()
    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()  # the child loads it
    env = dict(os.environ, FASTLAUNCH="1", TORCHINDUCTOR_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["aten_ops"] and result["runs"] == 1, result
    ran, declined = result["counts"].get(str(CUDA_KIND), (0, 0))
    assert ran > 0 and declined == 0, result
    assert all(d == 0 for _, d in result["counts"].values()), result
    assert result["equal"], result


_REDUCE_OVERHEAD_CHILD = """
import json, logging, sys, torch, fastlaunch
from fastlaunch.runtime import _core

events = {"warmup": 0, "record": 0}
seen = []  # a record reaches the artifact logger's handler and its parent's


class GraphEvents(logging.Handler):
    def emit(self, record):
        if any(r is record for r in seen):
            return
        seen.append(record)
        text = record.getMessage()
        events["warmup"] += "Running warmup" in text
        events["record"] += "Recording function" in text


import torch._inductor.cudagraph_trees  # noqa: F401 - makes its loggers

# its records go to its artifact logger (torch._inductor.cudagraph_trees.__cudagraphs)
# or to the module's: the handler goes on each, once per record
for name in list(logging.root.manager.loggerDict):
    if name.startswith("torch._inductor.cudagraph_trees"):
        logging.getLogger(name).addHandler(GraphEvents())

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                            torch.nn.Linear(128, 32)).cuda()
xs = [torch.randn(16, 64, device="cuda") for _ in range(6)]
compiled = torch.compile(model, mode="reduce-overhead")
outs, runs = [], []
with torch.no_grad():
    for x in xs:
        before = _core.planned_call_runs()
        outs.append(compiled(x).clone())
        runs.append(_core.planned_call_runs() - before)
torch.cuda.synchronize()
torch.save(outs, sys.argv[1])
print(json.dumps({"runs": runs, "events": events, "stats": fastlaunch.stats()}))
"""


def test_reduce_overhead_with_the_planned_call(tmp_path):
    """mode="reduce-overhead" with FASTLAUNCH=1 in a fresh process: Inductor
    (torch 2.11) puts the CUDA-graphable kernels into a graph partition that
    CUDA graph trees warm up once, record once and replay from then on; the
    wrapper's ``call()`` around it runs on every call, as a planned call after
    AOTAutograd's first. Every output equals a FASTLAUNCH=0 process's, bit for
    bit, and both processes warm up and record exactly once (read from CUDA
    graph trees' own log lines)."""
    results = {}
    for switch in ("1", "0"):
        out = tmp_path / f"out_{switch}.pt"
        env = dict(os.environ, FASTLAUNCH=switch, TORCH_LOGS="cudagraphs",
                   TORCHINDUCTOR_CACHE_DIR=str(tmp_path / f"inductor_{switch}"))
        done = subprocess.run([sys.executable, "-c", _REDUCE_OVERHEAD_CHILD, str(out)],
                              env=env, capture_output=True, text=True, timeout=600,
                              check=False)
        assert done.returncode == 0, done.stderr[-3000:]
        results[switch] = (json.loads(done.stdout.strip().splitlines()[-1]),
                           torch.load(out))
    (on, on_outs), (off, off_outs) = results["1"], results["0"]
    assert len(on_outs) == len(off_outs) == 6
    for planned, python in zip(on_outs, off_outs):
        assert torch.equal(planned, python)
    assert on["events"] == off["events"] == {"warmup": 1, "record": 1}, (on, off)
    assert sum(off["runs"]) == 0, off
    assert on["stats"].get("call.translated", 0) == 1, on
    assert on["runs"] == [0, 1, 1, 1, 1, 1], on  # the first call is AOTAutograd's, Python
