# SPDX-License-Identifier: Apache-2.0
"""The GEMM ladder: what one fp32 ``out=`` GEMM costs the host at each layer
between torch's Python binding and the driver (issue 29, "measure first").

Rungs (csrc/bench/gemm_ladder.cu has what each calls): ``torch.mm(out=)``;
``at::mm_out`` (the dispatcher); ``at::cuda::mm_out`` (static dispatch, as
AOTI's C shim calls it); ``cublasSgemm`` with ATen's derived arguments on
ATen's handle, looked up per call as ATen's BLAS layer does (its
``at::cuda::blas::gemm`` is not exported) or once; ``cublasLtMatmul`` with its
descriptor, layouts and algorithm made once; a raw ``cuLaunchKernel`` of an
empty kernel. The same for ``addmm`` with a bias (the model's QKV
projections), whose cuBLASLt path ATen rebuilds per call. Each is run on one
problem (``hot``) and on the 12-layer GPT-2's four GEMM shapes in turn
(``cycle``, from bench_gemm_host.py), alone and with one raw launch after each
GEMM (``+launch``). Timed blocks are short (``--calls``, below the launch
queue's depth, so the GPU never holds the host back), rounds interleaved,
medians reported; each rung's output is also compared bit for bit with
``torch.mm``'s on the same inputs.

Usage: python benchmarks/bench_gemm_ladder.py [--rounds N] [--calls N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import torch
from bench_gemm_host import SHAPES, TOKENS
from torch.utils import cpp_extension

SOURCE = Path(__file__).resolve().parent.parent / "csrc" / "bench" / "gemm_ladder.cu"


def build(folder: Path):
    folder.mkdir(parents=True, exist_ok=True)
    return cpp_extension.load(name="fastlaunch_gemm_ladder", sources=[str(SOURCE)],
                              build_directory=str(folder), extra_cuda_cflags=["-O2"],
                              extra_ldflags=["-lcuda", "-lcublas", "-lcublasLt"], verbose=False)


def problems(device: torch.device, shapes) -> dict[str, list[torch.Tensor]]:
    gen = torch.Generator(device=device).manual_seed(0)

    def rand(*shape):
        return torch.randn(*shape, device=device, generator=gen)

    return {"a": [rand(TOKENS, k) for k, _ in shapes],
            "b": [rand(n, k).t() for k, n in shapes],  # (in, out) views of (out, in) weights
            "out": [torch.empty(TOKENS, n, device=device) for _, n in shapes],
            "bias": [rand(n) for _, n in shapes]}


def rungs(ext, p: dict, between: bool) -> dict:
    a, b, out, bias = p["a"], p["b"], p["out"], p["bias"]
    count = len(a)

    def python_mm(n):
        mm = torch.mm
        t0 = time.perf_counter_ns()
        for i in range(n):
            k = i % count
            mm(a[k], b[k], out=out[k])
        return time.perf_counter_ns() - t0

    def python_addmm(n):
        addmm = torch.addmm
        t0 = time.perf_counter_ns()
        for i in range(n):
            k = i % count
            addmm(bias[k], a[k], b[k], out=out[k])
        return time.perf_counter_ns() - t0

    table = {
        "mm: at::mm_out": lambda n: ext.aten(a, b, out, n, between),
        "mm: at::cuda::mm_out": lambda n: ext.aten_cuda(a, b, out, n, between),
        "mm: cublasSgemm, handle per call": lambda n: ext.cublas(a, b, out, n, between, True),
        "mm: cublasSgemm, handle once": lambda n: ext.cublas(a, b, out, n, between, False),
        "mm: cached cublasLtMatmul": lambda n: ext.lt(a, b, out, [], n, between),
        "addmm: at::addmm_out": lambda n: ext.addmm_aten(a, b, out, bias, n, between),
        "addmm: at::cuda::addmm_out": lambda n: ext.addmm_aten_cuda(a, b, out, bias, n, between),
        "addmm: cached cublasLtMatmul + bias epilogue": lambda n: ext.lt(a, b, out, bias, n,
                                                                          between),
    }
    if not between:  # Python cannot put a raw launch between; its rungs run alone
        table = {"mm: torch.mm(out=)": python_mm, "addmm: torch.addmm(out=)": python_addmm,
                 **table, "raw cuLaunchKernel (empty kernel)": ext.launch}
    return table


def bit_check(ext, p: dict) -> dict[str, bool]:
    """Whether each rung writes exactly what torch.mm / torch.addmm write."""
    a, b, out, bias = p["a"], p["b"], p["out"], p["bias"]
    want_mm = [torch.mm(x, w) for x, w in zip(a, b)]
    want_addmm = [torch.addmm(c, x, w) for c, x, w in zip(bias, a, b)]
    calls = {"mm: at::mm_out": (lambda: ext.aten(a, b, out, len(a), False), want_mm),
             "mm: at::cuda::mm_out": (lambda: ext.aten_cuda(a, b, out, len(a), False), want_mm),
             "mm: cublasSgemm, handle once": (lambda: ext.cublas(a, b, out, len(a), False,
                                                                 False), want_mm),
             "mm: cached cublasLtMatmul": (lambda: ext.lt(a, b, out, [], len(a), False), want_mm),
             "addmm: at::addmm_out": (lambda: ext.addmm_aten(a, b, out, bias, len(a), False),
                                      want_addmm),
             "addmm: at::cuda::addmm_out": (lambda: ext.addmm_aten_cuda(a, b, out, bias, len(a),
                                                                        False), want_addmm),
             "addmm: cached cublasLtMatmul + bias epilogue": (
                 lambda: ext.lt(a, b, out, bias, len(a), False), want_addmm)}
    equal = {}
    for name, (run, want) in calls.items():
        for o in out:
            o.zero_()
        run()
        torch.cuda.synchronize()
        equal[name] = all(torch.equal(o, w) for o, w in zip(out, want))
    return equal


def gpu_us(ext, p: dict) -> float:
    """GPU time of one cublasSgemm over the problems: a rung whose host time is below it
    keeps the GPU busy; above it, the host is what the GPU waits for."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    ext.cublas(p["a"], p["b"], p["out"], 400, False, False)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1000 / 400


def measure(ext, device, options) -> dict:
    results: dict = {}
    for mode, shapes in (("hot", SHAPES[:1]), ("cycle", SHAPES)):
        p = problems(device, shapes)
        for between in (False, True):
            table = rungs(ext, p, between)
            for fn in table.values():  # warm-up: handles, heuristics, allocator blocks
                fn(options.calls)
            torch.cuda.synchronize()
            names = list(table)
            samples: dict[str, list[float]] = {name: [] for name in names}
            for r in range(options.rounds):
                for name in names[r % len(names):] + names[:r % len(names)]:
                    torch.cuda.synchronize()
                    samples[name].append(table[name](options.calls) / options.calls / 1000)
            torch.cuda.synchronize()
            key = mode + (" +launch" if between else "")
            results[key] = {name: {"median": statistics.median(s), "min": min(s)}
                            for name, s in samples.items()}
        results[mode + " bit-equal"] = bit_check(ext, p)
        results[mode + " gpu us per sgemm"] = gpu_us(ext, p)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_gemm_ladder.py")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--build-dir", type=Path, default=Path("build/gemm_ladder"))
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()
    if not torch.cuda.is_available():
        print("bench_gemm_ladder: needs a CUDA device")
        return 2
    device = torch.device("cuda:0")
    ext = build(options.build_dir)
    result = {"device": torch.cuda.get_device_name(device), "torch": torch.__version__,
              "python": platform.python_version(), "rounds": options.rounds,
              "calls": options.calls, "tokens": TOKENS, "shapes (in, out)": SHAPES,
              "allow_tf32": torch.backends.cuda.matmul.allow_tf32,
              "blas": str(torch.backends.cuda.preferred_blas_library()),
              "us_per_call": measure(ext, device, options)}
    for key, rows in result["us_per_call"].items():
        print(f"== {key}")
        if isinstance(rows, dict):
            for name, row in rows.items():
                shown = (f"median {row['median']:7.2f} us  min {row['min']:7.2f} us"
                         if isinstance(row, dict) else str(row))
                print(f"   {name:48s} {shown}")
        else:
            print(f"   {rows:.2f}")
    if options.out:
        options.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
