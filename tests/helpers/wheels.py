# SPDX-License-Identifier: Apache-2.0
"""Released wheels the tests read (never install or import): torch-npu for
its source, triton-ascend for its launcher generator.

Each is downloaded once into the wheel cache (``fastlaunch.config.wheel_cache()``:
``FASTLAUNCH_WHEEL_CACHE``, default ``~/.cache/fastlaunch/wheels``), where
``selfcheck --backend fake-npu`` finds triton-ascend too. Without the cached file and without the
network, the test asking for it skips, naming the wheel and the reason;
``FASTLAUNCH_OFFLINE=1`` skips at once instead of trying the network.
What is downloaded or extracted here is named in the wheel cache's manifest
(``fastlaunch.runtime.builds.own``), so ``python -m fastlaunch cache`` counts
it and ``cache clear`` removes it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fastlaunch import config
from fastlaunch.runtime import builds

# The triton-ascend release on the package index whose launcher is the NPU oracle.
TRITON_ASCEND = "3.2.0"
# Files of triton-ascend's backend the reference launcher needs.
ASCEND_BACKEND = ("driver.py", "utils.py", "compiler.py", "npu_utils.cpp")
# Further triton-ascend source trees (their backend folders), "label=path" or
# "path" entries separated by ":": release branches and main, which have no wheel.
TREES_ENV = "FASTLAUNCH_TRITON_ASCEND_TREES"


def triton_ascend_trees() -> dict[str, str]:
    """label -> backend folder of each tree named in ``FASTLAUNCH_TRITON_ASCEND_TREES``."""
    out = {}
    for entry in filter(None, os.environ.get(TREES_ENV, "").split(":")):
        label, _, path = entry.rpartition("=")
        out[label or path] = path
    return out


def cache_dir() -> Path:
    """The one wheel cache, shared with ``selfcheck --backend fake-npu``."""
    path = config.wheel_cache()
    path.mkdir(parents=True, exist_ok=True)
    return path


_pytest_config: list = []  # set by the unit tests' conftest


def say(line: str) -> None:
    """A progress line shown at once, even while pytest captures the test's output."""
    capture = (_pytest_config[0].pluginmanager.getplugin("capturemanager")
               if _pytest_config else None)
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


@functools.cache
def _download(requirement: str, stem: str) -> Path | str:
    """The cached wheel ``stem-*.whl``, downloading it if needed; a reason
    string when neither works (remembered, so offline runs try once)."""
    folder = cache_dir()
    found = sorted(folder.glob(f"{stem}-*.whl"))
    if found:
        return found[0]
    if os.environ.get("FASTLAUNCH_OFFLINE") == "1":
        return f"{requirement} is not in {folder} and FASTLAUNCH_OFFLINE=1"
    say(f"fastlaunch tests: downloading {requirement} (40-55 MB, once) into {folder}; "
        f"FASTLAUNCH_OFFLINE=1 skips the tests that read it")
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
           "--only-binary=:all:", "--python-version", "3.11", "--platform",
           "manylinux_2_28_x86_64", "--platform", "manylinux_2_17_x86_64",
           "--retries", "1", "--timeout", "30", requirement, "-d", str(folder)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"{requirement} is not in {folder} and pip download failed: {err}"
    found = sorted(folder.glob(f"{stem}-*.whl"))
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return (f"{requirement} is not in {folder} and pip download failed "
                f"(offline?): {last}")
    builds.own(found[0])  # fastlaunch's: `python -m fastlaunch cache clear` removes it
    return found[0]


def _wheel(requirement: str, stem: str) -> Path:
    got = _download(requirement, stem)
    if isinstance(got, str):
        pytest.skip(got)
    return got


def fetch(version: str) -> Path:
    """The torch-npu wheel of ``version`` (x86_64, CPython 3.11); skips the
    calling test when it can be neither found nor downloaded."""
    return _wheel(f"torch-npu=={version}", f"torch_npu-{version}")


def triton_ascend_backend(version: str = TRITON_ASCEND) -> Path:
    """``triton/backends/ascend`` of the triton-ascend wheel, extracted into
    the cache (only the files the reference launcher reads); skips the
    calling test when the wheel is unavailable."""
    target = cache_dir() / f"triton_ascend-{version}-backend"
    if all((target / name).is_file() for name in ASCEND_BACKEND):
        return target
    source = WheelSource(_wheel(f"triton-ascend=={version}", f"triton_ascend-{version}"))
    partial = target.with_name(f"{target.name}.{os.getpid()}")
    partial.mkdir(parents=True, exist_ok=True)
    for name in ASCEND_BACKEND:
        text = source.read(f"triton/backends/ascend/{name}")
        if text is None:
            pytest.skip(f"triton-ascend {version} wheel has no triton/backends/ascend/{name}")
        (partial / name).write_text(text)
    return publish(partial, target)


def publish(partial: Path, target: Path) -> Path:
    """Move a folder extracted under a private name into place, unless another
    process finished first (then its copy is kept and ours dropped)."""
    if target.exists():
        shutil.rmtree(partial)
    else:
        builds.own(target)  # named before it appears: `cache clear` removes it
        partial.replace(target)
    return target


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
