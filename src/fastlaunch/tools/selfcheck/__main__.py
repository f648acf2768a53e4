# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch.tools.selfcheck`` (also the child process selfcheck starts)."""

import sys

from . import main

sys.exit(main(sys.argv[1:]))
