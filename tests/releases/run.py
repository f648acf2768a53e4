# SPDX-License-Identifier: Apache-2.0
"""Each torch_npu release's suite on the release's own torch (``tox -e releases``).

``python tests/releases/run.py [VERSION ...]`` (default: every release of
``helpers.npu_release.RELEASES``). Per release, one virtual environment
under ``<fastlaunch cache>/releases/torch-X`` (``FASTLAUNCH_RELEASES_DIR``
moves it), made once and reused while its stamp matches:

* the torch release the torch_npu wheel pins (``Requires-Dist: torch==X+cpu``),
  from the package registry, with the dependencies its metadata names except
  ``triton`` (uninstalled if present: triton-ascend's package is the one
  imported, as on Ascend). The registry's linux torch is a CUDA build: its
  libraries link ``libcudart``, ``libcublas``, ``libcudnn`` and the rest, so
  ``import torch`` needs the ``nvidia-*`` packages even on a CPU host
  (``--no-deps`` alone fails with ``libcudart.so.12: cannot open shared
  object file``); 4.6 to 6.4 GB per environment, one pip cache for all, and
  the ``nvidia`` files that environments have in common hard-linked to one copy;
* torch_npu's own pure-Python dependencies (numpy, pyyaml);
* where that torch is a CUDA build, the CUDA header wheels its ATen headers
  need beyond torch's dependencies (``builds.shims.header_wheels``), so that the ATen
  shim's cuBLASLt tier is compiled against each release's ATen;
* fastlaunch and the test tools from the running interpreter's environment
  (the tox env, which has no torch), reached through a ``.pth`` file, after
  the environment's own packages.

Then ``tests/unit/integrations/test_torch_npu_releases.py`` runs there for that release
(``test_planned_call_npu.py``'s whole-wrapper harness builds a GraphLowering
the torch 2.13 way and stays in the default env): the release's own
wrapper codegen writes every call site (on its own torch a codegen that
cannot load or write is a failure, never a skip). A release whose torch the
registry lacks is a named skip. Prints one line per release (wall time,
counters, outcome) and exits non-zero when any release failed.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import pytest  # noqa: E402 - the helpers skip through pytest

from fastlaunch import config  # noqa: E402
from fastlaunch.builds import shims  # noqa: E402
from helpers import npu_release  # noqa: E402

STAMP = "fastlaunch-release-env.json"
# Bumped when what an environment holds changes, so old ones are remade.
ENV_FORMAT = 1
TESTS = ("tests/unit/integrations/test_torch_npu_releases.py::"
         "test_release_plans_and_launches_what_its_own_run_launches[{v}]",
         "tests/unit/integrations/test_torch_npu_releases.py::"
         "test_the_planned_calls_aten_shim_builds_on_this_torch")
PLUGIN_TEST = ("tests/unit/integrations/test_torch_npu_releases.py::"
               "test_torch_npu_2_13_and_2_14_plugins_do_not_block_planning[{v}]")


class RegistryLacks(Exception):
    """The package registry has no build of the release's torch."""


def releases_dir() -> Path:
    path = os.environ.get("FASTLAUNCH_RELEASES_DIR", "").strip()
    return Path(path) if path else config.cache_dir() / "releases"


def _pip(python: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, check=False)


def _requires(metadata: str, *, drop: tuple[str, ...]) -> list[str]:
    """``Requires-Dist`` lines of a METADATA text, without extras and ``drop``."""
    out = []
    for line in re.findall(r"^Requires-Dist:\s*(.+)$", metadata, re.M):
        name = re.match(r"[A-Za-z0-9_.-]+", line).group(0).lower().replace("_", "-")
        if "extra ==" not in line and name not in drop:
            out.append(line.strip())
    return out


def _site_packages(python: Path) -> Path:
    done = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def torch_cuda(version_py: str) -> str:
    """The CUDA version a torch was built with ("" for none), as its
    torch/version.py (``version_py``) says: read without importing torch."""
    found = re.search(r"^cuda\s*(?::[^=]*)?=\s*'([0-9.]+)'", version_py, re.M)
    return found.group(1) if found else ""


def add_cuda_headers(python: Path) -> str:
    """Install the CUDA header wheels of the environment's torch CUDA version
    (``builds.shims.header_wheels``: what ATen's CUDA headers include beyond
    torch's dependencies), so that the ATen shim compiles its cuBLASLt tier
    against each release's ATen (the code no GPU runs here). Once: pip finds
    them later. "" when done or nothing to do, else why not."""
    cuda = torch_cuda((_site_packages(python) / "torch" / "version.py").read_text())
    wheels = shims.header_wheels(cuda) if cuda else ()
    if not wheels:
        return "" if not cuda else f"no header wheels known for CUDA {cuda}"
    done = _pip(python, "install", "--quiet", "--no-deps", "--only-binary=:all:", *wheels)
    return "" if done.returncode == 0 else f"pip install {wheels}: {done.stderr[-500:]}"


def make_env(version: str, torch: str) -> Path:
    """The environment of ``version`` on torch ``torch`` (made, or reused)."""
    env = releases_dir() / f"torch-{torch}"
    python = env / "bin" / "python"
    npu_requires = _requires(npu_release.wheel_metadata(version), drop=("torch",))
    stamp = {"format": ENV_FORMAT, "torch": torch, "torch_npu_requires": npu_requires}
    if (env / STAMP).is_file() and json.loads((env / STAMP).read_text()) == stamp:
        _reach_runner(python)
        _require_headers(python)
        return python
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(env)], check=True)
    done = _pip(python, "install", "--quiet", "--no-deps", "--only-binary=:all:",
                f"torch=={torch}")
    if done.returncode != 0:
        if "No matching distribution" in done.stderr:
            raise RegistryLacks(f"the package registry has no torch {torch} for this "
                                f"platform (torch_npu {version} pins it)")
        raise RuntimeError(f"pip install torch=={torch}: {done.stderr[-2000:]}")
    meta = next((_site_packages(python)).glob("torch-*.dist-info")) / "METADATA"
    deps = [*_requires(meta.read_text(), drop=("triton",)), *npu_requires]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as reqs:
        reqs.write("\n".join(deps) + "\n")
    done = _pip(python, "install", "--quiet", "--only-binary=:all:", "-r", reqs.name)
    os.unlink(reqs.name)
    if done.returncode != 0:
        raise RuntimeError(f"pip install torch {torch}'s dependencies: {done.stderr[-2000:]}")
    _pip(python, "uninstall", "--quiet", "--yes", "triton")  # nothing to do unless present
    _require_headers(python)
    _reach_runner(python)
    share_files(env)
    (env / STAMP).write_text(json.dumps(stamp))
    return python


def _require_headers(python: Path) -> None:
    why = add_cuda_headers(python)
    if why:
        raise RuntimeError(f"CUDA's headers for the cuBLASLt tier: {why}")


def _reach_runner(python: Path) -> None:
    """Point the environment at the running interpreter's fastlaunch and test
    tools (rewritten each run: the tox env, or a developer's venv). With
    addsitedir, not a bare path, the runner's own .pth files (an editable
    fastlaunch) apply too; its folders come after the environment's own."""
    paths = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (_site_packages(python) / "zz-fastlaunch-runner.pth").write_text("".join(
        f"import site; site.addsitedir({path!r})\n" for path in paths))


def share_files(env: Path) -> int:
    """Hard-link ``env``'s ``nvidia`` libraries to the same files of the other
    environments (torch 2.8 to 2.10 pin mostly the same CUDA 12.8 packages:
    one copy on disk). A file is shared only when its path below
    site-packages, its size and its bytes are the same. Returns bytes saved."""
    site = _site_packages(env / "bin" / "python")
    others = [_site_packages(other / "bin" / "python")
              for other in sorted(releases_dir().glob("torch-*"))
              if other != env and (other / STAMP).is_file()]
    saved = 0
    for file in (site / "nvidia").rglob("*"):
        if not file.is_file() or file.is_symlink():
            continue
        for other_site in others:
            twin = other_site / file.relative_to(site)
            if twin.is_file() and file.stat().st_ino == twin.stat().st_ino:
                break  # shared already
            if twin.is_file() and file.stat().st_size == twin.stat().st_size \
                    and filecmp.cmp(file, twin, shallow=False):
                partial = file.with_name(file.name + ".fastlaunch-link")
                os.link(twin, partial)
                partial.replace(file)
                saved += twin.stat().st_size
                break
    return saved


def run_release(version: str, reports: Path) -> dict:
    """Make the environment and run the release's tests there: one result row."""
    row: dict = {"release": version}
    start = time.monotonic()
    try:
        row["torch"] = torch = npu_release.own_torch(version)
        python = make_env(version, torch)
    except (RegistryLacks, pytest.skip.Exception) as err:
        row.update(outcome="skipped", reason=str(err))
        return row
    except (RuntimeError, subprocess.CalledProcessError) as err:  # the next release still runs
        row.update(outcome="failed", reason=f"setting up the environment: {err}")
        return row
    row["setup_s"] = round(time.monotonic() - start, 1)
    tests = [t.format(v=version) for t in TESTS]
    if version in ("2.13.0", "2.14.0"):
        tests.append(PLUGIN_TEST.format(v=version))
    start = time.monotonic()
    done = subprocess.run([str(python), "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           *tests], cwd=ROOT, capture_output=True, text=True, check=False,
                          env=dict(os.environ, FASTLAUNCH_RELEASE_REPORTS=str(reports)))
    row["tests_s"] = round(time.monotonic() - start, 1)
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    row["pytest"] = summary
    row["outcome"] = "passed" if done.returncode == 0 and "skipped" not in summary else "failed"
    if row["outcome"] == "failed":
        row["output"] = (done.stdout + done.stderr)[-6000:]
    report = reports / f"{version}.json"
    if report.is_file():
        got = json.loads(report.read_text())
        row.update(codegen=got.get("codegen"), stats=got.get("stats"),
                   call_site=(got.get("call_site") or "").splitlines()[-1:],
                   launches_equal=_launches_equal(got.get("original", []),
                                                  got.get("planned", [])))
    return row


def _launches_equal(original: list[dict], planned: list[dict]) -> bool:
    """Every call sent the same bytes both ways (the FFTS address is read once
    per plan, so later planned calls carry none: docs/abi.md)."""
    if not original or len(original) != len(planned):
        return False
    for i, (want, got) in enumerate(zip(original, planned)):
        want, got = dict(want), dict(got)
        if i > 0 and (want.pop("ffts") != original[0]["ffts"] or got.pop("ffts") != []):
            return False
        if want != got:
            return False
    return True


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=sorted(npu_release.RELEASES))
    parser.add_argument("--json", type=Path, help="write the result rows here")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.versions) - set(npu_release.RELEASES))
    if unknown:
        parser.error(f"unknown releases {unknown}; known: {sorted(npu_release.RELEASES)}")
    rows = []
    with tempfile.TemporaryDirectory() as reports:
        for version in args.versions:
            row = run_release(version, Path(reports))
            rows.append(row)
            line = json.dumps({k: v for k, v in row.items() if k != "output"})
            sys.stdout.write(line + "\n" + row.get("output", ""))
            sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 1 if any(r["outcome"] == "failed" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
