# SPDX-License-Identifier: Apache-2.0
"""torch_npu's own experimental planned launch (2.10.0.post7 and later).

Exactly one planned launch may be active. This module is the one place that
turns the in-tree copy off (``enable_fast_launch`` in
``torch_npu._inductor.config``, set as soon as that module is imported) and
that remembers which implementation launches NPU kernels, for ``doctor``.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)
CONFIG_MODULE = "torch_npu._inductor.config"
_choice = ""


def turn_off(module: Any, why: str) -> None:
    """Turn the in-tree copy off in torch_npu's config module, saying why."""
    if getattr(module, "enable_fast_launch", False):
        module.enable_fast_launch = False
        log.info("fastlaunch: torch_npu's in-tree fast launch turned off (%s)", why)


def choose(what: str) -> None:
    global _choice
    _choice = what


def choice() -> str:
    """Which implementation launches NPU kernels ("" before anything decided)."""
    return _choice
