# SPDX-License-Identifier: Apache-2.0
"""What every command-line entry does around its command (``python -m fastlaunch``,
``python -m fastlaunch.tools.selfcheck``): a reader that goes away early ends it quietly."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable


def entry(command: Callable[[], int]) -> int:
    """``command``'s exit status; a closed stdout (``| head``) gives a SIGPIPE
    death's status with nothing printed."""
    try:
        try:
            code = command()
        finally:  # argparse's exits too: a closed pipe shows here, not while Python exits
            sys.stdout.flush()
    except BrokenPipeError:
        # Python's documented way: later writes (the flush at exit) go to devnull,
        # and the status is a SIGPIPE death's, as for any command cut off by `head`.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    return code
