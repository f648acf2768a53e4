# SPDX-License-Identifier: Apache-2.0
"""Background builds of the torch shims across processes (issue 27 item 3): after
an install without the shims, short ``FASTLAUNCH=1`` programs start at most one
build child per shim on the machine, the child ends with its build, and
``python -m fastlaunch doctor`` starts none.

The compiler is a stand-in (``CXX``) that holds every compile until the test
opens a gate, then fails it: the children are counted while they build, and
end as soon as the gate opens. Every process a test starts is ended by its pid."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="torch is not installed")

PROGRAM = "import torch._inductor.codecache"  # arms the planned call: its two shims build
WAIT_S = 240  # bound on every wait here (a loaded 2-core machine imports torch in ~15 s)


@pytest.fixture
def machine(tmp_path):
    """A private cache, a stand-in compiler with its gate, and the environment."""
    gate, calls = tmp_path / "gate", tmp_path / "compiler-calls"
    compiler = tmp_path / "c++"
    compiler.write_text(f"""#!/bin/sh
echo "$*" >> {calls}
case "$*" in *--version*|*-dumpversion*) echo "g++ (stand-in) 13.2.0"; exit 0;; esac
i=0
while [ ! -e {gate} ] && [ $i -lt {WAIT_S * 10} ]; do sleep 0.1; i=$((i+1)); done
exit 1
""")
    compiler.chmod(0o755)
    from fastlaunch.builds import registry, shims

    for shim in (registry.TENSOR_GEOMETRY, registry.ATEN_OPS):
        name = shim.name
        installed = shims.installed_root() / shims.relative_path(shim, shims.key(shim))
        if installed.exists():
            pytest.skip(f"{name} was built at install ({installed}): nothing builds at run time")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FASTLAUNCH")}
    env.update(FASTLAUNCH="1", FASTLAUNCH_CACHE_DIR=str(tmp_path / "cache"), CXX=str(compiler),
               FASTLAUNCH_WHEEL_CACHE=str(tmp_path / "wheels"))
    started: list[int] = []
    yield {"env": env, "gate": gate, "calls": calls, "cache": tmp_path / "cache",
           "started": started}
    gate.touch()  # lets any child still building end by itself
    for pid in set(started) | set(_builders(tmp_path / "cache")):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _builders(cache: Path) -> list[int]:
    """Build children (``python -m fastlaunch.builds compile``) writing into ``cache``, by pid."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"compile" in argv and b"fastlaunch.builds" in argv and any(
                str(cache).encode() in a for a in argv):
            found.append(int(entry.name))
    return found


def _lock_holders(cache: Path) -> int:
    """Build locks under ``cache`` held now (FLOCK lines of /proc/locks naming their files)."""
    files = set()
    for lock in cache.rglob(".lock"):
        st = lock.stat()
        files.add(f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}")
    with open("/proc/locks") as locks:
        return sum(1 for line in locks if "FLOCK" in line and "->" not in line
                   and line.split()[5] in files)


def _until(check, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, f"not within {WAIT_S} s: {what}"
        time.sleep(0.05)


def test_four_programs_start_one_build_per_shim_which_ends_with_its_build(machine):
    """Before: 4 short programs left 8 build children (each imported torch, then
    waited on the lock, and outlived its program)."""
    programs = [subprocess.Popen([sys.executable, "-c", PROGRAM], env=machine["env"],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                for _ in range(4)]
    machine["started"].extend(p.pid for p in programs)
    for program in programs:
        out, _ = program.communicate(timeout=WAIT_S)
        assert program.returncode == 0, out.decode()
    cache = machine["cache"]
    children = _builders(cache)
    assert len(children) == 2, children  # tensor_geometry and aten_ops, once each
    assert sorted(p.parent.parent.name for p in cache.rglob(".lock")) == [
        "aten_ops", "tensor_geometry"]
    assert _lock_holders(cache) == 2  # each child holds its build's lock
    machine["gate"].touch()  # the stand-in compiler fails: the builds end
    _until(lambda: not _builders(cache), "the build children end with their builds")
    # a process leaves /proc's command lines a moment before its files close
    _until(lambda: _lock_holders(cache) == 0, "their locks are freed")
    assert list(cache.rglob("*.so")) == []  # failed builds leave no library


SLOW_START = """
import time
from fastlaunch.builds import shims
real = shims.run_build
def late(*args, **kwargs):
    time.sleep(2)  # the program has reached its end by now
    return real(*args, **kwargs)
shims.run_build = late
import torch._inductor.codecache
"""


def test_a_program_that_ends_first_still_hands_its_builds_to_their_children(machine):
    """Before: a program that ended before its builder threads started their
    children (a loaded 2-core CI machine) took the threads, and its locks, with
    it: no build ran (CI saw 1 child of 2)."""
    program = subprocess.Popen([sys.executable, "-c", SLOW_START], env=machine["env"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    machine["started"].append(program.pid)
    out, _ = program.communicate(timeout=WAIT_S)
    assert program.returncode == 0, out.decode()
    cache = machine["cache"]
    assert len(_builders(cache)) == 2
    assert _lock_holders(cache) == 2
    machine["gate"].touch()
    _until(lambda: not _builders(cache), "the build children end with their builds")


def test_doctor_starts_no_build(machine):
    """Before: `doctor` with FASTLAUNCH=1 imported Inductor, armed the planned call and
    started both builds; now it reports them as not built and starts no compiler
    (nor Inductor's ISA probe, which ran one on an AVX-512 BF16 / AMX CPU)."""
    doctor = subprocess.Popen([sys.executable, "-m", "fastlaunch", "doctor"],
                              env=machine["env"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    machine["started"].append(doctor.pid)
    out, _ = doctor.communicate(timeout=WAIT_S)
    assert doctor.returncode == 0, out
    cache = machine["cache"]
    assert _builders(cache) == [] and not machine["calls"].exists()
    assert not any(cache.rglob(".lock"))
    assert "  aten_ops: not built for this torch (looked in " in out, out
    assert f"  cache folder: {cache} (FASTLAUNCH_CACHE_DIR): usable\n" in out


def test_an_unusable_cache_folder_is_named_in_one_warning_and_runs_no_compiler(machine):
    """Before: with FASTLAUNCH_CACHE_DIR at a file, every program started build
    children whose compilers could not succeed, and the folder was never named."""
    machine["cache"].write_text("")  # a file where the folder should be
    program = subprocess.run([sys.executable, "-c", PROGRAM], env=machine["env"],
                             capture_output=True, text=True, timeout=WAIT_S, check=False)
    assert program.returncode == 0, program.stderr
    cache = machine["cache"]
    named = [line for line in program.stderr.splitlines() if "not usable" in line]
    assert len(named) == 1, program.stderr
    assert named[0].endswith(f"fastlaunch: tensor_geometry unavailable (the cache folder {cache} "
                             f"is not usable: {cache} is not a folder; set FASTLAUNCH_CACHE_DIR "
                             "to a writable folder)"), named
    assert _builders(cache) == [] and not machine["calls"].exists()
