# SPDX-License-Identifier: Apache-2.0
"""Under ``tox -e hw`` the hardware stack is the machine's own: torch, torch_npu
and triton are imported from outside the env's site-packages (the env
installs none of them; ``sitepackages = true`` makes the machine's visible)."""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("TOX_ENV_NAME") != "hw",
                                reason="checks the tox hw env only (TOX_ENV_NAME is not hw)")


@pytest.mark.parametrize("module", ["torch", "torch_npu", "triton"])
def test_stack_comes_from_the_machine(module):
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        pytest.skip(f"{module} is not installed on this machine")
    own = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    origin = Path(spec.origin).resolve()
    assert not any(origin.is_relative_to(d) for d in own), (
        f"{module} is imported from the tox env ({origin}), not the machine's installation")
