# SPDX-License-Identifier: Apache-2.0
"""The selfcheck's recording CANN runtime, built for unit tests in parts.

``build("rt")`` exports the launch and FFTS symbols and nothing else (no
copies, synchronisation, pointer queries or msprof: a test adds those with
``build("services")``), so a test offers the backend exactly the runtime it means.
``FakeCann`` reads the log as launch calls; its task queue holds tasks until
``run_pending()``, as torch_npu's does until its worker runs them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fastlaunch.tools.selfcheck.ascend_reference import (
    FFTS_APIS,
    RECORDER_PARTS,
    CannRecorder,
    Event,
    build_recorder,
)

LAUNCH_APIS = {"rtKernelLaunch": "rt", "rtKernelLaunchWithFlagV2": "rt-v2"}
COPY_APIS = ("rtMemcpy",)
SYNC_APIS = ("rtStreamSynchronize",)


@dataclasses.dataclass(frozen=True)
class RecordedLaunch:
    """One launch call as the runtime saw it; ``rc`` is what it returned."""

    api: str
    func: int
    block_dim: int
    stream: int
    attr_id: int
    attr_value: int
    args: bytes
    rc: int = 0


def build(part: str, directory: Path) -> Path:
    """The runtime with only ``part`` ("rt" or "services") in ``directory``."""
    return build_recorder(directory, without=[p for p in RECORDER_PARTS if p != part])


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _unexpected(event: Event) -> bool:
    """Launch inputs fastlaunch never sets (sm descriptors, tiling, flags, task
    config fields other than the local memory size): a launch with any is a bug."""
    return bool(event.value2) or (event.api == "rtKernelLaunchWithFlagV2" and event.flags != 0)


class FakeCann(CannRecorder):
    def reset(self) -> None:
        super().reset()
        self.lib.rec_set_deferred(1)

    def calls(self) -> list[RecordedLaunch]:
        """Every launch call since the last reset, failed ones included."""
        out = []
        for e in self.events():
            if e.api not in LAUNCH_APIS:
                continue
            if _unexpected(e):
                msg = f"launched with inputs fastlaunch never sets: {e}"
                raise AssertionError(msg)
            out.append(RecordedLaunch(LAUNCH_APIS[e.api], e.handle, e.block_dim, e.stream,
                                      e.attr_id, e.attr_value, e.data, _signed(e.value)))
        return out

    def events_of(self, apis: tuple[str, ...]) -> list[Event]:
        return [e for e in self.events() if e.api in apis]

    def ffts_queries(self) -> int:
        return len(self.events_of(FFTS_APIS))

    def copies(self) -> list[Event]:
        return self.events_of(COPY_APIS)

    def syncs(self) -> list[Event]:
        return self.events_of(SYNC_APIS)

    def pending(self) -> int:
        return self.lib.rec_pending()

    def pending_name(self, i: int) -> bytes:
        return self.lib.rec_pending_name(i)

    def run_pending(self) -> int:
        return self.lib.rec_run_pending()

    def released(self) -> int:
        return self.lib.rec_released()

    def set_launch_error(self, code: int) -> None:
        self.lib.rec_set_launch_error(code)

    def set_submit_error(self, code: int) -> None:
        self.lib.rec_set_submit_error(code)

    def set_copy_error(self, code: int) -> None:
        self.lib.rec_set_copy_error(code)

    def set_pointer_error(self, code: int) -> None:
        self.lib.rec_set_pointer_error(code)

    def set_ffts_addr(self, address: int) -> None:
        self.lib.rec_set_ffts_addr(address)

    def set_logging(self, on: bool) -> None:
        """Off: calls behave the same and nothing is logged (benchmarks)."""
        self.lib.rec_set_logging(int(on))
