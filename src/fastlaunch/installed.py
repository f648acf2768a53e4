# SPDX-License-Identifier: Apache-2.0
"""An installed package's source files, read without importing the package.

Contract checks and backend detection read the peer's own sources (torch's
wrapper codegen, torch_npu's autotuner, triton-ascend's driver) before
anything of it is imported, so a check that refuses costs no import.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path


def source_reader(package: str, *, inside: bool = False) -> Callable[[str], str | None] | None:
    """A reader of ``package``'s installed files, or None when it is not
    installed. Paths are relative to the folder holding the package
    (``torch/_inductor/...``), or with ``inside`` to the package's own folder.
    A missing file reads as None; undecodable bytes as U+FFFD."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    root = folder if inside else folder.parent

    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8", errors="replace") if file.is_file() else None

    return read
