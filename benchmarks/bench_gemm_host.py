# SPDX-License-Identifier: Apache-2.0
"""Host time of one ``out=`` GEMM, alone and as the 12-layer GPT-2's wrapper calls them.

Inside that model each extern GEMM costs about 13.5 us of host time, against
6.6 us for ``at::mm_out`` in a hot loop (benchmarks/RESULTS.md, seventh
session). This separates the candidate causes, each a loop of calls through
torch's Python binding (what stock's wrapper calls), medians of interleaved
rounds:

* ``hot``: one shape, the same tensors every call;
* ``cycle``: the model's four GEMM shapes in turn (the weights as it passes
  them: transposed views of ``(out, in)`` parameters);
* ``cycle + addmm``: every fourth call an ``addmm`` with a bias, as the
  model's QKV projections;
* ``cycle + launches``: each GEMM followed by three small elementwise ops on
  the same stream, about the model's mix of launches per GEMM;
* ``launches alone``: those three elementwise ops without the GEMM (the
  difference to ``cycle + launches`` is the GEMM's cost among launches);
* ``cycle + fresh out``: a new ``empty_strided`` output per call, freed after
  the next one, as the wrapper allocates and deletes its buffers.

Usage: python benchmarks/bench_gemm_host.py [--rounds N] [--calls N] [--out FILE.json]
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

TOKENS, EMBD = 16, 256
SHAPES = ((EMBD, 3 * EMBD), (EMBD, EMBD), (EMBD, 4 * EMBD), (4 * EMBD, EMBD))  # (in, out)


def make(device: torch.device) -> dict:
    gen = torch.Generator(device=device).manual_seed(0)

    def rand(*shape):
        return torch.randn(*shape, device=device, generator=gen)

    xs = {k: rand(TOKENS, k) for k in {s[0] for s in SHAPES}}
    weights = [rand(n, k).t() for k, n in SHAPES]  # (in, out) views with strides (1, in)
    outs = [torch.empty(TOKENS, n, device=device) for _, n in SHAPES]
    bias = rand(3 * EMBD)
    small = [rand(TOKENS, EMBD) for _ in range(3)]
    return {"xs": xs, "weights": weights, "outs": outs, "bias": bias, "small": small}


def variants(t: dict) -> dict:
    xs, ws, outs, bias, small = t["xs"], t["weights"], t["outs"], t["bias"], t["small"]
    mm, addmm, add, empty = torch.mm, torch.addmm, torch.add, torch.empty_strided
    plan = [(xs[k], w, o) for (k, _), w, o in zip(SHAPES, ws, outs)]

    def hot(n):
        x, w, o = plan[0]
        for _ in range(n):
            mm(x, w, out=o)

    def cycle(n):
        for i in range(n):
            x, w, o = plan[i & 3]
            mm(x, w, out=o)

    def cycle_addmm(n):
        for i in range(n):
            x, w, o = plan[i & 3]
            if i & 3 == 0:
                addmm(bias, x, w, alpha=1, beta=1, out=o)
            else:
                mm(x, w, out=o)

    def cycle_launches(n):
        a, b, c = small
        for i in range(n):
            x, w, o = plan[i & 3]
            mm(x, w, out=o)
            add(a, b, out=c)
            add(b, c, out=a)
            add(c, a, out=b)

    def launches(n):
        a, b, c = small
        for _ in range(n):
            add(a, b, out=c)
            add(b, c, out=a)
            add(c, a, out=b)

    def cycle_fresh(n):
        for i in range(n):  # rebinding `out` frees the previous one after the new allocation
            x, w, o = plan[i & 3]
            out = empty(o.shape, o.stride(), dtype=o.dtype, device=o.device)
            mm(x, w, out=out)

    return {"hot": hot, "cycle": cycle, "cycle + addmm": cycle_addmm,
            "cycle + launches": cycle_launches, "launches alone": launches,
            "cycle + fresh out": cycle_fresh}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_gemm_host.py")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()
    if not torch.cuda.is_available():
        print("bench_gemm_host: needs a CUDA device")
        return 2
    device = torch.device("cuda:0")
    fns = variants(make(device))
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():  # warm-up: cuBLAS handles, heuristics, allocator blocks
        fn(200)
    torch.cuda.synchronize()
    names = list(fns)
    for r in range(options.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            fns[name](options.calls)
            torch.cuda.synchronize()
            samples[name].append((time.perf_counter() - t0) / options.calls * 1e6)
    result = {"device": torch.cuda.get_device_name(device), "torch": torch.__version__,
              "python": platform.python_version(), "rounds": options.rounds,
              "calls": options.calls,
              "blas": str(torch.backends.cuda.preferred_blas_library()),
              "allow_tf32": torch.backends.cuda.matmul.allow_tf32,
              "us_per_iteration": {n: {"median": statistics.median(s), "min": min(s)}
                                   for n, s in samples.items()}}
    for name, row in result["us_per_iteration"].items():
        print(f"{name:20s} median {row['median']:7.2f} us  min {row['min']:7.2f} us")
    if options.out:
        options.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
