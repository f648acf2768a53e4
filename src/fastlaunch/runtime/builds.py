# SPDX-License-Identifier: Apache-2.0
"""Native code compiled after install: where its sources are, where each build
is kept, and what this process built or found there.

Every such build goes through here, so there is one rule for each question:

* ``source()``: a file under ``csrc/``: the checkout's in a source tree (an
  editable install reads what the developer edits), else the copy the wheel
  ships under ``fastlaunch/csrc`` (CMakeLists.txt installs it);
* ``folder(name)``: the build's cache folder, ``config.cache_dir() / name``,
  for a name in ``areas()`` (what ``python -m fastlaunch cache`` lists);
* ``build()``: one compiler line into a private file, moved into place, with
  one INFO line; ``row(name)`` is the build's ``doctor`` row;
* ``make_dirs()`` and ``own()``: what fastlaunch creates in an area (a build
  folder, or the wheel cache) is named in the area's manifest
  (``.fastlaunch-owned``), so ``cache clear`` removes only that;
  ``cache_problem()`` says why a folder cannot be written, before any build.

The torch shims (``torch_build``) keep their own child-process build, since
they must also run as a script at install; they use ``source`` and ``folder``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath

from .. import config

log = logging.getLogger("fastlaunch.runtime.builds")
PACKAGE = Path(__file__).resolve().parents[1]  # the fastlaunch package
CHECKOUT = PACKAGE.parents[1]  # <checkout>/src/fastlaunch -> <checkout>

#: Every build's cache folder, with what it holds (the torch shims first:
#: one per entry of ``torch_build.SHIMS``).
AREAS = {
    "torch_accessor": "torch tensor accessor, one build per torch",
    "tensor_geometry": "the planned call's size/stride reader, one build per torch",
    "aten_ops": "the planned call's ATen calls, one build per torch",
    "npu_queue": "torch_npu task-queue shim, one build per torch and torch_npu",
    "ascend_reference": "selfcheck's recording CANN runtime and reference launchers",
    "bench": "the benchmarks' C launchers (benchmarks/, from a checkout)",
}


#: In every area: the names (relative paths) of what fastlaunch created there.
MANIFEST = ".fastlaunch-owned"


class BuildFailed(RuntimeError):
    """A compiler line failed; the message ends with its output."""


def areas() -> dict[str, str]:
    """Every build's cache folder name and what it holds, the torch shims first."""
    return dict(AREAS)


def source_roots() -> list[Path]:
    """Where ``csrc/`` is looked for, in order: a source checkout's, the installed copy."""
    checkout = CHECKOUT / "csrc"
    roots = [checkout] if (CHECKOUT / "CMakeLists.txt").is_file() else []
    return [*roots, PACKAGE / "csrc"]


def source(relative: str) -> Path:
    """The file (or folder) ``csrc/<relative>``."""
    for root in source_roots():
        path = root / relative
        if path.exists():
            return path
    looked = " and ".join(str(root / relative) for root in source_roots())
    msg = f"fastlaunch's native source {relative} is missing (looked in {looked})"
    raise FileNotFoundError(msg)


def folder(name: str) -> Path:
    """The cache folder of build ``name``: ``config.cache_dir() / name``."""
    known = areas()
    if name not in known:
        msg = f"build: got {name!r}, expected one of {sorted(known)}"
        raise ValueError(msg)
    return config.cache_dir() / name


def _area_of(path: Path) -> tuple[Path, PurePosixPath] | None:
    """The area holding ``path`` (the wheel cache, or a build folder of
    ``areas()``) and ``path`` relative to it; None for the area itself or a
    path in none."""
    path = Path(os.path.abspath(path))
    wheels = config.wheel_cache()
    with contextlib.suppress(ValueError):
        inside = path.relative_to(wheels)
        return (wheels, PurePosixPath(inside.as_posix())) if inside.parts else None
    try:
        inside = path.relative_to(config.cache_dir())
    except ValueError:
        return None
    if len(inside.parts) < 2 or inside.parts[0] not in AREAS:
        return None
    return config.cache_dir() / inside.parts[0], PurePosixPath(*inside.parts[1:])


def owned(area: Path) -> set[str]:
    """The entries of ``area``'s manifest: relative paths, none leaving the area
    (a damaged manifest owns only what it names plainly)."""
    try:
        text = (area / MANIFEST).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    names = set()
    for line in text.splitlines():
        name = PurePosixPath(line)
        if line and line == name.as_posix() and not name.is_absolute() and \
                ".." not in name.parts and name.parts[0] != MANIFEST:
            names.add(line)
    return names


def own(path: Path) -> None:
    """Name ``path`` (just created by fastlaunch) in its area's manifest, unless
    a folder above it is named already; outside every area, nothing. A manifest
    that cannot be written leaves ``path`` unnamed (``cache clear`` keeps it)."""
    found = _area_of(path)
    if found is None:
        return
    area, inside = found
    names = owned(area)
    if any(PurePosixPath(*inside.parts[:i]).as_posix() in names
           for i in range(1, len(inside.parts) + 1)):
        return
    with contextlib.suppress(OSError), open(area / MANIFEST, "a", encoding="utf-8") as manifest:
        manifest.write(f"{inside.as_posix()}\n")  # one short append


def make_dirs(path: Path) -> Path:
    """``path`` and its missing parents, each folder this call creates inside
    an area named in the area's manifest (``own``). Raises OSError as mkdir does."""
    missing = []
    probe = Path(os.path.abspath(path))
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for created in reversed(missing):
        try:
            created.mkdir()
        except FileExistsError:  # another process made it (and named it)
            continue
        own(created)
    if not path.is_dir():  # filename and reason, as the OS's own error carries them
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(path))
    return path


def cache_problem(path: Path) -> str:
    """Why nothing can be written at ``path`` (its nearest existing folder is a
    file, or not writable), or "" when it can; creates nothing."""
    probe = Path(os.path.abspath(path))
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is not a folder"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{probe} is not writable"
    return ""


def cache_row() -> str:
    """doctor's row for the cache folder: where it is, from which setting, and
    whether builds can be kept there."""
    root = config.cache_dir()
    source = "FASTLAUNCH_CACHE_DIR" if os.environ.get("FASTLAUNCH_CACHE_DIR", "").strip() \
        else "the default"
    problem = cache_problem(root)
    if problem:
        return (f"{root} ({source}): NOT USABLE: {problem}; nothing is built or cached "
                f"until FASTLAUNCH_CACHE_DIR names a writable folder")
    return f"{root} ({source}): usable"


def key(*parts: str | bytes) -> str:
    """A content key: what is built from these parts is kept under it."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:16]


def c_compiler() -> str | None:
    """The C compiler (``CC``, else gcc, else cc), or None."""
    return next((p for p in (os.environ.get("CC"), "gcc", "cc") if p and shutil.which(p)), None)


def cxx_compiler() -> str | None:
    """The C++ compiler (``CXX``, else g++, else c++), or None."""
    found = (shutil.which(p) for p in (os.environ.get("CXX"), "g++", "c++") if p)
    return next((p for p in found if p), None)


_rows: dict[str, str] = {}  # name -> what this process last did with that build


def note(name: str, line: str) -> None:
    """Record (and log, once at INFO) what this process did with build ``name``,
    for builds made by another builder (torch's, for the task-queue shim)."""
    _rows[name] = line
    log.info("fastlaunch: %s %s", name, line)


def row(name: str) -> str:
    """The build's doctor row: what is cached, and what this process did with it."""
    path = folder(name)
    count = sum(1 for p in path.rglob("*.so") if p.is_file()) if path.is_dir() else 0
    line = f"{count} build{'s' * (count != 1)} cached in {path}"
    return f"{line}; this process: {_rows[name]}" if name in _rows else line


def build(name: str, out: Path, command: Callable[[Path], Sequence[str]]) -> Path:
    """``out`` (in ``folder(name)``), built unless it is there: ``command(tmp)``
    is a compiler line writing ``tmp``, which is then moved onto ``out``, so a
    killed build never leaves half a library; builders of one folder take
    turns. One INFO line per build; ``FASTLAUNCH_VERBOSE_BUILD=1`` shows the
    compiler's output. Raises BuildFailed with its last output."""
    import fcntl

    make_dirs(out.parent)
    lock_path = out.parent / ".lock"
    new_lock = not lock_path.exists()
    with open(lock_path, "w") as lock:
        if new_lock:
            own(lock_path)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if out.is_file():
            _rows[name] = f"found {out}"
            return out
        tmp = out.with_name(f"tmp{os.getpid()}-{out.name}")
        cmd = [str(part) for part in command(tmp)]
        verbose = config.get().verbose_build
        start = time.monotonic()
        done = subprocess.run(cmd, capture_output=not verbose, text=True, check=False)
        if done.returncode != 0:
            with contextlib.suppress(OSError):
                tmp.unlink()
            _rows[name] = f"build failed (exit {done.returncode})"
            log.warning("fastlaunch: %s build of %s failed (exit %d)", name, out.name,
                        done.returncode)
            msg = f"{' '.join(cmd[:3])} ... failed:\n{(done.stderr or '')[-4000:]}"
            raise BuildFailed(msg)
        own(out)  # named first: a crash between leaves a name, never an unnamed library
        tmp.replace(out)
        note(name, f"built {out} in {time.monotonic() - start:.1f} s")
    return out
