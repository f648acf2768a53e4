# SPDX-License-Identifier: Apache-2.0
"""The planned call over torch_npu's NPU Python wrapper, on the recording CANN runtime.

Per release, in a child process (``helpers.npu_release_wrapper``): the
release's own wrapper class writes a whole wrapper module (device guard
``torch.npu.utils.device``, ``torch.npu.set_device``, the raw-stream getter
its device op overrides import, ``empty_strided(..., device='npu')``, four
launches of one kernel, a buffer reuse, ``del``s, the return), once as shipped and once
with fastlaunch's NPU integration installed. The kernel is the release's
real ``NPUCachingAutotuner`` over triton-ascend's real generated launcher,
linked to the recording CANN runtime; the submissions go through
fastlaunch's real ``NpuBackend`` and the recorder's task queue.

NPU memory is stood in for: ``empty_strided`` gives ``npu:0`` tensors (a
torch wrapper subclass: real sizes, strides, dtype and device, no storage)
whose ``data_ptr()`` is a block of one CPU buffer, first fit, given back when
the tensor dies. The recording runtime records the addresses it is given
and never dereferences them; the same allocations and frees in the same
order give the same addresses, so the launch bytes also prove each free
happened where the Python ``call()`` does it. The ``npu`` test device
(``helpers.npu_device``) replaces that stand-in with plain PrivateUse1
tensors for a few releases, with an extern mm the ATen shim runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import npu_device, npu_release, wheels
from helpers.oracle import cc

TESTS = Path(__file__).resolve().parents[2]
# The raw-stream getter each release's device op overrides import.
STREAM_IMPORT = {
    "2.7.1.post11": "from torch_npu._C import _npu_getCurrentRawStreamNoWait as get_raw_stream",
    "2.13.0": "from torch_npu._C import _npu_getCurrentRawStreamNoWait as get_raw_stream",
    "2.14.0": "from torch_npu._C import _npu_getCurrentRawStreamNoWait as get_raw_stream",
}
STREAM_IMPORT_INDUCTOR = "from torch_npu._inductor import get_current_raw_stream as get_raw_stream"
CALL_LINES = [  # call() as every release writes it
    "arg0_1, arg1_1 = args",
    "args.clear()",
    "with torch.npu.utils.device(0):",
    "torch.npu.set_device(0)",
    "buf0 = empty_strided((1000, ), (1, ), device='npu', dtype=torch.float32)",
    "raw_stream0 = get_raw_stream(0)",
    "triton_poi_fused_add_0.run(arg0_1, arg1_1, buf0, 1000, stream=raw_stream0)",
    "buf1 = empty_strided((1000, ), (1, ), device='npu', dtype=torch.float32)",
    "raw_stream0 = get_raw_stream(0)",
    "triton_poi_fused_add_0.run(buf0, arg1_1, buf1, 1000, stream=raw_stream0)",
    "buf2 = buf0; del buf0  # reuse",
    "raw_stream0 = get_raw_stream(0)",
    "triton_poi_fused_add_0.run(buf1, arg1_1, buf2, 1000, stream=raw_stream0)",
    "del buf1",
    "buf3 = empty_strided((1000, ), (1, ), device='npu', dtype=torch.float32)",
    "raw_stream0 = get_raw_stream(0)",
    "triton_poi_fused_add_0.run(buf2, arg1_1, buf3, 1000, stream=raw_stream0)",
    "del buf2",
    "return (buf3, )",
]
# The static-kernel prefix and suffix; the local is spelled "complier" from 2.13 on.
STATIC_ISLANDS = [
    "if not has_initialized:\n"
    "    from torch_npu._inductor.npu_static_kernel import StaticKernelCompiler\n"
    "    {0} = StaticKernelCompiler()\n"
    "    {0}.__enter__()\n"
    "    has_initialized = True",
    "if not has_initialized:\n"
    "    exc_info = (None, None, None)\n"
    "    {0}.__exit__(*exc_info)",
]

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler for the recording runtime")


@pytest.fixture(scope="module")
def triton_package():
    pytest.importorskip("torch", reason="the releases' Inductor code runs on torch")
    return npu_release.triton_ascend_package()


def _drive(version: str, triton_package: Path, tmp_path: Path, *flags: str) -> dict:
    npu_release.extracted(version)  # skips, naming the wheel, when it cannot be fetched
    out = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(triton_package), str(TESTS)]),
               FASTLAUNCH_WHEEL_CACHE=str(wheels.cache_dir()))
    done = subprocess.run([sys.executable, "-m", "helpers.npu_release_wrapper", version,
                           str(out), *flags], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text())
    npu_release.require_own_code(version, report)  # or a skip naming the own-torch env
    return report


def _assert_same_as_python(report: dict, name: str) -> None:
    """Each call told the runtime exactly what the Python call() did, in the
    same device-guard and allocation order."""
    python, got = report["python"], report[name]
    assert got["guard"] == python["guard"], name
    assert got["arena"] == python["arena"], name
    assert got["observed"] == python["observed"], name


def _body(text: str, last: str = "        return (buf3, )") -> list[str]:
    lines = text[text.index("    def call(self, args):"):].splitlines()
    return [line.strip() for line in lines[1:lines.index(last) + 1]]


def _check_python(report: dict) -> None:
    python = report["python"]
    assert python["type"] == "method" and python["stats"] == {} and python["runs"] == 0
    for observed in python["observed"]:  # four launches per call, each through the task queue
        assert len(observed["launches"]) == 4
        assert observed["tasks"] == ["triton_poi_fused_add_0"] * 4
        assert {launch["stream"] for launch in observed["launches"]} == {0x5151}
    # per call: the guard entered, the device set, left; buf0's block reused
    # as buf2; buf1 freed at its del, so buf3 gets its block; buf2 freed at
    # its del, buf3 when the caller drops it
    assert python["guard"] == [["enter", 0], ["set", 0], ["exit", None]] * 5
    assert python["arena"] == [["alloc", 8192, 4096], ["alloc", 12288, 4096],
                               ["free", 12288, 4096], ["alloc", 12288, 4096],
                               ["free", 8192, 4096], ["free", 12288, 4096]] * 5


@pytest.mark.parametrize("version", sorted(npu_release.RELEASES))
def test_release_npu_wrapper_runs_planned_as_its_python_call(version, triton_package, tmp_path):
    report = _drive(version, triton_package, tmp_path)
    _check_release_run(version, report)


# One release per autotuner layout with its own codegen, and the release most Ascend users run.
ON_DEVICE = ("2.7.1.post11", "2.12.0.post3", "2.13.0")
MM_LINES = [  # what write_wrapper(extern=True) adds after the first launch
    "buf4 = empty_strided((25, 25), (25, 1), device='npu', dtype=torch.float32)",
    "extern_kernels.mm(reinterpret_tensor(arg0_1, (25, 40), (40, 1), 0), "
    "reinterpret_tensor(arg1_1, (40, 25), (1, 40), 0), out=buf4)",
]
# per call: buf0, buf4 (2500 bytes in a 2560-byte block), buf1; buf1 freed at its
# del and its block reused for buf3; buf0 (as buf2) freed; buf4 and buf3 freed
# when the caller drops the outputs
MM_ARENA = [["alloc", 8192, 4096], ["alloc", 12288, 2560], ["alloc", 14848, 4096],
            ["free", 14848, 4096], ["alloc", 14848, 4096], ["free", 8192, 4096],
            ["free", 12288, 2560], ["free", 14848, 4096]] * 5
MM_OUT = "00007041" * 625  # 40 * 1.5 * 0.25 = 15.0 (float32 0x41700000), 25 x 25


@pytest.mark.parametrize("version", ON_DEVICE)
def test_release_npu_wrapper_with_extern_mm_on_npu_device_tensors(version, triton_package,
                                                                 tmp_path):
    """The release's wrapper with an extern mm over views of its inputs
    (written by the release's own extern-kernel-out writer), on the ``npu``
    test device (helpers.npu_device): plain at::Tensors on PrivateUse1,
    allocated by the wrapper's own ``torch.empty_strided(..., device='npu')``,
    as torch_npu's are. The planned call runs the mm and the four allocations
    in its ATen shim (views folded, the allocations through the dispatcher to
    the device's kernel, nothing declined) between launches that fastlaunch's NpuBackend
    reads from those tensors natively; the recording runtime gets the launches
    of the Python call() byte for byte, addresses included, and the device's
    allocator the same allocations and frees."""
    why = npu_device.unavailable()
    if why:
        pytest.skip(why)
    report = _drive(version, triton_package, tmp_path, "device", "extern")
    assert report["installed"] is True and report["aten_ops"] is True
    stock = report["texts"]["stock"]
    launch = CALL_LINES.index("triton_poi_fused_add_0.run(arg0_1, arg1_1, buf0, 1000, "
                              "stream=raw_stream0)") + 1
    assert _body(stock, "        return (buf3, buf4, )") == \
        [*CALL_LINES[:launch], *MM_LINES, *CALL_LINES[launch:-1], "return (buf3, buf4, )"]
    python = report["python"]
    assert python["stats"] == {} and python["runs"] == 0 and python["native_ops"] == {}
    assert python["guard"] == [["enter", 0], ["set", 0], ["exit", None]] * 5
    assert python["arena"] == MM_ARENA
    for observed in python["observed"]:
        assert observed["tasks"] == ["triton_poi_fused_add_0"] * 4
    for name in ("python", "planned_stock", "planned", "fallback_disabled",
                 "fallback_profiler"):
        assert report[name]["input_type"] == "Tensor", name
        assert report[name]["mm_out"] == [MM_OUT] * 5, name
        assert report[name]["guard"] == python["guard"], name
        assert report[name]["arena"] == python["arena"], name
    for name, stats in (("planned_stock", {"call.native_op": 25, "call.planned": 5}),
                        ("planned", {"call.native_op": 25, "call.planned": 5,
                                     "fallback.warming_up": 4, "fast": 16,
                                     "plan.created": 4})):
        assert report[name]["stats"] == stats, name
        # mm and the allocations (torch.empty_strided, kind 13), in the shim
        assert report[name]["native_ops"] == {"1": [5, 0], "13": [20, 0]}, name
        assert report[name]["runs"] == 5, name
    assert report["planned_stock"]["observed"] == python["observed"]
    for i, (want, got) in enumerate(zip(python["observed"], report["planned"]["observed"])):
        want, got = dict(want), dict(got)
        if i > 0:  # the FFTS address is read once per plan (docs/abi.md)
            assert want.pop("ffts") == python["observed"][0]["ffts"] and got.pop("ffts") == []
        assert got == want, f"call {i}"
    for reason in ("disabled", "profiler"):
        fallback = report[f"fallback_{reason}"]
        assert fallback["stats"] == {f"fallback.call_{reason}": 5, f"fallback.{reason}": 20}
        assert fallback["native_ops"] == {} and fallback["runs"] == 0
        assert fallback["observed"] == python["observed"]


def _check_release_run(version: str, report: dict) -> None:
    assert report["installed"] is True
    assert report["codegen"] == "real"
    assert report["device_ops"].startswith("torch_npu._inductor.")
    stock, patched = report["texts"]["stock"], report["texts"]["fastlaunch"]
    assert _body(stock) == CALL_LINES
    assert STREAM_IMPORT.get(version, STREAM_IMPORT_INDUCTOR) in stock.splitlines()
    sites = [line for line in _body(patched) if line.startswith("_fastlaunch_fn(")]
    assert sites == ["_fastlaunch_fn(arg0_1, arg1_1, buf0, 1000, stream=raw_stream0)",
                     "_fastlaunch_fn(buf0, arg1_1, buf1, 1000, stream=raw_stream0)",
                     "_fastlaunch_fn(buf1, arg1_1, buf2, 1000, stream=raw_stream0)",
                     "_fastlaunch_fn(buf2, arg1_1, buf3, 1000, stream=raw_stream0)"]
    assert not any(".run(" in line for line in _body(patched))
    _check_python(report)

    # The shipped text planned: its .run lines are the release's own run.
    planned_stock = report["planned_stock"]
    assert report["planned_stock.planning"] == [True, {"call.translated": 1}]
    assert planned_stock["type"] == "PlannedCall"
    assert report["planned_stock.program"]["islands"] == []
    assert planned_stock["stats"] == {"call.planned": 5} and planned_stock["runs"] == 5
    _assert_same_as_python(report, "planned_stock")

    # fastlaunch's text planned: each site warms up once through the
    # release's run, then launches planned; nothing stays Python.
    planned = report["planned"]
    program = report["planned.program"]
    assert program["islands"] == [] and program["summary"]["site"] == 4
    assert planned["stats"] == {"call.planned": 5, "fallback.warming_up": 4, "fast": 16,
                                "plan.created": 4}
    assert planned["runs"] == 5
    assert planned["guard"] == report["python"]["guard"]
    assert planned["arena"] == report["python"]["arena"]
    original = report["python"]["observed"]
    for i, (want, got) in enumerate(zip(original, planned["observed"])):
        want, got = dict(want), dict(got)
        if i > 0:  # the FFTS address is read once per plan (docs/abi.md)
            assert want.pop("ffts") == original[0]["ffts"] and got.pop("ffts") == []
        assert got == want, f"call {i}"

    # Whole-call fallback by reason: the Python call() runs, as stock.
    for reason in ("disabled", "profiler"):
        fallback = report[f"fallback_{reason}"]
        assert fallback["stats"] == {f"fallback.call_{reason}": 5, f"fallback.{reason}": 20}
        assert fallback["runs"] == 0
        _assert_same_as_python(report, f"fallback_{reason}")


@pytest.mark.parametrize(("version", "local"), [("2.12.0.post3", "static_kernel_compiler"),
                                              ("2.13.0", "static_kernel_complier"),
                                              ("2.14.0", "static_kernel_complier")])
def test_static_kernel_prefix_stays_python_around_the_native_program(version, local,
                                                                     triton_package, tmp_path):
    """With torch_npu.npu.aclnn._use_static_aclnn_kernel on, the release writes
    ``global has_initialized`` and two ``if not has_initialized:`` blocks: the
    global is read per call and the blocks run as islands that bind it in the
    module, as call() does; the rest stays native."""
    report = _drive(version, triton_package, tmp_path, "static")
    assert "global has_initialized" in _body(report["texts"]["fastlaunch"])
    for name in ("planned_stock", "planned"):
        assert report[f"{name}.planning"] == [True, {"call.islands": 1, "call.translated": 1}]
        assert report[f"{name}.program"]["islands"] == [i.format(local) for i in STATIC_ISLANDS]
        assert report[name]["runs"] == 5
        assert report[name]["has_initialized"] is True
    python = report["python"]
    assert python["has_initialized"] is True
    assert python["guard"] == [["static", "enter"]] + [["enter", 0], ["set", 0],
                                                       ["exit", None]] * 5
    _assert_same_as_python(report, "planned_stock")
    planned = report["planned"]
    assert planned["guard"] == python["guard"] and planned["arena"] == python["arena"]
    assert planned["stats"]["fast"] == 16
