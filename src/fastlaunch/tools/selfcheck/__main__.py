# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch.tools.selfcheck``: ``python -m fastlaunch selfcheck``, through
the same entry as the CLI (its exit on a closed stdout included)."""

import sys

from fastlaunch.tools import cli, selfcheck

sys.exit(cli.entry(lambda: selfcheck.main(sys.argv[1:])))
