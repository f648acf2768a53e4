# SPDX-License-Identifier: Apache-2.0
"""Environment switches, parsed once, with an override for tests."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

_TRUE = frozenset({"1", "true", "yes", "on", "y"})
_FALSE = frozenset({"", "0", "false", "no", "off", "n"})
BACKENDS = ("auto", "npu", "cuda", "fake")
NPU_IMPLS = ("fastlaunch", "torch_npu")


@dataclasses.dataclass(frozen=True)
class Config:
    """Every ``FASTLAUNCH_*`` variable a user sets, parsed (``VARIABLES`` says what
    each does). Read once per process, except the two folders: ``cache_dir()``
    and ``wheel_cache()`` read them again when used, so a process may move them
    after fastlaunch was configured (the tests, a deployment step); the fields
    hold what they were at parse, for doctor."""

    enabled: bool = False
    enabled_by: str = ""  # the variable that turned it on
    backend: str = "auto"
    strict: bool = False
    npu_impl: str = "fastlaunch"
    cann_libraries: tuple[str, ...] = ("libascendcl.so", "libruntime.so")
    planned_call: bool = True  # FASTLAUNCH_PLANNED_CALL=0: wrappers keep their Python call()
    prepared_ops: bool = True  # FASTLAUNCH_PREPARED_OPS=0: the planned call's ops through ATen's
    #                            dispatcher, as its Python callables reach them
    torch_accessor: bool = True  # FASTLAUNCH_TORCH_ACCESSOR=0: data_ptr() per tensor
    verbose_build: bool = False  # FASTLAUNCH_VERBOSE_BUILD=1: compiler output of run-time builds
    cache_dir: Path = Path()  # FASTLAUNCH_CACHE_DIR (see cache_dir())
    wheel_cache: Path = Path()  # FASTLAUNCH_WHEEL_CACHE (see wheel_cache())
    parsed: tuple[tuple[str, str, str], ...] = ()  # (name, raw, meaning) for doctor


def parse_bool(name: str, raw: str | None, default: bool = False) -> bool:
    """1/true/yes/on/y (any case, stripped) is on, 0/false/no/off/n off; unset or
    empty is ``default``, and so is anything else, with a warning (the one rule for
    a value fastlaunch does not know: it keeps the default and says so)."""
    value = (raw or "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE - {""}:
        return False
    if value:
        warn_at_caller(f"{name}={raw!r} is not a boolean (expected one of "
                       f"{sorted(_TRUE)} or {sorted(_FALSE - {''})}); keeping the default, "
                       f"{'on' if default else 'off'}")
    return default


def is_bool(raw: str) -> bool:
    """Whether ``raw`` is one of the spellings ``parse_bool`` knows."""
    return raw.strip().lower() in _TRUE | _FALSE


def _parse_choice(name: str, raw: str | None, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (any case, stripped); unset, empty or unknown: the first."""
    value = (raw or "").strip().lower() or choices[0]
    if value not in choices:
        warn_at_caller(f"{name}={raw!r} is not one of {list(choices)}; keeping the default, "
                       f"{choices[0]!r}")
        return choices[0]
    return value


def _skipped_prefixes() -> tuple[str, ...]:
    """Where the frames a switch's warning is not attributed to live: fastlaunch, and
    the import machinery and torch's entry-point loader between it and the user
    (the variables are usually first read during ``import torch``)."""
    import importlib

    files = [__file__, importlib.__file__]
    torch = sys.modules.get("torch")
    if getattr(torch, "__file__", None):
        files.append(torch.__file__)
    # As code objects name them, and resolved (an install through a symlink).
    folders = {os.path.dirname(os.path.abspath(f)) for f in files} | {
        os.path.dirname(os.path.realpath(f)) for f in files}
    return (*sorted(f"{folder}{os.sep}" for folder in folders), "<frozen ")


def _skipped(filename: str, prefixes: tuple[str, ...]) -> bool:
    return filename.startswith(prefixes) or os.path.realpath(filename).startswith(prefixes)


def warn_at_caller(message: str) -> None:
    """A ``RuntimeWarning`` attributed to the user's line that led here (the first
    frame outside fastlaunch, importlib and torch), not to fastlaunch's own."""
    prefixes = _skipped_prefixes()
    if sys.version_info >= (3, 12):
        warnings.warn(message, RuntimeWarning, skip_file_prefixes=prefixes)
        return
    # Before 3.12: count the frames to skip, as warnings.warn counts them (frames of
    # importlib's bootstrap are not counted once the walk has left the caller).
    frame, level = sys._getframe(1), 2  # level 2: the caller of this function
    while frame.f_back is not None and _skipped(frame.f_code.co_filename, prefixes):
        frame = frame.f_back
        if not ("importlib" in frame.f_code.co_filename
                and "_bootstrap" in frame.f_code.co_filename):
            level += 1
    warnings.warn(message, RuntimeWarning, stacklevel=level)


def from_environ(environ: dict[str, str] | os._Environ | None = None) -> Config:
    env = os.environ if environ is None else environ
    parsed = []
    enabled, enabled_by = False, ""
    # FASTLAUNCH decides when set to a boolean (an explicit 0 wins); torch_npu's
    # own switch turns fast launch on only when FASTLAUNCH says nothing (unset,
    # empty, or a value that is not a boolean, which warns).
    for name in ("FASTLAUNCH", "TORCHINDUCTOR_NPU_FAST_LAUNCH"):
        if name not in env:
            continue
        on = parse_bool(name, env[name])
        known = is_bool(env[name])
        meaning = ("on" if on else "off") if known else "not a boolean: as if unset"
        if enabled_by:
            meaning += f" (ignored: {enabled_by} decides)"
        elif env[name].strip() and known:
            enabled, enabled_by = on, name
        parsed.append((name, env[name], meaning))
    backend = _parse_choice("FASTLAUNCH_BACKEND", env.get("FASTLAUNCH_BACKEND"), BACKENDS)
    strict = parse_bool("FASTLAUNCH_STRICT", env.get("FASTLAUNCH_STRICT"))
    npu_impl = _parse_choice("FASTLAUNCH_NPU_IMPL", env.get("FASTLAUNCH_NPU_IMPL"), NPU_IMPLS)
    libs = tuple(p for p in env.get("FASTLAUNCH_CANN_LIBRARIES", "").split(os.pathsep) if p)
    planned_call = _parse_default_on(env, "FASTLAUNCH_PLANNED_CALL", parsed)
    prepared_ops = _parse_default_on(env, "FASTLAUNCH_PREPARED_OPS", parsed)
    torch_accessor = _parse_default_on(env, "FASTLAUNCH_TORCH_ACCESSOR", parsed)
    verbose_build = parse_bool("FASTLAUNCH_VERBOSE_BUILD", env.get("FASTLAUNCH_VERBOSE_BUILD"))
    cache, wheels = _cache_dir(env), _wheel_cache(env)
    parsed += [("FASTLAUNCH_CANN_LIBRARIES", env.get("FASTLAUNCH_CANN_LIBRARIES", ""),
                os.pathsep.join(libs or Config.cann_libraries)),
               ("FASTLAUNCH_VERBOSE_BUILD", env.get("FASTLAUNCH_VERBOSE_BUILD", ""),
                "on" if verbose_build else "off"),
               ("FASTLAUNCH_CACHE_DIR", env.get("FASTLAUNCH_CACHE_DIR", ""), str(cache)),
               ("FASTLAUNCH_WHEEL_CACHE", env.get("FASTLAUNCH_WHEEL_CACHE", ""), str(wheels))]
    parsed += [("FASTLAUNCH_BACKEND", env.get("FASTLAUNCH_BACKEND", ""), backend),
               ("FASTLAUNCH_STRICT", env.get("FASTLAUNCH_STRICT", ""), "on" if strict else "off"),
               ("FASTLAUNCH_NPU_IMPL", env.get("FASTLAUNCH_NPU_IMPL", ""), npu_impl)]
    extra = {"cann_libraries": libs} if libs else {}
    return Config(enabled=enabled and bool(enabled_by), enabled_by=enabled_by if enabled else "",
                  backend=backend, strict=strict, npu_impl=npu_impl, planned_call=planned_call,
                  prepared_ops=prepared_ops, torch_accessor=torch_accessor,
                  verbose_build=verbose_build, cache_dir=cache, wheel_cache=wheels,
                  parsed=tuple(parsed), **extra)


def _parse_default_on(env: dict[str, str] | os._Environ, name: str,
                      parsed: list[tuple[str, str, str]]) -> bool:
    """A switch that is on unless set to a false value (unset or empty: on)."""
    raw = env.get(name, "")
    on = parse_bool(name, raw, default=True)
    parsed.append((name, raw, "on" if on else "off"))
    return on


#: Every environment variable fastlaunch itself reads, with what it does (``doctor``).
#: The user-facing ones are fields of ``Config``; the last three are not: one is
#: read by the tests only (tests/helpers/wheels.py, as is
#: FASTLAUNCH_TRITON_ASCEND_TREES, which fastlaunch never reads), one is the asan
#: env's (read by builds.shims, into the shims' flags and key), the last is
#: selfcheck's protocol with the child process it starts.
VARIABLES = (
    ("FASTLAUNCH", "1 turns fastlaunch on, 0 off (an explicit value wins over the next one)"),
    ("TORCHINDUCTOR_NPU_FAST_LAUNCH", "torch_npu's switch; turns fastlaunch on when FASTLAUNCH "
                                      "is unset"),
    ("FASTLAUNCH_BACKEND", "auto | npu | cuda | fake (fake records launches, runs nothing)"),
    ("FASTLAUNCH_STRICT", "1: an unexpected fallback raises instead of taking the original path"),
    ("FASTLAUNCH_NPU_IMPL", "fastlaunch | torch_npu (torch_npu's own in-tree fast launch)"),
    ("FASTLAUNCH_CANN_LIBRARIES", "CANN libraries to load, os.pathsep-separated"),
    ("FASTLAUNCH_PLANNED_CALL", "0: Inductor wrappers keep their Python call() (default on: "
                                "the planned call runs it as a native program)"),
    ("FASTLAUNCH_PREPARED_OPS", "0: the planned call's GEMMs go through ATen's dispatcher "
                                "(default on: on their CPU/CUDA kernel directly where that is "
                                "the same call, as cpp_wrapper's AOTI shim does)"),
    ("FASTLAUNCH_TORCH_ACCESSOR", "0: read tensor addresses through data_ptr() instead of the "
                                  "torch-built accessor"),
    ("FASTLAUNCH_VERBOSE_BUILD", "1: show the compiler output of run-time builds (torch "
                                 "shims, task-queue shim, selfcheck's recorder and launchers)"),
    ("FASTLAUNCH_CACHE_DIR", "where run-time builds are kept (python -m fastlaunch cache lists "
                             "them); ~ is expanded, a relative path is taken from the working "
                             "directory; default $XDG_CACHE_HOME/fastlaunch, or "
                             "~/.cache/fastlaunch where XDG_CACHE_HOME is unset or relative "
                             "(empty: the default)"),
    ("FASTLAUNCH_WHEEL_CACHE", "where the tests download torch-npu / triton-ascend wheels and "
                               "selfcheck --backend fake-npu finds triton-ascend; default "
                               "<cache dir>/wheels"),
    ("FASTLAUNCH_OFFLINE", "tests: 1 skips the wheel-reading tests at once instead of downloading"),
    ("FASTLAUNCH_SHIM_FLAGS", "tests: further compiler and linker flags for the torch shims "
                              "(tox -e asan: the sanitizers); part of their build key"),
    ("FASTLAUNCH_SELFCHECK_CHILD", "internal: set by selfcheck in the child process it preloads "
                                   "the interposition layer into"),
)
#: The variables of VARIABLES that are not fields of Config (see above).
OUTSIDE_CONFIG = ("FASTLAUNCH_OFFLINE", "FASTLAUNCH_SHIM_FLAGS", "FASTLAUNCH_SELFCHECK_CHILD")


_absolute: dict[str, Path] = {}  # a folder variable's value -> the path it was first read as


def _folder(raw: str) -> Path:
    """A folder variable's value as a path: ``~`` expanded, then made absolute
    against the working directory of the first read, so a later ``chdir`` does
    not move the cache."""
    if raw not in _absolute:
        _absolute[raw] = Path(os.path.abspath(os.path.expanduser(raw)))
    return _absolute[raw]


def _cache_dir(env: dict[str, str] | os._Environ) -> Path:
    base = env.get("FASTLAUNCH_CACHE_DIR", "").strip()
    if base:
        return _folder(base)
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    # the XDG rule: a relative XDG_CACHE_HOME is invalid and ignored
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "fastlaunch"


def _wheel_cache(env: dict[str, str] | os._Environ) -> Path:
    path = env.get("FASTLAUNCH_WHEEL_CACHE", "").strip()
    return _folder(path) if path else _cache_dir(env) / "wheels"


def cache_dir() -> Path:
    """Where fastlaunch keeps what it builds at run time: ``FASTLAUNCH_CACHE_DIR``
    (``~`` expanded, a relative path taken from the working directory when first
    read), else ``$XDG_CACHE_HOME/fastlaunch``, else ``~/.cache/fastlaunch``. An
    empty variable counts as unset (never the current directory). Read when used."""
    return _cache_dir(os.environ)


def wheel_cache() -> Path:
    """Where downloaded torch-npu / triton-ascend wheels are kept, for the tests and
    selfcheck alike: ``FASTLAUNCH_WHEEL_CACHE`` (read as ``cache_dir`` reads its
    variable), else ``cache_dir() / "wheels"``. Read when used."""
    return _wheel_cache(os.environ)


_current: Config | None = None


class _Switch:
    """Whether call sites may launch planned, read per call by the router.

    The newest setting decides: an active ``enabled()`` block or the last
    ``set_runtime`` call, whichever came later; with neither, the
    configuration's ``enabled``. Blocks may end in any order (overlapping
    blocks of two threads): an ended block just stops counting.
    ``listeners`` run when it flips (the router swaps FastSites in or out).
    """

    __slots__ = ("blocks", "listeners", "on", "order", "runtime", "runtime_order")

    def __init__(self) -> None:
        self.on = False
        self.runtime: bool | None = None
        self.order = itertools.count(1)  # when each setting was made
        self.runtime_order = 0
        self.blocks: dict[int, bool | None] = {}  # active blocks by the order they began
        self.listeners: list = []

    def refresh(self) -> None:
        with _switch_lock:  # read, decide and notify as one step: the last setter wins
            was = self.on
            setting = self.runtime
            newest = max(self.blocks, default=0)
            if newest > self.runtime_order:
                setting = self.blocks[newest]
            self.on = get().enabled if setting is None else setting
            if self.on != was:
                for listener in self.listeners:
                    listener()


switch = _Switch()
_switch_lock = threading.RLock()


def _check_setting(on: object) -> None:
    if on is not None and not isinstance(on, bool):
        msg = f"enabled: got {on!r}, expected True, False or None"
        raise TypeError(msg)


def enabled_now() -> bool:
    """Whether fastlaunch is on now: the environment, or the run-time switch
    when set. Code generation and the cache key follow it too."""
    get()
    return switch.on


def get() -> Config:
    """The process configuration, read from the environment on first use."""
    global _current
    if _current is None:
        _current = from_environ()
        switch.refresh()
    return _current


def set_runtime(on: bool | None) -> bool | None:
    """Set (or with None, drop) the run-time switch; returns the previous setting."""
    _check_setting(on)
    get()
    with _switch_lock:
        previous = switch.runtime
        switch.runtime = on
        switch.runtime_order = next(switch.order)
        switch.refresh()
    return previous


@contextlib.contextmanager
def runtime_block(on: bool | None) -> Iterator[None]:
    """The run-time switch for a block; see ``_Switch`` for overlapping blocks."""
    _check_setting(on)
    get()
    with _switch_lock:
        token = next(switch.order)
        switch.blocks[token] = on
        switch.refresh()
    try:
        yield
    finally:
        with _switch_lock:
            del switch.blocks[token]
            switch.refresh()


@contextlib.contextmanager
def override(**changes: object) -> Iterator[Config]:
    """Temporarily replace fields of the configuration (tests, the demo)."""
    global _current
    previous = get()
    _current = dataclasses.replace(previous, **changes)
    switch.refresh()
    try:
        yield _current
    finally:
        _current = previous
        switch.refresh()
