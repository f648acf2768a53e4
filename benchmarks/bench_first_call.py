# SPDX-License-Identifier: Apache-2.0
"""A zoo workload's compile and first calls, in new processes taking turns:
stock, planned launches only, fastlaunch (the planned call), and fastlaunch
with the cuBLASLt tier off.

What the issue's "compile and first-call time within 1.2 x of stock" is about,
one process at a time (the zoo compiles its variants side by side, so its one
compile sample per variant shares the CPUs with five others). Each process
builds the model, compiles it and times its first call (compile included),
its second call and the median of ``--steps`` more (each synchronised; the
first includes building the model, as the zoo's compile time does), and the
caching allocator's peak over the first two calls and over the whole process
(the issue's "peak memory equal to stock's", first calls included). The
planned call's processes load the ATen shim before the clock starts (installed
with fastlaunch, or built then), so a shim build is never timed.
``--cold``: every process gets new, empty Inductor, Triton and fastlaunch
cache folders, as the first process on a fresh machine; otherwise each
variant first fills caches of its own in a process that is not reported, and
the timed processes start over them. The tier's variant switches it with
``aten_ops.prepare(True, cublaslt=False)`` before the first call: each new
problem the tier sees is checked once per process (a synchronisation and
three checked GEMMs, csrc/shims/cublaslt_plans.h), and this shows what that
costs a process (since the sixteenth session the tier takes only ``addmm``
with a bias on ATen's default BLAS backend; the recorded run predates that).
Each variant's environment is set in full: fastlaunch's variables and
``TORCH_BLAS_PREFER_CUBLASLT`` from the calling shell are left out. The
summary's ratio is the median over rounds of each process's first two calls
against the stock process's of the same round.

Usage: python benchmarks/bench_first_call.py --out FILE.json
[--model vit_tiny] [--task train] [--rounds 3] [--steps 10] [--cold]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# variant -> (its environment, the cuBLASLt tier on, its caches' folder name)
VARIANTS = {
    "stock": ({"FASTLAUNCH": "0"}, True, "stock"),
    "planned launches": ({"FASTLAUNCH": "1", "FASTLAUNCH_PLANNED_CALL": "0"}, True,
                         "planned_launches"),
    "fastlaunch": ({"FASTLAUNCH": "1"}, True, "fastlaunch"),
    "fastlaunch, tier off": ({"FASTLAUNCH": "1"}, False, "tier_off"),
}


def base_environment() -> dict:
    """This process's environment without what would change a variant unseen."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("FASTLAUNCH") and k != "TORCH_BLAS_PREFER_CUBLASLT"}


def child(model_name: str, task: str, tier: bool, steps: int) -> dict:
    """One measured process."""
    sys.path.insert(0, str(HERE))
    import bench_models
    import torch

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.runtime import aten_ops

    settings = config.get()
    if settings.enabled and settings.planned_call:  # the shim serves the planned call only
        assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
        if not tier:
            aten_ops.prepare(True, cublaslt=False)
    device = torch.device("cuda")
    torch.cuda.init()
    times = []
    t0 = time.perf_counter()
    runner = bench_models.Runner(bench_models.Workload(model_name, task),
                                 bench_models.VARIANTS["stock"], device)  # no extra options
    peaks = []
    for _ in range(2 + steps):
        runner.call()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
        peaks.append(torch.cuda.max_memory_allocated())
        t0 = time.perf_counter()
    stats = fastlaunch.stats()
    _, gemms, declined = aten_ops.cublaslt()
    return {"first_call_s": times[0], "second_call_s": times[1],
            "later_median_s": statistics.median(times[2:]),
            "peak_mib_first_two": peaks[1] / 2**20, "peak_mib": peaks[-1] / 2**20,
            "planned_calls": stats.get("call.planned", 0), "fast_launches": stats.get("fast", 0),
            "cublaslt_gemms": sum(gemms.values()), "cublaslt_declined": declined,
            "environment": {k: v for k, v in os.environ.items() if k.startswith("FASTLAUNCH")}}


def run_child(variant: str, options, env: dict) -> dict:
    extra, tier, _ = VARIANTS[variant]
    out = subprocess.run(
        [sys.executable, __file__, "--child", "on" if tier else "off", "--model", options.model,
         "--task", options.task, "--steps", str(options.steps)],
        env={**env, **extra}, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{variant}'s process failed:\n{out.stderr[-4000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def caches(root: Path) -> dict:
    return {"TORCHINDUCTOR_CACHE_DIR": str(root / "inductor"),
            "TRITON_CACHE_DIR": str(root / "triton"),
            "FASTLAUNCH_CACHE_DIR": str(root / "fastlaunch")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--model", default="vit_tiny")
    parser.add_argument("--task", default="train", choices=("infer", "train"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--cold", action="store_true", help="new, empty caches per process")
    parser.add_argument("--child", choices=("on", "off"), default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.steps < 1 or options.rounds < 1:
        parser.error(f"--steps {options.steps}, --rounds {options.rounds}: expected 1 or more")
    if options.child is not None:
        print(json.dumps(child(options.model, options.task, options.child == "on",
                               options.steps)))
        return 0
    names = list(VARIANTS)
    runs: dict[str, list] = {v: [] for v in names}
    with tempfile.TemporaryDirectory(prefix="fl-first-call-") as tmp:
        base = base_environment()
        if not options.cold:
            for v in names:  # each variant's own caches, filled once
                run_child(v, options, {**base, **caches(Path(tmp, VARIANTS[v][2]))})
        for r in range(options.rounds):
            for v in names[r % len(names):] + names[:r % len(names)]:
                folder = VARIANTS[v][2]
                root = Path(tmp, f"{folder}.{r}") if options.cold else Path(tmp, folder)
                runs[v].append(run_child(v, options, {**base, **caches(root)}))
                print(v, json.dumps(runs[v][-1]), flush=True)

    def first_two(run: dict) -> float:
        return run["first_call_s"] + run["second_call_s"]

    summary = {v: {key: statistics.median(run[key] for run in runs[v])
                   for key in ("first_call_s", "second_call_s", "later_median_s")}
               for v in names}
    for v in names:
        # the allocator's peaks are exact: every process's, not a median
        summary[v]["peak_mib_first_two"] = sorted({run["peak_mib_first_two"] for run in runs[v]})
        summary[v]["peak_mib"] = sorted({run["peak_mib"] for run in runs[v]})
        summary[v]["first_two_vs_stock"] = statistics.median(
            first_two(mine) / first_two(stock) for mine, stock in zip(runs[v], runs["stock"]))
    print(json.dumps(summary, indent=1))
    if options.out is not None:
        options.out.write_text(json.dumps(
            {"model": options.model, "task": options.task, "cold": options.cold,
             "rounds": options.rounds, "runs": runs, "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
