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


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_a_build_ships_only_the_shims_it_made(tmp_path):
    """The build folder is shared by every build of a checkout: a build in a Python
    without torch (pip's build isolation) starts from an empty shim folder, so its
    wheel never carries the shims an earlier build made against some torch."""
    import sys

    pybind11 = pytest.importorskip("pybind11", reason="the CMake step finds pybind11")
    python = tmp_path / "no-torch" / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "no-torch")],
                   check=True, timeout=120)
    has_torch = subprocess.run([str(python), "-c", "import torch"], capture_output=True,
                               timeout=120, check=False).returncode == 0
    if has_torch:
        pytest.skip("this Python's base interpreter has torch: no Python without it here")
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), f"-DPython_EXECUTABLE={python}",
                    f"-Dpybind11_DIR={pybind11.get_cmake_dir()}"], capture_output=True,
                   check=True, timeout=300)
    earlier = build / "torch_shims" / "torch_accessor" / "0123456789abcdef"
    earlier.mkdir(parents=True)
    (earlier / "fastlaunch_torch_accessor_0123456789abcdef.so").write_bytes(b"an earlier build")
    done = subprocess.run(["cmake", "--build", str(build), "--target", "torch_shims"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fastlaunch: torch shims skipped: torch is not importable" in done.stdout
    assert (build / "torch_shims").is_dir()
    assert list((build / "torch_shims").iterdir()) == []


def test_every_source_compiled_after_install_ships_with_the_package():
    """What the package and the benchmarks compile after install (core.source("<dir>/..."))
    lies in a folder CMake installs under fastlaunch/csrc: a wheel install, which has no
    checkout around it, finds it there (benchmarks/bench_cuda.py needs bench/raw_launch.c)."""
    import re

    rule = re.search(r"install\(DIRECTORY ([^)]*?) DESTINATION fastlaunch/csrc\)",
                     (ROOT / "CMakeLists.txt").read_text())
    assert rule is not None
    shipped = {Path(folder).relative_to("csrc").parts[0] for folder in rule.group(1).split()}
    used = set()
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]:
        used |= {(path.name, relative.split("/")[0]) for relative in
                 re.findall(r"core\.source\(f?\"([^\"]+)\"\)", path.read_text())}
    assert {"bench_cuda.py", "bench"} <= {name for pair in used for name in pair}
    assert {folder for _, folder in used} <= shipped, sorted(used)
    for folder in shipped:
        assert (ROOT / "csrc" / folder).is_dir()


def test_the_csrc_headers_a_shim_includes_ship_with_it():
    """A shim includes ``core/...`` (csrc/ is on its include path): a wheel install
    compiles it from fastlaunch/csrc, so the core headers ship there too."""
    text = (ROOT / "CMakeLists.txt").read_text()
    assert 'install(DIRECTORY csrc/core/ DESTINATION fastlaunch/csrc/core FILES_MATCHING ' \
           'PATTERN "*.h")' in text
    assert "${CMAKE_CURRENT_SOURCE_DIR}/csrc/core/*.h" in text  # the shims step's inputs


def test_the_project_names_its_tracker_where_a_report_goes():
    """pyproject's [project.urls] has the tracker; "Reporting a problem" points at it."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert urls["Homepage"] == "https://github.com/fastlaunch/fastlaunch"
    assert urls["Issues"] == "https://github.com/fastlaunch/fastlaunch/issues"
    guide = (ROOT / "docs" / "troubleshooting.md").read_text()
    assert f"Open an issue at <{urls['Issues']}>" in guide.split("## Reporting a problem")[1]


def test_the_readme_installs_the_build_requirements_before_a_no_isolation_install():
    """pip does not fetch [build-system].requires for --no-build-isolation: every such
    install line of the README follows, in its own code block, a pip install of each
    of them (issue 27: the line alone failed with No module named 'scikit_build_core')."""
    import re

    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    names = [re.split(r"[<>=!~ ;\[]", requirement, maxsplit=1)[0] for requirement in requires]
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.S)
    outside = re.sub(r"```bash\n.*?```", "", readme, flags=re.S)
    assert "pip install --no-build-isolation" not in outside  # only in a block that prepares it
    installs = [block for block in blocks if "--no-build-isolation" in block]
    assert installs
    for block in installs:
        before = block.split("--no-build-isolation")[0]
        prepared = " ".join(line for line in before.splitlines() if line.startswith("pip install"))
        assert all(name in prepared.split() for name in names), (names, block)
