# SPDX-License-Identifier: Apache-2.0
"""Every supported torch_npu release, end to end, on its own code.

Per release, in a child process (``helpers.npu_release_driver``): the
wheel's own ``NPUCachingAutotuner`` (built through its ``__init__``), its
``TritonCompileResultNpu.make_launcher`` and, where it loads against this
torch, its wrapper codegen module; triton-ascend 3.2.0's Python package and
its real generated launcher on the recording CANN runtime. The release's
wrapper codegen, patched by fastlaunch, writes the kernel's call site; the
same five calls go through the release's own ``run`` (fastlaunch off) and
through that generated call site; every launch must match, and it must plan.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import npu_release, wheels
from helpers.oracle import cc

TESTS = Path(__file__).resolve().parents[2]

#: Where ``tests/releases/run.py`` has each driver report kept.
REPORTS_ENV = "FASTLAUNCH_RELEASE_REPORTS"

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler for the recording runtime")


@pytest.fixture(scope="module")
def triton_package():
    pytest.importorskip("torch", reason="the releases' Inductor code runs on torch")
    return npu_release.triton_ascend_package()


def _drive(version: str, triton_package: Path, tmp_path: Path) -> dict:
    npu_release.extracted(version)  # skips, naming the wheel, when it cannot be fetched
    out = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(triton_package), str(TESTS)]),
               FASTLAUNCH_WHEEL_CACHE=str(wheels.cache_dir()))
    done = subprocess.run([sys.executable, "-m", "helpers.npu_release_driver", version,
                           str(out)], env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text())
    keep = os.environ.get(REPORTS_ENV)
    if keep:  # tests/releases/run.py records each run
        Path(keep, f"{version}.json").write_text(json.dumps(report, indent=1))
    npu_release.require_own_code(version, report)
    return report


@pytest.mark.parametrize("version", sorted(npu_release.RELEASES))
def test_release_plans_and_launches_what_its_own_run_launches(version, triton_package, tmp_path):
    report = _drive(version, triton_package, tmp_path)
    assert report["installed"] is True
    assert report["codegen"] == "real"
    # the release's own wrapper codegen wrote the fastlaunch call site that ran,
    # on the stream its torch names (stream0 on torch 2.7, raw_stream0 later)
    *prefix, site = report["call_site"].splitlines()
    stream = re.fullmatch(r"_fastlaunch_fn\(arg0_1, arg1_1, buf0, x0_numel, stream=(\w+)\)",
                          site.strip())
    assert stream is not None, site
    assert f"{stream.group(1)} = get_raw_stream(0)" in [line.strip() for line in prefix]
    # The first call warms up through the original run; the other four are planned.
    assert report["stats"] == {"fallback.warming_up": 1, "fast": 4, "plan.created": 1}
    # Each torch_npu debug flag the release's run reads sends a call site to it.
    expected = {"runtime": ["dump_fx_graph", "check_accuracy"],
                "npu_triton_heuristics": ["dump_fx_graph", "check_accuracy",
                                          "force_fallback_kernel_id",
                                          "aot_inductor.debug_kernel_in_run"]}
    flags = expected[npu_release.RELEASES[version]]
    assert report["debug_reasons"] == {f: f.rsplit(".", 1)[-1] for f in flags}
    assert report["autoload"] == {"npu": "installed"}
    original, planned = report["original"], report["planned"]
    assert len(original) == len(planned) == 5
    assert all(len(o["launches"]) == 1 for o in original)
    for i, (want, got) in enumerate(zip(original, planned)):
        if i > 0:
            # the FFTS address is read once per plan (docs/abi.md), the launch
            # bytes carry the same address
            assert want.pop("ffts") == original[0]["ffts"] and got.pop("ffts") == []
        assert got == want, f"call {i}"


@pytest.mark.parametrize("version", ["2.13.0", "2.14.0"])
def test_torch_npu_2_13_and_2_14_plugins_do_not_block_planning(version, triton_package,
                                                               tmp_path):
    """Their autotuner always carries _NPUSkipPrecompilePlugin (pre_compile only),
    and their run never calls plugin hooks."""
    report = _drive(version, triton_package, tmp_path)
    assert report["plugins"] == ["_NPUSkipPrecompilePlugin"]
    assert report["stats"]["fast"] == 4


def test_the_planned_calls_aten_shim_builds_on_this_torch():
    """The planned call's ATen shim builds and loads against the torch this suite
    runs on: under ``tox -e releases`` each torch_npu release's own torch (on
    2.7.1's the shim once failed to compile, and every native op ran in Python).
    Where that torch is a CUDA build of 2.9 or later (the registry's are) and
    CUDA's headers of its major version are installed, the shim has the cuBLASLt
    tier: its code compiles against each release's ATen (no GPU runs it here)."""
    torch = pytest.importorskip("torch", reason="the shim is built against torch")
    from fastlaunch.builds import shims
    from fastlaunch.runtime import aten_ops

    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
    version = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
    if shims.torch_has_cuda() and version >= (2, 9) and shims.cublaslt_headers()[0]:
        assert aten_ops.cublaslt()[0], aten_ops.status()
