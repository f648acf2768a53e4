# SPDX-License-Identifier: Apache-2.0
"""Host cost per launch against torch_npu's real original path, per layout.

For one release of each torch_npu layout, in a child process per release
(``--release``): the release's own ``NPUCachingAutotuner.run`` (built
through its ``__init__``, its launcher from its own ``make_launcher``)
calling triton-ascend 3.2.0's real generated launcher, against a fastlaunch
call site (the call slot's FastSite) over the same autotuner, both into the
recording CANN runtime with logging off (so the time is the host work up to
and including the launch call). Rows take turns, one timed block at a time.

Usage: python benchmarks/bench_npu_real.py [--out DIR]   (needs the test
wheel cache: FASTLAUNCH_WHEEL_CACHE, as the unit tests fill it)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"
RELEASES = {"runtime": "2.13.0", "npu_triton_heuristics": "2.12.0.post3"}
NUMBER, ROUNDS = 20_000, 7


def child(version: str) -> dict:
    """Time both paths inside one process that loaded ``version``."""
    sys.path.insert(0, str(TESTS))
    from helpers import npu_release
    from helpers import npu_release_driver as drv

    npu_release.install(version)
    import importlib

    from fastlaunch import config
    from fastlaunch.engine import routing
    from fastlaunch.integrations import autoload
    from fastlaunch.integrations.torch_npu import integration
    from fastlaunch.runtime import backends
    from fastlaunch.tools.selfcheck import ascend_reference as ar

    recorder = ar.CannRecorder(ar.build_recorder())
    kernel = drv.Kernel(npu_release.RELEASES[version])
    gen, case, launcher = drv._reference_launch(ar, recorder, kernel)
    with ar.environment(case.env()), config.override(enabled=True, backend="npu"):
        drv._wrapper_codegen()
        autoload.watch(("npu",))
        th = importlib.import_module(npu_release.heuristics_module(version))
        assert integration.installed(), autoload.status()
        backends.set_backend("npu", drv.recorder_backend(recorder))
        stock = drv._autotuner(th, drv._binary(gen, case, launcher, kernel), kernel)
        tuner = drv._autotuner(th, drv._binary(gen, case, launcher, kernel), kernel)
        args = drv._args(0)
        slot = [None]
        routing.bind({"kernel_name": drv.KERNEL, "abi": "npu", "arg_count": len(args),
                      "callsite_id": "0"}, tuner, call_slot=slot)
        for _ in range(3):
            slot[0](*args, stream=drv.STREAM)
        site = slot[0]
        assert type(site).__name__ == "FastSite", type(site)
        with config.override(enabled=False):
            stock.run(*args, stream=drv.STREAM)  # settles its autotuning
        recorder.lib.rec_set_logging(0)

        def stock_only() -> None:  # the stock autotuner has no fastlaunch call site
            stock.run(*args, stream=drv.STREAM)

        rows: dict[str, list[float]] = {"original: the release's run + generated launcher": [],
                                        "fastlaunch: call slot (FastSite)": []}
        calls = {"original: the release's run + generated launcher": stock_only,
                 "fastlaunch: call slot (FastSite)": lambda: site(*args, stream=drv.STREAM)}
        for _ in range(ROUNDS):  # rows take turns, one timed block at a time
            for name, fn in calls.items():
                rows[name].append(timeit.timeit(fn, number=NUMBER) / NUMBER * 1e6)
    best = {name: min(times) for name, times in rows.items()}
    return {"release": version, "layout": npu_release.RELEASES[version], "us_per_launch": best,
            "original_over_fastlaunch": best["original: the release's run + generated launcher"]
            / best["fastlaunch: call slot (FastSite)"]}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_npu_real.py")
    parser.add_argument("--out", default=None, help="folder for bench_npu_real.json")
    parser.add_argument("--release", default=None, help=argparse.SUPPRESS)  # the child
    options = parser.parse_args()
    if options.release:
        print(json.dumps(child(options.release)))
        return 0
    sys.path.insert(0, str(TESTS))
    from helpers import npu_release

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(npu_release.triton_ascend_package()), str(TESTS)]))
    results = []
    for layout, version in RELEASES.items():
        done = subprocess.run([sys.executable, __file__, "--release", version], env=env,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stderr[-3000:], file=sys.stderr)
            return 1
        row = json.loads(done.stdout.strip().splitlines()[-1])
        results.append(row)
        for name, value in row["us_per_launch"].items():
            print(f"{version:<14} {layout:<22} {name:<52} {value:7.3f} us")
        print(f"{'':<37} original / fastlaunch: {row['original_over_fastlaunch']:.2f}x")
    result = {"machine": platform.processor() or platform.machine(),
              "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
              "command": "python benchmarks/bench_npu_real.py --out benchmarks",
              "calls_per_block": NUMBER, "rounds": ROUNDS, "results": results}
    if options.out:
        Path(options.out).mkdir(parents=True, exist_ok=True)
        (Path(options.out) / "bench_npu_real.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
