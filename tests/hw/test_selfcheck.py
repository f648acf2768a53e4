# SPDX-License-Identifier: Apache-2.0
"""``fastlaunch selfcheck`` on a real NVIDIA GPU: the whole suite must pass, and
a planted packing bug must fail it with a report naming kernel and field."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

from fastlaunch.tools.selfcheck import interpose  # noqa: E402

pytestmark = pytest.mark.cuda

# Shifts one field: the plan packs its first parameter from the second one's input.
PLANTED = textwrap.dedent("""
    import dataclasses, sys
    from fastlaunch.tools import selfcheck
    from fastlaunch.runtime.cuda import CudaBackend

    original = CudaBackend.make_plan

    def shifted(self, spec, **kwargs):
        positions = (spec.positions[1], *spec.positions[1:])
        return original(self, dataclasses.replace(spec, positions=positions), **kwargs)

    CudaBackend.make_plan = shifted
    sys.exit(selfcheck.main(sys.argv[1:]))
""")


def test_selfcheck_passes_on_this_gpu(tmp_path):
    report_path = tmp_path / "selfcheck.json"
    proc = subprocess.run([sys.executable, "-m", "fastlaunch.tools.selfcheck", "--backend", "cuda",
                           "--json", str(report_path)], capture_output=True, text=True,
                          env=dict(os.environ), timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(report_path.read_text())
    verdicts = [o["verdict"] for o in report["outcomes"]]
    assert "MISMATCH" not in verdicts and "ERROR" not in verdicts, proc.stdout
    equal = [o for o in report["outcomes"] if o["verdict"] == "equal"]
    assert not [n for n in report["not_checked"] if "could not compile" in n], proc.stdout
    programs = {o["kernel"].split(":")[0] for o in equal}
    assert programs >= {"pointwise", "pointwise-triton-launcher", "reductions", "full-reduction",
                        "dynamic", "user-kernel", "user-kernel-n1", "scalar-kinds"}, programs
    # Both of Inductor's launchers were caught and compared, and nothing ran.
    assert {"static", "triton"} <= {o["launcher"] for o in equal}, proc.stdout
    assert {"dlsym"} <= set(report["routes"]), report["routes"]
    for o in equal:
        assert o["original"] and len(o["original"]) == len(o["planned"])
        for a, b in zip(o["original"], o["planned"]):
            assert a["args"] == b["args"] and a["handle"] == b["handle"] != 0
    assert any(o["kernel"].startswith("scalar-kinds") for o in equal)


def test_planted_packing_bug_fails_naming_kernel_and_field(tmp_path):
    script = tmp_path / "planted.py"
    script.write_text(PLANTED)
    report_path = tmp_path / "planted.json"
    env = interpose.preload_env()
    proc = subprocess.run([sys.executable, str(script), "--backend", "cuda", "--program",
                           "pointwise", "--json", str(report_path)], capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads(report_path.read_text())
    bad = [o for o in report["outcomes"] if o["verdict"] == "MISMATCH"]
    assert bad, proc.stdout
    first = bad[0]["differences"][0]
    assert first["field"] == "args" and first["offset"] == 0 and first["param"], first
    assert bad[0]["kernel"] in proc.stdout and "at offset 0" in proc.stdout, proc.stdout
