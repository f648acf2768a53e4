# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch selfcheck``: prove on this machine that planned
launches send the runtime exactly what the original launcher sends.

Each kernel of a small suite runs once through the original path and once
through fastlaunch's plan while the runtime's launch entry points are
interposed; every recorded field is compared. On a GPU or an Ascend NPU the
interposition layer (``csrc/interpose``) is preloaded into a child process;
without a device, the NPU suite runs triton-ascend's own rendered launcher and
fastlaunch's NPU backend against a recording fake CANN runtime.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

from ... import config
from . import interpose
from .report import (
    EXIT_MISMATCH,
    EXIT_OK,
    EXIT_UNCHECKED,
    EXIT_USAGE,
    Report,
    unchecked,
    write_json,
)

BACKENDS = ("auto", "cuda", "npu", "fake-npu")
# Selfcheck's protocol with the child it starts, not a user's switch: so not a
# Config field (config.OUTSIDE_CONFIG; docs/configuration.md says so too).
_CHILD_ENV = "FASTLAUNCH_SELFCHECK_CHILD"

EPILOG = f"""exit status (docs/troubleshooting.md, "selfcheck's exit status"):
  {EXIT_OK}  equal: every planned launch (--planned-call: every planned call) did exactly
     what the original did
  {EXIT_MISMATCH}  a difference (named by kernel, field and byte offset; --planned-call: the
     first differing op or output), or a path raised
  {EXIT_USAGE}  bad command line: an unknown option or program, a --planned-call path that is
     not a file, a --json file that cannot be written
  {EXIT_UNCHECKED}  nothing could be compared here: no device and no reference launcher
     (fake-npu needs triton-ascend's launcher generator: an installed triton-ascend, or its
     wheel in the wheel cache), no kernel was planned, a wrapper that cannot run here
     (another device, no get_args(), C++ kernels for a vector width this host lacks), or a
     cache folder fastlaunch cannot use; the report says why
  {128 + signal.SIGPIPE}  stdout was closed early (`| head`): ended quietly, as SIGPIPE would
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m fastlaunch selfcheck", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run representative kernels through the original launcher and through "
                    "fastlaunch's plans, intercept the runtime's launch calls, and compare "
                    "every field byte for byte.")
    parser.add_argument("--backend", choices=BACKENDS, default="auto",
                        help="cuda (NVIDIA GPU), npu (Ascend), fake-npu (no device: "
                             "triton-ascend's own launcher on a recording fake CANN); "
                             "auto picks the first available (default)")
    parser.add_argument("--json", metavar="FILE", help="also write the full report as JSON")
    parser.add_argument("--launch", action="store_true",
                        help="forward intercepted launches to the device (each kernel then "
                             "runs twice); by default nothing runs on the device")
    parser.add_argument("--program", action="append", metavar="NAME",
                        help="check only this program of the suite (repeatable); "
                             "names are listed in the report")
    parser.add_argument("--planned-call", action="append", metavar="WRAPPER.py",
                        help="instead: run this saved Inductor wrapper module (repeatable) "
                             "through its Python call() and its planned call on the same "
                             "inputs (its get_args()) and compare the op traces and outputs")
    parser.add_argument("--ascend-backend", metavar="DIR",
                        help="fake-npu: a triton-ascend 'triton/backends/ascend' folder (or "
                             "a source tree's 'third_party/ascend/backend') to take the "
                             "launcher generator from")
    return parser


def _pick(choice: str) -> tuple[str, list[str]]:
    from . import cuda, npu

    if choice != "auto":
        return choice, []
    why = []
    for name, probe in (("cuda", cuda.available), ("npu", npu.available)):
        ok, reason = probe()
        if ok:
            return name, why
        why.append(f"{name}: {reason}")
    return "fake-npu", why


def _in_child(argv: list[str], backend: str) -> int:
    """Re-run this command with the interposition layer preloaded."""
    try:
        env = interpose.preload_env()
    except FileNotFoundError as err:
        return _finish(unchecked(backend, [str(err)]), None)
    env[_CHILD_ENV] = "1"
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    env.setdefault("PYTHONFAULTHANDLER", "1")  # a crash under the layer shows where
    # through the CLI's entry, which also ends the child quietly when stdout closes
    cmd = [sys.executable, "-m", "fastlaunch", "selfcheck", *argv, "--backend", backend]
    code = subprocess.run(cmd, env=env, check=False).returncode
    if code < 0:
        print(f"selfcheck: the checking process died with signal {-code}")
        return EXIT_MISMATCH
    return code


def _finish(report: Report, json_path: str | None) -> int:
    print(report.text(), flush=True)
    return _write_json(json_path, report.as_json(), report.exit_code)


def _write_json(json_path: str | None, report: dict, code: int) -> int:
    """Write ``report`` to ``json_path``; the exit code: ``code``, or EXIT_USAGE when
    the file could not be written (a mismatch still exits EXIT_MISMATCH)."""
    if not json_path:
        return code
    try:
        write_json(json_path, report)
    except OSError as err:
        print(f"selfcheck: --json: could not write the report to {json_path}: "
              f"{err.strerror or err}", file=sys.stderr)
        return code if code == EXIT_MISMATCH else EXIT_USAGE
    return code


def _not_a_wrapper(path: str) -> str:
    """Why ``path`` cannot be a wrapper module ("" when it can be read as one)."""
    target = Path(path)
    if target.is_dir():
        return f"{path} is a folder, expected a wrapper module file (.py)"
    if not target.exists():
        return f"no such file: {path}"
    try:
        target.read_bytes()
    except OSError as err:
        return f"cannot read {path}: {err.strerror or err}"
    return ""


def _unwritable(path: str) -> str:
    """Why the report could not be written to ``path`` ("" when it can), found
    before the check runs by opening the file as the report will."""
    target = Path(path)
    if not target.parent.is_dir():
        return f"the folder {target.parent} does not exist"
    existed = target.exists()
    try:
        with target.open("a"):
            pass
    except OSError as err:
        return err.strerror or str(err)
    if not existed:
        target.unlink()
    return ""


def program_names(backend: str) -> tuple[str, ...]:
    """What ``--program`` accepts for ``backend``."""
    if backend == "fake-npu":
        from .fake_npu import CASE_NAMES

        return CASE_NAMES
    from .cuda import SCALAR_PROGRAM
    from .suite import PROGRAMS

    return tuple(p.name for p in PROGRAMS) + ((SCALAR_PROGRAM,) if backend == "cuda" else ())


def main(argv: list[str]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        backend, skipped = _pick(args.backend)
        unknown = sorted(set(args.program or ()) - set(program_names(backend)))
        if unknown:
            parser.error(f"--program: got {', '.join(unknown)}, expected one of "
                         f"{', '.join(program_names(backend))} (backend {backend})")
        if args.json:
            why = _unwritable(args.json)
            if why:
                parser.error(f"--json: cannot write {args.json}: {why}")
        for path in args.planned_call or ():
            why = _not_a_wrapper(path)
            if why:
                parser.error(f"--planned-call: {why}")
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code else EXIT_OK
    try:
        return _run(args, argv, backend, skipped)
    except BrokenPipeError:  # the CLI's entry ends quietly
        raise
    except OSError as err:  # the cache folder or a file in it: the user's to fix
        print(f"selfcheck: nothing compared: {_os_error(err)}", file=sys.stderr)
        return EXIT_UNCHECKED


def _os_error(err: OSError) -> str:
    """One sentence for an OSError met while checking: what, where, what to do."""
    what = f"{err.filename} ({err.strerror or err})" if err.filename else str(err)
    return (f"fastlaunch cannot use {what}; it keeps its builds in {config.cache_dir()} "
            f"(FASTLAUNCH_CACHE_DIR) and its wheels in {config.wheel_cache()} "
            "(FASTLAUNCH_WHEEL_CACHE): point them at a writable folder or remove what is "
            "damaged there")


def _run(args: argparse.Namespace, argv: list[str], backend: str, skipped: list[str]) -> int:
    if args.planned_call:
        from . import planned_call

        code, report = planned_call.main(args.planned_call)
        return _write_json(args.json, report, code)
    if backend == "fake-npu":
        from . import fake_npu

        report = fake_npu.run(args.ascend_backend, args.program)
    else:
        from . import cuda, npu

        stack = cuda if backend == "cuda" else npu
        ok, why = stack.available()
        if not ok:
            return _finish(unchecked(backend, [f"{backend}: {why}"]), args.json)
        if not interpose.preloaded():
            if os.environ.get(_CHILD_ENV):
                return _finish(unchecked(backend, [
                    "the interposition layer did not load in the child process"]), args.json)
            return _in_child(argv, backend)
        report = stack.run(args.launch, args.program)
    report.not_checked += [f"backend {w}" for w in skipped]
    return _finish(report, args.json)
