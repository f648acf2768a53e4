# SPDX-License-Identifier: Apache-2.0
"""The torch shims' policy: C++ sources built against the installed torch.

A shim includes torch's headers, so it cannot be compiled with fastlaunch's
own extension (that build does not need torch). It is compiled by torch's
extension builder in a child process (``python -m fastlaunch.builds
compile``) and kept where it costs the user nothing:

1. **at install** (``pip install --no-build-isolation .`` with torch importable
   in the build's Python): CMake runs ``python -m fastlaunch.builds
   install-into DIR`` from the source tree and the wheel carries the library
   under ``fastlaunch/torch_shims``; without torch there (pip's default build
   isolation) or without a compiler the step says why and is skipped;
2. ``python -m fastlaunch build``: in the foreground with progress lines, into
   ``$FASTLAUNCH_CACHE_DIR`` (default ``~/.cache/fastlaunch``), for images and
   CI jobs built before their first run;
3. otherwise, when an integration installs, a background child at idle
   priority (``SCHED_IDLE``, nice 19, one job): it only takes CPU time that
   nobody else wants, so the first process is never slower than off while it
   builds; the library is loaded when it is ready. At most one such child per
   shim and key runs on a machine: the parent takes the build's lock (without
   waiting) before it starts one and hands it to the child, which exits when
   the build ends; a process that finds the lock held starts nothing and loads
   the library when the lock is released. ``python -m fastlaunch`` commands
   (doctor, cache, ...) never start one (``foreground_only``), nor does a
   process whose cache folder cannot be written (named once, as a warning).
   A cached library that does not load is rebuilt once over.

One key for every place (``core.key``): torch version, torch git version,
Python version, the source with the csrc headers it includes, and flags; the
compiler is not part of it (it does not change what the library links
against, and a runtime image without one can load a build made at install).
Every decision is one INFO log line; ``state()`` is the typed state doctor
and ``python -m fastlaunch build`` read. The runtime module of each shim holds
its ``Owner``: what activates the loaded library, handed to ``ensure`` (this
room imports no runtime).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import importlib.util
import logging
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from .. import config
from . import core
from .registry import SHIMS, Shim

log = logging.getLogger("fastlaunch.builds.shims")
BUILD_TIMEOUT_S = 900
PROGRESS_S = 10.0  # a progress line this often while a build runs
CUDA_DEFINE = "-DFASTLAUNCH_TORCH_CUDA"
CUBLASLT_DEFINE = "-DFASTLAUNCH_CUBLASLT"
#: What a cuda shim's cuBLASLt tier includes, through ATen's CUDA context.
CUDA_HEADERS = ("cuda_runtime_api.h", "crt/host_defines.h", "nv/target", "cublas_v2.h",
                "cublasLt.h", "cusparse.h", "cusolverDn.h")
#: The nvidia wheels holding the CUDA_HEADERS that torch's own dependencies
#: lack (crt/, nv/target), by CUDA major version: a torch from pip has the rest.
CUDA_HEADER_WHEELS = {"12": ("nvidia-cuda-nvcc-cu12", "nvidia-cuda-cccl-cu12"),
                      "13": ("nvidia-cuda-crt", "nvidia-cuda-cccl")}
SHIM_FLAGS_VAR = "FASTLAUNCH_SHIM_FLAGS"


class Phase(enum.Enum):
    """Where a shim stands in this process (``doctor --json``: its lower-case name)."""

    UNDECIDED = enum.auto()  # not looked for yet
    ACTIVE = enum.auto()  # loaded, from where the line says
    NOT_BUILT = enum.auto()  # no build for this torch; none running
    BUILDING = enum.auto()  # a child of this process builds it
    ELSEWHERE = enum.auto()  # another process holds its build lock
    OFF = enum.auto()  # switched off
    UNAVAILABLE = enum.auto()  # the line says why


class State(str):
    """A shim's state: the doctor line (this string) and its ``phase``, which
    code reads (never the line)."""

    phase: Phase

    def __new__(cls, phase: Phase, line: str) -> State:
        state = super().__new__(cls, line)
        state.phase = phase
        return state

    @property
    def active(self) -> bool:
        return self.phase is Phase.ACTIVE


def source_of(shim: Shim) -> Path:
    """The shim's source, ``csrc/shims/<source>`` (``core.source``)."""
    return core.source(f"shims/{shim.source}")


def torch_has_cuda() -> bool:
    """Whether the installed torch is a CUDA build with its libtorch_cuda present."""
    import torch

    return bool(getattr(torch.version, "cuda", None)) and (
        Path(torch.__file__).resolve().parent / "lib" / "libtorch_cuda.so").exists()


def _wheel_include_dirs() -> list[Path]:
    """The nvidia wheels' ``include`` folders (what the installed torch depends on)."""
    wheels: list[Path] = []
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec is not None else []:
        wheels.extend(sorted(Path(root).glob("*/include")))
    return wheels


def header_wheels(torch_cuda: str) -> tuple[str, ...]:
    """pip requirements of CUDA_HEADER_WHEELS for a torch built with CUDA
    ``torch_cuda`` (pinned to its major.minor); () for a major with none known."""
    minor = ".".join(torch_cuda.split(".")[:2])
    return tuple(f"{wheel}=={minor}.*"
                 for wheel in CUDA_HEADER_WHEELS.get(torch_cuda.partition(".")[0], ()))


def cuda_include_dirs() -> tuple[str, ...]:
    """The folders holding every header of CUDA_HEADERS: the nvidia wheels'
    ``include`` folders, else one toolkit's: ``CUDA_HOME``'s if set, else
    ``CUDA_PATH``'s if set, else ``/usr/local/cuda``'s; () where neither has
    them all (a CUDA torch without CUDA's headers still builds its shims,
    without the cuBLASLt tier)."""
    wheels = _wheel_include_dirs()
    toolkits = [Path(os.environ[var]) / "include" for var in ("CUDA_HOME", "CUDA_PATH")
                if os.environ.get(var)]
    for candidates in (wheels, [*toolkits, Path("/usr/local/cuda/include")][:1]):
        found: list[str] = []
        for header in CUDA_HEADERS:
            folder = next((c for c in candidates if (c / header).exists()), None)
            if folder is None:
                break
            if str(folder) not in found:
                found.append(str(folder))
        else:
            return tuple(found)
    return ()


def cuda_headers_version(folders: Sequence[str]) -> int | None:
    """CUDA_VERSION (1000 * major + 10 * minor) as the headers in ``folders``
    define it: ``cuda.h``'s, else ``cuda_runtime_api.h``'s CUDART_VERSION (the
    same number); None where neither says. Read line by line up to the define
    (near the top): cuda.h is over a megabyte, and this runs in every process
    that computes the ATen shim's key."""
    for header, name in (("cuda.h", "CUDA_VERSION"), ("cuda_runtime_api.h", "CUDART_VERSION")):
        define = re.compile(rf"\s*#\s*define\s+{name}\s+(\d+)\b")
        for path in (Path(folder) / header for folder in folders):
            with contextlib.suppress(OSError), open(path, errors="replace") as text:
                for line in text:
                    found = define.match(line)
                    if found:
                        return int(found.group(1))
    return None


def cublaslt_headers() -> tuple[tuple[str, ...], str]:
    """The include folders the cuBLASLt tier is compiled against
    (``cuda_include_dirs``) and "", or () and why the tier is left out: no
    headers, or headers of another CUDA major version than torch's
    (``torch.version.cuda``): their declarations and enums need not match the
    cuBLASLt library torch loaded, which the tier calls."""
    import torch

    folders = cuda_include_dirs()
    torch_cuda = str(getattr(torch.version, "cuda", None) or "")
    if not folders:
        wheels = _wheel_include_dirs()
        missing = [header for header in CUDA_HEADERS
                   if not any((folder / header).exists() for folder in wheels)]
        adds = header_wheels(torch_cuda)
        hint = f"; `pip install {' '.join(repr(r) for r in adds)}` adds them" if adds else ""
        return (), (f"CUDA's headers not found ({', '.join(missing)} missing from the "
                    "nvidia wheels, and no toolkit at CUDA_HOME, CUDA_PATH or "
                    f"/usr/local/cuda holds them all){hint}")
    version = cuda_headers_version(folders)
    if version is None:
        return (), f"the CUDA headers in {folders[0]} name no CUDA_VERSION"
    if str(version // 1000) != torch_cuda.partition(".")[0]:
        return (), (f"the CUDA headers in {folders[0]} are CUDA {version // 1000}."
                    f"{version % 1000 // 10}, torch was built with CUDA {torch_cuda}")
    return folders, ""


def flags(shim: Shim) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``shim``'s compiler and linker flags for the installed torch: a ``cuda``
    shim gets CUDA_DEFINE and ``-ltorch_cuda`` only where torch has CUDA (the
    one rule for every build place; ``_core`` never links libtorch), and
    CUBLASLT_DEFINE with CUDA's include folders where ``cublaslt_headers``
    takes them (found, of torch's CUDA major version). The flags
    of SHIM_FLAGS_VAR go to both (the asan env's sanitizers, a test setting read
    from the environment, not a ``Config`` field) and so into the key."""
    extra = tuple(shlex.split(os.environ.get(SHIM_FLAGS_VAR, "")))
    if shim.cuda and torch_has_cuda():
        headers, _ = cublaslt_headers()
        cublaslt = (CUBLASLT_DEFINE, *(f"-I{folder}" for folder in headers)) if headers else ()
        return (*shim.cflags, CUDA_DEFINE, *cublaslt, *extra), ("-ltorch_cuda", *extra)
    return (*shim.cflags, *extra), extra


def key(shim: Shim) -> str:
    """What the library depends on: the torch it links against, Python, source
    (with its csrc headers), flags."""
    import torch

    cflags, ldflags = flags(shim)
    return core.key(torch.__version__, str(getattr(torch.version, "git_version", "")),
                    sys.version, core.digest(source_of(shim)), " ".join((*cflags, *ldflags)))


def module_name(shim: Shim, shim_key: str) -> str:
    return f"fastlaunch_{shim.name}_{shim_key}"


def relative_path(shim: Shim, shim_key: str) -> Path:
    """``<name>/<key>/<module>.so``, under the installed folder or the cache folder."""
    return Path(shim.name) / shim_key / f"{module_name(shim, shim_key)}.so"


def cached_path(shim: Shim, shim_key: str) -> Path:
    """Where a build made after install lies: in the shim's build folder
    (``core.folder``, the one cache rule)."""
    return core.folder(shim.name) / relative_path(shim, shim_key).relative_to(shim.name)


def installed_root() -> Path:
    """Where an install-time build lies: ``fastlaunch/torch_shims`` in the folder
    the extension ``_core`` was installed into (in an editable install that is
    site-packages, not the source tree); CMakeLists.txt installs it there. The
    extension is found, not imported: this room sits below the runtime."""
    spec = importlib.util.find_spec(f"{core.PACKAGE.name}.runtime._core")
    origin = spec.origin if spec is not None and spec.origin else core.PACKAGE / "runtime" / "_"
    return Path(origin).resolve().parents[1] / "torch_shims"


def lower_priority() -> None:
    """Make this process (and what it starts) take only CPU time nobody else wants."""
    os.environ["MAX_JOBS"] = "1"  # torch's extension builder: one compiler job
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    if hasattr(os, "nice"):
        os.nice(19 - os.nice(0))
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        # where not permitted, nice 19 still yields to everyone else
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def compile_into(source: Path, name: str, cflags: Sequence[str], path: Path, *,
                 ldflags: Sequence[str] = (), verbose: bool = False,
                 lock_fd: int | None = None) -> None:
    """The child's work: compile in a private folder (``csrc/`` on the include
    path), then publish the library (``core.publish``). Builders of one library
    take turns on its lock, taken before torch is imported (``lock_fd``: the
    lock the parent took and handed over); a later one finds it done."""
    if lock_fd is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock_fd = core.open_lock(path.parent)
        core.take_lock(lock_fd, wait=True)
    elif not core.take_lock(lock_fd, wait=False):  # the parent's lock is ours: never blocks
        msg = f"the build lock in {path.parent} handed to this process is not held"
        raise RuntimeError(msg)
    else:
        os.set_inheritable(lock_fd, False)  # the compiler's processes never hold it
    if path.exists():
        return
    from torch.utils import cpp_extension

    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        cpp_extension.load(name=name, sources=[str(source)], extra_cflags=list(cflags),
                           extra_ldflags=list(ldflags), build_directory=tmp,
                           extra_include_paths=[str(source.parent.parent)], verbose=verbose)
        staged = path.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(Path(tmp) / f"{name}.so", staged)
        core.publish(staged, path)


def run_build(shim: Shim, target: Path, *, idle: bool, progress: Callable[[str], None],
              verbose: bool = False, lock_fd: int | None = None,
              handed: threading.Event | None = None) -> str:
    """Compile ``shim`` into ``target`` in a child process; "" on success, else why not.
    ``progress`` gets a line every PROGRESS_S seconds; ``verbose`` shows the compiler.
    ``lock_fd`` (a build lock this process holds) is handed to the child and
    closed here once the child runs: the child holds it until it exits
    (``handed`` is set then, or when no child could start)."""
    # the child imports this very package (not another fastlaunch on its path)
    search = [str(core.PACKAGE.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = dict(os.environ, FASTLAUNCH="0", TORCHINDUCTOR_NPU_FAST_LAUNCH="0",
               PYTHONPATH=os.pathsep.join(search))
    cflags, ldflags = flags(shim)
    command = [sys.executable, "-m", f"{core.PACKAGE.name}.builds", "compile", str(source_of(shim)),
               module_name(shim, target.parent.name), str(target), "--", *cflags]
    command[4:4] = [flag for flag, on in (("--idle", idle), ("--verbose", verbose)) if on]
    command[4:4] = [f"--ldflag={flag}" for flag in ldflags]
    if lock_fd is not None:
        command[4:4] = [f"--lock-fd={lock_fd}"]
    start = time.monotonic()
    try:
        with tempfile.TemporaryFile("w+") as output:
            try:
                child = subprocess.Popen(command, env=env, stdout=output,
                                         stderr=subprocess.STDOUT, text=True,
                                         pass_fds=() if lock_fd is None else (lock_fd,))
            finally:
                if lock_fd is not None:
                    os.close(lock_fd)
                if handed is not None:
                    handed.set()
            _children[shim.name] = child
            try:
                while True:
                    try:
                        rc = child.wait(timeout=PROGRESS_S)
                        break
                    except subprocess.TimeoutExpired:
                        waited = time.monotonic() - start
                        if waited > BUILD_TIMEOUT_S:
                            child.kill()
                            child.wait()
                            return f"build did not finish in {BUILD_TIMEOUT_S} s"
                        progress(f"fastlaunch: still building {shim.name} ({waited:.0f} s)")
            finally:
                _children.pop(shim.name, None)
            output.seek(0)
            tail = output.read().strip().splitlines()[-3:]
    except OSError as err:
        return f"build did not run: {type(err).__name__}: {err}"
    if rc != 0 or not target.exists():
        return f"build failed (exit {rc}): {' | '.join(tail)}"
    return ""


class _State:
    """One shim's state in this process. ``target`` is set while the cache
    lacks a loadable build (``broken``: the identity of a cached library that
    did not load, which the build replaces)."""

    def __init__(self) -> None:
        self.now = State(Phase.UNDECIDED, "not looked for yet")
        self.decided = False
        self.builder: threading.Thread | None = None
        self.handed: threading.Event | None = None  # set: the lock this process took is
        # with its build child (or the build ended without one)
        self.target: Path | None = None
        self.broken = ""
        self.key = ""


_lock = threading.Lock()
_states: dict[str, _State] = {}
_children: dict[str, subprocess.Popen] = {}  # the running build of each shim
_foreground_only = 0  # > 0 inside foreground_only(): no background builds
_warned_caches: set[Path] = set()  # unusable cache folders already warned about
REPAIRED = ".repaired"  # in the key folder: the identity of the library a repair built


@contextlib.contextmanager
def foreground_only() -> Iterator[None]:
    """No background build starts in this block (the CLI's tools: doctor, cache);
    builds a caller waits for (``wait=True``) still run."""
    global _foreground_only
    _foreground_only += 1
    try:
        yield
    finally:
        _foreground_only -= 1


def background_allowed() -> bool:
    """Whether this process may start a background build: not inside
    ``foreground_only``, and not one of fastlaunch's own commands
    (``python -m fastlaunch ...``, selfcheck's ``-m fastlaunch.tools.selfcheck`` child)."""
    main = getattr(getattr(sys.modules.get("__main__"), "__spec__", None), "name", "") or ""
    return not _foreground_only and not main.startswith("fastlaunch.")


def _identity(path: Path) -> str:
    """Which file ``path`` is now (a rebuilt library is another file)."""
    try:
        st = path.stat()
    except OSError:
        return ""
    return f"{st.st_ino} {st.st_size} {st.st_mtime_ns}"


def _state(shim: Shim) -> _State:
    return _states.setdefault(shim.name, _State())


def state(shim: Shim, loaded: Callable[[], bool] | None = None) -> State:
    """Where ``shim`` stands: active (and from where), building, off, or why
    unavailable; its line is doctor's row. ``loaded`` tells whether the core
    holds the shim anyway (a caller installed it)."""
    now = _state(shim).now
    if loaded is not None and not now.active and loaded():
        return State(Phase.ACTIVE, "active (installed by the caller)")
    child = _children.get(shim.name)
    if child is not None:
        return State(now.phase, f"{now} (child pid {child.pid})")
    return now


def cut_short(path: Path) -> str:
    """Why the ELF library at ``path`` is incomplete (its headers name bytes past
    its end), or "": loading such a file (a truncated copy) maps pages beyond its
    end, and touching them kills the process with SIGBUS instead of failing."""
    import struct

    with open(path, "rb") as file:
        head = file.read(64)
        size = os.fstat(file.fileno()).st_size
        if head[:4] != b"\x7fELF" or len(head) < 52 or head[4] not in (1, 2) or \
                head[5] not in (1, 2):
            return ""  # not ELF: the loader refuses it cleanly
        wide, order = head[4] == 2, "<" if head[5] == 1 else ">"
        if wide and len(head) < 64:
            return f"{size} bytes, shorter than an ELF header"
        phoff, shoff = struct.unpack_from(order + ("QQ" if wide else "II"), head,
                                          32 if wide else 28)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", head,
                                                                54 if wide else 42)
        if phnum and phentsize < (56 if wide else 32):
            return f"program header entries of {phentsize} bytes"
        tables = (("program headers", phoff, phnum * phentsize),
                  ("section headers", shoff, shnum * shentsize))
        for what, offset, length in tables:
            if offset + length > size:
                return f"{size} bytes, but its {what} end at byte {offset + length}"
        file.seek(phoff)
        table = file.read(phnum * phentsize)
    for i in range(phnum):
        entry = i * phentsize
        offset, length = (struct.unpack_from(order + "QxxxxxxxxxxxxxxxxQ", table, entry + 8)
                          if wide else struct.unpack_from(order + "IxxxxxxxxI", table,
                                                          entry + 4))
        if offset + length > size:
            return f"{size} bytes, but segment {i} ends at byte {offset + length}"
    return ""


def _import(shim: Shim, path: Path, shim_key: str) -> object:
    short = cut_short(path)
    if short:
        msg = f"{path} is cut short: {short}"
        raise ImportError(msg)
    spec = importlib.util.spec_from_file_location(module_name(shim, shim_key), path)
    if spec is None or spec.loader is None:
        msg = f"cannot import {path}"
        raise ImportError(msg)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _activate(shim: Shim, state: _State, path: Path, where: str,
              activate: Callable[[object], None], how: str = "",
              failed: Callable[[], str] | None = None) -> bool:
    """Import and hand over the library; the one INFO (or WARNING) line of this
    outcome. Where it does not load, ``failed`` says what the state's line adds."""
    try:
        activate(_import(shim, path, state.key))
    except Exception as err:  # the caller's fallback path stays correct
        line = f"{where} {path} does not load: {type(err).__name__}: {err}"
        log.warning("fastlaunch: %s unavailable (%s)", shim.name, line)
        state.now = State(Phase.UNAVAILABLE,
                          f"unavailable ({line}{failed() if failed is not None else ''})")
        return False
    state.now = State(Phase.ACTIVE, f"active ({where}: {path})")
    log.info("fastlaunch: %s %sloaded (%s: %s)", shim.name, how, where, path)
    return True


def _decide(shim: Shim, state: _State, activate: Callable[[object], None]) -> None:
    """The first look (once per process): off, an installed build, a cached build, or none."""
    state.decided = True
    if not shim.enabled(config.get()):
        state.now = State(Phase.OFF, f"off ({shim.switch}=0)")
        log.info("fastlaunch: %s skipped: %s=0", shim.name, shim.switch)
        return
    if importlib.util.find_spec("torch") is None:
        state.now = State(Phase.UNAVAILABLE, "unavailable (torch is not installed)")
        log.info("fastlaunch: %s skipped: torch is not installed", shim.name)
        return
    state.key = key(shim)
    installed, cached = installed_root() / relative_path(shim, state.key), cached_path(
        shim, state.key)
    for where, path in (("installed with fastlaunch", installed), ("cached build", cached)):
        if path.exists():
            _activate(shim, state, path, where, activate,
                      failed=functools.partial(_broken, state, path) if path == cached else None)
            return
    state.target = cached
    state.now = State(Phase.NOT_BUILT, f"not built for this torch (looked in "
                      f"{installed_root() / shim.name} and {cached.parent.parent})")


def _broken(state: _State, path: Path) -> str:
    """A cached library that does not load (truncated, damaged) is built again,
    once: not when it is the very library an earlier repair built. Returns what
    the shim's state line adds."""
    identity = _identity(path)
    with contextlib.suppress(OSError):
        if (path.parent / REPAIRED).read_text() == identity:
            return (", even rebuilt; `python -m fastlaunch cache clear --what "
                    f"{path.parent.parent.name}` removes it")
    state.target, state.broken = path, identity
    return "; it is rebuilt by the next build"


def _build(shim: Shim, state: _State, activate: Callable[[object], None], lock_fd: int, *,
           held: bool, idle: bool, progress: Callable[[str], None]) -> None:
    """Build into the cache under its lock (``held``: taken already, else waited
    for here), then load it; a broken library is removed first, under the lock."""
    target = state.target
    assert target is not None
    try:
        if not held:
            core.take_lock(lock_fd, wait=True)
        repair = bool(state.broken) and _identity(target) == state.broken
        if repair:
            target.unlink()
        done = target.exists()  # built by another process meanwhile
    except BaseException:
        os.close(lock_fd)
        _handed(state)
        raise
    if done:
        os.close(lock_fd)
        _handed(state)
        _activate(shim, state, target, "built by another process", activate)
        return
    start = time.monotonic()
    try:
        why = run_build(shim, target, idle=idle, progress=progress,
                        verbose=config.get().verbose_build, lock_fd=lock_fd,
                        handed=state.handed)
    finally:
        _handed(state)
    if why:
        state.now = State(Phase.UNAVAILABLE, f"unavailable ({why})")
        log.warning("fastlaunch: %s %s", shim.name, state.now)
        return
    if repair:
        with contextlib.suppress(OSError):
            (target.parent / REPAIRED).write_text(_identity(target))
    _activate(shim, state, target, "built here", activate,
              how=f"built in {time.monotonic() - start:.1f} s and ")


def _await_other(shim: Shim, state: _State, activate: Callable[[object], None],
                 lock_fd: int) -> None:
    """Another process holds the build lock: wait for it to end, then load what it built."""
    import fcntl

    assert state.target is not None
    try:
        core.take_lock(lock_fd, wait=True)
        try:
            if state.target.exists() and _identity(state.target) != state.broken:
                _activate(shim, state, state.target, "built by another process", activate)
            else:
                state.now = State(Phase.UNAVAILABLE, f"unavailable (the build another process "
                                  f"ran into {state.target.parent} left no library; the next "
                                  "program builds it again)")
                log.info("fastlaunch: %s %s", shim.name, state.now)
        finally:
            fcntl.flock(lock_fd, fcntl.LOCK_UN)  # even where a fork shares the descriptor
    finally:
        os.close(lock_fd)


def _cannot_build(shim: Shim, state: _State) -> bool:
    """Whether the cache folder cannot hold the build; said once per folder as a
    warning, before any compiler runs."""
    assert state.target is not None
    problem = core.cache_problem(state.target.parent)
    if not problem:
        return False
    root = config.cache_dir()
    state.now = State(Phase.UNAVAILABLE, f"unavailable (the cache folder {root} is not usable: "
                      f"{problem}; set FASTLAUNCH_CACHE_DIR to a writable folder)")
    level = logging.INFO if root in _warned_caches else logging.WARNING
    _warned_caches.add(root)
    log.log(level, "fastlaunch: %s %s", shim.name, state.now)
    return True


def ensure(shim: Shim, activate: Callable[[object], None], *,
           loaded: Callable[[], bool] | None = None, build: bool = False,
           wait: bool = False, progress: Callable[[str], None] | None = None) -> bool:
    """True when the shim is active. The first call loads an installed or cached
    build, if there is one. With ``build`` and none, a child builds it into the
    cache: with ``wait`` at normal priority while this waits, otherwise at idle
    priority while this returns at once. ``activate`` receives the imported module;
    ``loaded`` (whether the core already holds the shim) answers first, unlocked,
    as plan makers ask on every plan."""
    if loaded is not None and loaded():
        return True
    state = _state(shim)
    with _lock:
        if not state.decided:
            _decide(shim, state, activate)
        start = (build and state.builder is None and state.target is not None
                 and (wait or background_allowed()) and not _cannot_build(shim, state))
        if start and not core.cxx_compiler():
            state.now = State(Phase.UNAVAILABLE, "unavailable (no C++ compiler: "
                              f"{os.environ.get('CXX', 'c++')} not found; "
                              f"{state.now})")
            log.warning("fastlaunch: %s %s; `python -m fastlaunch build` where there is one",
                        shim.name, state.now)
            start = False
        if start:
            _start(shim, state, activate, wait=wait, progress=progress or log.info)
        builder = state.builder
    if wait and builder is not None:
        builder.join()
    return state.now.active


@dataclasses.dataclass(frozen=True)
class Owner:
    """A torch shim's runtime side, one per shim: the ``OWNER`` of the runtime
    module named after it (``fastlaunch.runtime.<name>``, which
    ``tools.build.owners()`` finds). ``activate`` hands the loaded library to
    the core (``_core.set_...``), ``loaded`` tells whether the core holds it;
    ``until`` names the slower path taken while the shim is not active (added
    to its line); ``detail``, what an active shim's line adds (a part the
    loaded build lacks, and why; "" for nothing)."""

    shim: Shim
    activate: Callable[[object], None]
    loaded: Callable[[], bool]
    until: str = ""
    detail: Callable[[], str] | None = None

    def status(self) -> State:
        """Where the shim stands (its line is doctor's row): active (and from
        where, with its detail), building, off, or why not."""
        now = state(self.shim, loaded=self.loaded)
        if now.active:
            detail = self.detail() if self.detail is not None else ""
            return State(now.phase, f"{now}; {detail}") if detail else now
        if not self.until:
            return now
        then = " until then" if now.phase is Phase.BUILDING else ""
        return State(now.phase, f"{now}; {self.until}{then}")

    def ensure(self, *, build: bool = False, wait: bool = False,
               progress: Callable[[str], None] | None = None) -> bool:
        """True when the shim is active (see ``shims.ensure``)."""
        return ensure(self.shim, self.activate, loaded=self.loaded, build=build, wait=wait,
                      progress=progress)


def _start(shim: Shim, state: _State, activate: Callable[[object], None], *, wait: bool,
           progress: Callable[[str], None]) -> None:
    """Take the build's lock and start the builder thread (which waits for the
    lock when ``wait``); where another process holds it, a thread that loads
    its build when it is done, and no build here."""
    target = state.target
    assert target is not None
    try:
        core.make_dirs(target.parent)
        lock_fd = core.open_lock(target.parent)
    except OSError as err:  # unusable in a way cache_problem cannot see
        state.now = State(Phase.UNAVAILABLE, f"unavailable (cannot write {target.parent}: {err})")
        log.warning("fastlaunch: %s %s", shim.name, state.now)
        return
    held = not wait and core.take_lock(lock_fd, wait=False)
    why = "not built for this torch" if not state.broken else "the cached build did not load"
    if not wait and not held:
        state.now = State(Phase.ELSEWHERE, f"being built by another process into "
                          f"{target.parent}; loaded here when it is done")
        log.info("fastlaunch: %s %s", shim.name, state.now)
        work, args, kwargs = _await_other, (shim, state, activate, lock_fd), {}
    else:
        if wait:
            state.now = State(Phase.BUILDING, f"building into {target.parent}")
            log.info("fastlaunch: %s %s: %s", shim.name, why, state.now)
        else:
            state.now = State(Phase.BUILDING, "building in the background at idle priority "
                              f"into {target.parent}")
            log.info("fastlaunch: %s %s: %s; the slower path until it is ready "
                     "(`python -m fastlaunch build` builds ahead)", shim.name, why, state.now)
        work, args = _build, (shim, state, activate, lock_fd)
        kwargs = {"held": held, "idle": not wait, "progress": progress}
        if held:
            state.handed = threading.Event()
            _hand_over_at_exit()
    state.builder = threading.Thread(target=work, args=args, kwargs=kwargs,
                                     name=f"fastlaunch-{shim.name}-build", daemon=True)
    state.builder.start()


HAND_OVER_S = 30.0  # bound on the wait at exit for a build child to start


@functools.cache
def _hand_over_at_exit() -> None:
    """A short program that took a build lock must not exit before its builder
    thread starts the child: the daemon thread would die with it, the lock would
    be freed and no process would build (seen on a loaded 2-core machine). At
    exit, wait until each such lock is with its child (a fork and exec)."""
    import atexit

    def hand_over() -> None:
        deadline = time.monotonic() + HAND_OVER_S
        for name, state in list(_states.items()):
            # a forked child has the event but not the thread: nothing to wait for
            if state.handed is not None and state.builder is not None \
                    and state.builder.is_alive() \
                    and not state.handed.wait(max(0.0, deadline - time.monotonic())):
                log.warning("fastlaunch: exiting before the background build of %s started "
                            "(waited %.0f s); the next program builds it", name, HAND_OVER_S)

    atexit.register(hand_over)


def _handed(state: _State) -> None:
    if state.handed is not None:
        state.handed.set()


def install_into(root: Path) -> int:
    """The install's CMake step (``--no-build-isolation`` installs): build every
    shim into ``root`` for the torch of this Python, or say why not. Never
    fails the install."""
    def say(line: str) -> None:
        print(line, flush=True)  # noqa: T201 (CMake shows the build's output)

    root.mkdir(parents=True, exist_ok=True)
    if importlib.util.find_spec("torch") is None:
        say("fastlaunch: torch shims skipped: torch is not importable in the build's Python "
            "(pip's build isolation, or no torch); they are built on first use at idle "
            "priority, or ahead with `python -m fastlaunch build`")
        return 0
    if not core.cxx_compiler():
        say("fastlaunch: torch shims skipped: no C++ compiler")
        return 0
    try:
        keys = {name: key(shim) for name, shim in SHIMS.items()}
    except Exception as err:  # e.g. a torch that does not import here
        say(f"fastlaunch: torch shims skipped: torch does not import: {type(err).__name__}: "
            f"{err}")
        return 0
    for shim in SHIMS.values():
        target = root / relative_path(shim, keys[shim.name])
        if target.exists():
            continue
        say(f"fastlaunch: building {shim.name} against the installed torch (about 30 s)")
        start = time.monotonic()
        why = run_build(shim, target, idle=False, progress=say,
                        verbose=config.get().verbose_build)
        say(f"fastlaunch: {shim.name} " + (f"skipped: {why}" if why else
                                           f"built in {time.monotonic() - start:.0f} s"))
    return 0
