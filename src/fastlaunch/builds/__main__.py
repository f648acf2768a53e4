# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch.builds``: the shim builds' two process entries.

* ``compile``: the build child a process starts (``shims.run_build``);
* ``install-into DIR``: the install's CMake step, which runs this file by its
  path in the source tree: the checkout's ``src`` goes first on the path (the
  package imports without its extension); where another fastlaunch shadows it
  (an editable install's finder) the step says so and the install goes on.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

if not __package__:  # run by path: the install's CMake step
    sys.path[0] = str(Path(__file__).resolve().parents[2])  # src, not this folder
    try:
        from fastlaunch.builds import shims
    except ImportError as err:
        why = f"this checkout's package does not import here: {err}"
        print(f"fastlaunch: torch shims skipped: {why}", flush=True)  # noqa: T201 (CMake's)
        sys.exit(0)
else:
    from . import shims


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m fastlaunch.builds")
    sub = parser.add_subparsers(dest="command", required=True)
    compile_cmd = sub.add_parser("compile", help="(child) compile one shim into a path")
    compile_cmd.add_argument("--idle", action="store_true", help="at idle priority")
    compile_cmd.add_argument("--verbose", action="store_true", help="show the compiler output")
    compile_cmd.add_argument("--ldflag", action="append", default=[], help="a linker flag")
    compile_cmd.add_argument("--lock-fd", type=int, help="the build lock, held by the parent")
    compile_cmd.add_argument("source", type=Path)
    compile_cmd.add_argument("name")
    compile_cmd.add_argument("path", type=Path)
    compile_cmd.add_argument("cflags", nargs="*")
    install_cmd = sub.add_parser("install-into", help="(CMake) build every shim into a folder")
    install_cmd.add_argument("root", type=Path)
    args = parser.parse_args(argv)
    if args.command == "install-into":
        return shims.install_into(args.root)
    if args.idle:
        shims.lower_priority()
    shims.compile_into(args.source, args.name, args.cflags, args.path, ldflags=args.ldflag,
                       verbose=args.verbose, lock_fd=args.lock_fd)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["compile"] and hasattr(signal, "alarm"):
        signal.alarm(shims.BUILD_TIMEOUT_S)  # a child whose build hangs ends, and frees its lock
    sys.exit(main(sys.argv[1:]))
