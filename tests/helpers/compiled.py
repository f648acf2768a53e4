# SPDX-License-Identifier: Apache-2.0
"""torch.compile with fast launch on or off, for the hardware tests."""

from __future__ import annotations

import contextlib

import fastlaunch
from fastlaunch import config


@contextlib.contextmanager
def fast_launch(integration, on: bool = True, strict: bool = False):
    """Install (or remove) ``integration`` and compile afresh inside."""
    import torch

    torch._dynamo.reset()
    if on:
        integration.install()
    else:
        integration.uninstall()
    fastlaunch.reset_stats()
    try:
        with config.override(enabled=on, strict=strict, backend="auto"):
            yield
    finally:
        torch._dynamo.reset()


def run_both(integration, fn, *args, calls: int = 3, copy=lambda out: out, **compile_kw):
    """Outputs of ``fn`` compiled without and with fast launch, and the counters."""
    import torch

    with fast_launch(integration, False):
        compiled = torch.compile(fn, **compile_kw)
        expected = [copy(compiled(*args)) for _ in range(calls)]
    with fast_launch(integration, True):
        compiled = torch.compile(fn, **compile_kw)
        got = [copy(compiled(*args)) for _ in range(calls)]
        counts = fastlaunch.stats()
    return expected, got, counts
