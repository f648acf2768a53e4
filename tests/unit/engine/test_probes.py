# SPDX-License-Identifier: Apache-2.0
"""``engine.probes``: the full-entry conditions both engines read, written once."""

from __future__ import annotations

import sys
import types

import pytest

from fastlaunch.engine import probes


@pytest.mark.parametrize(("reason", "variable"), probes.DEBUG_MODES)
def test_a_debug_mode_reads_the_same_from_the_autotuner_and_the_environment(reason, variable):
    assert probes.debug_mode_of(types.SimpleNamespace(**{reason: True})) == reason
    assert probes.debug_mode_from_env({variable: "1"}) == reason


def test_no_debug_mode():
    assert probes.debug_mode_of(object()) is None
    assert probes.debug_mode_from_env({name: "0" for _, name in probes.DEBUG_MODES}) is None


def test_the_first_debug_mode_in_order_is_the_reason():
    every = {name: "1" for _, name in probes.DEBUG_MODES}
    assert probes.debug_mode_from_env(every) == probes.DEBUG_MODES[0][0]


def test_the_profiler_stand_in_until_torch_is_loaded(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch.autograd.profiler", raising=False)
    assert probes.profiler()._is_profiler_enabled is False
    module = types.SimpleNamespace(_is_profiler_enabled=True)
    monkeypatch.setitem(sys.modules, "torch.autograd.profiler", module)
    assert probes.profiler() is module


def test_the_dispatch_stack_probe_is_torchs_own(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert probes.dispatch_stack_len() is None
    stack_len = lambda: 0  # noqa: E731
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(
        _C=types.SimpleNamespace(_len_torch_dispatch_stack=stack_len)))
    assert probes.dispatch_stack_len() is stack_len
