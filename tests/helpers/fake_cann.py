# SPDX-License-Identifier: Apache-2.0
"""Builds tests/helpers/fake_cann.c as a shared library and reads its records."""

from __future__ import annotations

import ctypes
import dataclasses
import shutil
import subprocess
from pathlib import Path

from fastlaunch.selfcheck.ascend_reference import INCLUDE

SOURCE = Path(__file__).with_name("fake_cann.c")


class _Record(ctypes.Structure):
    _fields_ = [("api", ctypes.c_char * 32), ("func", ctypes.c_uint64),
                ("block_dim", ctypes.c_uint32), ("stream", ctypes.c_uint64),
                ("attr_id", ctypes.c_int32), ("attr_value", ctypes.c_uint32),
                ("args_size", ctypes.c_uint32), ("args", ctypes.c_ubyte * 512)]


@dataclasses.dataclass(frozen=True)
class Call:
    api: str
    func: int
    block_dim: int
    stream: int
    attr_id: int
    attr_value: int
    args: bytes


def build(api: str, directory: Path) -> Path:
    """Compile the fake for ``api`` ("acl" or "rt") into ``directory``."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        msg = "no C compiler to build the fake CANN runtime"
        raise RuntimeError(msg)
    out = directory / f"libfake_cann_{api}.so"
    # -Bsymbolic: the acl and rt builds share symbol names; each must use its own.
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-Wl,-Bsymbolic",
                    f"-DFAKE_{api.upper()}", f"-I{INCLUDE}", str(SOURCE), "-o", str(out)],
                   check=True)
    return out


class FakeCann:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.lib = ctypes.CDLL(str(path))
        self.lib.fake_record.restype = ctypes.POINTER(_Record)
        self.lib.fake_submit_address.restype = ctypes.c_void_p
        self.lib.fake_pending_name.restype = ctypes.c_char_p
        self.lib.fake_set_ffts_addr.argtypes = [ctypes.c_uint64]

    def reset(self) -> None:
        self.lib.fake_reset()

    def calls(self) -> list[Call]:
        out = []
        for i in range(self.lib.fake_count()):
            r = self.lib.fake_record(i).contents
            out.append(Call(r.api.decode(), r.func, r.block_dim, r.stream, r.attr_id,
                            r.attr_value, bytes(r.args[:r.args_size])))
        return out

    def submit_capsule(self) -> object:
        """A "fastlaunch.npu_submit" capsule around the fake task queue."""
        return _capsule(self.lib.fake_submit_address(), b"fastlaunch.npu_submit")


def _capsule(address: int, name: bytes) -> object:
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(address, name, None)
