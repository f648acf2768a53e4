# SPDX-License-Identifier: Apache-2.0
"""Per-call features of the torch_npu releases, on each release's own code.

Each case runs ``helpers.npu_per_call_driver`` in a child process: the
release's own ``NPUCachingAutotuner``, ``make_launcher`` and wrapper codegen,
triton-ascend 3.2.0's real generated launcher on the recording CANN runtime
(see ``test_torch_npu_releases``). What the release's ``run`` does on every
call (reads its debug flags, logs, saves the kernel) either happens on every
call with fastlaunch too, or the call site stays on ``run``, counted by reason.
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
PER_CALL = sorted(v for v, layout in npu_release.RELEASES.items()
                  if layout == "npu_triton_heuristics")
# 2.10's kernel-call codegen cannot run under torch 2.13 (test_torch_npu_releases.CODEGEN_SKEW)
ONCE = [pytest.param(v, marks=pytest.mark.skip(
            reason=f"torch_npu {v}'s wrapper codegen takes other keywords than torch 2.13's "
                   "KernelCallLine passes; its own torch's environment runs it"))
        if v == "2.10.0.post7" else v
        for v in sorted(v for v, layout in npu_release.RELEASES.items() if layout == "runtime")]

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler for the recording runtime")


@pytest.fixture(scope="module")
def triton_package():
    pytest.importorskip("torch", reason="the releases' Inductor code runs on torch")
    return npu_release.triton_ascend_package()


def _drive(version: str, scenario: str, triton_package: Path, tmp_path: Path) -> dict:
    npu_release.extracted(version)  # skips, naming the wheel, when it cannot be fetched
    out = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(triton_package), str(TESTS)]),
               FASTLAUNCH_WHEEL_CACHE=str(wheels.cache_dir()),
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    env.pop("TORCHINDUCTOR_NPU_BACKEND", None)
    done = subprocess.run([sys.executable, "-m", "helpers.npu_per_call_driver", version,
                           scenario, str(out)], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text())
    npu_release.require_own_code(version, report)  # or a skip naming the own-torch env
    return report


def _strip_ffts(calls: list) -> list:
    """The FFTS address is read once per plan (docs/abi.md): planned calls carry
    it in the launch bytes, not as a separate query."""
    return [{k: v for k, v in c.items() if k != "ffts"} for c in calls]


@pytest.mark.parametrize("version", PER_CALL)
def test_check_accuracy_set_after_bind_reaches_the_bound_site(version, triton_package, tmp_path):
    """The release's run reads check_accuracy on every call (maybe_run_debug):
    set after the site was bound and planned, the next calls go to run."""
    report = _drive(version, "flag_after_bind", triton_package, tmp_path)
    assert report["stats_bound"] == {"fallback.warming_up": 1, "fast": 1, "plan.created": 1}
    assert report["stats_set"] == {"fallback.check_accuracy": 3}
    assert report["stats_cleared"] == {"fast": 2}
    # run, with no traced graph to compare against, launches the kernel itself
    assert _strip_ffts(report["planned"]) == _strip_ffts(report["original"])
    assert all(len(c["launches"]) == 1 for c in report["planned"])


@pytest.mark.parametrize("version", ["2.9.1", "2.12.0.post3"])
def test_force_fallback_kernel_id_set_after_bind_reaches_the_bound_site(
        version, triton_package, tmp_path):
    """Read per call too; with ids naming no kernel here, the release's run
    launches the kernel itself after fallback_to_fx declines."""
    report = _drive(version, "flag_after_bind:force_fallback_kernel_id", triton_package,
                    tmp_path)
    assert report["stats_set"] == {"fallback.force_fallback_kernel_id": 3}
    assert report["stats_cleared"] == {"fast": 2}
    assert _strip_ffts(report["planned"]) == _strip_ffts(report["original"])


def test_autotune_stats_switched_on_after_bind_reaches_the_bound_site(triton_package, tmp_path):
    """2.7.1's run times and logs every call while its stats are enabled
    (FASTA_AUTOTUNE_STATS), reading the switch per call. Its wrapper codegen
    does not load under torch 2.13: upstream's writes the line, as in 2.7.1."""
    report = _drive("2.7.1.post11", "flag_after_bind:stats.enabled", triton_package, tmp_path)
    assert report["stats_set"] == {"fallback.autotune_stats": 3}
    assert report["stats_cleared"] == {"fast": 2}
    assert _strip_ffts(report["planned"]) == _strip_ffts(report["original"])


@pytest.mark.parametrize("version", PER_CALL)
def test_release_info_logging_goes_to_the_release_run(version, triton_package, tmp_path):
    """Its run logs two INFO records per call on torch_npu's logger: with that
    logger at INFO the release's run writes them, for every call."""
    report = _drive(version, "logging_after_bind", triton_package, tmp_path)
    assert report["stats_set"] == {"fallback.release_logging": 3}
    assert report["stats_cleared"] == {"fast": 2}
    records = report["release_records"]
    assert len(records) == 6, records
    assert all("triton_poi_fused_add_0" in r for r in records)
    assert _strip_ffts(report["planned"]) == _strip_ffts(report["original"])


@pytest.mark.parametrize("version", ONCE)
def test_runtime_layout_reads_debug_flags_once(version, triton_package, tmp_path):
    """Its run caches is_run_debug on the autotuner's first call: a flag set
    later changes nothing, for the release and for the bound site."""
    report = _drive(version, "flag_after_bind", triton_package, tmp_path)
    assert report["stats_set"] == {"fast": 3}
    assert _strip_ffts(report["planned"]) == _strip_ffts(report["original"])


@pytest.mark.parametrize("version", ["2.12.0.post3", "2.13.0"])
def test_store_cubin_stays_on_the_release_run(version, triton_package, tmp_path):
    """The release saves the kernel with this call's stream on every call:
    each call goes to its run, counted, and the last save has the last stream."""
    report = _drive(version, "store_cubin", triton_package, tmp_path)
    assert report["launcher_store_cubin"] and all(report["launcher_store_cubin"])
    assert report["stats"] == {"fallback.store_cubin": 3}
    assert report["saved_streams"] == report["streams"]


@pytest.mark.parametrize("version", ["2.12.0.post3", "2.13.0", "2.14.0"])
def test_subgraph_wrapper_call_lines_are_planned_call_sites(version, triton_package, tmp_path):
    """The release's subgraph wrapper codegen (torch.cond / while_loop bodies)
    writes fastlaunch call sites, their module-level lines in the root's imports."""
    report = _drive(version, "subgraph", triton_package, tmp_path)
    assert report["codegen"] == "real"
    assert report["call_site"].splitlines()[-1].strip() == (
        "_fastlaunch_fn(arg0_1, arg1_1, buf0, x0_numel, stream=raw_stream0)")
    assert any(line.startswith("_fastlaunch_meta_0 = ") for line in report["parent_imports"])
    # a graph-partition subgraph keeps the stock line, as in the main wrapper
    assert report["partition_call_site"].splitlines()[-1].strip() == (
        "triton_poi_fused_add_0.run(arg0_1, arg1_1, buf0, x0_numel, stream=raw_stream0)")


@pytest.mark.parametrize(("version", "backend"), [
    ("2.13.0", "triton_experimental"), ("2.13.0", "dvm"), ("2.14.0", "ascendc"),
    ("2.12.0.post3", "mlir"), ("2.9.1", "dvm")])
def test_backend_variant_is_refused_by_name(version, backend, triton_package, tmp_path):
    report = _drive(version, f"backend={backend}", triton_package, tmp_path)
    assert report["installed"] is True
    assert report["install_stats"] == {f"install.npu_backend.{backend}": 1}
    assert any(f"TORCHINDUCTOR_NPU_BACKEND={backend}" in r for r in report["fastlaunch_records"])


@pytest.mark.parametrize("backend", ["default", "triton_experimental"])
def test_backend_value_a_release_lacks_loads_triton(backend, triton_package, tmp_path):
    """2.12 has no triton_experimental: its _BACKEND_LOADERS.get falls back to
    the Triton backend, which is planned."""
    report = _drive("2.12.0.post3", f"backend={backend}", triton_package, tmp_path)
    assert report["installed"] is True and report["install_stats"] == {}


def test_profiler_registered_flag_needs_no_per_call_write(triton_package):
    """triton-ascend's NPULauncher.__call__ sets TRITON_PROFILER_REGISTERED to
    ``launch(...) == 1`` after every launch, and its generated ``launch``
    returns None (or NULL on an error): the flag is False after any launch.
    A site's first call launches through the original launcher, which sets it;
    planned launches would set it to the same value. Nothing reads it: not
    triton-ascend's package, not any supported torch_npu release."""
    name = "TRITON_PROFILER_REGISTERED"
    driver = (triton_package / "triton" / "backends" / "ascend" / "driver.py").read_text()
    assert f"{name} = True if profiler_registered == 1 else False" in driver
    start = driver.index("static PyObject* launch(PyObject* self, PyObject* args)")
    launch = driver[start:driver.index("static PyMethodDef", start)]
    returns = set(re.findall(r"\breturn\s+(\w+)\s*;", launch))
    assert returns == {"NULL"} and launch.count("Py_RETURN_NONE") == 1
    mentions = [str(path.relative_to(triton_package))
                for path in sorted((triton_package / "triton").rglob("*.py"))
                if name in path.read_text(errors="replace")]
    assert mentions == ["triton/backends/ascend/driver.py"]
    assert driver.count(name) == 1  # written there, read nowhere
    for version in npu_release.RELEASES:
        root = npu_release.extracted(version)
        readers = [p for p in root.rglob("*.py") if name in p.read_text(errors="replace")]
        assert readers == [], (version, readers)


#: What TORCHINDUCTOR_NPU_BACKEND selects per release (docs/npu_fast_launch.md, feature table).
VARIANTS = {"2.7.1.post11": ("mlir", "dvm"), "2.8.0.post5": ("mlir", "dvm"),
            "2.9.1": ("mlir", "dvm"), "2.10.0.post7": ("mlir", "dvm", "ascendc"),
            "2.11.0.post3": ("mlir", "dvm", "ascendc"), "2.12.0.post3": ("mlir", "dvm", "ascendc"),
            "2.13.0": ("dvm", "mlir", "ascendc", "triton_experimental"),
            "2.14.0": ("dvm", "mlir", "ascendc", "triton_experimental")}


@pytest.mark.parametrize("version", sorted(npu_release.RELEASES))
def test_backend_variants_read_from_each_release(version):
    """The variants fastlaunch refuses are read from the release's own
    torch_npu/_inductor/__init__.py; the guide's table lists the same."""
    from fastlaunch.integrations.torch_npu import contract

    root = npu_release.extracted(version)

    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    assert sorted(contract.backend_variants(read)) == sorted(VARIANTS[version])
