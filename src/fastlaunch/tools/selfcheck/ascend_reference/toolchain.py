# SPDX-License-Identifier: Apache-2.0
"""Where the reference is built and with what: the cache, the compilers, content keys."""

from __future__ import annotations

from pathlib import Path

from ....builds import core, registry

HERE = core.source("testing/cann_recorder")
INCLUDE = HERE / "include"
RECORDER_C = HERE / "recorder.c"
AREA = registry.ASCEND_REFERENCE.name  # the build folder of the recorder and launchers


class Unavailable(RuntimeError):
    """The reference cannot be built here (no compiler, no triton-ascend)."""


def cache_root() -> Path:
    path = core.folder(AREA)
    path.mkdir(parents=True, exist_ok=True)
    return path


def compiler() -> str:
    found = core.cxx_compiler()
    if found is None:
        msg = "no C++ compiler (g++) to build triton-ascend's launcher"
        raise Unavailable(msg)
    return found


def c_compiler() -> str:
    found = core.c_compiler()
    if found is None:
        msg = "no C compiler to build the recording CANN runtime"
        raise Unavailable(msg)
    return found


def headers_digest() -> str:
    """The content key of the stub headers and the recorder's source."""
    return core.key(*(p.read_bytes() for p in sorted(INCLUDE.rglob("*.h"))),
                   RECORDER_C.read_bytes())

