# SPDX-License-Identifier: Apache-2.0
"""Released wheels the tests read (never install or import): torch-npu for
its source, triton-ascend for its launcher generator, torch for the files
of each release's own torch that the NPU contract reads.

Each is downloaded once into the wheel cache (``fastlaunch.config.wheel_cache()``:
``FASTLAUNCH_WHEEL_CACHE``, default ``~/.cache/fastlaunch/wheels``), where
``selfcheck --backend fake-npu`` finds triton-ascend too. Without the cached file and without the
network, the test asking for it skips, naming the wheel and the reason;
``FASTLAUNCH_OFFLINE=1`` skips at once instead of trying the network.
What is downloaded or extracted here is named in the wheel cache's manifest
(``fastlaunch.runtime.core.own``), so ``python -m fastlaunch cache`` counts
it and ``cache clear`` removes it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from fastlaunch import config
from fastlaunch.builds import core

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
    core.own(found[0])  # fastlaunch's: `python -m fastlaunch cache clear` removes it
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


def torch_sources(version: str, files: tuple[str, ...]) -> Path:
    """A folder with ``files`` (``torch/...`` paths) of torch ``version``'s
    registry wheel, the ones it has: extracted once into the wheel cache
    (``torch-VERSION-sources``). The wheel (a CUDA build, about 800 MB) goes
    to a temporary folder, outside pip's cache, and is dropped after; what
    stays is under 1 MB. Skips the calling test when it cannot be had."""
    target = cache_dir() / f"torch-{version}-sources"
    listed = target / "REQUESTED"
    if listed.is_file() and set(files) <= set(listed.read_text().split()):
        return target
    if os.environ.get("FASTLAUNCH_OFFLINE") == "1":
        pytest.skip(f"torch {version}'s sources are not in {target} and FASTLAUNCH_OFFLINE=1")
    say(f"fastlaunch tests: reading {len(files)} files of torch {version} "
        f"(an ~800 MB download, once) into {target}")
    with tempfile.TemporaryDirectory() as folder:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-cache-dir",
               "--only-binary=:all:", "--python-version", "3.11", "--platform",
               "manylinux_2_28_x86_64", "--retries", "1", "--timeout", "30",
               f"torch=={version}", "-d", folder]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            pytest.skip(f"torch {version}'s sources: pip download failed: {err}")
        found = sorted(Path(folder).glob(f"torch-{version}*.whl"))
        if done.returncode != 0 or not found:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"torch {version}'s sources: the registry gave no wheel ({last})")
        partial = target.with_name(f"{target.name}.{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        source = WheelSource(found[0])
        for name in files:
            text = source.read(name)
            if text is not None:  # an absent file stays absent: the contract names it
                (partial / name).parent.mkdir(parents=True, exist_ok=True)
                (partial / name).write_text(text)
        (partial / "REQUESTED").write_text("\n".join(files) + "\n")
    shutil.rmtree(target, ignore_errors=True)  # an older, smaller extract
    return publish(partial, target)


def publish(partial: Path, target: Path) -> Path:
    """Move a folder extracted under a private name into place, unless another
    process finished first (then its copy is kept and ours dropped)."""
    if target.exists():
        shutil.rmtree(partial)
    else:
        core.own(target)  # named before it appears: `cache clear` removes it
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
