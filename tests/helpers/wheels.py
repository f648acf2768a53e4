# SPDX-License-Identifier: Apache-2.0
"""Downloads released torch-npu wheels (cached) so tests can read their source."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

# The oldest release with the APIs fastlaunch patches, and the newest on the index.
SUPPORTED_TORCH_NPU = ("2.10.0.post7", "2.14.0")


def cache_dir() -> Path:
    path = Path(os.environ.get("FASTLAUNCH_WHEEL_CACHE",
                               Path.home() / ".cache" / "fastlaunch" / "wheels"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def fetch(version: str) -> Path:
    """The torch-npu wheel of ``version`` (x86_64, CPython 3.11), downloaded once."""
    folder = cache_dir()
    found = sorted(folder.glob(f"torch_npu-{version}-*.whl"))
    if found:
        return found[0]
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "--python-version", "3.11", "--platform",
                    "manylinux_2_28_x86_64", "--platform", "manylinux_2_17_x86_64",
                    f"torch-npu=={version}", "-d", str(folder)], check=True)
    return sorted(folder.glob(f"torch_npu-{version}-*.whl"))[0]


class WheelSource:
    """Reads files of a wheel without installing or importing it."""

    def __init__(self, wheel: Path) -> None:
        self.zip = zipfile.ZipFile(wheel)
        self.names = set(self.zip.namelist())

    def read(self, path: str) -> str | None:
        if path not in self.names:
            return None
        return self.zip.read(path).decode("utf-8")

    def extract(self, prefix: str, target: Path) -> Path:
        for name in self.names:
            if name.startswith(prefix):
                self.zip.extract(name, target)
        return target
