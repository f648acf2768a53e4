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

The torch-built shims (native asserts, native extern kernels and aten ops) are
built first if they are not cached. On a GPU host, run it with
``FASTLAUNCH=1`` over wrappers saved there (so their fastlaunch call sites
bind to plans); nothing synchronises, so ``as generated`` also waits
whenever the launch queue is full, while ``host only`` is the host cost alone.

Usage: python benchmarks/bench_planned_call.py [WRAPPER.py ...]
[--rounds N] [--calls N] [--out FILE.json]
(default wrappers: tests/data/wrappers/inductor/*.py)

``--model NAME`` (a ``bench_models.py`` zoo model; GPU host, run
with ``FASTLAUNCH=1``) instead compiles that model here and measures its
steps with the planned call on, with its GEMMs on static dispatch but no
cuBLASLt plans (``aten_ops.prepare(True, cublaslt=False)``, where the shim
has the tier), with its prepared ops off (``aten_ops.prepare(False)``), and,
through each PlannedCall's ``bypass``,
off (planned launches only: the same compiled code, the same process,
blocks taking turns), checks the two give bit-equal logits, and then times
every op of the planned programs (``_core.set_planned_call_profiling``):
per step, the time and count of each op kind (``launch`` is a fastlaunch
call site's launch, ``[native]`` an op the ATen shim ran). ``--save-dir``
keeps the wrapper modules' source. ``--dynamic`` compiles with ``dynamic=True``
and cycles the zoo's sequence lengths, as its dynamic Llama workload.
``--train`` times a training step instead (the zoo's loss, its backward, the
gradients set to None; no optimizer step, so every step and variant sees the
same weights): the forward and the backward graph are both planned calls, the
backward's run on autograd's device thread; the check then compares the loss
and every gradient, bit for bit.
Every variant also gets up to seven blocks with each compiled graph's call
timed (``bench_models.CallClock``), taking turns as the timed blocks do: per
block the step, the time inside the graphs' calls and the rest (outside
them), each per step (``attribution_samples``, medians in
``attribution_median_ms``).
``--cpp-wrapper`` (inference) adds two variants to the turns: the same model
compiled a second time in this process with ``cpp_wrapper=True`` (fastlaunch
leaves cpp_wrapper's code alone), and fastlaunch switched off at run time
(``fastlaunch.set_enabled(False)`` and every PlannedCall bypassed: the
wrapper's Python ``call()`` and stock's ``run`` behind fastlaunch's router,
one Python call per launch more than stock). Across processes the host's noise
is as large as the difference between the planned call and cpp_wrapper;
taking turns in one process removes the process from it.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import platform
import shutil
import statistics
import sys
import time
import types
from collections import defaultdict
from pathlib import Path

import torch

import fastlaunch
from fastlaunch import config
from fastlaunch.engine.planned_call import planner
from fastlaunch.engine.planned_call import program as P
from fastlaunch.runtime import _core, aten_ops, tensor_geometry
from fastlaunch.tools.selfcheck.planned_call import pinned_width
from fastlaunch.tools.selfcheck.vector_width import pinned

HERE = Path(__file__).resolve().parent
DEFAULT = sorted((HERE.parent / "tests" / "data" / "wrappers" / "inductor").glob("*.py"))


def _load(path: Path, index: int):
    """The wrapper at ``path``, its C++ kernels compiled for the float width they
    were written for (selfcheck's rule: a narrower ISA pinned, or refused)."""
    spec = importlib.util.spec_from_file_location(f"_bench_wrapper_{index}", path)
    module = importlib.util.module_from_spec(spec)
    with pinned(pinned_width(path.read_text())[0]):
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
    program = planner.tag_native(planner.program_of(module.call))
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


def _label(program: P.Program, op: P.Op, native: bool = True) -> str:
    """An op's kind for the breakdown: its code, and the callable when it is a constant."""
    name = P.NAMES[op.code]
    if op.is_folded_view:
        return "native view (tuple)"
    is_const, callee = program.constant(op.a)
    if op.code in (P.CALL, P.ASSERT) and is_const:
        name += ":" + str(getattr(callee, "__name__", None) or type(callee).__name__)
    elif op.code == P.CALL:
        name = "launch"  # a call site's callable (SITE's temporary) or a local
    elif op.code in (P.METHOD, P.ATTR):
        name += ":" + str(op.extra2)
    if op.native_kind:
        name += " [native]" if native else " [native op, shim off]"
        if op.view_operands:
            name += f" +{bin(op.view_operands).count('1')} views"
    return name


def _planned_modules() -> list[types.ModuleType]:
    return [m for m in gc.get_objects() if type(m) is types.ModuleType
            and type(getattr(m, "call", None)) is _core.PlannedCall]


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _block(fn, cycle: list[dict], calls: int) -> float:
    """ms per step over ``calls`` steps, the inputs taken from ``cycle`` in turn."""
    _sync()
    start = time.perf_counter()
    for i in range(calls):
        fn(**cycle[i % len(cycle)])
    _sync()
    return (time.perf_counter() - start) / calls * 1e3


def _turns(variants: list[str], rounds: int):
    """Each round's variants in the order they take their turns: the first one
    rotates every round."""
    for r in range(rounds):
        k = r % len(variants)
        yield variants[k:] + variants[:k]


def measure_model(name: str, rounds: int, calls: int, save_dir: Path | None,
                  dynamic: bool = False, train: bool = False,
                  cpp_wrapper: bool = False) -> dict:
    sys.path.insert(0, str(HERE))
    import bench_models

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model, inputs = bench_models.build_model(name, device)
    model.train(train)
    kwargs = {"dynamic": True} if dynamic else {}
    forward = torch.compile(
        bench_models.forward_fn(name, model, "train" if train else "infer"), **kwargs)

    def train_step(**step):
        model.zero_grad(set_to_none=True)
        loss = forward(**step)
        loss.backward()
        return loss.detach()

    compiled = train_step if train else forward
    if dynamic:  # a new sequence length every step, as the zoo's dynamic workload
        ids = inputs["input_ids"].repeat(1, 2)
        cycle = [{"input_ids": ids[:, :n].contiguous()} for n in bench_models.DYNAMIC_SEQS]
    else:
        cycle = [inputs]
    torch.set_grad_enabled(train)
    for _ in range(3):
        for step in cycle:
            compiled(**step)
    modules = _planned_modules()
    runner: dict = {}  # variant -> its own compiled function, where not ``compiled``
    if cpp_wrapper:
        if train:
            raise SystemExit("--cpp-wrapper measures inference: leave out --train")
        runner["cpp_wrapper"] = torch.compile(
            bench_models.forward_fn(name, model, "infer"), options={"cpp_wrapper": True}, **kwargs)
        for _ in range(3):
            for step in cycle:
                runner["cpp_wrapper"](**step)
    if not modules:
        raise SystemExit("no planned call: run with FASTLAUNCH=1 "
                         "(and FASTLAUNCH_PLANNED_CALL unset)")
    planned = [m.call for m in modules]
    programs = [planner.tag_native(planner.program_of(p.original)) for p in planned]
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
        for m in modules:
            shutil.copy(m.__file__, save_dir / Path(m.__file__).name)

    def set_bypass(on: bool) -> None:
        for p in planned:
            p.bypass = on

    native = aten_ops.ensure()
    # (bypass: planned launches only, native ops, prepared ops, cuBLASLt plans,
    #  fastlaunch enabled as the environment says)
    variants = {"planned call": (False, True, True, True, True),
                "planned launches only": (True, True, True, True, True)}
    if native:
        if aten_ops.cublaslt()[0]:
            variants["planned call, static GEMMs only"] = (False, True, True, False, True)
        variants["planned call, no prepared ops"] = (False, True, False, False, True)
        variants["planned call, no native ops"] = (False, False, False, False, True)

    if cpp_wrapper:  # neither is a planned call: bypass set, the tiers left as they are
        variants["cpp_wrapper"] = (True, True, True, True, True)
        variants["fastlaunch off"] = (True, True, True, True, False)

    def function_of(variant: str):
        return runner.get(variant, compiled)

    def select(variant: str) -> None:
        off, ops, prepared, cublaslt, enabled = variants[variant]
        fastlaunch.set_enabled(None if enabled else False)
        set_bypass(off)
        aten_ops.use(ops and native)
        aten_ops.prepare(prepared, cublaslt=cublaslt)

    def results(variant: str, step: dict) -> list[torch.Tensor]:
        """The step's output and, when training, every parameter's gradient."""
        out = [function_of(variant)(**step).clone()]
        if train:
            out += [p.grad.clone() for p in model.parameters() if p.grad is not None]
        return out

    outputs = {}
    for variant in variants:
        select(variant)
        outputs[variant] = [t for step in cycle for t in results(variant, step)]
    reference = outputs["planned launches only"]
    equal = {v: all(torch.equal(o, r) for o, r in zip(out, reference))
             for v, out in outputs.items()}
    fastlaunch.reset_stats()
    times: dict[str, list[float]] = {v: [] for v in variants}
    for turn in _turns(list(variants), rounds):
        for variant in turn:
            select(variant)
            times[variant].append(_block(function_of(variant), cycle, calls))
    stats = fastlaunch.stats()
    # Where each variant's step goes: blocks with every compiled graph's call
    # timed (bench_models.CallClock), taking turns as above.
    clock = bench_models.CallClock()
    attributed: dict[str, list[dict]] = {v: [] for v in variants}
    for turn in _turns(list(variants), min(rounds, 7)):
        for variant in turn:
            select(variant)
            with clock:
                step = _block(function_of(variant), cycle, calls)
            inside = clock.ns / calls / 1e6
            attributed[variant].append({"step_ms": step, "inside_ms": inside,
                                        "outside_ms": step - inside})
    breakdowns, in_call = {}, {}
    for variant in [v for v in variants if not variants[v][0]]:  # the planned ones
        select(variant)
        _core.set_planned_call_profiling(True)
        for p in planned:
            _core.planned_call_profile(p)  # clears
        profiled_ms = _block(compiled, cycle, calls)
        _core.set_planned_call_profiling(False)
        kinds: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for p, program in zip(planned, programs):
            for op, (ns, runs) in zip(program.ops, _core.planned_call_profile(p)):
                entry = kinds[_label(program, op, native=variants[variant][1])]
                entry[0] += ns / 1e3 / calls
                entry[1] += runs / calls
        breakdowns[variant] = {
            k: {"us_per_step": round(v[0], 2), "per_step": round(v[1], 2),
                "us_each": round(v[0] / v[1], 3) if v[1] else None}
            for k, v in sorted(kinds.items(), key=lambda kv: -kv[1][0])}
        in_call[variant] = {"profiled_step_ms": round(profiled_ms, 4),
                            "in_call_us_per_step": round(sum(v[0] for v in kinds.values()), 1)}
    select("planned call")
    return {"model": name, "task": "train" if train else "infer", "dynamic": dynamic,
            "bit_equal_to_planned_launches": equal, "tensors_compared": len(reference),
            "rounds": rounds, "calls": calls,
            "median_ms": {k: round(statistics.median(v), 4) for k, v in times.items()},
            "attribution_median_ms": {
                k: {part: round(statistics.median(b[part] for b in v), 4)
                    for part in ("step_ms", "inside_ms", "outside_ms")}
                for k, v in attributed.items()},
            "attribution_samples": attributed,
            "min_ms": {k: round(min(v), 4) for k, v in times.items()},
            "samples_ms": times, "stats_while_timing": stats,
            "programs": [pr.summary() for pr in programs], "profiled": in_call,
            "breakdown": breakdowns}


def main_model(options) -> int:
    print(f"native asserts: {tensor_geometry.status()}; aten ops: {aten_ops.status()}")
    result = measure_model(options.model, options.rounds, options.calls, options.save_dir,
                           options.dynamic, options.train, options.cpp_wrapper)
    result["meta"] = {"python": sys.version.split()[0], "torch": torch.__version__,
                      "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
                      "command": " ".join(sys.argv),
                      "native_asserts": tensor_geometry.status(), "aten_ops": aten_ops.status()}
    samples = ("samples_ms", "attribution_samples")
    print(json.dumps({k: v for k, v in result.items() if k not in samples}, indent=1))
    if options.out is not None:
        options.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_planned_call.py")
    parser.add_argument("wrappers", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--model", default=None, help="a zoo model (GPU): see the docstring")
    parser.add_argument("--dynamic", action="store_true",
                        help="with --model: dynamic=True, a new sequence length every step")
    parser.add_argument("--train", action="store_true",
                        help="with --model: a training step (loss and backward), not inference")
    parser.add_argument("--cpp-wrapper", action="store_true",
                        help="with --model: cpp_wrapper and fastlaunch off take turns too")
    parser.add_argument("--save-dir", type=Path, default=None)
    options = parser.parse_args()
    if options.model is not None:
        return main_model(options)
    native_asserts = tensor_geometry.ensure(build=True, wait=True)
    native_ops = aten_ops.ensure(build=True, wait=True)
    print(f"native asserts: {tensor_geometry.status()}; aten ops: {aten_ops.status()}")
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
                "native_asserts": native_asserts, "native_ops": native_ops,
                "torch_threads": torch.get_num_threads()}
        options.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
