# SPDX-License-Identifier: Apache-2.0
"""The interposition layer (``csrc/interpose``) seen from Python.

The layer is a C library loaded with ``LD_PRELOAD`` so that it sees every
launch, including those of launchers that resolve the runtime's entry points
themselves. This module finds it, makes the environment that preloads it,
switches recording on and off and reads what it recorded.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import os
import re
from collections.abc import Iterator
from pathlib import Path

LIBRARY = "libfastlaunch_interpose.so"
MAX_PARAMS = 256
MAX_ATTRS = 8
MAX_ARGS = 4096

OFF, SWALLOW, FORWARD = 0, 1, 2
PROBLEMS = {0: "", 1: "argument bytes truncated",
            2: "no cuFuncGetParamInfo to rebuild kernelParams",
            3: "real entry point not found: nothing launched"}
ROUTES = {1: "dlsym", 2: "cuGetProcAddress"}


class _Record(ctypes.Structure):
    _fields_ = [("api", ctypes.c_char * 48), ("handle", ctypes.c_uint64),
                ("stream", ctypes.c_uint64), ("grid", ctypes.c_uint32 * 3),
                ("block", ctypes.c_uint32 * 3), ("shared_bytes", ctypes.c_uint32),
                ("block_dim", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("n_attrs", ctypes.c_uint32), ("attr_ids", ctypes.c_uint32 * MAX_ATTRS),
                ("attr_values", (ctypes.c_uint64 * 2) * MAX_ATTRS), ("extra", ctypes.c_uint64),
                ("args_size", ctypes.c_uint32), ("n_params", ctypes.c_uint32),
                ("param_offset", ctypes.c_uint32 * MAX_PARAMS),
                ("param_size", ctypes.c_uint32 * MAX_PARAMS), ("problem", ctypes.c_int32),
                ("rc", ctypes.c_int32), ("args", ctypes.c_ubyte * MAX_ARGS)]


@dataclasses.dataclass(frozen=True)
class Launch:
    """One call of a runtime launch entry point, as the layer saw it."""

    api: str
    handle: int
    stream: int
    grid: tuple[int, int, int]      # CUDA
    block: tuple[int, int, int]     # CUDA
    shared: int                     # CUDA dynamic shared memory
    block_dim: int                  # CANN
    flags: int                      # rtKernelLaunchWithFlagV2
    attrs: tuple[tuple[int, str], ...]  # (id, first 16 value bytes as hex)
    extra: int                      # rt: smDesc
    args: bytes
    params: tuple[tuple[int, int], ...]  # CUDA: (offset, size) per cuFuncGetParamInfo
    problem: str
    rc: int

    @classmethod
    def from_record(cls, r: _Record) -> Launch:
        kept = min(r.args_size, MAX_ARGS)
        attrs = tuple((int(r.attr_ids[i]), bytes(r.attr_values[i]).hex())
                      for i in range(min(r.n_attrs, MAX_ATTRS)))
        return cls(api=r.api.decode(), handle=r.handle, stream=r.stream, grid=tuple(r.grid),
                   block=tuple(r.block), shared=r.shared_bytes, block_dim=r.block_dim,
                   flags=r.flags, attrs=attrs, extra=r.extra, args=bytes(r.args[:kept]),
                   params=tuple((r.param_offset[i], r.param_size[i])
                                for i in range(min(r.n_params, MAX_PARAMS))),
                   problem=PROBLEMS.get(r.problem, f"problem {r.problem}"), rc=r.rc)

    def as_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["args"] = self.args.hex()
        return out


def library_path() -> Path | None:
    """The built layer, installed with the extension into this package: beside
    this module, or, in an editable install, in the package's other folder."""
    from . import __path__ as folders

    found = (Path(folder) / LIBRARY for folder in [str(Path(__file__).parent), *folders])
    return next((path for path in found if path.is_file()), None)


def _preload_list(value: str) -> list[str]:
    """``LD_PRELOAD`` entries: the loader splits on colons and whitespace."""
    return re.split(r"[:\s]+", value.strip()) if value.strip() else []


def preloaded() -> bool:
    """Whether this process was started with the layer preloaded."""
    path = library_path()
    if path is None or str(path) not in _preload_list(os.environ.get("LD_PRELOAD", "")):
        return False
    try:
        ctypes.CDLL(str(path), mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
    except OSError:
        return False
    return True


def preload_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's) with the layer added to ``LD_PRELOAD``,
    after what is there: a sanitizer runtime must stay first, and the layer
    only needs to come before the runtime libraries, which are never preloaded."""
    path = library_path()
    if path is None:
        msg = f"{LIBRARY} is not installed beside {__file__}; reinstall fastlaunch"
        raise FileNotFoundError(msg)
    env = dict(os.environ if env is None else env)
    rest = [p for p in _preload_list(env.get("LD_PRELOAD", "")) if p != str(path)]
    env["LD_PRELOAD"] = ":".join([*rest, str(path)])
    return env


class InterposeRecorder:
    """Control of the preloaded layer."""

    def __init__(self) -> None:
        if not preloaded():
            msg = "the interposition layer is not preloaded in this process"
            raise RuntimeError(msg)
        lib = ctypes.CDLL(str(library_path()), mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
        if lib.fl_interpose_version() != 1 or lib.fl_interpose_record_size() != ctypes.sizeof(
                _Record):
            msg = "interposition layer and fastlaunch.tools.selfcheck disagree on the record layout"
            raise RuntimeError(msg)
        lib.fl_interpose_record.restype = ctypes.POINTER(_Record)
        lib.fl_interpose_record.argtypes = [ctypes.c_int]
        lib.fl_interpose_set_mode.argtypes = [ctypes.c_int]
        self.lib = lib

    def routes(self) -> list[str]:
        """How launch entry points were handed to callers so far."""
        bits = self.lib.fl_interpose_routes()
        return [name for bit, name in ROUTES.items() if bits & bit]

    @contextlib.contextmanager
    def capture(self, forward: bool = False) -> Iterator[list[Launch]]:
        """Record every launch inside the block into the yielded list; swallow
        them unless ``forward``."""
        got: list[Launch] = []
        self.lib.fl_interpose_reset()
        self.lib.fl_interpose_set_mode(FORWARD if forward else SWALLOW)
        try:
            yield got
        finally:
            self.lib.fl_interpose_set_mode(OFF)
            got.extend(Launch.from_record(self.lib.fl_interpose_record(i).contents)
                       for i in range(self.lib.fl_interpose_count()))
            if self.lib.fl_interpose_dropped():
                got.append(Launch("(records dropped)", 0, 0, (0, 0, 0), (0, 0, 0), 0, 0, 0, (),
                                  0, b"", (), "more launches than the layer keeps", 0))
