# SPDX-License-Identifier: Apache-2.0
"""The torch-built reader of tensor sizes/strides behind the planned call's native asserts.

``assert_size_stride`` (torch's C++ guard) costs about half a microsecond per
call on a CPU host, mostly its error-message setup; with this reader the
program compares the tensor's sizes and strides itself and calls the original
only when they differ (so a mismatch raises torch's own error). Until it is
loaded, every assert runs the original: correct, just slower.

Built once per torch build, compiler and Python by a child process (torch's
extension builder in a private directory) into
``$FASTLAUNCH_CACHE_DIR/planned_call_geometry/<key>/`` and moved into place
atomically; ``ensure(build=True)`` starts that in a background thread and
returns at once (the hook calls it when it installs), ``wait=True`` blocks.
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

from ... import config
from ...runtime import _core

log = logging.getLogger(__name__)
SOURCE = Path(__file__).with_name("tensor_geometry.cpp")
BUILD_TIMEOUT_S = 900

_lock = threading.Lock()
_state = {"status": "not built yet"}
_builder: list[threading.Thread] = []


def status() -> str:
    return _state["status"]


def _key() -> str:
    import torch

    cxx = shutil.which(os.environ.get("CXX", "c++")) or ""
    parts = (torch.__version__, str(getattr(torch.version, "git_version", "")),
             os.path.realpath(cxx) if cxx else "", sys.version,
             hashlib.sha256(SOURCE.read_bytes()).hexdigest())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def library_path(key: str) -> Path:
    return config.cache_dir() / "planned_call_geometry" / key / f"fastlaunch_geometry_{key}.so"


def _load(path: Path) -> None:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        msg = f"cannot import {path}"
        raise ImportError(msg)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _core.set_tensor_geometry(module.capsule())
    _state["status"] = f"active ({path})"


def _build_then_load(path: Path, key: str) -> None:
    env = dict(os.environ, FASTLAUNCH="0", TORCHINDUCTOR_NPU_FAST_LAUNCH="0")
    try:
        done = subprocess.run([sys.executable, "-m", __name__, str(path), key], env=env,
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
                              check=False)
        if done.returncode != 0 or not path.exists():
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            _state["status"] = f"build failed (exit {done.returncode}): {' | '.join(tail)}"
            log.warning("fastlaunch: planned-call asserts stay on torch's: %s", status())
            return
        _load(path)
    except (OSError, subprocess.SubprocessError, ImportError, AttributeError) as err:
        _state["status"] = f"unavailable: {type(err).__name__}: {err}"
        log.warning("fastlaunch: planned-call asserts stay on torch's: %s", status())


def ensure(*, build: bool = False, wait: bool = False) -> bool:
    """True when the reader is active: a cached build is loaded; with ``build``
    a missing one is built in the background (``wait``: until it is done)."""
    if _core.has_tensor_geometry():
        return True
    with _lock:
        if not _builder:
            key = _key()
            path = library_path(key)
            if path.exists():
                try:
                    _load(path)
                except (ImportError, AttributeError) as err:
                    _state["status"] = f"unavailable: {type(err).__name__}: {err}"
                return _core.has_tensor_geometry()
            if not build:
                _state["status"] = f"not built: nothing in {path.parent}"
                return False
            _state["status"] = f"building in the background into {path.parent}"
            thread = threading.Thread(target=_build_then_load, args=(path, key),
                                      name="fastlaunch-geometry-build", daemon=True)
            _builder.append(thread)
            thread.start()
        thread = _builder[0]
    if wait:
        thread.join()
    return _core.has_tensor_geometry()


def build(path: Path, key: str) -> None:
    """The child's work: compile in a private directory, then an atomic rename."""
    from torch.utils import cpp_extension

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        cpp_extension.load(name=path.stem, sources=[str(SOURCE)], extra_cflags=["-O2"],
                           build_directory=tmp,
                           verbose=config.verbose_build())
        staged = Path(tmp) / f"{path.stem}.so"
        final_tmp = path.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(staged, final_tmp)
        os.replace(final_tmp, path)


if __name__ == "__main__":
    build(Path(sys.argv[1]), sys.argv[2])
