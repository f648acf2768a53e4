# SPDX-License-Identifier: Apache-2.0
"""torch.compile on CPU with the planned-call hook on Inductor's code cache."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.integrations import planned_call_hook  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402
from helpers.call_trace import assert_bit_equal  # noqa: E402


class _Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))).softmax(-1) + x[:, :8]


@pytest.fixture
def fresh_inductor(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    planned_call_hook.uninstall()  # an earlier test's arm() may have installed it
    torch._dynamo.reset()
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="fake", strict=False):
        yield
    planned_call_hook.uninstall()
    torch._dynamo.reset()
    fastlaunch.reset_stats()


def _run(model, x):
    """Compile and call twice: AOTAutograd's first call runs under its own
    dispatch mode (``fallback.call_dispatch_mode``); the second is the steady state."""
    compiled = torch.compile(model)
    with torch.no_grad():
        first = compiled(x)
        second = compiled(x)
    assert_bit_equal(first, second)
    return compiled, second


def test_compiled_model_runs_planned_and_toggles_without_recompiling(fresh_inductor):
    torch.manual_seed(0)
    model, x = _Model(), torch.randn(4, 16)
    assert planned_call_hook.install()
    compiled, planned = _run(model, x)
    stats = fastlaunch.stats()
    assert stats["call.translated"] == 1 and stats["call.planned"] == 1
    assert stats["fallback.call_dispatch_mode"] == 1
    assert "call.islands" not in stats
    with torch.no_grad(), fastlaunch.enabled(False):
        stock = compiled(x)
    assert fastlaunch.stats()["fallback.call_disabled"] == 1
    assert_bit_equal(stock, planned)
    with torch.no_grad():
        assert_bit_equal(stock, compiled(x))
    assert fastlaunch.stats()["call.planned"] == 2
    assert fastlaunch.stats()["call.translated"] == 1  # no recompile, no second translation


def test_warm_cache_filled_by_stock_runs_planned(fresh_inductor):
    from torch._dynamo.utils import counters

    torch.manual_seed(0)
    model, x = _Model(), torch.randn(4, 16)
    _, stock = _run(model, x)  # no hook: stock fills the FX graph cache
    assert _core.planned_call_runs() == 0
    torch._dynamo.reset()
    counters.clear()
    assert planned_call_hook.install()
    _, planned = _run(model, x)
    assert counters["inductor"]["fxgraph_cache_hit"] == 1
    assert fastlaunch.stats()["call.planned"] == 1
    assert_bit_equal(stock, planned)
