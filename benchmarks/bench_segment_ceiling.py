# SPDX-License-Identifier: Apache-2.0
"""What native segments could save per step (issue 29): each op segments would
change, timed in C++ as the planned call runs it today and as a segment would,
times how often a saved wrapper does it. An estimate: hot loops run these ops
cheaper than a step does, and the launches' entry checks, which a segment would
take once, are not timed.

What a segment removes (docs/design.md, "Next tier"): the Python tensor of every
allocation and view that never escapes (made by ``THPVariable_Wrap``, freed at its
``del``), the GIL released and taken again around each GEMM, SDPA and convolution,
and the argument tuple of each launch. What it keeps (the allocator, the view's
own C++ cost, cuBLAS, the driver) is in both rungs of each pair, so the
difference is what a segment saves. The counts come from the saved wrapper
(``--wrapper``, by default the 12-layer GPT-2 of tests/data/wrappers/h200), its
allocation shapes are the problems cycled through; the views cycle through its
``reinterpret_tensor`` shapes on one base. Rungs take turns, one timed block at a
time; medians are reported.

Usage: python benchmarks/bench_segment_ceiling.py [--device cuda|cpu] [--rounds N]
       [--calls N] [--wrapper FILE] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import ast
import json
import platform
import re
import statistics
import sys
from pathlib import Path

import torch
from torch.utils import cpp_extension

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "csrc" / "bench" / "segment_ceiling.cpp"
WRAPPER = ROOT / "tests" / "data" / "wrappers" / "h200" / "gpt2_12.py"
# Calls the ATen shim makes with the GIL released (its WithoutGil): the GEMMs,
# SDPA and convolution; allocations and views hold it, as guards' functions do.
# A view written inside one of them is folded: the shim makes it in C++ today.
SDPA = re.compile(r"(?<!')torch\.ops\.aten\._scaled_dot_product_(\w+)\.default\(")
GIL_RELEASING = re.compile(r"extern_kernels\.(?:mm|addmm|bmm|baddbmm|convolution)\(|"
                           + SDPA.pattern)
# The Python tensors the shim makes of each SDPA variant's outputs today
# (csrc/shims/aten_ops.cpp): a segment would keep them in C++.
SDPA_OUTPUTS = {"efficient_attention": 4, "flash_attention": 7, "cudnn_attention": 7,
                "flash_attention_for_cpu": 2}
ALLOCATION = re.compile(r"empty_strided_\w+\((\([^()]*\)), (\([^()]*\)),")
VIEW = re.compile(r"reinterpret_tensor\(\w+, (\([^()]*\)), (\([^()]*\)),")


def call_body(text: str) -> list[str]:
    """The statements of the wrapper's ``call()`` (a function or ``Runner.call``), no comments."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("def call(")),
                 None)
    if start is None:
        raise SystemExit("--wrapper: no `def call(`; expected an Inductor wrapper")
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        if line.strip() and not line.lstrip().startswith("#"):
            body.append(line)
    return body


def shapes(pattern: re.Pattern, lines: list[str]) -> tuple[list, int]:
    """The constant (size, stride) pairs ``pattern`` finds in ``lines``, and how many it
    found with symbolic sizes (a dynamic wrapper's)."""
    found, symbolic = [], 0
    for size, stride in (match for line in lines for match in pattern.findall(line)):
        try:
            found.append((list(ast.literal_eval(size)), list(ast.literal_eval(stride))))
        except (ValueError, SyntaxError):
            symbolic += 1
    return found, symbolic


def read_wrapper(path: Path) -> dict:
    """Per call of the wrapper: how many of each op, and the shapes it allocates and views
    (those with symbolic sizes are counted but not timed: a dynamic wrapper's)."""
    body = call_body(path.read_text())
    releasing, unfolded = [], []
    for line in body:
        if GIL_RELEASING.search(line):
            releasing.append(line)
        elif not line.lstrip().startswith("return"):
            # a view in the return escapes: a segment would make its Python tensor too
            unfolded.append(line)
    allocations, symbolic_allocations = shapes(ALLOCATION, body)
    views, symbolic_views = shapes(VIEW, unfolded)
    counts = {"allocations": len(allocations) + symbolic_allocations,
              "unfolded_views": len(views) + symbolic_views,
              "folded_views": sum(len(VIEW.findall(line)) for line in releasing),
              "sdpa_outputs": sum(SDPA_OUTPUTS.get(variant, 0)
                                  for line in body for variant in SDPA.findall(line)),
              "launches": sum(line.count("stream=stream") for line in body),
              "gil_releasing_calls": sum(len(GIL_RELEASING.findall(line)) for line in releasing),
              "symbolic_shapes_not_timed": symbolic_allocations + symbolic_views}
    if not allocations:
        raise SystemExit(f"--wrapper: {path}'s call() has no allocation with constant sizes "
                         "(a dynamic wrapper's are symbols); expected a static Inductor wrapper")
    # the view pair also prices SDPA's outputs: without unfolded views, views of the
    # allocations' own shapes
    return {"counts": counts, "allocations": allocations, "views": views or allocations}


def build(folder: Path, cuda: bool):
    """The C++ rungs, built by torch's extension builder (with CUDA's allocator if asked)."""
    folder.mkdir(parents=True, exist_ok=True)
    return cpp_extension.load(name="fastlaunch_segment_ceiling", sources=[str(SOURCE)],
                              build_directory=str(folder), with_cuda=cuda,
                              extra_cflags=["-O2"] + (["-DSEGMENT_CEILING_CUDA"] if cuda else []),
                              verbose=False)


def rungs(ext, wrapper: dict, cuda: bool) -> dict:
    """Each rung: n -> ns for n calls. The views are of one base large enough for all of
    them; the launch tuple has the wrapper's first launch's arguments (six tensors, two
    sizes)."""
    allocations, views = wrapper["allocations"], wrapper["views"]
    need = max(sum(s * st for s, st in zip(size, stride)) for size, stride in views) + 1
    base = torch.empty(need, device="cuda" if cuda else "cpu")
    launch_args = tuple([base] * 6 + [16, 256])  # a launch of the wrapper: tensors, then sizes
    return {"alloc_wrapped": lambda n: ext.alloc_wrapped(allocations, cuda, n),
            "alloc_native": lambda n: ext.alloc_native(allocations, cuda, n),
            "view_wrapped": lambda n: ext.view_wrapped(base, views, n),
            "view_native": lambda n: ext.view_native(base, views, n),
            "gil_pair": ext.gil_pair,
            "args_tuple": lambda n: ext.args_tuple(launch_args, n)}


def measure(table: dict, rounds: int, calls: int) -> dict:
    """Medians over rounds, the rungs taking turns (the first rung rotating) after a warm-up."""
    for fn in table.values():  # warm-up: the allocator's blocks
        fn(calls)
    names = list(table)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(table[name](calls) / calls / 1000)
    return {name: {"median_us": statistics.median(s), "min_us": min(s)}
            for name, s in samples.items()}


def saved_per_call(us: dict, counts: dict) -> dict:
    """µs per call a segment would save. SDPA's outputs are priced with the view pair: the
    Python tensor's making and freeing cost the same whatever the tensor is."""
    def saved(wrapped, native):
        return us[wrapped]["median_us"] - us[native]["median_us"]

    per_step = {"allocations": counts["allocations"] * saved("alloc_wrapped", "alloc_native"),
                "views": counts["unfolded_views"] * saved("view_wrapped", "view_native"),
                "sdpa outputs": counts["sdpa_outputs"] * saved("view_wrapped", "view_native"),
                "gil": counts["gil_releasing_calls"] * us["gil_pair"]["median_us"],
                "launch tuples": counts["launches"] * us["args_tuple"]["median_us"]}
    per_step["total"] = sum(per_step.values())
    return per_step


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_segment_ceiling.py")
    parser.add_argument("--device", choices=("cuda", "cpu"),
                        default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--wrapper", type=Path, default=WRAPPER)
    parser.add_argument("--build-dir", type=Path, default=Path("build/segment_ceiling"))
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()
    cuda = options.device == "cuda"
    if cuda and not torch.cuda.is_available():
        print("bench_segment_ceiling: --device cuda needs a CUDA device")
        return 2
    wrapper = read_wrapper(options.wrapper)
    ext = build(options.build_dir, cuda)
    us = measure(rungs(ext, wrapper, cuda), options.rounds, options.calls)
    per_step = saved_per_call(us, wrapper["counts"])
    result = {"device": torch.cuda.get_device_name() if cuda else "cpu",
              "host": platform.processor() or platform.machine(),
              "torch": torch.__version__, "python": platform.python_version(),
              "wrapper": options.wrapper.name, "rounds": options.rounds, "calls": options.calls,
              "counts_per_call": wrapper["counts"], "us_per_op": us,
              "saved_us_per_call": per_step}
    for name, row in us.items():
        print(f"{name:14s} median {row['median_us']:6.3f} us  min {row['min_us']:6.3f} us")
    print("counts per call:", wrapper["counts"])
    print("saved per call (us):", {k: round(v, 1) for k, v in per_step.items()})
    if options.out:
        options.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
