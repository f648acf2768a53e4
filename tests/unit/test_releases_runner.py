# SPDX-License-Identifier: Apache-2.0
"""tests/releases/run.py (``tox -e releases``): what goes into each release's
environment and how a run is judged."""

from __future__ import annotations

import importlib.util
from pathlib import Path

RUN = Path(__file__).resolve().parents[1] / "releases" / "run.py"
_spec = importlib.util.spec_from_file_location("releases_run", RUN)
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)

# torch 2.7.1's METADATA, abridged to one line of each kind.
TORCH_271 = """Metadata-Version: 2.1
Name: torch
Requires-Dist: filelock
Requires-Dist: sympy>=1.13.3
Requires-Dist: setuptools; python_version >= "3.12"
Requires-Dist: nvidia-cudnn-cu12==9.5.1.17; platform_system == "Linux"
Requires-Dist: triton==3.3.1; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: optree>=0.13.0; extra == "optree"
"""


def test_environment_gets_torchs_dependencies_without_triton_or_extras():
    assert run._requires(TORCH_271, drop=("triton",)) == [
        "filelock", "sympy>=1.13.3", 'setuptools; python_version >= "3.12"',
        'nvidia-cudnn-cu12==9.5.1.17; platform_system == "Linux"']


def test_torch_npu_pin_on_torch_is_dropped_from_its_dependencies():
    meta = "Requires-Dist: torch==2.7.1+cpu\nRequires-Dist: numpy\nRequires-Dist: pyyaml\n"
    assert run._requires(meta, drop=("torch",)) == ["numpy", "pyyaml"]


def _call(ffts: list, launch: bytes) -> dict:
    return {"ffts": ffts, "launches": [launch.hex()]}


def test_launches_equal_reads_ffts_once_per_plan():
    original = [_call([1], b"a"), _call([1], b"b")]
    assert run._launches_equal(original, [_call([1], b"a"), _call([], b"b")])
    assert not run._launches_equal(original, [_call([1], b"a"), _call([], b"c")])
    assert not run._launches_equal(original, [_call([1], b"a"), _call([1], b"b")])
    assert not run._launches_equal([], [])


def test_cuda_header_wheels_follow_torchs_own_cuda_version():
    """torch/version.py as the registry's builds write it: the CUDA version of a
    CUDA 12 and a CUDA 13 build (their header wheels are pinned to it), none for
    a CPU build."""
    line = "cuda: Optional[str] = {}\n"
    assert run.torch_cuda("__version__ = '2.7.1+cu126'\n" + line.format("'12.6'")) == "12.6"
    assert run.torch_cuda(line.format("'13.0'")) == "13.0"
    assert run.torch_cuda(line.format("None")) == ""
