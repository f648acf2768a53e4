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
from fastlaunch.integrations.torch_npu import integration  # noqa: E402
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


@pytest.fixture
def planned_specs(monkeypatch):
    """The KernelSpec of every plan made while the test runs."""
    from fastlaunch.runtime.npu.backend import NpuBackend

    specs = []
    original = NpuBackend.make_plan

    def make_plan(self, spec, **kwargs):
        plan = original(self, spec, **kwargs)
        specs.append((spec, plan))
        return plan

    monkeypatch.setattr(NpuBackend, "make_plan", make_plan)
    return specs


def _kernel_names(code: str) -> set[str]:
    import re

    return set(re.findall(r"async_compile\.triton\('(\w+)'", code))


def test_profiled_run_lists_every_kernel(tmp_path):
    """Under torch_npu's profiler (msprof collecting), each call takes the full
    entry, so triton-ascend's launcher reports every launch: every kernel of
    the graph appears in the profile as often as it ran."""
    from torch._inductor.utils import run_and_get_code

    x = torch.randn(4096, device=DEVICE)
    calls = 3
    with fast_launch(True):
        fn = torch.compile(lambda a: (a.sin() * 2).cumsum(0) + a.mean())
        _, (code, *_) = run_and_get_code(fn, x)
        fn(x)
        fn(x)
        assert fastlaunch.stats().get("fast", 0) >= 1
        names = _kernel_names(code)
        assert names
        fastlaunch.reset_stats()
        activities = [torch_npu.profiler.ProfilerActivity.CPU,
                      torch_npu.profiler.ProfilerActivity.NPU]
        with torch_npu.profiler.profile(
                activities=activities,
                on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(str(tmp_path))):
            for _ in range(calls):
                fn(x)
            torch.npu.synchronize()
        stats = fastlaunch.stats()
    assert stats.get("fast", 0) == 0, stats
    assert stats.get("fallback.msprof", 0) >= calls * len(names), stats
    details = list(tmp_path.rglob("kernel_details.csv"))
    assert details, f"no kernel_details.csv under {tmp_path}"
    text = "\n".join(p.read_text(errors="replace") for p in details)
    for name in names:
        assert text.count(name[-49:]) >= calls, f"{name} listed fewer than {calls} times"


def test_multi_stream_graph(monkeypatch):
    """torch_npu's parallel scheduler writes ``stream=<x>.npu_stream`` call
    sites; they are planned and give the same results."""
    monkeypatch.setenv("ENABLE_PARALLEL_SCHEDULER", "true")
    a, b = torch.randn(8192, device=DEVICE), torch.randn(8192, device=DEVICE)

    def branches(x, y):
        return (x.sin() * 3).sum() + (y.cos() + 1).sum() + (x * y).relu().mean()

    expected, got, counts = both(branches, a, b)
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e)
    assert counts.get("fast", 0) >= 2, counts
    assert not any(k.startswith("error.") for k in counts), counts


def _on_910_95() -> bool:
    name = torch.npu.get_device_name(0)
    return "910_95" in name or "950" in name


@pytest.mark.skipif(not _on_910_95(), reason="SIMT launches need an Ascend 910_95 device")
def test_simt_kernel_on_910_95(planned_specs):
    """Gathers compile to SIMT (mixed) kernels on 910_95: they are launched
    with the SIMT launch and give the original's results."""
    x = torch.randn(1 << 14, device=DEVICE)
    idx = torch.randint(0, 1 << 14, (1 << 14,), device=DEVICE)
    expected, got, counts = both(lambda a, i: a[i] * 2 + 1, x, idx)
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e)
    simt = [plan for spec, plan in planned_specs if spec.options.get("simt_launch")]
    assert simt, [spec.options for spec, _ in planned_specs]
    assert all(plan.launcher.api == "rt-v2" for plan in simt)
    assert not any(k.startswith("error.") for k in counts), counts


def test_reduction_with_size_arg_one(planned_specs):
    """A full reduction over rows of a (1, N) tensor: xnumel is 1, torch_npu
    moves it to the constants and the struct leaves it out."""
    x = torch.randn(1, 4096, device=DEVICE)
    expected, got, counts = both(lambda a: a.sum(-1) * 2 + a.amax(-1), x)
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e)
    assert counts.get("fast", 0) >= 2, counts
    assert any(("xnumel" not in spec.names and "r0_numel" in spec.names)
               or ("rnumel" in spec.names and "xnumel" not in spec.names)
               for spec, _ in planned_specs), [spec.names for spec, _ in planned_specs]


def test_launch_api_is_the_installed_triton_ascends():
    from fastlaunch.runtime.npu import backend, family

    found = family.installed()
    assert found.family is not None, found
    report = dict(backend.launch_family_report())
    assert report["launch API"].startswith("rtKernelLaunch (SIMT: rtKernelLaunchWithFlagV2")
    assert report["launch API in CANN"] == "present"


def test_benchmark_runs():
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_npu.py"
    subprocess.run([sys.executable, str(script)], check=True, env={**os.environ})


def test_selfcheck_on_this_stack(tmp_path):
    """What the NPU guides tell users to run first: every planned launch sends
    what triton-ascend's own launcher sends, on the real CANN runtime."""
    report = tmp_path / "selfcheck.json"
    result = subprocess.run([sys.executable, "-m", "fastlaunch", "selfcheck", "--backend", "npu",
                             "--json", str(report)], capture_output=True, text=True,
                            env={**os.environ}, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    assert report.exists() and "MISMATCH" not in result.stdout
