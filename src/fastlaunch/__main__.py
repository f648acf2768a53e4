# SPDX-License-Identifier: Apache-2.0
"""Command line: ``python -m fastlaunch {build,demo,doctor,cache,selfcheck}``."""

from __future__ import annotations

import argparse
import importlib
import sys


def _selfcheck(argv: list[str]) -> int:
    """``fastlaunch.tools.selfcheck`` is optional: the rest of the CLI works without it."""
    try:
        module = importlib.import_module("fastlaunch.tools.selfcheck")
    except ImportError as err:
        print(f"selfcheck is not available in this installation: {err}", file=sys.stderr)
        return 2
    return int(module.main(argv))


def _build() -> int:
    """Build the torch shims now (images, CI), so no later process builds them."""
    from .tools import build

    return build.main()


def main(argv: list[str] | None = None) -> int:
    """The CLI's entry (``python -m fastlaunch`` and the ``fastlaunch`` script): its
    exit status (``tools.cli.entry``: a reader that goes away early ends it quietly)."""
    from .tools import cli

    return cli.entry(lambda: _command(argv))


def _command(argv: list[str] | None) -> int:
    from . import __version__
    from .tools import caches

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["selfcheck"]:  # its own options, parsed by fastlaunch.tools.selfcheck
        return _selfcheck(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m fastlaunch",
                                     description="Planned launches for Inductor's Triton kernels")
    parser.add_argument("--version", action="version", version=f"fastlaunch {__version__}")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build the shims compiled against the installed torch now "
                                 "(otherwise the first process builds them at idle priority)")
    sub.add_parser("demo", help="plan and launch real Inductor kernel signatures on the fake "
                                "runtime; print layouts, counters and host overhead")
    doctor_parser = sub.add_parser("doctor", help="versions, environment, backends, installed "
                                                  "integrations")
    doctor_parser.add_argument("--json", action="store_true",
                               help="one JSON object with what a bug report needs (OS, Python, "
                                    "compiler, CMake, ninja, packages, CANN, devices, the "
                                    "enable decision)")
    cache = sub.add_parser("cache", help="list (default) or clear what fastlaunch keeps on disk: "
                                         "each run-time build's folder, the wheel cache")
    cache_sub = cache.add_subparsers(dest="cache_command")
    cache_sub.add_parser("list", help="each cache: size, files, folder (the default)")
    clear = cache_sub.add_parser("clear", help="remove cached builds and wheels (rebuilt or "
                                              "downloaded again when next needed)")
    clear.add_argument("--what", nargs="+", choices=(*caches.WHAT, *caches.ALIASES),
                       metavar="WHAT",
                       help=f"only these: {', '.join(caches.WHAT)} (default: all)")
    caches.add_clear_options(clear)
    sub.add_parser("selfcheck", help="prove on this machine that planned launches send what "
                                     "the original launcher sends (options: selfcheck --help)")
    args = parser.parse_args(argv)
    if args.command == "build":
        return _build()
    if args.command == "demo":
        from .tools import demo

        return demo.main()
    if args.command == "cache":
        return caches.main(args.cache_command, getattr(args, "what", None),
                           yes=getattr(args, "yes", False),
                           dry_run=getattr(args, "dry_run", False))
    if args.command == "doctor":
        from .tools import bug_report, doctor

        return bug_report.main() if args.json else doctor.main()
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
