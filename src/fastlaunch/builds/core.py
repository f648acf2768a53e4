# SPDX-License-Identifier: Apache-2.0
"""The compile core of every build made after install: one rule for each question.

* ``source()``: a file under ``csrc/``: the checkout's in a source tree (an
  editable install, and the install's CMake step, read what the developer
  edits), else the copy the wheel ships under ``fastlaunch/csrc``;
  ``digest()`` covers a source and every ``csrc`` header it includes;
* ``folder(name)``: the build's cache folder, ``config.cache_dir() / name``,
  for an area of ``registry.AREAS``;
* ``key()``: what a build is kept under; ``open_lock``/``take_lock``: the
  folder's build lock, so builders take turns; ``publish()``: a finished file
  moved into place, so a killed build never leaves half a library;
* ``c_compiler``/``cxx_compiler``: ``CC``/``CXX`` when set (that compiler
  only, as torch's extension builder does), else the usual names;
* ``build()``: one compiler line with one INFO line; ``row(name)`` is the
  build's ``doctor`` row;
* ``make_dirs()`` and ``own()``: what fastlaunch creates in an area (a build
  folder, or the wheel cache) is named in the area's manifest
  (``.fastlaunch-owned``), so ``cache clear`` removes only that;
  ``cache_problem()`` says why a folder cannot be written, before any build.

Only the standard library and ``config`` are imported: the install's CMake
step runs the shim builds from the source tree (``python -m fastlaunch.builds``).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath

from .. import config
from .registry import AREAS

log = logging.getLogger("fastlaunch.builds")
PACKAGE = Path(__file__).resolve().parents[1]  # the fastlaunch package
CHECKOUT = PACKAGE.parents[1]  # <checkout>/src/fastlaunch -> <checkout>

#: In every area: the names (relative paths) of what fastlaunch created there.
MANIFEST = ".fastlaunch-owned"


class BuildFailed(RuntimeError):
    """A compiler line failed; the message ends with its output."""


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
    if name not in AREAS:
        msg = f"build: got {name!r}, expected one of {sorted(AREAS)}"
        raise ValueError(msg)
    return config.cache_dir() / name


INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def digest(path: Path) -> str:
    """A digest of the source ``path`` and of every header it includes from
    ``csrc/`` (``#include "core/..."``, transitively; others are not
    fastlaunch's): a changed header is a changed build. A source that includes
    none has the digest of its bytes alone (the shims' keys before headers)."""
    root = path.parent.parent  # csrc/<room>/<file>
    h = hashlib.sha256(path.read_bytes())
    seen: set[Path] = set()
    todo = [path]
    while todo:
        for name in INCLUDE.findall(todo.pop().read_bytes()):
            header = root / name.decode()
            if header.is_file() and header not in seen:
                seen.add(header)
                todo.append(header)
    for header in sorted(seen):
        h.update(b"\0" + header.relative_to(root).as_posix().encode() + b"\0")
        h.update(header.read_bytes())
    return h.hexdigest()


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
    """A content key: what is built from these parts is kept under it (the
    torch shims' formula, so their cached builds keep their folders)."""
    joined = b"\0".join(part.encode() if isinstance(part, str) else part for part in parts)
    return hashlib.sha256(joined).hexdigest()[:16]


def _compiler(variable: str, names: tuple[str, ...]) -> str | None:
    chosen = os.environ.get(variable, "").strip()
    found = (shutil.which(name) for name in ((chosen,) if chosen else names))
    return next((path for path in found if path), None)


def c_compiler() -> str | None:
    """The C compiler: ``CC`` when set, else gcc, else cc; None when missing."""
    return _compiler("CC", ("gcc", "cc"))


def cxx_compiler() -> str | None:
    """The C++ compiler: ``CXX`` when set, else g++, else c++; None when missing."""
    return _compiler("CXX", ("g++", "c++"))


def described(path: str | None) -> str:
    """A compiler's real path and first ``--version`` line (bug reports), or ""."""
    if path is None:
        return ""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    first = out.splitlines()[0] if out else ""
    return f"{os.path.realpath(path)} {first}"


LOCK = ".lock"  # in a build's folder: held while it builds


def open_lock(folder: Path) -> int:
    """A descriptor of ``folder``'s build lock file, created (and named in the
    area's manifest) if missing."""
    path = folder / LOCK
    new = not path.exists()
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    if new:
        own(path)
    return fd


def take_lock(fd: int, *, wait: bool) -> bool:
    """Take the build lock on ``fd``; without ``wait``, False when another
    process holds it."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def publish(staged: Path, out: Path) -> None:
    """Move the finished ``staged`` onto ``out`` in one step, ``out`` named in
    its area's manifest first: a crash between leaves a name, never an unnamed
    library."""
    own(out)
    os.replace(staged, out)


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
    is a compiler line writing ``tmp``, which is then published onto ``out``;
    builders of one folder take turns. One INFO line per build;
    ``FASTLAUNCH_VERBOSE_BUILD=1`` shows the compiler's output. Raises
    BuildFailed with its last output."""
    make_dirs(out.parent)
    fd = open_lock(out.parent)
    try:
        take_lock(fd, wait=True)
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
        publish(tmp, out)
        note(name, f"built {out} in {time.monotonic() - start:.1f} s")
    finally:
        os.close(fd)
    return out
