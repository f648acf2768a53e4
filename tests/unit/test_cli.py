# SPDX-License-Identifier: Apache-2.0
"""The README's main command and the diagnostics command run as written."""

import dataclasses
import json
import os
import platform
import subprocess
import sys
import types

import pytest

import fastlaunch
from fastlaunch import __main__ as cli
from fastlaunch import config
from fastlaunch.runtime import builds
from fastlaunch.tools import caches


def run(*args, **env):
    return subprocess.run([sys.executable, "-m", "fastlaunch", *args], capture_output=True,
                          text=True, check=False, timeout=300, env={**os.environ, **env})


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
    assert "stock-shaped: run() checks + Python launcher + pack" in out
    assert "Both rows end in the same C++ packer writing the same bytes" in out
    # decoded values next to the little-endian bytes
    assert "@48  4B  xnumel           i32    00100000          = 4096" in out
    assert "@16  2B  ks0              fp16   0038              = 0.5" in out


@pytest.mark.parametrize(("type_name", "raw", "value"), [
    ("*fp32", bytes.fromhex("0000010000000000"), "0x10000"),
    ("i32", (-5).to_bytes(4, "little", signed=True), "-5"),
    ("u32", (2**32 - 1).to_bytes(4, "little"), "4294967295"),
    ("fp16", bytes.fromhex("0038"), "0.5"),
    ("bf16", bytes.fromhex("c03f"), "1.5"),
    ("fp16", bytes.fromhex("0000c03f"), "1.5"),  # npu: fp16 scalars travel as fp32
    ("fp64", bytes.fromhex("000000000000f83f"), "1.5"),
])
def test_demo_decodes_fields(type_name, raw, value):
    from fastlaunch.tools.demo import decode

    assert decode(type_name, raw) == value


def test_doctor():
    result = run("doctor")
    assert result.returncode == 0, result.stderr
    assert "backends" in result.stdout and "fake  available" in result.stdout
    for name, _ in config.VARIABLES:
        assert name in result.stdout
    assert "python -m fastlaunch selfcheck" in result.stdout
    assert "to report a problem, attach: python -m fastlaunch doctor --json" in result.stdout
    assert "fastlaunch: off (FASTLAUNCH is unset)" in result.stdout
    config_lines = result.stdout.split("\nconfiguration ")[1].split("\n\n")[0].splitlines()[1:]
    fields = [f.name for f in dataclasses.fields(config.Config) if f.name != "parsed"]
    assert [line.split()[0] for line in config_lines] == fields
    builds_lines = result.stdout.split("\nrun-time builds ")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split(":")[0].strip() for line in builds_lines] == list(builds.areas())



def test_doctor_says_what_was_parsed():
    result = run("doctor", FASTLAUNCH="maybe")
    assert result.returncode == 0, result.stderr
    assert "fastlaunch: off (FASTLAUNCH='maybe' is not a boolean, so as if unset)" \
        in result.stdout
    assert "FASTLAUNCH=0" not in result.stdout
    assert "fastlaunch: off (FASTLAUNCH is empty)" in run("doctor", FASTLAUNCH=" ").stdout


def test_doctor_names_missing_torch_as_the_reason(monkeypatch, capsys):
    from fastlaunch.integrations import autoload
    from fastlaunch.runtime import torch_build
    from fastlaunch.tools import doctor

    monkeypatch.setitem(sys.modules, "torch", None)  # ``import torch`` raises ImportError
    monkeypatch.setattr(autoload, "_results", {})
    monkeypatch.setattr(torch_build, "_states", {})  # the shims' verdict without torch stays here
    with config.override(enabled=True, enabled_by="FASTLAUNCH", backend="auto"):
        assert doctor.main() == 0
    out = capsys.readouterr().out
    for name in ("cuda", "npu"):
        assert f"  {name:<5} not armed (torch could not be imported" in out, out
    assert "FASTLAUNCH_BACKEND=auto)" not in out


def test_doctor_json_has_what_a_bug_report_needs():
    result = run("doctor", "--json", FASTLAUNCH="1", FASTLAUNCH_BACKEND="fake")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"os", "python", "compiler", "cmake", "ninja", "packages", "cann", "devices",
            "enabled", "backends", "integrations", "environment"} <= set(report)
    assert set(report["packages"]) >= {"torch", "triton", "torch-npu", "triton-ascend"}
    assert report["python"]["version"] == platform.python_version()
    assert report["enabled"] is True and report["decision"].startswith("on (by FASTLAUNCH)")
    assert report["environment"]["FASTLAUNCH_BACKEND"] == "fake"
    assert report["config"]["backend"] == "fake" and report["config"]["torch_accessor"] is True
    assert report["backends"]["fake"] == "available"
    assert set(report["devices"]) >= {"cuda", "npu"}

def test_doctor_shows_installed_integrations_when_enabled():
    pytest.importorskip("torch", reason="doctor imports torch to show installed integrations")
    result = run("doctor", FASTLAUNCH="1", FASTLAUNCH_BACKEND="cuda")
    assert result.returncode == 0, result.stderr
    assert "fastlaunch: on (by FASTLAUNCH)" in result.stdout
    assert "  cuda  installed" in result.stdout and "fastlaunch is off" not in result.stdout


def test_doctor_prints_backend_report_lines(monkeypatch, capsys):
    from fastlaunch.runtime.npu import backend
    from fastlaunch.tools import doctor

    monkeypatch.setattr(backend, "launch_family_report",
                        lambda: [("launch API", "rt family: rtKernelLaunch")])
    assert doctor.main() == 0
    assert "  npu launch API: rt family: rtKernelLaunch" in capsys.readouterr().out


def test_version():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"fastlaunch {fastlaunch.__version__}"


def test_native_core_carries_the_one_version():
    """_version.py is the one place: the build hands it to the extension."""
    from fastlaunch.runtime import _core

    assert _core.__version__ == fastlaunch.__version__


def test_selfcheck_is_dispatched_with_its_arguments(monkeypatch):
    seen = []
    module = types.ModuleType("fastlaunch.tools.selfcheck")
    module.main = lambda argv: seen.append(argv) or 3
    monkeypatch.setitem(sys.modules, "fastlaunch.tools.selfcheck", module)
    assert cli.main(["selfcheck", "--backend", "npu", "-v"]) == 3
    assert seen == [["--backend", "npu", "-v"]]


def test_selfcheck_missing_is_reported_not_a_crash(monkeypatch, capsys):
    # None in sys.modules: the import raises ImportError
    monkeypatch.setitem(sys.modules, "fastlaunch.tools.selfcheck", None)
    assert cli.main(["selfcheck"]) == 2
    assert "selfcheck is not available" in capsys.readouterr().err


def test_no_command_prints_help():
    result = run()
    assert result.returncode == 0 and "demo" in result.stdout and "doctor" in result.stdout


def test_cache_lists_and_clears_only_what_fastlaunch_keeps(monkeypatch, tmp_path, capsys):
    root, shared = tmp_path / "cache", tmp_path / "shared"
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(root))
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(shared))
    (root / "torch_accessor" / "k1").mkdir(parents=True)
    (root / "torch_accessor" / "k1" / "accessor.so").write_bytes(b"x" * 1_200_000)
    (root / "ascend_reference" / "recorder-1").mkdir(parents=True)
    (root / "ascend_reference" / "recorder-1" / "rec.so").write_bytes(b"x" * 500)
    (root / "someone-elses").mkdir()
    (shared / "triton_ascend-3.2.0-backend").mkdir(parents=True)
    (shared / "triton_ascend-3.2.0-backend" / "driver.py").write_text("")
    (shared / "torch_npu-2.14.0-cp311-cp311-manylinux_2_28_x86_64.whl").write_bytes(b"w" * 300_000)
    (shared / "notes.txt").write_text("not ours")

    assert cli.main(["cache"]) == 0
    out = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert f"torch_accessor 1.2 MB 1 files {root / 'torch_accessor'}" in out, out
    assert f"tensor_geometry 0.0 MB 0 files {root / 'tensor_geometry'}" in out, out
    assert f"wheels 0.3 MB 2 files {shared}" in out, out  # not notes.txt
    assert "total 1.5 MB" in out, out

    assert cli.main(["cache", "clear", "--what", "wheels", "selfcheck"]) == 0  # an old name too
    assert not (root / "ascend_reference").exists()
    assert f"wheels removed 0.3 MB (2 files) {shared}" in " ".join(capsys.readouterr().out.split())
    assert sorted(p.name for p in shared.iterdir()) == ["notes.txt"]
    assert (root / "torch_accessor").is_dir()

    assert cli.main(["cache", "clear"]) == 0
    assert sorted(p.name for p in root.iterdir()) == ["someone-elses"]


def test_cache_clear_rejects_unknown_names(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["cache", "clear", "--what", "bogus"])
    assert info.value.code == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"what: got \['bogus'\], expected some of"):
        caches.clear(["bogus"])
