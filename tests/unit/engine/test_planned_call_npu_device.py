# SPDX-License-Identifier: Apache-2.0
"""The planned call's ATen shim on NPU tensors as torch_npu makes them.

torch_npu's tensors are plain at::Tensors on PrivateUse1 (renamed ``npu``);
the recording-runtime tests stand them in with a storage-less subclass, which
the shim declines. Here they are real: the ``npu`` test device
(csrc/testing/npu_device, ``helpers.npu_device``) gives PrivateUse1 tensors
on host memory, with a device guard, an allocator and CPU-forwarding kernels
for the ops the wrappers run. The saved Inductor wrappers, written as
torch_npu writes them (``empty_strided(..., device='npu')``, the ``npu``
device guard), run in a child process (renaming PrivateUse1 is for good) as
Python ``call()`` and as the planned call the code cache hook makes; their
outputs must be byte-equal (and equal to the CPU wrapper's on CPU), the
device must see the same allocations and frees in the same order, and the
shim's per-kind counts say every allocation, GEMM, convolution, attention and
view ran natively, none declined.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import call_trace

torch = pytest.importorskip("torch", reason="the test device is built against torch")

from helpers import npu_device  # noqa: E402

TESTS = Path(__file__).resolve().parents[2]
# program.NATIVE_KINDS by the name the wrapper calls
KIND_OF = {"extern_kernels.mm": 1, "extern_kernels.addmm": 2, "extern_kernels.bmm": 3,
           "extern_kernels.baddbmm": 4,
           "torch.ops.aten._scaled_dot_product_efficient_attention.default": 5,
           "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default": 6,
           "extern_kernels.convolution": 7,
           "torch.ops.aten._scaled_dot_product_flash_attention.default": 8,
           "torch.ops.aten._scaled_dot_product_cudnn_attention.default": 9,
           "reinterpret_tensor": 10, "empty_strided": 13, "assert_alignment": 14}
VIEW, ALLOC, ALIGN = 10, 13, 14
# What each wrapper's call() runs in the shim: {kind: (ran, declined)}. The
# allocations are torch.empty_strided(..., device='npu', dtype=...), kind 13,
# through ATen's dispatcher to the device's own allocating kernel.
EXPECTED = {
    "mlp": {2: (2, 0), ALLOC: (5, 0)},
    "mlp_dynamic": {2: (2, 0), ALLOC: (5, 0)},
    "views": {1: (1, 0), 2: (1, 0), ALLOC: (3, 0)},
    "attention": {3: (2, 0), ALLOC: (4, 0)},
    "baddbmm": {4: (1, 0), ALLOC: (1, 0)},
    "conv": {7: (1, 0), ALLOC: (3, 0)},
    "gpt_block": {2: (8, 0), 6: (2, 0), VIEW: (8, 0), ALLOC: (9, 0), ALIGN: (2, 0)},
}
# transformer.py's _transformer_encoder_layer_fwd is a composite of ops the
# device does not register (it is no shim kind either).


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    why = npu_device.unavailable()
    if why:
        pytest.skip(why)
    out = tmp_path_factory.mktemp("npu_device") / "report.json"
    # the saved CPU wrappers' kernels abort on AVX-512 hosts under this torch
    env = dict(os.environ, PYTHONPATH=str(TESTS), ATEN_CPU_CAPABILITY="avx2")
    done = subprocess.run([sys.executable, "-m", "helpers.npu_device_calls", str(out),
                           *EXPECTED], env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text())


def _written(text: str) -> dict[int, tuple[int, int]]:
    """Per kind, the calls of it written in call(), reinterpret_tensor views
    written as another call's argument (made inside the shim's own call) left out."""
    calls = [node for fn in ast.walk(ast.parse(text))
             if isinstance(fn, ast.FunctionDef) and fn.name == "call"
             for node in ast.walk(fn) if isinstance(node, ast.Call)]
    folded = {id(arg) for c in calls for arg in [*c.args, *(k.value for k in c.keywords)]}
    counts: dict[int, int] = {}
    for c in calls:
        kind = KIND_OF.get(ast.unparse(c.func))
        if kind is not None and not (kind == VIEW and id(c) in folded):
            counts[kind] = counts.get(kind, 0) + 1
    return {kind: (n, 0) for kind, n in counts.items()}


def test_device_is_privateuse1_renamed_npu(report):
    assert report["backend"] == "npu"
    assert report["aten_ops"] is True


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shim_kinds_run_on_npu_tensors_as_the_python_call(report, name):
    entry = report[name]
    text = entry["text"]
    assert "empty_strided_cpu(" not in text.split("def call(self, args):")[1]
    assert "device='npu'" in text and "with torch.npu.utils.device(0):" in text
    cpu, python, planned = entry["cpu"], entry["python"], entry["planned"]
    assert entry["planning"] == [True, {"call.translated": 1}]
    assert planned["call_type"] == "PlannedCall" and planned["runs"] == 1
    assert python["call_type"] != "PlannedCall" and python["runs"] == 0
    # every shim kind the text writes ran natively; nothing was declined
    want = {str(kind): list(counts) for kind, counts in EXPECTED[name].items()}
    assert planned["kinds"] == want
    assert {int(k): tuple(v) for k, v in planned["kinds"].items()} == _written(text)
    assert python["kinds"] == {} and cpu["kinds"] == {}
    # byte-equal outputs, plain tensors on npu:0, same layout as on CPU
    assert planned["outputs"] == python["outputs"]
    for got, want_cpu in zip(python["outputs"], cpu["outputs"]):
        assert got["device"] == "npu:0" and got["type"] == "Tensor"
        assert {k: v for k, v in got.items() if k != "device"} == \
            {k: v for k, v in want_cpu.items() if k != "device"}
    assert len(python["outputs"]) == len(cpu["outputs"]) > 0
    # the same device guard, and the same allocations and frees in the same order
    assert planned["guard"] == python["guard"] == [["enter", 0], ["set", 0], ["exit", None]]
    assert planned["allocations"] == python["allocations"]
    allocs = [e for e in python["allocations"] if e[0] == "alloc"]
    frees = [e for e in python["allocations"] if e[0] == "free"]
    assert allocs and len(frees) >= len(allocs)  # the inputs die inside the call too


def test_npu_style_rewrites_each_allocation_and_guards_the_body():
    text = npu_device.npu_style((call_trace.WRAPPERS / "inductor" / "mlp.py").read_text())
    body = text.split("    def call(self, args):\n")[1].split("\n\n")[0].splitlines()
    assert body[:4] == ["        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args",
                        "        args.clear()",
                        "        with torch.npu.utils.device(0):",
                        "            torch.npu.set_device(0)"]
    assert "            buf0 = empty_strided((4, 32), (32, 1), device='npu', "\
           "dtype=torch.float32)" in body
    assert body[-1] == "        return (buf6, )"


def test_a_killed_builds_leftover_lock_does_not_stop_the_next_install(report):
    """torch's cpp_extension waits for ever on the lock file a killed build
    leaves in the build folder (a CI run stopped mid-build did: every later run
    hung). install() takes fastlaunch's build lock first, under which such a
    file is no live build's: the next install finds the device at once."""
    leftover = npu_device.build_folder() / "lock"
    leftover.write_text("")  # what a build killed while holding it leaves
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    done = subprocess.run([sys.executable, "-c", "from helpers import npu_device; "
                           "npu_device.install(); import torch; print(torch.empty(2, device='npu')"
                           ".device)"], env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.split()[-1] == "npu:0"
    assert not leftover.exists()
