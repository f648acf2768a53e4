# SPDX-License-Identifier: Apache-2.0
"""doctor's two reports (text and ``--json``) hold the same typed facts, and
``build`` says each shim's outcome once."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import pytest

from fastlaunch.builds import registry, shims


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastlaunch", *args], capture_output=True,
                          text=True, check=False, timeout=1800, env={**os.environ, **env})


def section(text: str, title: str) -> list[str]:
    """The lines of one titled section of doctor's text report."""
    return text.split(f"\n{title}")[1].split("\n\n")[0].splitlines()[1:]


def cpuinfo_first_processor() -> dict[str, str]:
    fields: dict[str, str] = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            if not line.strip():
                break
            name, _, value = line.partition(":")
            fields.setdefault(name.strip(), value.strip())
    return fields


@pytest.fixture(scope="module")
def reports() -> tuple[dict, str]:
    env = {"FASTLAUNCH": "1", "FASTLAUNCH_BACKEND": "fake"}
    as_json, as_text = run("doctor", "--json", **env), run("doctor", **env)
    assert as_json.returncode == 0, as_json.stderr
    assert as_text.returncode == 0, as_text.stderr
    return json.loads(as_json.stdout), as_text.stdout


def test_json_config_is_typed_and_equal_to_the_text(reports):
    report, text = reports
    config = report["config"]
    assert config["enabled"] is True and config["strict"] is False
    assert config["planned_call"] is True and config["torch_accessor"] is True
    assert config["cann_libraries"] == ["libascendcl.so", "libruntime.so"]
    assert isinstance(config["cache_dir"], str)
    assert report["enabled"] is True and report["strict"] is False
    assert f"fastlaunch: {report['decision']}; strict: False; backend: fake" in text
    shown = {}
    for line in section(text, "configuration "):
        name, value = line.split(None, 1)
        shown[name] = value
    assert set(shown) == set(config)
    for name, value in config.items():
        if name in ("cache_dir", "wheel_cache", "backend", "npu_impl", "enabled_by"):
            assert shown[name] == value, name  # paths and words as they are
        else:
            assert ast.literal_eval(shown[name]) == value, name


def yes_no(value: object) -> str:
    return {True: "yes", False: "no"}.get(value, str(value)) if value is not None else "none"


@pytest.mark.skipif(not os.path.exists("/proc/cpuinfo"), reason="no /proc/cpuinfo here")
def test_cpu_facts_are_the_machines_and_inductors(reports):
    report, text = reports
    cpu = report["cpu"]
    info = cpuinfo_first_processor()
    flags = (info.get("flags") or info.get("Features") or "").split()
    assert cpu["avx2"] is ("avx2" in flags) and cpu["avx512f"] is ("avx512f" in flags)
    assert cpu["model"] == (info.get("model name") or info.get("Model"))
    lines = {line.split(None, 1)[0]: line.split(None, 1)[1] for line in section(text, "cpu ")}
    assert lines["avx2"] == yes_no(cpu["avx2"]) and lines["avx512f"] == yes_no(cpu["avx512f"])
    assert lines["model"] == cpu["model"]
    torch = pytest.importorskip("torch", reason="the ISA facts come from torch")
    from torch._inductor import cpu_vec_isa

    assert cpu["inductor_vec_isa"] == str(cpu_vec_isa.pick_vec_isa())
    assert cpu["aten_cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert lines["inductor_vec_isa"] == cpu["inductor_vec_isa"]
    assert lines["aten_cpu_capability"] == cpu["aten_cpu_capability"]


def test_the_isa_pick_is_inductors_rule(monkeypatch):
    """doctor's pick over the ISAs the CPU reports (no dry compile) is Inductor's
    ``pick_vec_isa``: over Inductor's own list both pick the same ISA for every
    ``cpp.simdlen`` and ``ATEN_CPU_CAPABILITY``, and an empty list is scalar code."""
    pytest.importorskip("torch", reason="the ISA comes from Inductor")
    from torch._inductor import config as inductor_config
    from torch._inductor import cpu_vec_isa

    from fastlaunch.tools import doctor

    valid = cpu_vec_isa.valid_vec_isa_list()
    for capability in (None, "default", "avx2"):
        if capability is None:
            monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
        else:
            monkeypatch.setenv("ATEN_CPU_CAPABILITY", capability)
        for simdlen in (None, 1, *(isa.bit_width() for isa in valid)):
            with inductor_config.patch({"cpp.simdlen": simdlen}):  # restores it as it was
                assert str(doctor._pick_vec_isa(valid)) == str(cpu_vec_isa.pick_vec_isa())
    assert isinstance(doctor._pick_vec_isa([]), cpu_vec_isa.InvalidVecISA)


def test_torch_build_and_planned_call(reports):
    report, text = reports
    torch = pytest.importorskip("torch", reason="without torch both say it is not there")
    build = report["torch_build"]
    assert build == {"version": torch.__version__, "git_version": torch.version.git_version,
                     "build": "cuda" if torch.version.cuda else
                     "rocm" if getattr(torch.version, "hip", None) else "cpu",
                     "cuda": torch.version.cuda, "hip": getattr(torch.version, "hip", None),
                     "cxx11abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI),
                     "debug": bool(torch.version.debug)}
    lines = dict(line.split(None, 1) for line in section(text, "torch build"))
    assert lines == {name: yes_no(value) for name, value in build.items()}
    assert report["planned_call"] == {"switch": True, "installed": True, "status": "installed"}
    assert "  planned call: installed\n" in text
    rows = {line.split(":")[0].strip(): line.split(":", 1)[1].strip()
            for line in section(text, "run-time builds ")}
    assert rows.pop("cache folder") == report["cache_folder"]
    assert set(report["builds"]) == set(rows)
    phases = {phase.name.lower() for phase in shims.Phase}
    assert set(report["shim_phases"]) == set(registry.SHIMS)
    assert set(report["shim_phases"].values()) <= phases, report["shim_phases"]


def test_planned_call_switched_off_is_said_in_both():
    env = {"FASTLAUNCH": "1", "FASTLAUNCH_BACKEND": "fake", "FASTLAUNCH_PLANNED_CALL": "0"}
    report = json.loads(run("doctor", "--json", **env).stdout)
    assert report["planned_call"] == {"switch": False, "installed": False,
                                      "status": "off (FASTLAUNCH_PLANNED_CALL=0)"}
    assert "  planned call: off (FASTLAUNCH_PLANNED_CALL=0)\n" in run("doctor", **env).stdout


NO_TORCH = ("import sys; sys.modules['torch'] = None; from fastlaunch.__main__ import main; "
            "sys.exit(main(['build']))")


def test_build_says_each_outcome_once_without_torch():
    done = subprocess.run([sys.executable, "-c", NO_TORCH], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 1
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) == len(registry.SHIMS), lines
    for line, name in zip(lines, registry.SHIMS):
        assert line.startswith(f"{name}: unavailable (torch is not installed)"), lines


def test_build_says_each_outcome_once():
    """Over the cache as it is (built here if it holds no build for this torch)."""
    pytest.importorskip("torch", reason="the shims are built against torch")
    done = run("build")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = (done.stdout + done.stderr).splitlines()
    for name in registry.SHIMS:
        outcome = [line for line in lines if line.startswith(f"{name}: ")
                   and not line.endswith("; building it now")]
        assert len(outcome) == 1 and outcome[0].startswith(f"{name}: active ("), lines
        library = outcome[0].split(": ", 2)[2].split(")")[0]
        assert sum(library in line for line in lines) == 1, lines


def test_doctor_names_the_tracker_of_the_installed_metadata(monkeypatch, capsys):
    import importlib.metadata

    from fastlaunch.tools import doctor

    real = importlib.metadata.metadata

    def metadata(name):
        found = real(name)
        if name != "fastlaunch":
            return found
        fields = {"Project-URL": ["Homepage, https://example.invalid/home",
                                  "Issues, https://example.invalid/issues"]}
        return type("Meta", (), {"get_all": staticmethod(lambda key: fields.get(key))})()

    monkeypatch.setattr(importlib.metadata, "metadata", metadata)
    assert doctor.issue_tracker() == "https://example.invalid/issues"
    assert doctor.main() == 0
    assert ("to report a problem, attach: python -m fastlaunch doctor --json to an issue at "
            "https://example.invalid/issues (docs/troubleshooting.md, 'Reporting a problem')"
            ) in capsys.readouterr().out
