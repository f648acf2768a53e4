# SPDX-License-Identifier: Apache-2.0
"""Host overhead of the planned path against a generic per-call argument
parser, on the fake runtime (no device), side by side in one process.

* planned: a native plan made once; each call only packs (C++);
* generic, C++: the same packer, but the signature is parsed and the layout
  computed on every call, as a launcher without a plan must;
* generic, numpy: the reference packer, which also works from the signature
  on every call;
* routing engine steady state on the fake runtime (Python router; the fake
  records every launch with the numpy packer, so this row is dominated by it).

Usage: python benchmarks/bench_host_overhead.py [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import timeit
from pathlib import Path

from fastlaunch import config
from fastlaunch.engine import routing
from fastlaunch.runtime import _core, backends
from fastlaunch.runtime.fake import FakeBackend
from fastlaunch.testing import fakes, numpy_packer

SIG = ["*fp32", "*fp32", "*fp32", "i32", "fp32", "i64"]
ARGS = (0x1000, 0x2000, 0x3000, 4096, 0.5, 7)
GRID = (16, 1, 1)


def per_call(fn, number=20_000, repeat=7) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_host_overhead.py")
    parser.add_argument("--out", default=None, help="folder for bench_host_overhead.json")
    options = parser.parse_args()
    rows = {}
    for abi_name, flags in (("npu", {"ffts": True, "ffts_addr": 0xFF00}), ("cuda", {})):
        grid = GRID if abi_name == "npu" else None
        plan = _core.Plan(abi_name, SIG, **flags)
        rows[f"{abi_name}: planned (native plan, pack only)"] = per_call(
            lambda plan=plan, grid=grid: plan.pack(ARGS, grid))
        rows[f"{abi_name}: generic C++ (parse + layout per call)"] = per_call(
            lambda a=abi_name, f=flags, grid=grid: _core.Plan(a, SIG, **f).pack(ARGS, grid))
        rows[f"{abi_name}: generic numpy reference (parse + layout per call)"] = per_call(
            lambda a=abi_name, f=flags, grid=grid: numpy_packer.pack(a, SIG, ARGS, grid, **f),
            number=2_000)
    backend = FakeBackend("npu")
    previous = backends.set_backend("fake", backend)
    with config.override(enabled=True, backend="fake"):
        spec = fakes.spec("k", SIG, grid=lambda *a: GRID, ffts=True)
        tuner = fakes.FakeAutotuner([fakes.FakeLauncher(spec)])
        bound = routing.bind({"kernel_name": "k", "abi": "npu", "arg_count": 6}, tuner)
        bound(*ARGS, stream=1)
        rows["npu: routing steady state on the fake runtime (records, numpy)"] = per_call(
            lambda: bound(*ARGS, stream=1), number=2_000)
    backends.set_backend("fake", previous)
    base = rows["npu: planned (native plan, pack only)"]
    for name, value in rows.items():
        print(f"{name:<66} {value:8.3f} us")
    result = {"machine": platform.processor() or platform.machine(),
              "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
              "command": "python benchmarks/bench_host_overhead.py", "signature": SIG,
              "us_per_call": rows,
              "generic_cpp_over_planned_npu":
                  rows["npu: generic C++ (parse + layout per call)"] / base}
    if options.out:
        Path(options.out).mkdir(parents=True, exist_ok=True)
        (Path(options.out) / "bench_host_overhead.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
