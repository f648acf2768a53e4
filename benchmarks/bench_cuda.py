# SPDX-License-Identifier: Apache-2.0
"""Host cost of launching Inductor kernels on CUDA, side by side in one process.

(a) one kernel, steady state, per launch: fastlaunch's planned launch, stock
    ``CachingAutotuner.run`` with the static launcher and with Triton's
    launcher, and a C loop of ``cuLaunchKernel`` (the floor);
(b) a launch-bound compiled model (>= 40 kernels per call): per-call time
    with fastlaunch, stock, and ``mode="reduce-overhead"`` (CUDA graphs).

Usage: python benchmarks/bench_cuda.py --out DIR   (writes bench_cuda.json, bench_cuda.png)

Inductor's compile caches stay on, as users have them: fastlaunch's state is in
their keys, so the stock and fastlaunch builds never share cached code.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import torch

import fastlaunch
from fastlaunch import config
from fastlaunch.builds import core
from fastlaunch.engine import routing
from fastlaunch.integrations.inductor import integration
from fastlaunch.runtime import _core

BLOCK = 400      # launches per timed block; the GPU queue is drained between blocks
BLOCKS = 15      # blocks per round
ROUNDS = 5       # rounds, interleaving the variants


def load_raw_loop() -> ctypes.CDLL:
    """csrc/bench/raw_launch.c, in the bench build folder."""
    src = core.source("bench/raw_launch.c")
    lib = core.folder("bench") / core.key(src.read_bytes()) / "raw_launch.so"
    core.build("bench", lib, lambda tmp: [core.c_compiler() or "cc", "-O2", "-shared",
                                            "-fPIC", src, "-o", tmp, "-ldl"])
    dll = ctypes.CDLL(str(lib))
    dll.raw_launch_loop.restype = ctypes.c_double
    dll.raw_launch_loop.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int, ctypes.c_uint,
                                    ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p, ctypes.c_size_t]
    return dll


class Capture:
    """Records, for each bound call site, the first call's args."""

    def __init__(self) -> None:
        self.sites: list[dict] = []
        self._bind = routing.bind

    def __enter__(self):
        def bind(metadata, autotuner, *, call_slot=None, **kw):
            bound = self._bind(metadata, autotuner, call_slot=call_slot, **kw)
            site = {"metadata": metadata, "autotuner": autotuner, "bound": bound, "args": None,
                    "slot": call_slot}
            self.sites.append(site)

            def first_call(*args, stream, **kwargs):
                site["args"], site["stream"] = args, stream
                if call_slot is not None and call_slot[0] is first_call:
                    call_slot[0] = bound
                return bound(*args, stream=stream, **kwargs)

            if call_slot is not None:
                call_slot[0] = first_call
            return first_call

        routing.bind = bind
        return self

    def __exit__(self, *exc):
        routing.bind = self._bind


class LauncherWatch:
    """Names what replaced a planned autotuner's launcher, for the result and for
    a failing assertion: the benchmark step it happened in and the Inductor call
    that made the new launcher list (the torch frames that called it)."""

    METHODS = ("_make_launchers", "prepare_for_pickle", "precompile", "autotune_to_one_config")

    def __init__(self, autotuner) -> None:
        self.autotuner = autotuner
        self.launcher = autotuner.launchers[0]
        self.step = "compile with fastlaunch"
        self.events: list[str] = []
        self._originals: dict = {}

    def at(self, step: str) -> None:
        """Mark the end of the current step; records it if the launcher changed in it."""
        current = list(self.autotuner.launchers)
        if current[:1] != [self.launcher]:
            spec = bool(current) and hasattr(current[0], routing.SPEC_ATTR)
            self.events.append(f"launcher replaced during '{self.step}' "
                               f"({len(current)} launchers, KernelSpec: {spec})")
            self.launcher = current[0] if current else None
        self.step = step

    def __enter__(self):
        import traceback

        from torch._inductor.runtime import triton_heuristics as th

        def wrap(name, original):
            def spy(tuner, *args, **kwargs):
                if tuner is not self.autotuner:
                    return original(tuner, *args, **kwargs)
                before = list(tuner.launchers)
                try:
                    return original(tuner, *args, **kwargs)
                finally:
                    if list(tuner.launchers) != before:
                        frames = [f"{Path(f.filename).name}:{f.lineno} {f.name}"
                                  for f in traceback.extract_stack()[:-1]
                                  if "torch" in f.filename][-6:]
                        self.events.append(f"'{self.step}': CachingAutotuner.{name} set "
                                           f"{len(tuner.launchers)} launchers, called from "
                                           + " < ".join(reversed(frames)))
            return spy

        for name in self.METHODS:
            self._originals[name] = getattr(th.CachingAutotuner, name)
            setattr(th.CachingAutotuner, name, wrap(name, self._originals[name]))
        return self

    def __exit__(self, *exc):
        from torch._inductor.runtime import triton_heuristics as th

        for name, original in self._originals.items():
            setattr(th.CachingAutotuner, name, original)


def capture_autotuner(fn, args):
    """Compile ``fn`` without fastlaunch and return (autotuner, call args) of its kernel."""
    from torch._inductor.runtime import triton_heuristics as th

    seen = {}
    original = th.CachingAutotuner.run

    def spy(self, *a, stream, **kw):
        seen.setdefault("site", (self, a, stream))
        return original(self, *a, stream=stream, **kw)

    th.CachingAutotuner.run = spy
    try:
        compiled = torch.compile(fn)
        compiled(*args)
        compiled(*args)
    finally:
        th.CachingAutotuner.run = original
    return seen["site"]


def per_call_us(call) -> list[float]:
    samples = []
    for _ in range(BLOCKS):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(BLOCK):
            call()
        samples.append((time.perf_counter() - t0) / BLOCK * 1e6)
    return samples


def bench_single_kernel(raw) -> dict:
    n = 4096
    a, b, c = (torch.randn(n, device="cuda") for _ in range(3))

    def fn(x, y, z):
        return x * y + z

    # fastlaunch first, as users have it (installed before anything compiles); then the
    # stock launchers of the same kernel, without it.
    torch._dynamo.reset()
    integration.install()
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="auto"), Capture() as cap:
        compiled = torch.compile(fn)
        for _ in range(3):
            compiled(a, b, c)
        site = cap.sites[0]
        bound, args, slot = site["bound"], site["args"], site["slot"]
        # while fastlaunch is on; switched off, the router takes the FastSite out of the slot
        fast_site = slot[0]
        assert type(fast_site).__name__ == "FastSite", (type(fast_site),
                                                       fastlaunch.stats(per_site=True))
    # The stock builds of the same kernel source, compiled while fastlaunch is not installed,
    # can make the planned autotuner's launchers again (without a KernelSpec); the router
    # then describes the new launcher when it plans it (counted plan.described_late).
    with LauncherWatch(site["autotuner"]) as watch:
        torch._dynamo.reset()
        integration.uninstall()
        watch.at("stock compile, static launcher")
        static_tuner, static_args, stream = capture_autotuner(fn, (a, b, c))
        watch.at("stock compile, Triton launcher, caches off")
        torch._dynamo.reset()
        # Compiled in this process without the FX cache: a compile worker started with the
        # static launcher on would hand back a statically launchable kernel that the cache
        # bundler refuses.
        with torch._inductor.config.patch(use_static_cuda_launcher=False, compile_threads=1,
                                          force_disable_caches=True):
            triton_tuner, triton_args, _ = capture_autotuner(fn, (a, b, c))
        watch.at("install again")
        integration.install()
        watch.at("timed rounds")
    planned = bound.plan
    assert planned is not None, fastlaunch.stats()
    native = planned.plan.native
    buf = planned.plan.packer.pack(args)
    cbuf = ctypes.create_string_buffer(buf, len(buf))
    grid = planned.static_grid or planned.grid(*args)
    stream = torch.cuda.current_stream().cuda_stream

    def raw_call():
        t = raw.raw_launch_loop(planned.spec.handle, stream, BLOCK, grid[0], native.block_x,
                                native.shared, cbuf, len(buf))
        if t < 0:
            raise RuntimeError(f"raw loop failed: {t}")
        return t

    def raw_block():
        samples = []
        for _ in range(BLOCKS):
            torch.cuda.synchronize()
            samples.append(raw_call() / BLOCK * 1e6)
        return samples

    static_launcher = static_tuner.launchers[0]
    variants = {
        "layer: PlannedLaunch (no routing)": lambda: planned(args, stream),
        "layer: plan.submit (no grid, no checks)":
            lambda: planned.plan.submit(stream, grid, args),
        "layer: native launch (C++ pack + cuLaunchKernel)":
            lambda: native.launch(stream, grid, args),
        "part: C++ pack only (no launch)": lambda: native.plan.pack(args),
        "part: tensor.data_ptr() for each tensor arg (Python)":
            lambda: [a.data_ptr() for a in args if isinstance(a, torch.Tensor)],
        "part: cuCtxGetDevice (via _core)": _core.cuda_current_device,
        # as the generated code calls it: through the call slot
        "fastlaunch planned (call slot: FastSite)": lambda: slot[0](*args, stream=stream),
        "fastlaunch Python router (BoundLaunch)": lambda: bound(*args, stream=stream),
        "stock CachingAutotuner.run (static launcher)":
            lambda: static_tuner.run(*static_args, stream=stream),
        "stock static launcher alone": lambda: static_launcher(*static_args, stream=stream),
        "stock CachingAutotuner.run (Triton launcher)":
            lambda: triton_tuner.run(*triton_args, stream=stream),
    }
    results: dict[str, list[float]] = {name: [] for name in [*variants, "raw cuLaunchKernel loop"]}
    with config.override(enabled=True, backend="auto"):  # the routers check it per call
        assert type(slot[0]) is type(fast_site), slot[0]
        fastlaunch.reset_stats()
        for _ in range(ROUNDS):
            for name, call in variants.items():
                results[name] += per_call_us(call)
            results["raw cuLaunchKernel loop"] += raw_block()
        torch.cuda.synchronize()
        counts = fastlaunch.stats()
        watch.at("end")
    # the two routed rows launched fast every time, or they measured something else
    routed = 2 * ROUNDS * BLOCKS * BLOCK
    why = {"counters": counts, "launcher history": watch.events or "never replaced",
           "sites": fastlaunch.stats(per_site=True)}
    assert counts.get("fast", 0) >= routed, why
    assert not any(k.startswith("fallback.") for k in counts), why
    medians = {k: statistics.median(v) for k, v in results.items()}
    return {"kernel": planned.spec.name, "args": len(args), "us_per_launch": medians,
            "fast_hits": counts.get("fast", 0), "counters": counts,
            "launcher_history": watch.events,
            "static_launcher_is_static": bool(getattr(static_launcher, "_is_static", False)),
            "triton_launcher_is_static": bool(getattr(triton_tuner.launchers[0], "_is_static",
                                                      False))}


def launch_bound_model(x, w):
    # Reductions over alternating axes cannot fuse: about two kernels per step.
    for i in range(w.shape[0]):
        x = torch.tanh(x * w[i] + x.mean(0, keepdim=True))
        x = x - x.amax(-1, keepdim=True)
    return x


def count_kernels(fn, *args) -> int:
    fn(*args)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    return sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)


def time_calls(fn, *args, calls=50) -> list[float]:
    samples = []
    for _ in range(BLOCKS):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) / calls * 1e6)
    return samples


def bench_model() -> dict:
    x = torch.randn(32, 64, device="cuda")
    w = torch.randn(24, 64, device="cuda")
    builds = {}
    torch._dynamo.reset()
    integration.uninstall()
    builds["stock"] = torch.compile(launch_bound_model)
    builds["stock"](x, w)
    kernels = count_kernels(builds["stock"], x, w)
    builds["reduce-overhead (CUDA graphs)"] = torch.compile(launch_bound_model,
                                                             mode="reduce-overhead")
    for _ in range(3):
        builds["reduce-overhead (CUDA graphs)"](x, w)
    integration.install()
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="auto"):
        builds["fastlaunch"] = torch.compile(launch_bound_model, dynamic=False)
        for _ in range(3):
            builds["fastlaunch"](x, w)
        ref = builds["stock"](x, w)
        torch.testing.assert_close(builds["fastlaunch"](x, w), ref, rtol=0, atol=0)
        results: dict[str, list[float]] = {k: [] for k in builds}
        for _ in range(ROUNDS):
            for name, fn in builds.items():
                results[name] += time_calls(fn, x, w)
        counts = fastlaunch.stats()
    assert counts.get("fast", 0) > 0, counts
    return {"kernels_per_call": kernels,
            "us_per_call": {k: statistics.median(v) for k, v in results.items()},
            "fast_hits": counts.get("fast", 0),
            "fallbacks": {k: v for k, v in counts.items() if k.startswith("fallback.")}}


def chart(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(14, 5))
    for ax, (title, data, unit) in zip(axes, [
        ("(a) one kernel, host cost per launch", result["single_kernel"]["us_per_launch"], "us"),
        (f"(b) model, {result['model']['kernels_per_call']} kernels per call",
         result["model"]["us_per_call"], "us per call"),
    ]):
        names = list(data)
        ax.barh(names, [data[n] for n in names], color="#4C72B0")
        for i, n in enumerate(names):
            ax.text(data[n], i, f" {data[n]:.2f}", va="center")
        ax.set_title(title)
        ax.set_xlabel(unit)
    fig.suptitle(f"fastlaunch on {result['device']} (torch {result['torch']}, "
                 f"triton {result['triton']})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_cuda.py")
    parser.add_argument("--out", default=".", help="folder for bench_cuda.json and .png")
    parser.add_argument("--single-only", action="store_true", help="skip the model benchmark")
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    import triton

    raw = load_raw_loop()
    result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
              "triton": triton.__version__, "python": platform.python_version(),
              "date": time.strftime("%Y-%m-%d"), "command": " ".join(sys.argv)}
    result["single_kernel"] = bench_single_kernel(raw)
    if options.single_only:
        print(json.dumps(result, indent=2))
        return 0
    result["model"] = bench_model()
    sk, md = result["single_kernel"]["us_per_launch"], result["model"]["us_per_call"]
    fl = sk["fastlaunch planned (call slot: FastSite)"]
    result["targets"] = {
        "a_vs_raw": fl / sk["raw cuLaunchKernel loop"],
        "a_stock_over_fast": sk["stock CachingAutotuner.run (static launcher)"] / fl,
        "b_stock_over_fast": md["stock"] / md["fastlaunch"],
    }
    (out / "bench_cuda.json").write_text(json.dumps(result, indent=2))
    chart(result, out / "bench_cuda.png")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
