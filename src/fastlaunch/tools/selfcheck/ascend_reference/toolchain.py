# SPDX-License-Identifier: Apache-2.0
"""Where the reference is built and with what: the cache, the compilers, content keys."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from .... import config

HERE = Path(__file__).resolve().parent.parent / "cann_recorder"
INCLUDE = HERE / "include"
RECORDER_C = HERE / "recorder.c"


class Unavailable(RuntimeError):
    """The reference cannot be built here (no compiler, no triton-ascend)."""


def cache_root() -> Path:
    path = config.cache_dir() / "ascend_reference"
    path.mkdir(parents=True, exist_ok=True)
    return path


def compiler() -> str:
    found = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++")
    if found is None:
        msg = "no C++ compiler (g++) to build triton-ascend's launcher"
        raise Unavailable(msg)
    return found


def digest(*parts: str | bytes) -> str:
    """A content key: what is built from these parts is cached under it."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:24]


def headers_digest() -> str:
    """The content key of the stub headers and the recorder's source."""
    return digest(*(p.read_bytes() for p in sorted(INCLUDE.rglob("*.h"))),
                   RECORDER_C.read_bytes())


def run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        msg = f"{' '.join(cmd[:3])} ... failed:\n{done.stderr[-4000:]}"
        raise RuntimeError(msg)
