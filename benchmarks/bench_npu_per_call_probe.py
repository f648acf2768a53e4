# SPDX-License-Identifier: Apache-2.0
"""Steady-state cost of reading torch_npu's debug flags on every planned call.

torch_npu 2.8, 2.9, 2.11 and 2.12 read ``check_accuracy``,
``force_fallback_kernel_id``, ``aot_inductor.debug_kernel_in_run`` and
``dump_fx_graph`` (and log at INFO) on every ``run``; fastlaunch's FastSite
checks them once per call through the integration's ``maybe_full``
(``layouts.debug_probes``). Rows, per planned call into the fake CANN
runtime (the host work before the launch call), same kernel as
``bench_npu.py``:

* msprof only: ``maybe_full`` as the runtime layout (2.7.1, 2.10, 2.13, 2.14) binds it;
* per-call debug check: ``maybe_full`` as the npu_triton_heuristics layout binds it,
  over a module holding those four flags at torch_npu's defaults and torch_npu's
  logger at its default level (WARNING).

Usage: python benchmarks/bench_npu_per_call_probe.py
"""

from __future__ import annotations

import logging
import platform
import sys
import tempfile
import timeit
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from fastlaunch import config  # noqa: E402
from fastlaunch.engine import routing  # noqa: E402
from fastlaunch.integrations.torch_npu import layouts  # noqa: E402
from fastlaunch.runtime import _core, backends  # noqa: E402
from fastlaunch.runtime.npu import NpuBackend  # noqa: E402
from fastlaunch.testing import fakes  # noqa: E402
from helpers.fake_cann import FakeCann, build  # noqa: E402

SIG = ["*fp32", "*fp32", "*fp32", "*fp32", "i32", "fp32"]
NUMBER, REPEAT, ROUNDS = 50_000, 5, 6  # rows alternate per round; the best round counts


class Tensor:
    def __init__(self, address: int) -> None:
        self.address = address

    def data_ptr(self) -> int:
        return self.address


def npu_config_defaults() -> types.ModuleType:
    """The four flags as torch_npu 2.12's _inductor/config.py sets them by default."""
    module = types.ModuleType("npu_config_defaults")
    module.check_accuracy = False
    module.force_fallback_kernel_id = []
    module.dump_fx_graph = False
    module.aot_inductor = type("aot_inductor", (), {"debug_kernel_in_run": False})
    return module


def site(spec, probes, maybe_full):
    slot = [None]
    routing.bind({"kernel_name": spec.name, "abi": "npu", "arg_count": 6},
                 fakes.FakeAutotuner([fakes.FakeLauncher(spec)]), call_slot=slot,
                 probes=probes, maybe_full=maybe_full)
    return slot


def main() -> int:
    cann = FakeCann(build("rt", Path(tempfile.mkdtemp())))
    cann.reset()
    cann.set_logging(False)
    backends.set_backend("npu", NpuBackend(libraries=[str(cann.path)], queue="inline",
                                           family="rt"))
    args = (Tensor(0x1000), Tensor(0x2000), Tensor(0x3000), Tensor(0x4000), 4096, 0.5)
    stream = 0x5000
    msprof = _core.npu_msprof_collecting
    probes, fused = layouts.debug_probes(
        layouts.NPU_TRITON_HEURISTICS, npu_config_defaults(),
        logging.getLogger(layouts.RELEASE_LOGGER), also=msprof)
    rows: dict[str, float] = {}
    with config.override(enabled=True, backend="npu"):
        spec = fakes.spec("triton_poi_fused_0", SIG, grid=fakes.ceil_grid(4, 256), ffts=True)
        sites = {"msprof only (runtime layout)": site(spec, [("msprof", msprof)], msprof),
                 "per-call debug check (npu_triton_heuristics layout)":
                     site(spec, [*probes, ("msprof", msprof)], fused)}
        for slot in sites.values():
            for _ in range(3):
                slot[0](*args, stream=stream)
            assert type(slot[0]).__name__ == "FastSite", type(slot[0])
        for _ in range(ROUNDS):
            for name, slot in sites.items():
                fast = slot[0]
                took = min(timeit.repeat(lambda fast=fast: fast(*args, stream=stream),
                                         number=NUMBER, repeat=REPEAT)) / NUMBER * 1e6
                rows[name] = min(rows.get(name, took), took)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for name, value in rows.items():
        print(f"{name:<55} {value:7.3f} us per planned call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
