# SPDX-License-Identifier: Apache-2.0
"""The torch shims' build helper (fastlaunch.runtime.torch_build) and the tensor
accessor built with it: the key, where a build is looked for and in which
order, what each outcome logs, that a background build runs at idle
priority, that concurrent builds take turns, and one real build that reads a
CPU tensor's address and device."""

from __future__ import annotations

import ctypes
import logging
import os
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

from fastlaunch import config  # noqa: E402
from fastlaunch.runtime import (  # noqa: E402
    _core,
    torch_accessor,
    torch_build,
)

SHIM = torch_build.SHIMS["torch_accessor"]


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """Helper state as in a new process; private installed and cache folders; no accessor."""
    monkeypatch.setattr(torch_build, "_states", {})
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(torch_build, "installed_root", lambda: tmp_path / "installed")
    _core.set_tensor_accessor(None)
    with config.override(torch_accessor=True):
        yield tmp_path
    _core.set_tensor_accessor(None)


@pytest.fixture
def imports(monkeypatch):
    """Records which library the helper imports, without importing it."""
    seen: list = []
    monkeypatch.setattr(torch_build, "_import", lambda shim, path, key: seen.append(path) or path)
    return seen


def _place(root, key=None):
    path = root / torch_build.relative_path(SHIM, key or torch_build.key(SHIM))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    return path


def _messages(caplog, level):
    return [r.getMessage() for r in caplog.records
            if r.name.startswith("fastlaunch") and r.levelno == level]


def test_key_covers_torch_python_and_source_not_the_compiler(monkeypatch, tmp_path):
    base = torch_build.key(SHIM)
    monkeypatch.setenv("CXX", "clang++")
    assert torch_build.key(SHIM) == base  # an install-time build loads without a compiler
    monkeypatch.setattr(torch, "__version__", "9.9.9")
    assert torch_build.key(SHIM) != base
    monkeypatch.undo()
    monkeypatch.setattr(torch.version, "git_version", "0" * 40)
    assert torch_build.key(SHIM) != base
    monkeypatch.undo()
    monkeypatch.setattr(sys, "version", "3.99.0 (other build)")
    assert torch_build.key(SHIM) != base
    monkeypatch.undo()
    source = tmp_path / SHIM.source
    source.write_text(SHIM.path.read_text() + "\n// edited\n")
    monkeypatch.setattr(torch_build, "SOURCES", tmp_path)  # as the CMake step sets it
    assert SHIM.path == source and torch_build.key(SHIM) != base


def test_off_by_environment(fresh, caplog, imports):
    _place(fresh / "installed")
    parsed = config.from_environ({"FASTLAUNCH_TORCH_ACCESSOR": "0"})
    with caplog.at_level(logging.INFO, logger="fastlaunch"), \
            config.override(torch_accessor=parsed.torch_accessor):
        assert torch_accessor.ensure(build=True) is False
    assert torch_accessor.status() == ("off (FASTLAUNCH_TORCH_ACCESSOR=0); tensor.data_ptr() "
                                       "per tensor")
    assert _messages(caplog, logging.INFO) == ["fastlaunch: torch_accessor skipped: "
                                               "FASTLAUNCH_TORCH_ACCESSOR=0"]
    assert imports == [] and torch_build._state("torch_accessor").builder is None


def test_installed_build_wins_over_the_cache_and_needs_no_compiler(fresh, monkeypatch, caplog,
                                                                   imports):
    installed = _place(fresh / "installed")
    _place(fresh / "cache")
    monkeypatch.setenv("CXX", "no-such-compiler-fastlaunch")
    activated = []
    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert torch_build.ensure("torch_accessor", activated.append, build=True) is True
    assert imports == [installed] and activated == [installed]
    assert torch_build.status("torch_accessor") == (
        f"active (installed with fastlaunch: {installed})")
    assert _messages(caplog, logging.INFO) == [
        f"fastlaunch: torch_accessor loaded (installed with fastlaunch: {installed})"]
    assert torch_build.ensure("torch_accessor", activated.append) is True
    assert activated == [installed]  # decided once per process


def test_cached_build_when_none_was_installed(fresh, caplog, imports):
    cached = _place(fresh / "cache")
    _place(fresh / "installed", key="0" * 16)  # built for another torch: not used
    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert torch_build.ensure("torch_accessor", lambda module: None) is True
    assert imports == [cached]
    assert _messages(caplog, logging.INFO) == [
        f"fastlaunch: torch_accessor loaded (cached build: {cached})"]


@pytest.fixture
def child(monkeypatch):
    """Stands in for the build child: records each build, writes a library that
    ``loads`` accepts and frees the lock handed to it, as the child's exit does."""
    built: list = []

    def run_build(shim, path, *, idle, progress, verbose=False, lock_fd=None):
        built.append((shim.name, path, idle))
        path.write_bytes(b"rebuilt")
        if lock_fd is not None:
            os.close(lock_fd)
        return ""

    monkeypatch.setattr(torch_build, "run_build", run_build)
    return built


@pytest.fixture
def loads(monkeypatch):
    """The real loader, except that a stand-in build (b"rebuilt") loads as "module"."""
    real = torch_build._import

    def load(shim, path, key):
        return "module" if path.read_bytes() == b"rebuilt" else real(shim, path, key)

    monkeypatch.setattr(torch_build, "_import", load)


def _truncated_library(path):
    """The first 4 KiB of a real extension: what a full disk or a killed copy leaves."""
    path.write_bytes(Path(_core.__file__).read_bytes()[:4096])
    return path


def test_a_cached_library_that_does_not_load_is_rebuilt_once(fresh, caplog, child, loads):
    """Issue 27 item 8: a truncated cached shim failed to load in every process,
    for ever. Now the next build replaces it, once."""
    path = _truncated_library(_place(fresh / "cache"))
    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert torch_accessor.ensure() is False  # a plan maker: reports, never builds
    assert torch_accessor.status().startswith(f"unavailable (cached build {path} does not load: "
                                              "ImportError: ")
    assert torch_accessor.status().endswith(
        "; it is rebuilt by the next build); tensor.data_ptr() per tensor")
    assert len(_messages(caplog, logging.WARNING)) == 1 and child == []

    activated = []
    assert torch_build.ensure("torch_accessor", activated.append, build=True) is False
    torch_build._state("torch_accessor").builder.join(timeout=60)
    assert child == [("torch_accessor", path, True)] and activated == ["module"]
    assert torch_build.status("torch_accessor") == f"active (built here: {path})"
    assert (path.parent / torch_build.REPAIRED).read_text() == torch_build._identity(path)

    # the next process, where even the rebuilt library does not load: no second rebuild
    _truncated_library(path)
    (path.parent / torch_build.REPAIRED).write_text(torch_build._identity(path))
    torch_build._states.clear()
    assert torch_build.ensure("torch_accessor", activated.append, build=True) is False
    assert torch_build._state("torch_accessor").builder is None and len(child) == 1
    assert torch_build.status("torch_accessor").endswith(
        ", even rebuilt; `python -m fastlaunch cache clear --what torch_accessor` removes it)")


def test_a_cut_short_library_is_refused_before_it_is_mapped(tmp_path):
    """Mapping a truncated library touches pages past its end: SIGBUS, not an error
    (found writing the test above). Its headers say so before it is loaded."""
    whole = Path(_core.__file__).read_bytes()
    assert torch_build.cut_short(Path(_core.__file__)) == ""
    cut = tmp_path / "cut.so"
    for size in (4096, len(whole) // 2, len(whole) - 1):
        cut.write_bytes(whole[:size])
        assert torch_build.cut_short(cut).startswith(f"{size} bytes, but its "), size
    with pytest.raises(ImportError, match=f"{cut} is cut short: {len(whole) - 1} bytes, "):
        torch_build._import(SHIM, cut, "k")
    cut.write_bytes(b"not a library, and longer than an ELF header: " * 2)  # not ELF
    assert torch_build.cut_short(cut) == ""
    with pytest.raises(ImportError, match="invalid ELF header"):  # the loader's own error
        torch_build._import(SHIM, cut, "k")


def test_a_build_another_process_holds_is_not_started_again(fresh, child, loads):
    """Issue 27 item 3: every process started its own build child. One that finds
    the build lock held starts none, and loads the library once the lock is free."""
    import fcntl

    path = fresh / "cache" / torch_build.relative_path(SHIM, torch_build.key(SHIM))
    path.parent.mkdir(parents=True)
    activated = []
    with open(path.parent / torch_build.LOCK, "w") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # another process's build
        assert torch_build.ensure("torch_accessor", activated.append, build=True) is False
        assert torch_build.status("torch_accessor") == (
            f"being built by another process into {path.parent}; loaded here when it is done")
        path.write_bytes(b"rebuilt")  # what that build leaves
        waiter = torch_build._state("torch_accessor").builder
        assert waiter.is_alive()  # blocked on the lock
    waiter.join(timeout=60)
    assert child == [] and not torch_build._children and activated == ["module"]
    assert torch_build.status("torch_accessor") == f"active (built by another process: {path})"


def test_cli_commands_start_no_background_build(fresh, monkeypatch, child, loads):
    """doctor and cache run inside foreground_only, and a `python -m fastlaunch`
    process never starts one; `build` (which waits) still builds."""
    activated = []
    with torch_build.foreground_only():
        assert torch_build.ensure("torch_accessor", activated.append, build=True) is False
    assert torch_build.status("torch_accessor").startswith("not built for this torch")
    monkeypatch.setitem(sys.modules, "__main__", types.SimpleNamespace(
        __spec__=types.SimpleNamespace(name="fastlaunch.__main__")))
    assert torch_build.ensure("torch_accessor", activated.append, build=True) is False
    assert child == [] and torch_build._state("torch_accessor").builder is None
    for program, allowed in (("fastlaunch.tools.selfcheck.__main__", False),
                             ("train", True)):  # selfcheck's child; a user's `python -m train`
        sys.modules["__main__"].__spec__.name = program
        assert torch_build.background_allowed() is allowed, program
    sys.modules["__main__"].__spec__.name = "fastlaunch.__main__"
    assert torch_build.ensure("torch_accessor", activated.append, build=True, wait=True)
    path = fresh / "cache" / torch_build.relative_path(SHIM, torch_build.key(SHIM))
    assert child == [("torch_accessor", path, False)] and activated == ["module"]


@pytest.mark.parametrize("kind", ["a file", "under a file", "read-only"])
def test_an_unusable_cache_folder_is_named_once_and_starts_no_compiler(fresh, monkeypatch,
                                                                       caplog, child, kind):
    """Issue 27 items 3 and 8: with a cache folder that cannot be written every
    process started compilers that could not succeed, and never named the folder."""
    root = blocker = fresh / "cache"
    if kind == "a file":
        root.write_text("")
    elif kind == "under a file":
        blocker.write_text("")
        root = blocker / "fastlaunch"
        monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(root))
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder: nothing to detect")
        root.mkdir(mode=0o500)
    why = f"{blocker} is not writable" if kind == "read-only" else f"{blocker} is not a folder"
    compilers = []
    monkeypatch.setattr(torch_build, "compiler", lambda: compilers.append(1) or "c++")
    with caplog.at_level(logging.INFO, logger="fastlaunch"), config.override(planned_call=True):
        for name in ("torch_accessor", "tensor_geometry", "aten_ops"):
            assert torch_build.ensure(name, lambda module: None, build=True) is False
            assert torch_build.status(name) == (
                f"unavailable (the cache folder {root} is not usable: {why}; set "
                "FASTLAUNCH_CACHE_DIR to a writable folder)")
    assert _messages(caplog, logging.WARNING) == [
        f"fastlaunch: torch_accessor {torch_build.status('torch_accessor')}"]
    assert compilers == [] and child == [] and not torch_build._children
    assert sorted(p.name for p in fresh.iterdir()) == ["cache"]  # nothing created


def test_plan_makers_never_start_a_build(fresh, imports):
    assert torch_accessor.ensure() is False
    assert torch_accessor.status().startswith("not built for this torch (looked in "
                                              f"{fresh / 'installed' / 'torch_accessor'} and ")
    assert torch_build._state("torch_accessor").builder is None and not torch_build._children


def test_doctor_row_looks_for_a_build_but_never_starts_one(fresh, capsys):
    from fastlaunch.tools import doctor

    assert doctor.main() == 0
    assert (f"  torch_accessor: not built for this torch (looked in "
            f"{fresh / 'installed' / 'torch_accessor'} and {fresh / 'cache' / 'torch_accessor'}); "
            "tensor.data_ptr() per tensor\n") in capsys.readouterr().out
    assert torch_build._state("torch_accessor").builder is None and not torch_build._children


def test_no_compiler_and_no_build_is_reported_not_raised(fresh, monkeypatch, caplog):
    monkeypatch.setenv("CXX", "no-such-compiler-fastlaunch")
    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert torch_accessor.ensure(build=True) is False
    assert torch_accessor.status().startswith(
        "unavailable (no C++ compiler: no-such-compiler-fastlaunch not found; not built for "
        "this torch (looked in ")
    (warning,) = _messages(caplog, logging.WARNING)
    assert warning.endswith("`python -m fastlaunch build` where there is one")
    assert torch_build._state("torch_accessor").builder is None


def test_background_build_runs_at_idle_priority(fresh, caplog):
    """The child lowers its priority before it imports torch; checked, then stopped."""
    if not torch_build.compiler():
        pytest.skip("no C++ compiler on this machine")
    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert torch_accessor.ensure(build=True) is False  # returns at once
    state = torch_build._state("torch_accessor")
    deadline = time.monotonic() + 30
    child = None
    while time.monotonic() < deadline:
        child = torch_build._children.get("torch_accessor")
        if child is not None and os.sched_getscheduler(child.pid) == os.SCHED_IDLE:
            break
        time.sleep(0.005)
    assert child is not None, state.status
    try:
        assert os.sched_getscheduler(child.pid) == os.SCHED_IDLE
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == 19
        assert torch_accessor.status().startswith(
            "building in the background at idle priority into "
            f"{fresh / 'cache' / 'torch_accessor'}")
        assert f"(child pid {child.pid})" in torch_accessor.status()
    finally:
        child.kill()  # the test's own child, before it starts the compiler
        state.builder.join()
    assert torch_accessor.status().startswith("unavailable (build failed (exit -9)")
    (started,) = _messages(caplog, logging.INFO)
    assert "building in the background at idle priority" in started


def _blocked_on_a_lock(child) -> bool:
    """Whether ``child`` waits for a file lock (a ``->`` line of /proc/locks)."""
    if child is None:
        return False
    with open("/proc/locks") as locks:
        return any("->" in line and f" {child.pid} " in line for line in locks)


def test_concurrent_builds_take_turns(fresh):
    """A second build of the same library waits for the first and finds it done."""
    path = fresh / "cache" / torch_build.relative_path(SHIM, torch_build.key(SHIM))
    path.parent.mkdir(parents=True)
    import fcntl

    with open(path.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a first build holds the lock
        result: list = []
        waiter = threading.Thread(target=lambda: result.append(
            torch_build.run_build(SHIM, path, idle=False, progress=result.append)))
        waiter.start()
        deadline = time.monotonic() + 60
        while not _blocked_on_a_lock(torch_build._children.get(SHIM.name)):
            assert time.monotonic() < deadline and waiter.is_alive(), result
            time.sleep(0.05)
        path.write_bytes(b"built by the first")
    waiter.join(timeout=120)
    assert result == [""] and path.read_bytes() == b"built by the first"


def test_install_step_without_torch_says_why_and_never_fails(monkeypatch, tmp_path, capsys):
    real = torch_build.importlib.util.find_spec
    monkeypatch.setattr(torch_build.importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real(name, *a))
    assert torch_build.install_into(tmp_path / "shims") == 0
    out = capsys.readouterr().out
    assert out.startswith("fastlaunch: torch shims skipped: torch is not importable in the "
                          "build's Python (pip's build isolation, or no torch)")
    assert list((tmp_path / "shims").iterdir()) == []


def test_install_step_with_a_torch_that_does_not_import_never_fails(monkeypatch, tmp_path,
                                                                    capsys):
    def broken(shim):
        raise ImportError("libcudart.so.13: cannot open shared object file")

    monkeypatch.setattr(torch_build, "key", broken)
    monkeypatch.setattr(torch_build, "compiler", lambda: "/usr/bin/c++ g++ 13")
    assert torch_build.install_into(tmp_path / "shims") == 0
    assert capsys.readouterr().out == (
        "fastlaunch: torch shims skipped: torch does not import: ImportError: libcudart.so.13: "
        "cannot open shared object file\n")
    assert list((tmp_path / "shims").iterdir()) == []


def _call_accessor(capsule, obj):
    """Calls the accessor through the contract of csrc/core/plan.h, as the core does."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get(capsule, b"fastlaunch.tensor_accessor.v2")
    out, dtype, index = ctypes.c_uint64(), ctypes.c_int32(-7), ctypes.c_int32(-7)
    fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_void_p)(address)
    rc = fn(obj, ctypes.addressof(out), ctypes.addressof(dtype), ctypes.addressof(index))
    return rc, out.value, dtype.value, index.value


def test_real_build_then_load_from_cache_and_the_build_command(fresh, monkeypatch, caplog):
    """Builds for real (about a minute), in the foreground because the caller waits."""
    if not torch_build.compiler():
        pytest.skip("no C++ compiler on this machine: the accessor cannot be built")
    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert torch_accessor.ensure(build=True, wait=True), torch_accessor.status()
    path = fresh / "cache" / torch_build.relative_path(SHIM, torch_build.key(SHIM))
    assert torch_accessor.status() == f"active (built here: {path})"
    assert sorted(p.name for p in path.parent.iterdir()) == [".lock", path.name]  # no leftovers
    last = _messages(caplog, logging.INFO)[-1]
    assert last.startswith("fastlaunch: torch_accessor built in ") and last.endswith(
        f" s and loaded (built here: {path})")

    # a new process (state reset) loads the cached library without building
    _core.set_tensor_accessor(None)
    monkeypatch.setattr(torch_build, "_states", {})
    assert torch_accessor.ensure() is True
    assert torch_accessor.status() == f"active (cached build: {path})"

    module = torch_build._import(SHIM, path, torch_build.key(SHIM))
    t = torch.arange(6, dtype=torch.float32)[2:]
    assert _call_accessor(module.capsule(), t) == (1, t.data_ptr(), 0, -1)

    class Sub(torch.Tensor):
        pass

    assert _call_accessor(module.capsule(), t.as_subclass(Sub))[0] == 0
    assert _call_accessor(module.capsule(), 5)[0] == 0

    # `python -m fastlaunch build` finds it (or the install-time build) and exits 0
    done = subprocess.run([sys.executable, "-m", "fastlaunch", "build"], capture_output=True,
                          text=True, timeout=300, check=False,
                          env=dict(os.environ, FASTLAUNCH_CACHE_DIR=str(fresh / "cache")))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("torch_accessor: active ("), done.stdout
