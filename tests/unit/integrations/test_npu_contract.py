# SPDX-License-Identifier: Apache-2.0
"""Contract tests against the released torch-npu wheels (read, never imported).

Each supported release must have every class, method, parameter and scope
name the NPU integration patches or reads; the ABI mirror in csrc/npu/npu_abi.h
must match the acl/acl_rt.h each release ships.
"""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from fastlaunch.builds import core
from fastlaunch.integrations.torch_npu import contract, layouts
from helpers import npu_release
from helpers.wheels import WheelSource, fetch

ROOT = Path(__file__).resolve().parents[3]

# The support matrix of docs/npu_fast_launch.md: every release passes the
# contract of its layout; 2.10.0.post7 and later also ship torch_npu's own
# experimental fast launch.
PASSING = tuple(sorted(npu_release.RELEASES))
IN_TREE = ("2.10.0.post7", "2.13.0", "2.14.0")


@pytest.fixture(scope="module", params=PASSING)
def release(request):
    return WheelSource(fetch(request.param))


def test_release_satisfies_the_contract_of_its_layout(release, request):
    version = request.node.callspec.params["release"]
    assert layouts.detect(release.read).name == npu_release.RELEASES[version]
    assert contract.check(release.read) == []


def test_a_debug_flag_fastlaunch_does_not_follow_is_a_problem(release):
    heuristics = layouts.detect(release.read).heuristics_file

    def read(path):
        text = release.read(path)
        if path != heuristics:
            return text
        return text.replace("def maybe_run_debug(self, *args, grid_, stream, launcher, **kwargs):",
                            "def maybe_run_debug(self, *args, grid_, stream, launcher, **kwargs):"
                            "\n        if npu_config.new_debug_mode: return 'new'", 1)

    assert contract.check(read) == [
        f"{heuristics}: NPUCachingAutotuner's debug path reads torch_npu config flags "
        "fastlaunch does not follow: ['new_debug_mode']"]


def test_a_release_outside_the_matrix_is_refused_with_its_version(release):
    def read(path):
        return "__version__ = '2.6.0'\n" if path == layouts.VERSION else release.read(path)

    assert contract.check(read) == ["torch_npu 2.6.0 is outside the tested releases "
                                    "(2.7, 2.8, 2.9, 2.10, 2.11, 2.12, 2.13, 2.14)"]


def test_a_tree_of_neither_layout_is_refused_naming_both_files(release):
    def read(path):
        return None if "triton_heuristics" in path else release.read(path)

    (problem,) = contract.check(read)
    assert "runtime/triton_heuristics.py" in problem and "npu_triton_heuristics.py" in problem


@pytest.mark.parametrize("version", IN_TREE)
def test_release_ships_the_in_tree_fast_launch(version):
    # Exactly one implementation may be active: the integration must see it.
    release = WheelSource(fetch(version))
    assert contract.has_in_tree_fast_launch(release.read)
    config = release.read("torch_npu/_inductor/config.py")
    assert "TORCHINDUCTOR_NPU_FAST_LAUNCH" in config and "enable_fast_launch" in config


def test_contract_reports_what_is_missing(release):
    def without(path):
        def read(p):
            return None if p == path else release.read(p)
        return read

    assert contract.check(without(contract.WRAPPER)) == [f"{contract.WRAPPER}: missing"]

    heuristics = layouts.detect(release.read).heuristics_file

    def renamed(p):
        text = release.read(p)
        if p == heuristics:
            return text.replace("def make_launcher", "def _renamed")
        return text

    problems = contract.check(renamed)
    assert problems == [f"{heuristics}: TritonCompileResultNpu.make_launcher missing"]


@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")
def test_abi_mirror_matches_the_shipped_acl_header(release, tmp_path):
    # 2.10+ ship the ACL headers at include/acl, 2.8 and 2.9 only under third_party
    (header,) = [name for name in ("torch_npu/include/acl/acl_rt.h",
                                   "torch_npu/include/third_party/acl/inc/acl/acl_rt.h")
                 if name in release.names][:1]
    root = header.removesuffix("acl/acl_rt.h")  # with its sibling folders (ge/)
    inc = release.extract(root, tmp_path) / root
    check = tmp_path / "check.cpp"
    check.write_text("""
#include <cstddef>
#include <type_traits>
#include "acl/acl_rt.h"
#include "npu/npu_abi.h"
namespace m = fastlaunch::cann;
static_assert(sizeof(m::PtrAttributes) == sizeof(aclrtPtrAttributes), "attributes");
static_assert(offsetof(m::PtrAttributes, location_type) ==
              offsetof(aclrtPtrAttributes, location) + offsetof(aclrtMemLocation, type),
              "location.type");
static_assert(sizeof(aclrtMemLocationType) == sizeof(uint32_t), "location type");
static_assert(m::kMemLocationDevice == ACL_MEM_LOCATION_TYPE_DEVICE, "device");
static_assert(m::kMemLocationHostNuma == 4, "host NUMA, as the generated launchers accept it");
// The function types the core calls through match the declarations (the
// attributes struct by the layout asserted above).
using Declared = decltype(&aclrtPointerGetAttributes);
static_assert(std::is_same<Declared, aclError (*)(const void*, aclrtPtrAttributes*)>::value,
              "aclrtPointerGetAttributes");
static_assert(std::is_same<aclError, int>::value, "aclError");
static m::GetDevice get_device = &aclrtGetDevice;
int main() { return get_device == nullptr; }
""")
    result = subprocess.run(["c++", "-std=c++17", "-fsyntax-only", f"-I{inc}",
                             f"-I{ROOT / 'csrc'}", str(check)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")
@pytest.mark.parametrize("version", PASSING)
def test_task_queue_shim_compiles_against_the_release_headers(version, tmp_path):
    """queue_shim.cpp is built on the user's machine against torch_npu's
    headers (OpCommand, the workspace allocator): it must compile there."""
    torch = pytest.importorskip("torch", reason="torch is not installed (the shim includes "
                                                "torch/extension.h)")
    from torch.utils import cpp_extension

    wanted = ".".join(version.split(".")[:2])
    if not torch.__version__.startswith(wanted + "."):
        pytest.skip(f"torch-npu {version} headers need torch {wanted}, "
                    f"torch {torch.__version__} is installed")
    root = WheelSource(fetch(version)).extract("torch_npu/include/", tmp_path)
    inc = root / "torch_npu" / "include"
    shim = core.source("shims/queue_shim.cpp")
    paths = [*cpp_extension.include_paths(), str(inc), str(inc / "third_party" / "acl" / "inc"),
             sysconfig.get_paths()["include"]]
    result = subprocess.run(["c++", "-std=c++17", "-fsyntax-only",
                             "-DTORCH_EXTENSION_NAME=fastlaunch_npu_queue",
                             *(f"-I{p}" for p in paths), str(shim)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
