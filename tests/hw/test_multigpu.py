# SPDX-License-Identifier: Apache-2.0
"""Per-device plans on two GPUs: never device 0's function on device 1's stream."""

from __future__ import annotations

import threading

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available() or torch.cuda.device_count() < 2:
    pytest.skip("needs two CUDA devices (run on nvidia-h200-x2)", allow_module_level=True)

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.engine import routing  # noqa: E402
from fastlaunch.integrations.inductor import integration  # noqa: E402

pytestmark = pytest.mark.multigpu


def fn(a):
    return (a * 3).cos() + a


@pytest.fixture
def fast():
    torch._dynamo.reset()
    integration.install()
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="auto"):
        yield
    torch._dynamo.reset()


def reference(device):
    x = torch.arange(4096, device=device, dtype=torch.float32) / 7
    integration.uninstall()
    torch._dynamo.reset()
    out = torch.compile(fn)(x)
    integration.install()
    torch._dynamo.reset()
    return x, out


def test_alternating_devices_one_plan_per_device_per_call_site():
    inputs = {d: reference(f"cuda:{d}") for d in (0, 1)}
    plans = []
    original = routing.make_planned_launch

    def spy(backend, launcher, autotuner, metadata, args):
        planned = original(backend, launcher, autotuner, metadata, args)
        plans.append(planned.spec.device)
        return planned

    routing.make_planned_launch = spy
    try:
        torch._dynamo.reset()
        fastlaunch.reset_stats()
        with config.override(enabled=True, backend="auto"):
            compiled = torch.compile(fn)
            for _ in range(4):
                for d in (0, 1):
                    x, expected = inputs[d]
                    torch.testing.assert_close(compiled(x), expected, rtol=0, atol=0)
    finally:
        routing.make_planned_launch = original
    assert sorted(plans) == [0, 1], plans
    assert fastlaunch.stats().get("fast", 0) >= 6


def test_two_threads_each_bound_to_one_device(fast):
    inputs = {d: reference(f"cuda:{d}") for d in (0, 1)}
    compiled = torch.compile(fn)
    errors = []

    def worker(d):
        try:
            torch.cuda.set_device(d)
            x, expected = inputs[d]
            for _ in range(20):
                torch.testing.assert_close(compiled(x), expected, rtol=0, atol=0)
        except Exception as err:  # reported below
            errors.append((d, err))

    compiled(inputs[0][0])
    compiled(inputs[1][0])
    threads = [threading.Thread(target=worker, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_explicit_wrong_device_launch_raises_and_launches_nothing(fast):
    x = torch.zeros(1024, device="cuda:0")
    compiled = torch.compile(lambda a: a.add_(1))
    compiled(x)
    compiled(x)
    torch.cuda.synchronize(0)
    before = x.clone()
    bound = next(b for b in _bound_sites() if b.plan is not None)
    stream1 = torch.cuda.current_stream(1).cuda_stream
    with torch.cuda.device(1), pytest.raises(fastlaunch.FastLaunchError, match="device_mismatch"):
        bound.plan(tuple(_last_args[bound]), stream1)
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    torch.testing.assert_close(x, before)


_last_args: dict = {}


def _bound_sites():
    return list(_last_args)


@pytest.fixture(autouse=True)
def _record_args(monkeypatch):
    original = routing.BoundLaunch.__call__

    def call(self, *args, **kwargs):
        _last_args[self] = args
        return original(self, *args, **kwargs)

    monkeypatch.setattr(routing.BoundLaunch, "__call__", call)
    yield
    _last_args.clear()
