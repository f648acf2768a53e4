# SPDX-License-Identifier: Apache-2.0
"""Host cost per launch on the NPU path, into the fake CANN runtime, in one run.

* planned: the call slot's FastSite (with the integration's msprof probe) ->
  native NpuLauncher -> rtKernelLaunch, the API of triton-ascend 3.2.0's stub
  handles (the fake records nothing, so the time is the host work before the
  launch call);
* planned, Python router: the same through BoundLaunch;
* generic: a Python launcher computing the grid, then a C launcher shaped like
  triton-ascend 3.2.0's (PyArg_ParseTuple, metadata lookups, data_ptr() per
  pointer, rtGetC2cCtrlAddr per launch, struct built per call, rtKernelLaunch),
  into the same fake.

Kernel: (*fp32, *fp32, *fp32, *fp32, i32, fp32), FFTS on, rt family. Target:
<= 2 us for the planned path. Usage: python benchmarks/bench_npu.py [--out DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import sysconfig
import tempfile
import time
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.builds import core  # noqa: E402
from fastlaunch.engine import routing  # noqa: E402
from fastlaunch.runtime import _core, backends  # noqa: E402
from fastlaunch.runtime.npu import NpuBackend  # noqa: E402
from fastlaunch.testing import fakes  # noqa: E402
from helpers.fake_cann import FakeCann, build  # noqa: E402

SIG = ["*fp32", "*fp32", "*fp32", "*fp32", "i32", "fp32"]
NUMBER, REPEAT = 100_000, 7


class Tensor:
    """Stands in for a torch tensor: the launchers only call data_ptr()."""

    def __init__(self, address: int) -> None:
        self.address = address

    def data_ptr(self) -> int:
        return self.address


def build_generic():
    """csrc/bench/generic_npu_launcher.c as a module, in the bench build folder."""
    src = core.source("bench/generic_npu_launcher.c")
    include = sysconfig.get_paths()["include"]
    out = core.folder("bench") / core.key(src.read_bytes(), include) / (
        "generic_npu_launcher" + sysconfig.get_config_var("EXT_SUFFIX"))
    core.build("bench", out, lambda tmp: [core.c_compiler() or "cc", "-O2", "-shared",
                                            "-fPIC", f"-I{include}", src, "-o", tmp, "-ldl"])
    spec = importlib.util.spec_from_file_location("generic_npu_launcher", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def per_call(fn) -> float:
    return min(timeit.repeat(fn, number=NUMBER, repeat=REPEAT)) / NUMBER * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_npu.py")
    parser.add_argument("--out", default=None, help="folder for bench_npu.json")
    options = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    cann = FakeCann(build("rt", tmp))
    cann.reset()
    cann.set_logging(False)
    generic = build_generic()
    generic.load(str(cann.path))

    backend = NpuBackend(libraries=[str(cann.path)], queue="inline", family="rt")
    backends.set_backend("npu", backend)
    args = (Tensor(0x1000), Tensor(0x2000), Tensor(0x3000), Tensor(0x4000), 4096, 0.5)
    stream = 0x5000
    with config.override(enabled=True, backend="npu"):
        spec = fakes.spec("triton_poi_fused_0", SIG, grid=fakes.ceil_grid(4, 256), ffts=True)
        launcher = fakes.FakeLauncher(spec)
        tuner = fakes.FakeAutotuner([launcher])
        slot = [None]
        bound = routing.bind({"kernel_name": spec.name, "abi": "npu", "arg_count": 6}, tuner,
                             call_slot=slot, probes=[("msprof", _core.npu_msprof_collecting)],
                             maybe_full=_core.npu_msprof_collecting)
        for _ in range(3):
            slot[0](*args, stream=stream)
        site = slot[0]
        assert type(site).__name__ == "FastSite"
        bare_slot = [None]  # the same without the msprof probe, to show its cost
        routing.bind({"kernel_name": spec.name, "abi": "npu", "arg_count": 6},
                     fakes.FakeAutotuner([fakes.FakeLauncher(spec)]), call_slot=bare_slot)
        for _ in range(3):
            bare_slot[0](*args, stream=stream)
        bare_site = bare_slot[0]
        native = bound.plan.plan.native
        assert native.api == "rt"
        metadata = {"kernel_name": spec.name, "tensor_kinds": [0, 0, 0, 1]}

        def generic_launcher(in0, in1, in2, out0, xnumel, scale, stream):
            grid_0 = -(xnumel // -256)
            generic.launch(grid_0, 1, 1, stream, 0xBEEF, metadata, None, None, None, in0, in1,
                           in2, out0, xnumel, scale)

        fastlaunch.reset_stats()
        rows = {
            "planned: call slot (FastSite)": per_call(lambda: site(*args, stream=stream)),
            "planned: call slot without the msprof probe":
                per_call(lambda: bare_site(*args, stream=stream)),
            "planned: Python router (BoundLaunch)": per_call(lambda: bound(*args, stream=stream)),
            "planned: native launch only (grid given)":
                per_call(lambda: native.launch(stream, (16, 1, 1), args)),
            "generic: Python launcher + PyArg_ParseTuple C launcher":
                per_call(lambda: generic_launcher(*args, stream)),
            "generic: C launcher only (grid given)":
                per_call(lambda: generic.launch(16, 1, 1, stream, 0xBEEF, metadata, None, None,
                                                None, *args)),
        }
        hits = fastlaunch.stats().get("fast", 0)
    planned = rows["planned: call slot (FastSite)"]
    result = {"machine": platform.processor() or platform.machine(),
              "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
              "command": "python benchmarks/bench_npu.py --out benchmarks", "signature": SIG,
              "launch_api": native.api,
              "us_per_launch": rows, "planned_hits": hits,
              "target_2us_met": planned <= 2.0,
              "generic_over_planned": rows["generic: Python launcher + PyArg_ParseTuple C "
                                           "launcher"] / planned}
    for name, value in rows.items():
        print(f"{name:<58} {value:7.3f} us")
    print(f"generic / planned: {result['generic_over_planned']:.2f}x; "
          f"target (<= 2 us) {'met' if result['target_2us_met'] else 'MISSED'}")
    if options.out:
        Path(options.out).mkdir(parents=True, exist_ok=True)
        (Path(options.out) / "bench_npu.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
