# SPDX-License-Identifier: Apache-2.0
"""The NPU call path over either backend, for tests that must hold on both.

``fake``: the fake runtime (``FASTLAUNCH_BACKEND=fake``), which records each
launch as a ``LaunchRecord``. ``npu``: the real ``NpuBackend`` over the
recording CANN runtime (``FASTLAUNCH_BACKEND=npu``, inline submission), whose
launch calls the recorder logs. Both are reached only through fastlaunch's
public surface: the backend registry, ``config.override`` and the backend's
constructor; a test binds call sites with ``routing.bind`` as generated code
does and reads what reached the runtime as ``Launch`` records.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import fastlaunch
from fastlaunch import config
from fastlaunch.runtime import backends
from fastlaunch.runtime.fake import FakeBackend
from fastlaunch.runtime.npu import NpuBackend
from helpers.fake_cann import FakeCann, build

NAMES = ("fake", "npu")


@dataclasses.dataclass(frozen=True)
class Launch:
    """One launch as the runtime received it (``rc``: what the npu runtime returned)."""

    block_dim: int
    stream: int
    data: bytes
    rc: int = 0


class Leg:
    """One backend with fast launch on; ``launches()`` is what reached its runtime."""

    abi = "npu"

    def __init__(self, name: str, backend: object, cann: FakeCann | None = None) -> None:
        self.name = name
        self.backend = backend
        self.cann = cann

    def launches(self) -> list[Launch]:
        if self.cann is None:
            return [Launch(r.block_dim, r.stream, r.data) for r in self.backend.launches]
        calls = self.cann.calls()
        # rtKernelLaunch of the spec's handle (fakes.spec: 0xBEEF), no task config
        assert all((c.api, c.func, c.attr_id) == ("rt", 0xBEEF, -1) for c in calls), calls
        return [Launch(c.block_dim, c.stream, c.args, c.rc) for c in calls]

    def submissions(self, *launchers: object) -> int:
        """Every launch that reached the runtime, planned or original."""
        return len(self.launches()) + sum(len(launcher.calls) for launcher in launchers)


def recorder(folder: Path) -> FakeCann:
    """The recording CANN runtime with the launch functions only."""
    return FakeCann(build("rt", folder))


@contextlib.contextmanager
def installed(name: str, cann: FakeCann | None = None) -> Iterator[Leg]:
    """Leg ``name`` as the process's backend, fast launch on, counters zeroed
    before and after; ``cann`` (a ``recorder()``) for the npu leg."""
    if name == "fake":
        registry, backend = "fake", FakeBackend("npu")
    else:
        assert cann is not None, "the npu leg needs the recording runtime"
        cann.reset()
        registry = "npu"
        backend = NpuBackend(libraries=[str(cann.path)], queue="inline", family="rt")
    previous = backends.set_backend(registry, backend)
    fastlaunch.reset_stats()
    try:
        with config.override(enabled=True, backend=registry, strict=False):
            yield Leg(name, backend, cann if name == "npu" else None)
    finally:
        backends.set_backend(registry, previous)
        fastlaunch.reset_stats()
