# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch demo``: the engine end to end on the fake runtime.

The kernels' signatures are taken from real Inductor output (stock Inductor
and torch_npu); nothing needs a device.
"""

from __future__ import annotations

import dataclasses
import math
import struct
import timeit
import types
from collections.abc import Callable

from .. import config
from ..engine import routing
from ..runtime import _core, abi, backends, counters
from ..runtime.fake import FakeBackend
from ..testing import fakes


@dataclasses.dataclass(frozen=True)
class DemoKernel:
    name: str
    abi: str
    signature: tuple[str, ...]
    names: tuple[str, ...]
    args: tuple
    grid: Callable[..., tuple[int, int, int]]
    blocks: tuple = ()
    options: dict = dataclasses.field(default_factory=dict)
    note: str = ""


KERNELS = (
    DemoKernel("triton_poi_fused_add_mul_0", "npu", ("*fp32", "*fp32", "*fp32", "i32"),
               ("in_ptr0", "in_ptr1", "out_ptr0", "xnumel"), (0x10000, 0x20000, 0x30000, 4096),
               lambda *a: (math.ceil(a[3] / 256), 1, 1), options={"ffts": True},
               note="pointwise (XBLOCK constexpr)"),
    DemoKernel("triton_red_fused_sum_1", "npu", ("*fp32", "*fp32", "i32", "i32", "i32", "i32"),
               ("in_ptr0", "out_ptr0", "xnumel", "r0_numel", "XBLOCK", "R0_BLOCK"),
               (0x40000, 0x50000, 512, 1024), lambda *a: (math.ceil(a[2] / a[4]), 1, 1),
               blocks=(32, 256), options={"ffts": True},
               note="reduction; XBLOCK/R0_BLOCK are runtime-block args fixed in the plan"),
    DemoKernel("triton_poi_fused_mul_2", "cuda", ("*fp16", "*fp16", "fp16", "i32"),
               ("in_ptr0", "out_ptr0", "ks0", "xnumel"), (0x60000, 0x70000, 0.5, 2048),
               lambda *a: (math.ceil(a[3] / 1024), 1, 1), options={"num_warps": 4},
               note="fp16 scalar: 2 bytes on cuda, fp32 on npu"),
    DemoKernel("triton_poi_fused_gather_3", "npu", ("*fp32", "*i64", "*fp32", "i32"),
               ("in_ptr0", "in_ptr1", "out_ptr0", "xnumel"), (0x80000, 0x90000, 0xA0000, 1000),
               lambda *a: (math.ceil(a[3] / 128), 1, 1),
               options={"simt": True, "pure_simt": True, "local_memory": 122880},
               note="pure-SIMT: no sync-lock / workspace slots"),
)


def decode(type_name: str, raw: bytes) -> str:
    """The value a little-endian field holds, as its kernel type reads it."""
    if type_name.startswith("*") or type_name == "ptr":
        return f"0x{int.from_bytes(raw, 'little'):x}"
    if type_name.startswith(("fp", "bf")):
        if type_name == "bf16" and len(raw) == 2:
            return repr(struct.unpack("<f", b"\0\0" + raw)[0])
        return repr(struct.unpack({2: "<e", 4: "<f", 8: "<d"}[len(raw)], raw)[0])
    return str(int.from_bytes(raw, "little", signed=not type_name.startswith("u")))


def _print_layout(kernel: DemoKernel, record_data: bytes) -> None:
    flags = {"ffts": bool(kernel.options.get("ffts")),
             "pure_simt": bool(kernel.options.get("pure_simt"))} if kernel.abi == "npu" else {}
    lay = abi.layout(kernel.abi, kernel.signature, names=kernel.names, **flags)
    print(f"  {kernel.abi} layout, {lay.size} bytes (little-endian bytes, then the value):")
    for field in lay.fields:
        raw = record_data[field.offset:field.offset + field.size]
        print(f"    @{field.offset:<3} {field.size}B  {field.name:<16} {field.type:<6} "
              f"{raw.hex():<16}  = {decode(field.type, raw)}")


def _run_kernel(kernel: DemoKernel) -> FakeBackend:
    backend = FakeBackend(kernel.abi)
    backends.set_backend("fake", backend)
    spec = fakes.spec(kernel.name, kernel.signature, names=kernel.names, grid=kernel.grid,
                      **kernel.options)
    launcher = fakes.FakeLauncher(spec)
    tuner = fakes.FakeAutotuner([launcher], npu_shaped=kernel.abi == "npu",
                                runtime_blocks=kernel.blocks)
    bound = routing.bind({"kernel_name": kernel.name, "abi": kernel.abi,
                          "arg_count": len(kernel.args)}, tuner)
    for _ in range(3):
        bound(*kernel.args, stream=0x5000)
    print(f"\n{kernel.name}  [{kernel.note}]")
    print(f"  calls: 3, original launcher: {len(launcher.calls)}, planned launches: "
          f"{len(backend.launches)}; {bound.plan.plan.summary()}")
    _print_layout(kernel, backend.launches[-1].data)
    return backend


def _fallback_cases() -> None:
    print("\nfallbacks")
    backend = FakeBackend("npu")
    backends.set_backend("fake", backend)
    spec = fakes.spec("triton_poi_fused_cat_4", ("*fp32", "*fp32", "i32"),
                      grid=lambda *a: (math.ceil(a[2] / 16), 1, 1))
    launcher = fakes.FakeLauncher(spec)
    tuner = fakes.FakeAutotuner([launcher])
    bound = routing.bind({"kernel_name": spec.name, "abi": "npu", "arg_count": 3}, tuner)
    bound(1, 2, 64, stream=1)
    bound(1, 2, 64, stream=1)
    bound(1, 2, 16 * 70000, stream=1)  # blockDim > 65535: this call takes the full entry
    print(f"  grid product over 65535 -> full entry for that call, plan kept "
          f"(full entries: {tuner.full_entries}, planned: {len(backend.launches)})")
    refused = fakes.FakeLauncher(None, refusal="clusters_unsupported")
    tuner = fakes.FakeAutotuner([refused])
    bound = routing.bind({"kernel_name": "triton_tem_fused_mm_5", "abi": "npu"}, tuner)
    for _ in range(3):
        bound(1, 2, stream=1)
    print(f"  refused plan -> negative cache: 1 full entry, then the selected launcher "
          f"directly (launcher calls: {len(refused.calls)}, full entries: {tuner.full_entries})")


HOST_OVERHEAD_NOTE = """\
  Both rows end in the same C++ packer writing the same bytes, and neither
  submits anything. The second row adds, per call, the Python work stock
  Inductor does in front of its launcher's native code: run()'s per-call
  checks (kwargs, profiler flag, debug mode, one launcher), then an
  Inductor-shaped launcher function that evaluates the grid expression in
  Python and passes everything on. The difference is the host work a planned
  call site skips on this machine; the stock launcher's own C argument
  parsing and the device runtime are not part of either row."""


def _host_overhead() -> list[tuple[str, float]]:
    sig = ["*fp32", "*fp32", "*fp32", "i32", "fp32", "i64"]
    args = (0x1000, 0x2000, 0x3000, 4096, 0.5, 7)
    plan = _core.Plan("npu", sig, ffts=True, ffts_addr=0xFF00)
    number = 20000
    scope: dict = {"runner": plan.pack}
    # The shape of Inductor's generated launcher: grid from the expression, then native code.
    exec("def launcher(in_ptr0, in_ptr1, out_ptr0, xnumel, ks0, ks1, stream):\n"
         "    grid_0 = -(xnumel // -256)\n"
         "    return runner((in_ptr0, in_ptr1, out_ptr0, xnumel, ks0, ks1), "
         "(grid_0, 1, 1))\n", scope)

    class StockShaped:
        """What CachingAutotuner.run checks per call before calling its one launcher."""

        launchers = [scope["launcher"]]
        profiler = types.SimpleNamespace(_is_profiler_enabled=False)

        def run(self, *args, stream, benchmark_run=False, **kwargs):
            if not benchmark_run and not kwargs and not self.profiler._is_profiler_enabled \
                    and not _no_debug_mode():
                (launcher,) = self.launchers
                return launcher(*args, stream=stream)
            return None

    stock = StockShaped()
    grid = (16, 1, 1)
    if stock.run(*args, stream=0x5000) != plan.pack(args, grid):
        msg = "demo: the two rows pack different bytes"
        raise AssertionError(msg)

    def per_call(fn: Callable[[], object]) -> float:
        return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6

    return [("planned: native plan, pack only", per_call(lambda: plan.pack(args, grid))),
            ("stock-shaped: run() checks + Python launcher + pack",
             per_call(lambda: stock.run(*args, stream=0x5000)))]


def _no_debug_mode() -> bool:
    """Stands for ``get_active_debug_mode()``, a call stock run makes per call."""
    return False


def main() -> int:
    previous = backends.set_backend("fake", None)
    counters.reset_stats()
    try:
        with config.override(enabled=True, backend="fake", strict=False):
            print("fastlaunch demo: Inductor call sites on the fake runtime "
                  "(first call warms up, then planned launches)")
            for kernel in KERNELS:
                _run_kernel(kernel)
            _fallback_cases()
    finally:
        backends.set_backend("fake", previous)
    print("\ncounters")
    for key, value in counters.stats().items():
        print(f"  {key:<44} {value}")
    print("\nhost overhead per launch, 6-argument npu kernel (this machine)")
    rows = _host_overhead()
    for label, micros in rows:
        print(f"  {label:<52} {micros:7.3f} us   x{micros / rows[0][1]:.1f}")
    print(HOST_OVERHEAD_NOTE)
    return 0
