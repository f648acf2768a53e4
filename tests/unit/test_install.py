# SPDX-License-Identifier: Apache-2.0
"""Installing without a C++ compiler ends with a message that says what to install."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_no_compiler_is_named_with_what_to_install(tmp_path):
    env = {**os.environ, "CXX": str(tmp_path / "no-such-c++")}
    done = subprocess.run(["cmake", "-S", str(ROOT), "-B", str(tmp_path / "build")], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode != 0
    assert f"fastlaunch: no C++ compiler found (CXX={tmp_path / 'no-such-c++'} is not usable)" \
        in out, out
    assert "apt install g++" in out and "then run pip install again" in out
