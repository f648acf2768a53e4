# SPDX-License-Identifier: Apache-2.0
"""Python ``call()`` against the planned call, on saved wrapper modules, in one
process taking turns (round r: Python then planned, the order flipped every
other round). Reported per call: the best round of each (the host is shared:
the minimum is the cost without interference) and the medians.

Two variants per wrapper:

* ``as generated``: the wrapper's own kernels (CPU: C++ kernels and ATen
  GEMMs; on a GPU host, wrappers saved there with their Triton kernels);
* ``host only``: every kernel call (``cpp_fused_*`` / ``triton_*`` globals and
  the ``out=`` kernels of ``extern_kernels``; ``convolution``, whose result is
  used, stays) replaced by the same do-nothing Python function in both, so
  what is left is the wrapper's own host work: asserts, allocations, views,
  frees, and the interpreter (Python) or the program (planned).

The torch-built geometry reader (native asserts) is built first if it is not
cached. On a GPU host, run it with ``FASTLAUNCH=1`` over wrappers saved there
(so their fastlaunch call sites bind to plans); nothing synchronises, so
``as generated`` also waits whenever the launch queue is full, while
``host only`` is the host cost alone.

Usage: python benchmarks/bench_planned_call.py [WRAPPER.py ...]
[--rounds N] [--calls N] [--out FILE.json]
(default wrappers: tests/data/wrappers/inductor/*.py)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import torch

from fastlaunch import config
from fastlaunch.engine.planned_call import planner
from fastlaunch.runtime import tensor_geometry

HERE = Path(__file__).resolve().parent
DEFAULT = sorted((HERE.parent / "tests" / "data" / "wrappers" / "inductor").glob("*.py"))


def _load(path: Path, index: int):
    spec = importlib.util.spec_from_file_location(f"_bench_wrapper_{index}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nothing(*args, **kwargs) -> None:
    return None


def _host_only(module) -> None:
    nothing = _nothing
    scope = vars(module)
    for name in list(scope):
        if name.startswith(("cpp_fused_", "triton_")):
            scope[name] = nothing
    if "extern_kernels" in scope:
        from torch._inductor.select_algorithm import KernelNamespace

        ns = KernelNamespace()
        for name in ("mm", "addmm", "bmm", "baddbmm"):  # the out= kernels
            setattr(ns, name, nothing)
        ns.convolution = scope["extern_kernels"].convolution  # its result is used
        scope["extern_kernels"] = ns


def _time(fn, args: list, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn(list(args))
    return (time.perf_counter() - start) / calls * 1e6


def measure(path: Path, index: int, host_only: bool, rounds: int, calls: int) -> dict:
    module = _load(path, index)
    if host_only:
        _host_only(module)
    program = planner.program_of(module.call)
    planned = planner.plan(module.call, path.name, program)
    args = module.get_args()
    python = module.call
    for fn in (python, planned):
        _time(fn, args, max(1, calls // 10))  # warm-up
    times: dict[str, list[float]] = {"python": [], "planned": []}
    for r in range(rounds):
        order = (("python", python), ("planned", planned))
        for label, fn in order if r % 2 == 0 else order[::-1]:
            times[label].append(_time(fn, args, calls))
    py, pl = min(times["python"]), min(times["planned"])
    return {"wrapper": path.name, "variant": "host only" if host_only else "as generated",
            "ops": program.summary(), "islands": len(program.islands),
            "python_us": round(py, 3), "planned_us": round(pl, 3), "speedup": round(py / pl, 3),
            "python_median_us": round(statistics.median(times["python"]), 3),
            "planned_median_us": round(statistics.median(times["planned"]), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_planned_call.py")
    parser.add_argument("wrappers", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()
    native_asserts = tensor_geometry.ensure(build=True, wait=True)
    print(f"native asserts: {tensor_geometry.status()}")
    rows = []
    with config.override(enabled=True):
        for i, path in enumerate(options.wrappers):
            for host_only in (False, True):
                row = measure(path, i, host_only, options.rounds, options.calls)
                rows.append(row)
                print(f"{row['wrapper']:<16} {row['variant']:<13} python {row['python_us']:8.2f} us"
                      f"  planned {row['planned_us']:8.2f} us  x{row['speedup']:.2f}  (medians "
                      f"{row['python_median_us']:.2f} / {row['planned_median_us']:.2f} us)")
    if options.out is not None:
        meta = {"python": sys.version.split()[0], "torch": torch.__version__,
                "machine": platform.machine(), "processor": platform.processor(),
                "command": " ".join(sys.argv), "rounds": options.rounds, "calls": options.calls,
                "native_asserts": native_asserts, "torch_threads": torch.get_num_threads()}
        options.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
