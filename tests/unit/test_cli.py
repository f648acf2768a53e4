# SPDX-License-Identifier: Apache-2.0
"""The README's main command and the diagnostics command run as written."""

import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "fastlaunch", *args], capture_output=True,
                          text=True, check=False, timeout=300)


def test_demo():
    result = run("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for kernel in ("triton_poi_fused_add_mul_0", "triton_red_fused_sum_1",
                   "triton_poi_fused_mul_2", "triton_poi_fused_gather_3"):
        assert kernel in out
    assert "@56  4B  grid_x" in out  # the reduction's npu layout, annotated field by field
    assert "fallback.negative_cache" in out and "fallback.grid_out_of_range" in out
    assert "planned: native plan, pack only" in out


def test_doctor():
    result = run("doctor")
    assert result.returncode == 0, result.stderr
    assert "backends" in result.stdout and "fake  available" in result.stdout
    assert "FASTLAUNCH_BACKEND" in result.stdout


def test_no_command_prints_help():
    result = run()
    assert result.returncode == 0 and "demo" in result.stdout and "doctor" in result.stdout
