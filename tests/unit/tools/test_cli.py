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
from fastlaunch.builds import core, registry
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
    assert [line.split(":")[0].strip() for line in builds_lines] == [
        "cache folder", *registry.AREAS]
    assert builds_lines[0] == f"  cache folder: {core.cache_row()}"



def test_doctor_says_what_was_parsed():
    result = run("doctor", FASTLAUNCH="maybe")
    assert result.returncode == 0, result.stderr
    assert "fastlaunch: off (FASTLAUNCH='maybe' is not a boolean, so as if unset)" \
        in result.stdout
    assert "FASTLAUNCH=0" not in result.stdout
    assert "fastlaunch: off (FASTLAUNCH is empty)" in run("doctor", FASTLAUNCH=" ").stdout


def test_doctor_names_missing_torch_as_the_reason(monkeypatch, capsys):
    from fastlaunch.builds import shims
    from fastlaunch.integrations import autoload
    from fastlaunch.tools import doctor

    monkeypatch.setitem(sys.modules, "torch", None)  # ``import torch`` raises ImportError
    monkeypatch.setattr(autoload, "_results", {})
    monkeypatch.setattr(shims, "_states", {})  # the shims' verdict without torch stays here
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


def _write(path, size):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    return path


def _build_writing(size):
    """A build command (for core.build) that writes ``size`` bytes, so sizes are exact."""
    return lambda tmp: [sys.executable, "-c", f"open({str(tmp)!r}, 'wb').write(b'b' * {size})"]


def _synthetic_cache(root, shared):
    """A cache made the way fastlaunch's builders make it, next to the user's own files."""
    from helpers import wheels

    core.make_dirs(root / "torch_accessor" / "k1")  # as the shim builder does
    _write(root / "torch_accessor" / "k1" / "accessor.so", 1_200_000)
    core.build("ascend_reference", root / "ascend_reference" / "recorder-1" / "rec.so",
                 _build_writing(500))
    (root / "ascend_reference" / "launchers").mkdir()  # as selfcheck makes it: not named
    core.build("ascend_reference", root / "ascend_reference" / "launchers" / "fl.so",
                 _build_writing(700))
    _write(root / "someone-elses" / "x", 5)  # not an area: never looked at
    shared.mkdir()
    wheel = _write(shared / "torch_npu-2.14.0-cp311-cp311-manylinux_2_28_x86_64.whl", 300_000)
    core.own(wheel)  # as tests/helpers/wheels.py does after pip download
    for name, size in (("triton_ascend-3.2.0-pkg", 250_000), ("torch_npu-2.14.0-py", 40_000)):
        partial = shared / f"{name}.1234"
        _write(partial / "pkg" / "a.py", size)
        wheels.publish(partial, shared / name)  # the extracted folders the issue saw uncounted
    _write(shared / "notes.txt", 8)
    _write(shared / "triton_ascend-3.1.0.whl", 1_000)  # downloaded by hand: not fastlaunch's


def test_cache_counts_every_byte_fastlaunch_owns(monkeypatch, tmp_path, capsys):
    """Issue 27 item 9: `cache` left the extracted wheel folders out. Exact bytes per area,
    the manifests included; the user's files are counted apart and kept."""
    root, shared = tmp_path / "cache", tmp_path / "shared"
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(root))
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(shared))
    _synthetic_cache(root, shared)
    areas = {a.name: a for a in caches.survey()}
    accessor, reference, wheel_area = (areas[n] for n in
                                       ("torch_accessor", "ascend_reference", "wheels"))
    assert (root / "torch_accessor" / core.MANIFEST).read_text() == "k1\n"
    assert (accessor.size, accessor.files) == (1_200_000 + 3, 2)
    assert (root / "ascend_reference" / core.MANIFEST).read_text() == (
        "recorder-1\nlaunchers/.lock\nlaunchers/fl.so\n")
    # recorder-1/{rec.so,.lock}, launchers/{fl.so,.lock} (locks are empty), the 43-byte manifest
    assert (reference.size, reference.files) == (500 + 700 + 43, 5)
    assert [e.path.name for e in wheel_area.owned] == [
        "torch_npu-2.14.0-cp311-cp311-manylinux_2_28_x86_64.whl", "torch_npu-2.14.0-py",
        "triton_ascend-3.2.0-pkg", core.MANIFEST]
    manifest = (shared / core.MANIFEST).stat().st_size
    assert (wheel_area.size, wheel_area.files) == (300_000 + 250_000 + 40_000 + manifest, 4)
    assert [(e.path.name, e.size) for e in wheel_area.foreign] == [
        ("notes.txt", 8), ("triton_ascend-3.1.0.whl", 1_000)]
    assert areas["bench"].owned == areas["bench"].foreign == ()
    total = 1_200_003 + 1_243 + 590_000 + manifest
    assert sum(a.size for a in areas.values()) == total

    assert caches.main(None, None) == 0
    out = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert f"torch_accessor 1.2 MB 2 files {root / 'torch_accessor'}" in out, out
    assert f"tensor_geometry 0 B 0 files {root / 'tensor_geometry'}" in out, out
    assert f"wheels 590.1 kB 4 files {shared}" in out, out
    assert "and 2 not fastlaunch's (1.0 kB), which `cache clear` keeps" in out, out
    assert f"total 1.8 MB ({total} bytes)" in out, out


def test_cache_clear_removes_only_what_fastlaunch_made(monkeypatch, tmp_path, capsys):
    """Issue 27 item 2: FASTLAUNCH_CACHE_DIR at an existing folder holding bench/notes.txt
    and aten_ops/my_thesis.tex; `cache clear` removed both. Now both stay, listed as
    kept, and fastlaunch's own builds go."""
    root, shared = tmp_path / "cache", tmp_path / "shared"
    _write(root / "bench" / "notes.txt", 11)
    _write(root / "aten_ops" / "my_thesis.tex", 13)
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(root))
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(shared))
    _synthetic_cache(root, shared)
    bench = core.build("bench", core.folder("bench") / "k" / "raw_launch.so",
                         _build_writing(64))
    aten = core.make_dirs(core.folder("aten_ops") / "k2")  # the shim builder's key folder
    _write(aten / "fastlaunch_aten_ops_k2.so", 90)

    assert caches.main("clear", None, dry_run=True) == 0  # shows, removes nothing
    plan = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert plan[0] == "will remove (made by fastlaunch):"
    assert f"bench 64 B {bench.parent}" in plan and f"aten_ops 90 B {aten}" in plan
    kept = plan[plan.index("not fastlaunch's, kept:") + 1:-1]
    assert kept == [f"aten_ops 13 B {root / 'aten_ops' / 'my_thesis.tex'}",
                    f"bench 11 B {root / 'bench' / 'notes.txt'}",
                    f"wheels 8 B {shared / 'notes.txt'}",
                    f"wheels 1.0 kB {shared / 'triton_ascend-3.1.0.whl'}"], plan
    assert bench.is_file() and aten.is_dir()

    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert caches.main("clear", None) == 2  # no terminal to ask at, no --yes
    assert "needs --yes" in capsys.readouterr().err and bench.is_file()
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    assert caches.main("clear", None, ask=lambda prompt: "n") == 1
    assert bench.is_file()

    assert caches.main("clear", ["wheels", "selfcheck"], yes=True) == 0  # an old name too
    assert not (root / "ascend_reference").exists()
    removed = " ".join(capsys.readouterr().out.split())
    assert f"wheels removed 590.1 kB (4 files) {shared}" in removed
    assert sorted(p.name for p in shared.iterdir()) == ["notes.txt", "triton_ascend-3.1.0.whl"]
    assert (root / "torch_accessor" / "k1").is_dir()

    assert caches.main("clear", None, ask=lambda prompt: "y") == 0
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == [
        "aten_ops", "aten_ops/my_thesis.tex", "bench", "bench/notes.txt", "someone-elses",
        "someone-elses/x"]
    assert (root / "bench" / "notes.txt").read_bytes() == b"x" * 11
    assert (root / "aten_ops" / "my_thesis.tex").read_bytes() == b"x" * 13


def test_cache_clear_never_follows_a_link_out_of_an_area(monkeypatch, tmp_path):
    """A named entry replaced by a link to the user's folder: the link goes, the folder stays."""
    root, mine = tmp_path / "cache", tmp_path / "mine"
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(root))
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(tmp_path / "w"))
    key = core.make_dirs(core.folder("aten_ops") / "k")
    key.rmdir()
    _write(mine / "data.bin", 3)
    key.symlink_to(mine, target_is_directory=True)
    assert caches.main("clear", ["aten_ops"], yes=True) == 0
    assert not os.path.lexists(key) and (mine / "data.bin").read_bytes() == b"xxx"


def test_cache_clear_rejects_unknown_names(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["cache", "clear", "--what", "bogus"])
    assert info.value.code == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"what: got \['bogus'\], expected some of"):
        caches.clear(["bogus"])


@pytest.mark.parametrize("args", [
    ["fastlaunch", "demo"],
    ["fastlaunch", "selfcheck", "--backend", "fake-npu", "--ascend-backend", "/nonexistent"],
    ["fastlaunch.tools.selfcheck", "--backend", "fake-npu", "--ascend-backend", "/nonexistent"]])
def test_a_reader_that_leaves_early_ends_the_cli_quietly(args):
    """``python -m fastlaunch ... | head`` (and selfcheck's own module entry): the pipe
    is closed before the first write, so the first print fails; no BrokenPipeError
    traceback, SIGPIPE's status."""
    import signal

    proc = subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert "BrokenPipeError" not in err and "Traceback" not in err, err
    assert proc.returncode == 128 + signal.SIGPIPE


def test_cache_clear_takes_yes_and_dry_run_on_the_command_line(tmp_path):
    wheels_dir = tmp_path / "wheels"
    wheels_dir.mkdir()
    (wheels_dir / "x-1.0-py3-none-any.whl").write_bytes(b"PK")
    (wheels_dir / core.MANIFEST).write_text("x-1.0-py3-none-any.whl\n")
    env = dict(os.environ, FASTLAUNCH_CACHE_DIR=str(tmp_path / "cache"),
               FASTLAUNCH_WHEEL_CACHE=str(wheels_dir))

    def clear(*flags):
        return subprocess.run([sys.executable, "-m", "fastlaunch", "cache", "clear", *flags],
                              env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=120, check=False)

    done = clear()
    assert done.returncode == 2 and "--yes" in done.stderr, (done.stdout, done.stderr)
    for flags in (["--dry-run"], ["--yes", "--dry-run"]):
        done = clear(*flags)
        assert done.returncode == 0 and (wheels_dir / "x-1.0-py3-none-any.whl").is_file(), flags
    done = clear("--yes")
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert not (wheels_dir / "x-1.0-py3-none-any.whl").exists()
