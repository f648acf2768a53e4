# SPDX-License-Identifier: Apache-2.0
"""A native reader of torch.Tensor data pointers, built against the installed torch.

The core reads every tensor argument's address; through Python's
``data_ptr()`` that is a method call per tensor per launch. This shim reads
it (and the tensor's device) from the tensor object in C++.

Build: compiled by a child process (torch's extension builder in a private
temporary directory) into ``$FASTLAUNCH_CACHE_DIR`` (default
``~/.cache/fastlaunch``) under a key of the torch version, torch's git
version, the C++ compiler and the Python version; the finished library is
moved into place atomically. Nothing compiles in the caller: integrations
call ``ensure(build=True)`` at install, which loads a cached build or starts
the child in a background thread, so the build overlaps compilation; plan
makers call ``ensure()``, which only loads what is there. Launches use
``data_ptr()`` until the library is loaded. ``ensure(build=True, wait=True)``
builds ahead (tests, a deployment step). ``FASTLAUNCH_TORCH_ACCESSOR=0`` turns it off;
``status()`` says which of these holds (shown by ``doctor``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .. import _core, config

log = logging.getLogger(__name__)
SOURCE = Path(__file__).with_name("torch_accessor.cpp")
BUILD_TIMEOUT_S = 900

_lock = threading.Lock()
_status = "not built yet"
_builder: threading.Thread | None = None
_target: list = []  # [library path, key] once probed


def status() -> str:
    """One line: active, building, off, or why it is unavailable."""
    if _core.has_tensor_accessor() and not _status.startswith("active"):
        return "active (installed by the caller)"
    return _status


def compiler() -> str:
    """Path and first ``--version`` line of the C++ compiler, or "" when there is none."""
    path = shutil.which(os.environ.get("CXX", "c++"))
    if path is None:
        return ""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    first = out.splitlines()[0] if out else ""
    return f"{os.path.realpath(path)} {first}"


def cache_key(cxx: str) -> str:
    import torch

    parts = (torch.__version__, str(getattr(torch.version, "git_version", "")), cxx,
             sys.version, hashlib.sha256(SOURCE.read_bytes()).hexdigest())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("FASTLAUNCH_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "fastlaunch")
    return Path(base) / "torch_accessor"


def _module_name(key: str) -> str:
    return f"fastlaunch_torch_accessor_{key}"


def library_path(key: str) -> Path:
    return cache_dir() / key / f"{_module_name(key)}.so"


def _load(path: Path, key: str) -> None:
    global _status
    spec = importlib.util.spec_from_file_location(_module_name(key), path)
    if spec is None or spec.loader is None:
        msg = f"cannot import {path}"
        raise ImportError(msg)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _core.set_tensor_accessor(module.capsule())
    _status = f"active ({path})"


def _fail(why: str) -> None:
    global _status
    _status = f"unavailable ({why}); using tensor.data_ptr()"
    log.warning("fastlaunch: tensor accessor %s", _status)


def _build_in_child(path: Path, key: str) -> None:
    """Thread body: compile in a child process, then load the result here."""
    env = dict(os.environ, FASTLAUNCH="0", TORCHINDUCTOR_NPU_FAST_LAUNCH="0")
    try:
        done = subprocess.run([sys.executable, "-m", __name__, str(path), key], env=env,
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.SubprocessError) as err:
        _fail(f"build did not run: {type(err).__name__}: {err}")
        return
    if done.returncode != 0 or not path.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        _fail(f"build failed (exit {done.returncode}): {' | '.join(tail)}")
        return
    try:
        _load(path, key)
    except Exception as err:  # the Python data_ptr() path stays correct
        _fail(f"{type(err).__name__}: {err}")


def ensure(*, build: bool = False, wait: bool = False) -> bool:
    """True when the accessor is active. Loads a cached build (once); with
    ``build``, starts the background build when there is none and returns at
    once, unless ``wait``. Integrations pass ``build=True`` at install; plan
    makers only pick up what is there."""
    global _status, _builder
    if _core.has_tensor_accessor():
        return True
    with _lock:
        if _status == "not built yet":
            if not config.parse_bool("FASTLAUNCH_TORCH_ACCESSOR",
                                     os.environ.get("FASTLAUNCH_TORCH_ACCESSOR", "1")):
                _status = "off (FASTLAUNCH_TORCH_ACCESSOR=0); using tensor.data_ptr()"
                return False
            if importlib.util.find_spec("torch") is None:
                _status = "torch is not installed; using data_ptr()"
                return False
            cxx = compiler()
            if not cxx:
                _fail(f"no C++ compiler ({os.environ.get('CXX', 'c++')} not found)")
                return False
            key = cache_key(cxx)
            path = library_path(key)
            _target.extend((path, key))
            if path.exists():
                try:
                    _load(path, key)
                except Exception as err:
                    _fail(f"{type(err).__name__}: {err}")
                return _core.has_tensor_accessor()
            _status = f"not built: no cached build in {path.parent}; using tensor.data_ptr()"
        if build and _builder is None and _status.startswith("not built:"):
            path, key = _target
            _status = (f"building in the background into {path.parent}; "
                       "using tensor.data_ptr() until it is ready")
            _builder = threading.Thread(target=_build_in_child, args=(path, key),
                                        name="fastlaunch-accessor-build", daemon=True)
            _builder.start()
        builder = _builder
    if wait and builder is not None:
        builder.join()
    return _core.has_tensor_accessor()


def build(path: Path, key: str) -> None:
    """Compile into ``path`` (the child's work): a private build directory,
    then an atomic rename, so a killed build never leaves a half library."""
    from torch.utils import cpp_extension

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        cpp_extension.load(name=_module_name(key), sources=[str(SOURCE)], extra_cflags=["-O2"],
                           build_directory=tmp,
                           verbose=os.environ.get("FASTLAUNCH_VERBOSE_BUILD") == "1")
        staged = Path(tmp) / f"{_module_name(key)}.so"
        final_tmp = path.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(staged, final_tmp)
        os.replace(final_tmp, path)


if __name__ == "__main__":
    build(Path(sys.argv[1]), sys.argv[2])
