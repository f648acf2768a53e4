# SPDX-License-Identifier: Apache-2.0
"""The recording CANN runtime (``csrc/testing/cann_recorder/recorder.c``) seen from Python."""

from __future__ import annotations

import ctypes
import dataclasses
from pathlib import Path

#: Allocation kinds of rec_alloc: the workspace (at::empty) and the sync-block locks.
KIND_WORKSPACE, KIND_LOCK = 0, 1


class _Event(ctypes.Structure):
    _fields_ = [("api", ctypes.c_char * 40), ("name", ctypes.c_char * 72),
                ("handle", ctypes.c_uint64), ("stream", ctypes.c_uint64),
                ("value", ctypes.c_uint64), ("value2", ctypes.c_uint64),
                ("block_dim", ctypes.c_uint32), ("attr_id", ctypes.c_int32),
                ("attr_value", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("size", ctypes.c_uint32), ("data", ctypes.c_ubyte * 2048)]


@dataclasses.dataclass(frozen=True)
class Event:
    api: str
    name: str
    handle: int
    stream: int
    value: int
    value2: int
    block_dim: int
    attr_id: int
    attr_value: int
    flags: int
    data: bytes


LAUNCH_APIS = ("rtKernelLaunch", "rtKernelLaunchWithFlagV2")
FFTS_APIS = ("rtGetC2cCtrlAddr",)


class CannRecorder:
    """The recording runtime. The reference launchers (linked to it by soname)
    and fastlaunch (dlopen of the same file) share this one loaded copy."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lib = ctypes.CDLL(str(self.path))
        if self.lib.rec_event_size() != ctypes.sizeof(_Event):
            msg = "recorder event layout differs from ascend_reference.recorder._Event"
            raise RuntimeError(msg)
        self.lib.rec_event.restype = ctypes.POINTER(_Event)
        self.lib.rec_submit_address.restype = ctypes.c_void_p
        self.lib.rec_alloc.restype = ctypes.c_uint64
        self.lib.rec_alloc.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64]
        self.lib.rec_set_ffts_addr.argtypes = [ctypes.c_uint64]
        self.lib.rec_prof_command.argtypes = [ctypes.c_uint32, ctypes.c_uint64]
        self.lib.rec_pending_name.restype = ctypes.c_char_p
        self.lib.rec_set_host_below.argtypes = [ctypes.c_uint64]

    def reset(self) -> None:
        self.lib.rec_reset()

    def events(self) -> list[Event]:
        if self.lib.rec_overflowed():
            msg = "the recorder's event log overflowed"
            raise RuntimeError(msg)
        out = []
        for i in range(self.lib.rec_count()):
            e = self.lib.rec_event(i).contents
            out.append(Event(e.api.decode(), e.name.decode(errors="replace"), e.handle,
                             e.stream, e.value, e.value2, e.block_dim, e.attr_id, e.attr_value,
                             e.flags, bytes(e.data[:min(e.size, 2048)])))
        return out

    def host_below(self, address: int) -> None:
        """Pointer queries report addresses below ``address`` as unregistered host memory."""
        self.lib.rec_set_host_below(address)

    def alloc(self, kind: int, size: int, stream: int = 0) -> int:
        return self.lib.rec_alloc(kind, size, stream)

    def profiling(self, on: bool, level1: bool = True) -> None:
        """msprof's start command: L0 (task time) and optionally L1 switches."""
        self.lib.rec_prof_command(1, (0x800 | (0x2 if level1 else 0)) if on else 0)

    def submit_capsule(self) -> object:
        """The recorder's task queue as fastlaunch's "fastlaunch.npu_submit" capsule."""
        return capsule(self.lib.rec_submit_address(), b"fastlaunch.npu_submit")


def capsule(address: int, name: bytes) -> object:
    """A PyCapsule named ``name`` around ``address``: how fastlaunch takes C entry points."""
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(address, name, None)
