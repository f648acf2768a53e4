# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch build``: build the torch shims now (images, CI), so no
later process builds them.

Each shim's outcome is printed once: ``<shim>: not built ...; building it now``
when it builds, the builder's progress lines while it does, then one line saying where
it is active from (and how long the build took) or why it is not. fastlaunch's
own log lines say the same outcomes, so they are held back below ERROR while the
command runs.
"""

from __future__ import annotations

import importlib
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..builds.shims import Owner


def _say(line: str) -> None:
    print(line, flush=True)


def owners() -> dict[str, Owner]:
    """Each shim of the registry, in its order, with its ``shims.Owner``
    (``ensure``/``status``): the ``OWNER`` of the runtime module named after
    the shim; a shim without one fails here."""
    from .. import runtime
    from ..builds import registry

    return {name: importlib.import_module(f"{runtime.__name__}.{name}").OWNER
            for name in registry.SHIMS}


def main() -> int:
    """Exit 0 when every shim is active or switched off, else 1."""
    from ..builds.shims import Phase

    log = logging.getLogger("fastlaunch")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        failed = 0
        for name, owner in owners().items():
            owner.ensure()  # the first look: installed, cached, off, or not built yet
            building = owner.status().phase is Phase.NOT_BUILT
            if building:
                print(f"{name}: {owner.status()}; building it now", flush=True)
            start = time.monotonic()
            active = owner.ensure(build=True, wait=True, progress=_say)
            took = f" in {time.monotonic() - start:.1f} s" if building and active else ""
            print(f"{name}: {owner.status()}{took}", flush=True)
            failed += not active and owner.status().phase is not Phase.OFF
    finally:
        log.setLevel(level)
    return 1 if failed else 0
