# SPDX-License-Identifier: Apache-2.0
"""The prepared GEMMs on a real NVIDIA GPU against ATen's own call (issue 29).

(a) The bitwise oracle of tests/helpers/gemm_oracle.py on CUDA: the Python
``call()``, the planned call and ``torch.<op>(..., out=)`` on identical
inputs, under TF32, reduced-precision reduction, fp16 accumulation, the
preferred BLAS library and deterministic mode; every case ran prepared
(``at::cuda::*_out``). (b) A sample of it in one fresh process per cuBLAS
environment variable (read once by ATen or cuBLAS). (c) One step of a model
compiled with FASTLAUNCH=1 launches the same CUDA kernels, in order, as the
same module with its planned call bypassed, and (d) makes the same caching
allocator calls.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

from fastlaunch import config  # noqa: E402
from fastlaunch.builds import shims  # noqa: E402
from helpers import gemm_oracle as G  # noqa: E402
from helpers.gemm_oracle import Case  # noqa: E402
from helpers.gemm_oracle import prepared_count as _prepared_count  # noqa: E402

pytestmark = pytest.mark.cuda
TESTS = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def _enabled():
    with config.override(enabled=True, strict=False):
        yield


@pytest.fixture(scope="module")
def aten_shim():
    """The torch-built ATen shim, with its CUDA GEMMs (the subprocesses find it built)."""
    from fastlaunch.runtime import aten_ops

    assert shims.torch_has_cuda()
    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
    yield aten_ops
    aten_ops.use(True)
    aten_ops.prepare(True)


@pytest.fixture(scope="module")
def wrappers(tmp_path_factory):
    return G.Wrappers(tmp_path_factory.mktemp("gemm_wrappers"))


def _oracle(aten_shim, wrappers, case: Case, expect: int = 1):
    return G.compare(case, wrappers, lambda: _prepared_count(aten_shim), expect)


# what the cuBLASLt tier takes (cublaslt_plans.h's Describe): fp32 addmm with a 1-D
# bias, beta 1 and alpha 1, and mm and bmm where cuBLASLt is ATen's preferred backend
# (on the default one ATen calls cuBLAS for them: `cublas`), operands without a copy
# or a broadcast batch, out not transposed and its batches apart; not in
# deterministic mode
_TIER_FLAGS = ("fp32_tf32_off", "fp32_tf32_on", "fp32_prefer_cublaslt")
_TIER_OPERANDS = ("contig", "t", "ld", "ld_t", "bstride", "bperm")
_TIER_OUTS = ("contig", "ld", "bstride")


def _tier_form(case: Case, flags: str) -> bool:
    """A form the tier describes, whatever the backend."""
    def form(layout: str) -> str:
        return (layout.partition(":")[2] or "contig") if layout.startswith("off") else layout

    bias = case.bias == "1d" and case.beta == 1 and case.alpha == 1
    return (flags in _TIER_FLAGS and case.op in ("mm", "bmm", "addmm")
            and (case.op != "addmm" or bias) and case.special in ("", "nan_a")
            and form(case.a) in _TIER_OPERANDS and form(case.b) in _TIER_OPERANDS
            and form(case.out) in _TIER_OUTS)


def _tier_takes(case: Case, flags: str) -> bool:
    return _tier_form(case, flags) and (case.op == "addmm" or flags == "fp32_prefer_cublaslt")


def _tier_counts_over(aten_shim, run):
    """``run()``'s result, the GEMMs it ran through plans and, per reason, those
    the tier declined while it ran."""
    planned, declined = G.cublaslt_counts(aten_shim)
    result = run()
    planned_after, declined_after = G.cublaslt_counts(aten_shim)
    new = {reason: count - declined.get(reason, 0) for reason, count in declined_after.items()
           if count != declined.get(reason, 0)}
    return result, planned_after - planned, new


def _oracle_kept_on_cublas(aten_shim, wrappers, case: Case):
    """The oracle of an ``mm`` or ``bmm`` of the tier's form on ATen's default
    backend: static dispatch, declined as ``cublas`` on every call, no plan made."""
    outcomes, planned, new = _tier_counts_over(aten_shim,
                                               lambda: _oracle(aten_shim, wrappers, case))
    assert (planned, new) == (0, {"cublas": 1}), (case, new)
    return outcomes


def _oracle_through_a_plan(aten_shim, wrappers, case: Case):
    """The oracle of a case the cuBLASLt tier takes, its problem planned and checked
    by a first call: the oracle's planned call runs the plan, or ATen's kernel where
    the check found the plan's bits differ (``mismatch``); never neither."""
    operands, out, _ = G.make_inputs(case)
    wrappers(case)[1]([*operands, out])  # plans and checks the problem, or runs its plan
    outcomes, planned, new = _tier_counts_over(aten_shim,
                                               lambda: _oracle(aten_shim, wrappers, case))
    assert (planned, new) in ((1, {}), (0, {"mismatch": 1})), (case, new)
    return outcomes


# ---- (a) the oracle matrix ----------------------------------------------------------------

_FLAGS = {  # name: (dtype, global flags)
    "fp32_tf32_off": ("float32", {"cuda_tf32": False}),
    "fp32_tf32_on": ("float32", {"cuda_tf32": True}),
    "fp16_reduction_on": ("float16", {"cuda_fp16_reduction": True}),
    "fp16_reduction_off": ("float16", {"cuda_fp16_reduction": False}),
    "fp16_accumulation": ("float16", {"cuda_fp16_accumulation": True}),
    "bf16_reduction_on": ("bfloat16", {"cuda_bf16_reduction": True}),
    "bf16_reduction_off": ("bfloat16", {"cuda_bf16_reduction": False}),
    "fp32_deterministic": ("float32", {"deterministic": True}),
    "bf16_deterministic_warn_only": ("bfloat16", {"deterministic": (True, True)}),
    "fp32_prefer_cublaslt": ("float32", {"blas_library": "cublaslt"}),
    "fp16_prefer_cublaslt": ("float16", {"blas_library": "cublaslt"}),
}
_LAYOUTS = {
    "contig": {},
    "a_t": {"a": "t"},
    "b_t": {"b": "t"},
    "ab_t": {"a": "t", "b": "t"},
    "out_t": {"out": "t"},
    "ld": {"a": "ld", "b": "ld", "out": "ld"},
    "ld_t": {"a": "ld_t", "b": "ld_t"},
    **{f"off{k}": {"a": f"off{k}", "b": f"off{k}:t", "out": f"off{k}"} for k in (1, 2, 4, 8)},
    "m1": {"m": 1},
    "n1": {"n": 1},
    "k1": {"k": 1},
    "m1_t": {"m": 1, "a": "t", "b": "t"},
    "odd": {"m": 33, "n": 65, "k": 47},
    "nan_a": {"special": "nan_a"},
}
_ADD_LAYOUTS = {
    "bias_1d_beta1": {"bias": "1d", "beta": 1, "alpha": 1},  # cuBLASLt's bias epilogue
    "bias_1d": {"bias": "1d"},
    "bias_expand_beta1": {"bias": "expand", "beta": 1, "alpha": 1},
    "bias_row": {"bias": "row"},
    "bias_t": {"bias_layout": "t"},
    "bias_nan_beta0": {"special": "nan_bias", "beta": 0},
}
_BATCH_LAYOUTS = {
    "batch1": {"batch": 1},
    "bexpand_a": {"a": "bexpand"},
    "bexpand_b_t": {"b": "bexpand_t"},
    "bstride": {"a": "bstride", "b": "bstride", "out": "bstride"},
    "bperm": {"a": "bperm", "b": "bperm", "out": "bperm"},
}
_MATRIX = [
    (op, name, kw)
    for op in G.OPS
    for name, kw in [
        *_LAYOUTS.items(),
        *(_ADD_LAYOUTS.items() if op in G.ADD else []),
        *(_BATCH_LAYOUTS.items() if op in G.BATCHED else []),
    ]
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("flags", list(_FLAGS))
@pytest.mark.parametrize(("op", "layout", "kw"), _MATRIX, ids=[f"{o}-{n}" for o, n, _ in _MATRIX])
def test_oracle(aten_shim, wrappers, op, layout, kw, flags, seed):
    """ATen's bits, error, returned object and version counter, run prepared; a
    case the cuBLASLt tier takes ran its plan, or was declined with ``mismatch``.
    (Deterministic mode without CUBLAS_WORKSPACE_CONFIG is ATen's error: the
    planned call raises it too, and (b) runs it with the variable set.)"""
    dtype, global_flags = _FLAGS[flags]
    given = {"m": 64, "n": 48, "k": 96, "beta": 0.5, "alpha": 2, **kw}
    case = Case(op, dtype, seed=seed, device="cuda", **given)
    with G.global_flags(**global_flags):
        if _tier_takes(case, flags):
            outcomes = _oracle_through_a_plan(aten_shim, wrappers, case)
        elif _tier_form(case, flags):
            outcomes = _oracle_kept_on_cublas(aten_shim, wrappers, case)
        else:
            outcomes = _oracle(aten_shim, wrappers, case)
    error = outcomes["aten"].error
    assert error is None or (flags == "fp32_deterministic" and "CUBLAS_WORKSPACE_CONFIG" in error)


_DECLINES = {  # name: (Case changes, context, prepared GEMMs expected)
    "conjugate": ({"dtype": "complex64", "special": "conj_a"}, None, 0),
    "autocast": ({}, lambda: torch.autocast("cuda"), 0),
    "weight_grad_mode": ({"special": "param_b"}, None, 0),  # ATen's error
    "inference_mode": ({}, torch.inference_mode, 1),
}


@pytest.mark.parametrize("name", list(_DECLINES))
@pytest.mark.parametrize("op", G.OPS)
def test_declines(aten_shim, wrappers, op, name):
    """Where the dispatcher does more than reach the CUDA kernel, the shim leaves it
    the call (none prepared): still ATen's bits, error and version counter."""
    import contextlib

    changes, context, expect = _DECLINES[name]
    case = Case(op, **{"device": "cuda", "a": "t", "beta": 0.5, "alpha": 2, **changes})
    G.compare(
        case,
        wrappers,
        lambda: _prepared_count(aten_shim),
        expect,
        context or contextlib.nullcontext,
    )


# ---- subprocesses: (b) the environment variables, (c) and (d) a compiled model -------------

_ENV_CHILD = r"""
import json, os, sys, tempfile
import torch
from fastlaunch import config
from fastlaunch.runtime import aten_ops
from helpers import gemm_oracle as G

assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
result = {"cases": 0, "prepared": 0, "errors": [], "mismatches": []}
with tempfile.TemporaryDirectory() as directory, config.override(enabled=True, strict=False):
    wrappers = G.Wrappers(directory)
    for case, flags in G.cuda_sample(seed=int(sys.argv[1])):
        try:
            with G.global_flags(**flags):
                outcomes = G.compare(case, wrappers, lambda: G.prepared_count(aten_ops))
        except AssertionError as exc:
            result["mismatches"].append(str(exc)[:3000])
            continue
        result["cases"] += 1
        result["prepared"] += outcomes["planned"].prepared
        if outcomes["aten"].error is not None:
            result["errors"].append([repr(case), flags, outcomes["aten"].error[:300]])
print(json.dumps(result))
"""

_MODEL_CHILD = r"""
import gc, json, sys, types
import torch
import fastlaunch
from torch.autograd import profiler as autograd_profiler
from torch.profiler import ProfilerActivity, profile
from fastlaunch.runtime import _core, aten_ops


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 128)
        self.fc2 = torch.nn.Linear(128, 64)

    def forward(self, x, y):
        h = self.fc2(torch.relu(self.fc1(x)))
        return torch.bmm(h.view(4, 16, 64), y)


torch.manual_seed(0)
model = Model().cuda()
x, y = torch.randn(64, 64, device="cuda"), torch.randn(4, 64, 32, device="cuda")
compiled = torch.compile(model)
torch.set_grad_enabled(False)
for _ in range(3):  # AOTAutograd's first call is the Python call; then planned
    compiled(x, y)
torch.cuda.synchronize()
planned = [m.call for m in gc.get_objects()
           if type(m) is types.ModuleType and type(getattr(m, "call", None)) is _core.PlannedCall]


def prepared_gemms():
    return sum(aten_ops.static_ops().values()) + sum(aten_ops.cublaslt()[1].values())


def step(bypass):
    for p in planned:
        p.bypass = bypass
    runs, prepared = _core.planned_call_runs(), prepared_gemms()
    out = compiled(x, y)
    torch.cuda.synchronize()
    return out, _core.planned_call_runs() - runs, prepared_gemms() - prepared


def kernels(bypass, path):
    step(bypass)  # warm in this mode
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        # the profiler's flag sends a planned call to its Python call(): hidden for the
        # step (CUDA-only activity adds no RecordFunction callback, so nothing else changes)
        autograd_profiler._is_profiler_enabled = False
        try:
            out, runs, prepared = step(bypass)
        finally:
            autograd_profiler._is_profiler_enabled = True
    prof.export_chrome_trace(path)
    events = json.load(open(path))["traceEvents"]
    names = [e["name"] for e in sorted((e for e in events if e.get("cat") in
                                        ("kernel", "gpu_memcpy", "gpu_memset")),
                                       key=lambda e: e["ts"])]
    return names, runs, prepared, out


STATS = ("allocation.all.allocated", "allocation.all.freed", "allocated_bytes.all.allocated",
         "allocated_bytes.all.freed", "requested_bytes.all.allocated", "segment.all.allocated")


def allocations(bypass):
    step(bypass)  # warm in this mode
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_stats()
    out, runs, prepared = step(bypass)
    after = torch.cuda.memory_stats()
    counts = {k: after.get(k, 0) - before.get(k, 0) for k in STATS}
    # what the step adds at its peak (the blocks held before it may differ: the
    # stock step runs first, and the planned warm-up checks cuBLASLt plans)
    counts["peak_over_start"] = (after["allocated_bytes.all.peak"]
                                 - before["allocated_bytes.all.current"])
    # the history recorder may register callbacks the shim declines for (the
    # dispatcher would call them): its step's prepared count is reported apart
    torch.cuda.memory._record_memory_history("all", context=None, max_entries=100000,
                                             clear_history=True)
    try:
        _, _, trace_prepared = step(bypass)
        snapshot = torch.cuda.memory._snapshot()
    finally:
        torch.cuda.memory._record_memory_history(None)
    device = torch.cuda.current_device()
    trace = [(e["action"], e["size"]) for e in snapshot["device_traces"][device]
             if e["action"] != "snapshot"]
    return counts, trace, runs, prepared, trace_prepared, out


result = {"modules": len(planned), "aten_ops": _core.has_aten_ops()}
for mode, bypass in (("stock", True), ("planned", False)):
    names, runs, prepared, out = kernels(bypass, sys.argv[1] + f"/{mode}.json")
    counts, trace, alloc_runs, alloc_prepared, trace_prepared, _ = allocations(bypass)
    result[mode] = {"kernels": names, "runs": runs, "prepared": prepared, "allocations": trace,
                    "alloc_counts": counts, "alloc_runs": alloc_runs,
                    "alloc_prepared": alloc_prepared, "trace_prepared": trace_prepared}
    result[mode + "_out"] = out
result["equal"] = bool(torch.equal(result.pop("stock_out"), result.pop("planned_out")))
print(json.dumps(result))
"""

_ENVIRONMENTS = {
    "CUBLAS_WORKSPACE_CONFIG": ":4096:8",
    "CUBLASLT_WORKSPACE_SIZE": "1024",
    "DISABLE_ADDMM_CUDA_LT": "1",
    "TORCH_BLAS_PREFER_CUBLASLT": "1",
}


@pytest.fixture(scope="module")
def children(aten_shim, tmp_path_factory):
    """Every subprocess at once (one per environment variable, one compiled model),
    each answering one JSON line; the shim is built before they start."""
    root = tmp_path_factory.mktemp("children")
    path = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
    base = {k: v for k, v in os.environ.items() if k not in _ENVIRONMENTS}
    started = {}
    for i, (name, value) in enumerate(_ENVIRONMENTS.items()):
        env = dict(base, PYTHONPATH=path, **{name: value})
        started[name] = subprocess.Popen(
            [sys.executable, "-c", _ENV_CHILD, str(i)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    model_env = dict(
        base, PYTHONPATH=path, FASTLAUNCH="1", TORCHINDUCTOR_CACHE_DIR=str(root / "inductor")
    )
    started["model"] = subprocess.Popen(
        [sys.executable, "-c", _MODEL_CHILD, str(root)],
        env=model_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    results = {}
    for name, child in started.items():
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, (name, err[-3000:])
        results[name] = json.loads(out.strip().splitlines()[-1])
    return results


@pytest.mark.parametrize("name", list(_ENVIRONMENTS))
def test_environment_variables(children, name):
    """Under each cuBLAS / ATen BLAS variable (read once per process), a sample of the
    matrix: ATen's bits, every case prepared."""
    result = children[name]
    sample = G.cuda_sample()
    assert result["mismatches"] == [], result["mismatches"][:3]
    assert result["cases"] == len(sample)
    assert result["prepared"] == len(sample) - len(result["errors"]) > 0, result
    if name == "CUBLAS_WORKSPACE_CONFIG":  # deterministic mode's GEMMs are allowed now
        assert result["errors"] == [], result["errors"]
    else:  # deterministic mode without it: ATen's own error, nothing else
        assert all("CUBLAS_WORKSPACE_CONFIG" in error for _, _, error in result["errors"])


def test_compiled_step_launches_stocks_kernels(children):
    """One step of a compiled MLP (bias) + bmm: the CUDA kernels torch.profiler records,
    in order, are those of the same module with its planned call bypassed; the planned
    step ran planned and its GEMMs prepared."""
    result = children["model"]
    planned, stock = result["planned"], result["stock"]
    assert result["aten_ops"] and result["modules"] >= 1, result
    assert planned["runs"] >= 1 and stock["runs"] == 0, result
    assert planned["prepared"] > 0 and stock["prepared"] == 0, result
    assert planned["kernels"] and planned["kernels"] == stock["kernels"]
    assert result["equal"]


def test_compiled_step_allocates_as_stock(children):
    """One planned step with its GEMMs prepared allocates as the Python call() does:
    the caching allocator's counts, bytes and the peak the step adds are equal; and
    with the memory history recorder on, its (action, size) trace is the same, in
    order."""
    result = children["model"]
    planned, stock = result["planned"], result["stock"]
    assert planned["alloc_runs"] >= 1 and stock["alloc_runs"] == 0, result
    assert planned["alloc_prepared"] > 0 and stock["alloc_prepared"] == 0, result
    assert planned["alloc_counts"]["allocation.all.allocated"] > 0, planned["alloc_counts"]
    assert planned["alloc_counts"] == stock["alloc_counts"]
    assert any(action == "alloc" for action, _ in planned["allocations"])
    assert planned["allocations"] == stock["allocations"], (planned["trace_prepared"],
                                                          stock["trace_prepared"])
