# SPDX-License-Identifier: Apache-2.0
"""torch.compile on an Ascend NPU with fast launch on and off (Ascend CI).

Run on a machine with torch_npu, triton-ascend and an NPU:
    FASTLAUNCH=1 tox -e hw -- -m npu
See docs/npu_fast_launch.md, "Hardware tests".
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
torch_npu = pytest.importorskip("torch_npu", reason="torch_npu is not installed")
if not torch.npu.is_available():
    pytest.skip("no Ascend NPU visible to torch_npu", allow_module_level=True)

import fastlaunch  # noqa: E402
from fastlaunch.backends.npu import integration  # noqa: E402
from helpers import compiled as hw  # noqa: E402

pytestmark = pytest.mark.npu
DEVICE = "npu"


def fast_launch(on: bool, strict: bool = False):
    return hw.fast_launch(integration, on, strict)


def both(fn, *args, calls=3):
    result = hw.run_both(integration, fn, *args, calls=calls)
    torch.npu.synchronize()
    return result


def test_model_same_outputs_and_fast_hits():
    x, y = torch.randn(4096, device=DEVICE), torch.randn(4096, device=DEVICE)
    expected, got, counts = both(lambda a, b: (a * 2 + b).relu().sum() + a.mean(), x, y)
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e)
    assert counts.get("fast", 0) >= 2, counts


def test_profiler_full_entry():
    x = torch.randn(1024, device=DEVICE)
    with fast_launch(True):
        fn = torch.compile(lambda a: a * 3)
        fn(x)
        fn(x)
        with torch.profiler.profile():
            fn(x)
        assert fastlaunch.stats()["fallback.profiler"] >= 1


def test_launch_hook_uses_original_launcher():
    from triton import knobs

    x = torch.randn(1024, device=DEVICE)
    with fast_launch(True):
        fn = torch.compile(lambda a: a.exp())
        fn(x)
        fn(x)
        hook = knobs.runtime.launch_enter_hook
        hook.add(lambda *a, **k: None)
        try:
            fn(x)
        finally:
            hook.calls.clear()
        assert fastlaunch.stats()["fallback.launch_hooks"] >= 1


def test_grid_over_65535_takes_full_entry_and_keeps_plan():
    with fast_launch(True):
        fn = torch.compile(lambda a: a + 1, dynamic=True)
        fn(torch.randn(1024, device=DEVICE))
        fn(torch.randn(1024, device=DEVICE))
        out = fn(torch.zeros(70000 * 1024, device=DEVICE))
        torch.npu.synchronize()
        assert out.min().item() == 1.0
        assert fastlaunch.stats().get("fallback.grid_out_of_range", 0) >= 1


def test_workspace_and_lock_kernel():
    """A kernel whose triton-ascend metadata asks for workspace/locks (large
    reductions that need cross-block sync) is launched, not refused."""
    x = torch.randn(64, 1 << 16, device=DEVICE)
    expected, got, counts = both(lambda a: a.sum(-1).softmax(0), x)
    torch.testing.assert_close(got[-1], expected[-1], rtol=1e-4, atol=1e-4)
    assert not any(k.startswith("error.") for k in counts), counts


def test_benchmark_runs():
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_npu.py"
    subprocess.run([sys.executable, str(script)], check=True, env={**os.environ})
