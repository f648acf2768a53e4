# SPDX-License-Identifier: Apache-2.0
"""Command line: ``python -m fastlaunch {demo,doctor}``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fastlaunch",
                                     description="Planned launches for Inductor's Triton kernels")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("demo", help="plan and launch real Inductor kernel signatures on the fake "
                                "runtime; print layouts, counters and host overhead")
    sub.add_parser("doctor", help="versions, backend availability, env vars, installed patches")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from . import demo

        return demo.main()
    if args.command == "doctor":
        from . import doctor

        return doctor.main()
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
