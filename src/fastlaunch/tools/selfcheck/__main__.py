# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch.tools.selfcheck``: ``python -m fastlaunch selfcheck``, through
the CLI's entry (its exit on a closed stdout included)."""

import sys

from fastlaunch.__main__ import main

sys.exit(main(["selfcheck", *sys.argv[1:]]))
