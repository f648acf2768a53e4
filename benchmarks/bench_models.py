# SPDX-License-Identifier: Apache-2.0
"""A model zoo on one GPU: step time of stock Inductor, fastlaunch, cpp_wrapper and CUDA graphs.

Models (small configurations, random weights, built from config objects, no
downloads): transformers GPT-2, Llama and BERT; timm ViT-Tiny and ResNet-18.
Workloads: inference and one training step (forward, backward, SGD) of each;
Llama inference with ``dynamic=True`` over changing sequence lengths; GPT-2
inference with ``mode="max-autotune-no-cudagraphs"``.

Each variant runs in a process of its own, started as a user starts one
(``FASTLAUNCH=0/1`` in the environment, Inductor's caches on, one cache
folder per variant): in one process Dynamo hands a second model of the same
class the first one's compiled code. The processes compile and warm up side
by side, then take turns through the parent's store, one timed block at a time, so
that only one process runs while another is timed; the order of the variants
changes every round. For the timed part each process has its own CPU cores
where the machine has two or more per process. ``stock2`` is a second stock build: its outputs
against ``stock`` show how far stock is from itself (autotuning picks configs
by timing), the tolerance for fastlaunch where it is not bit-equal, and its
step time against ``stock`` shows how much two processes running the same
code differ (the noise floor of this comparison).

Each timed block is followed by an attribution block of the same length, in the
same turn, with every compiled graph's call timed (``CallClock``): the time
inside the graphs' ``call()`` per step, and the rest of the step (Dynamo's
guards, AOTAutograd's wrappers, the harness) as the time outside it. The
attribution block also gives the peak of allocated device memory over a step.
The main samples are taken without the clock, so it costs them nothing.

The warm-cache set starts new processes over the folders the cold set filled:
stock and fastlaunch over their own caches, and fastlaunch over stock's.

Usage: python benchmarks/bench_models.py --out DIR [--quick] [--workloads gpt2/infer,...]
[--variants stock,fastlaunch,...]
(writes bench_models.json, bench_models.md and bench_models.png); ``--merge A.json B.json``
draws one table and chart from several runs instead of running.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

import _processes  # first: it turns NVLink multicast off before torch loads
import torch

MAX_AUTOTUNE = "max-autotune-no-cudagraphs"
SEQ = 64
DYNAMIC_SEQS = (48, 64, 80)
VOCAB = 1024


@dataclasses.dataclass(frozen=True)
class Workload:
    model: str
    task: str                 # "infer" or "train"
    dynamic: bool = False
    mode: str | None = None   # compile mode of every variant (None: default)

    @property
    def name(self) -> str:
        extra = "+dynamic" if self.dynamic else (f"+{self.mode}" if self.mode else "")
        return f"{self.model}/{self.task}{extra}"


WORKLOADS = (  # in the order they are compiled (what a short --compile-budget keeps)
    Workload("gpt2", "infer"), Workload("gpt2_12", "infer"),
    Workload("llama", "infer", dynamic=True),
    Workload("bert", "infer"), Workload("vit_tiny", "infer"), Workload("resnet18", "infer"),
    Workload("gpt2", "train"), Workload("llama", "train"), Workload("bert", "train"),
    Workload("vit_tiny", "train"), Workload("resnet18", "train"),
    Workload("gpt2", "infer", mode=MAX_AUTOTUNE),
)

# variant -> (FASTLAUNCH, extra Inductor options, mode override, timed)
VARIANTS = {
    "stock": ("0", {}, None, True),
    "fastlaunch": ("1", {}, None, True),
    "planned launches": ("1", {}, None, True),
    "cpp_wrapper": ("0", {"cpp_wrapper": True}, None, True),
    "reduce-overhead": ("0", {}, "reduce-overhead", True),
    "stock2": ("0", {}, None, True),
}
# a variant's environment beyond FASTLAUNCH: "fastlaunch" runs the planned call
# (the default with FASTLAUNCH=1), "planned launches" only the planned launches
EXTRA_ENV = {"planned launches": {"FASTLAUNCH_PLANNED_CALL": "0"}}
WARM_VARIANTS = {  # warm-cache set: variant -> (FASTLAUNCH, cache folder of)
    "stock (warm cache)": ("0", "stock"),
    "fastlaunch (warm cache)": ("1", "fastlaunch"),
    "fastlaunch over stock's cache": ("1", "stock"),
}


# ---------------------------------------------------------------- models

def build_model(name: str, device):
    """A small randomly initialised model (no hub access) and its example inputs."""
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    if name == "gpt2_12":  # issue 19's launch-bound transformer: 12 layers, batch 1, 16 tokens
        import transformers as tf

        cfg = tf.GPT2Config(n_layer=12, n_embd=256, n_head=4, n_positions=256, resid_pdrop=0.0,
                            embd_pdrop=0.0, attn_pdrop=0.0, vocab_size=VOCAB, use_cache=False,
                            bos_token_id=0, eos_token_id=0)
        ids = torch.randint(0, VOCAB, (1, 16), generator=gen)
        return tf.GPT2LMHeadModel(cfg).to(device), {"input_ids": ids.to(device)}
    if name in ("gpt2", "llama", "bert"):
        import transformers as tf

        common = {"vocab_size": VOCAB, "use_cache": False, "bos_token_id": 0, "eos_token_id": 0}
        if name == "gpt2":
            cfg = tf.GPT2Config(n_layer=2, n_embd=128, n_head=4, n_positions=256, resid_pdrop=0.0,
                                embd_pdrop=0.0, attn_pdrop=0.0, **common)
            model = tf.GPT2LMHeadModel(cfg)
        elif name == "llama":
            cfg = tf.LlamaConfig(hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                                 num_attention_heads=4, num_key_value_heads=2,
                                 max_position_embeddings=256, **common)
            model = tf.LlamaForCausalLM(cfg)
        else:
            cfg = tf.BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                                intermediate_size=256, hidden_dropout_prob=0.0,
                                attention_probs_dropout_prob=0.0, **common)
            model = tf.BertForMaskedLM(cfg)
        ids = torch.randint(0, VOCAB, (4, SEQ), generator=gen)
        return model.to(device), {"input_ids": ids.to(device)}
    import timm

    if name == "vit_tiny":
        model = timm.create_model("vit_tiny_patch16_224", pretrained=False, num_classes=100)
        shape = (8, 3, 224, 224)
    elif name == "resnet18":
        model = timm.create_model("resnet18", pretrained=False, num_classes=100)
        shape = (8, 3, 128, 128)
    else:
        raise ValueError(f"model: got {name!r}, expected one of the zoo's models")
    x = torch.randn(shape, generator=gen)
    y = torch.randint(0, 100, (shape[0],), generator=gen)
    return model.to(device), {"x": x.to(device), "y": y.to(device)}


def forward_fn(name: str, model, task: str):
    """What is compiled: logits for inference, the loss for a training step."""
    if name in ("gpt2", "gpt2_12", "llama", "bert"):
        if task == "infer":
            return lambda input_ids: model(input_ids=input_ids).logits
        return lambda input_ids: model(input_ids=input_ids, labels=input_ids).loss
    if task == "infer":
        return lambda x, y: model(x)
    return lambda x, y: torch.nn.functional.cross_entropy(model(x), y)


class Runner:
    """One workload compiled for one variant: ``call()`` is one timed unit."""

    def __init__(self, workload: Workload, variant_options: tuple, device) -> None:
        _, options, mode, _ = variant_options
        self.workload = workload
        self.model, self.inputs = build_model(workload.model, device)
        self.train = workload.task == "train"
        self.model.train(self.train)
        self.cudagraphs = mode == "reduce-overhead"
        mode = workload.mode or mode
        kwargs = {"dynamic": True} if workload.dynamic else {}
        if options:  # torch.compile takes a mode or options, not both
            base = torch._inductor.list_mode_options(mode) if mode else {}
            kwargs["options"] = {**base, **options}
        elif mode:
            kwargs["mode"] = mode
        self.fn = torch.compile(forward_fn(workload.model, self.model, workload.task), **kwargs)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-3) if self.train else None
        self.sync = torch.cuda.synchronize if device.type == "cuda" else lambda: None
        if workload.dynamic:  # a new sequence length on every call
            ids = self.inputs["input_ids"].repeat(1, 2)
            self.cycle = [{"input_ids": ids[:, :n].contiguous()} for n in DYNAMIC_SEQS]
        else:
            self.cycle = [self.inputs]
        self.calls = 0

    def call(self):
        inputs = self.cycle[self.calls % len(self.cycle)]
        self.calls += 1
        if self.cudagraphs:
            torch.compiler.cudagraph_mark_step_begin()
        if not self.train:
            with torch.no_grad():
                return self.fn(**inputs)
        loss = self.fn(**inputs)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        return loss.detach()

    def record(self) -> dict:
        """What the equality check compares: outputs of a few calls, then the parameters."""
        outs = [self.call().detach().float().cpu().clone() for _ in range(3)]
        self.sync()
        rec = {"outputs": outs}
        if self.train:
            rec["params"] = [p.detach().cpu().clone() for p in self.model.parameters()]
        return rec


# ---------------------------------------------------------------- one variant's process

class CallClock:
    """Times every compiled graph's call while on: ``CompiledFxGraph.__call__``, which
    runs the wrapper module's ``call()`` (or what Inductor wrapped around it: the
    planned call, cpp_wrapper's entry, CUDA graphs' replay). Patched only while on."""

    def __init__(self) -> None:
        from torch._inductor import output_code

        self.cls = output_code.CompiledFxGraph
        self.original = self.cls.__dict__["__call__"]
        self.ns = 0
        self.calls = 0

    def __enter__(self) -> CallClock:
        original, perf, clock = self.original, time.perf_counter_ns, self

        def timed(graph, inputs):
            t0 = perf()
            try:
                return original(graph, inputs)
            finally:
                clock.ns += perf() - t0
                clock.calls += 1

        self.ns = self.calls = 0
        self.cls.__call__ = timed
        return self

    def __exit__(self, *exc) -> None:
        self.cls.__call__ = self.original


def time_block(runner: Runner, calls: int) -> float:
    runner.sync()
    t0 = time.perf_counter()
    for _ in range(calls):
        runner.call()
    runner.sync()
    return (time.perf_counter() - t0) / calls * 1e3


def attribution_block(runner: Runner, calls: int, clock: CallClock) -> dict:
    """One block with the clock on: ms per step inside the graphs' calls and in all,
    graph calls per step, and the peak of allocated device memory."""
    cuda = torch.cuda.is_available() and runner.sync is torch.cuda.synchronize
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    with clock:
        step = time_block(runner, calls)
    return {"step_ms": step, "inside_ms": clock.ns / calls * 1e-6,
            "graph_calls": clock.calls / calls,
            "peak_mib": torch.cuda.max_memory_allocated() / 2**20 if cuda else None}


def variant_main(_process: int, variant: str, plan: dict) -> None:
    """Compile and check every workload in time, publish them, then take turns."""
    import fastlaunch

    tmp = Path(plan["tmp"])
    store = _processes.connect(plan["port"], plan["store_timeout_s"])
    options = plan["options"][variant]
    device = torch.device(plan["device"])
    if device.type == "cuda":
        torch.cuda.set_device(device)
    runners, report = {}, {}
    clock = CallClock()  # after fastlaunch, whose planned-call hook loads with Inductor
    for w in WORKLOADS:
        if w.name not in plan["workloads"]:
            continue
        if w.mode and options[2]:
            report[w.name] = {"skipped": f"{variant} does not apply to mode {w.mode}"}
            continue
        if time.time() > plan["compile_deadline"]:
            report[w.name] = {"skipped": "compile budget spent (--compile-budget)"}
            continue
        try:
            t0 = time.perf_counter()
            runner = Runner(w, options, device)
            runner.call()
            runner.call()
            runner.sync()
            compile_s = time.perf_counter() - t0
            fastlaunch.reset_stats()
            torch.save(runner.record(), tmp / f"{plan['phase']}.{variant}.{w.model}.{w.task}"
                       f"{'.dyn' if w.dynamic else ''}{'.ma' if w.mode else ''}.pt")
            report[w.name] = {"compile_and_warmup_s": compile_s, "record_stats": fastlaunch.stats()}
            runners[w.name] = runner
        except Exception as err:  # reported in the results, the other workloads go on
            report[w.name] = {"error": f"{type(err).__name__}: {err}",
                              "traceback": traceback.format_exc(limit=6)}
    store.set(f"ready/{variant}", json.dumps(sorted(runners) if plan["timed"][variant] else []))
    _processes.wait_for_all(store, "compiled", len(plan["variants"]))
    # for timing
    report["cpus"] = _processes.pin(plan["variants"].index(variant), len(plan["variants"]))
    ready = {v: set(json.loads(store.get(f"ready/{v}"))) for v in plan["variants"]}
    timed = [v for v in plan["variants"] if plan["timed"][v]]
    for w in WORKLOADS:
        owners = [v for v in timed if w.name in ready[v]]
        if variant not in owners:
            continue
        samples, attributed, error = [], [], None
        fastlaunch.reset_stats()
        turn = 0
        for r in range(plan["rounds"]):
            order = owners[r % len(owners):] + owners[:r % len(owners)]
            for _ in range(plan["blocks"]):
                for v in order:
                    key = f"turn/{w.name}/{turn}"
                    turn += 1
                    if v == variant:
                        try:
                            if error is None:
                                samples.append(time_block(runners[w.name], plan["calls"]))
                                attributed.append(attribution_block(runners[w.name],
                                                                    plan["calls"], clock))
                        except Exception as err:  # keep taking turns, time no more
                            error = f"{type(err).__name__}: {err}"
                        store.set(key, "done")
                    else:
                        store.wait([key])
        counts = fastlaunch.stats()
        if error or not samples:
            report[w.name]["error"] = f"while timing: {error}"
            continue
        report[w.name].update({
            "median_ms": statistics.median(samples), "min_ms": min(samples),
            "max_ms": max(samples), "samples": len(samples),
            "fast_launches_during_timing": counts.get("fast", 0),
            "planned_calls_during_timing": counts.get("call.planned", 0),
            "inside_call_ms": statistics.median(a["inside_ms"] for a in attributed),
            "outside_call_ms": statistics.median(a["step_ms"] - a["inside_ms"]
                                                 for a in attributed),
            "graph_calls_per_step": statistics.median(a["graph_calls"] for a in attributed),
            "peak_mib": max((a["peak_mib"] for a in attributed if a["peak_mib"] is not None),
                            default=None),
            "fallbacks": {k: v for k, v in counts.items() if k.startswith("fallback.")}})
    (tmp / f"{plan['phase']}.{variant}.json").write_text(json.dumps(report))


def run_phase(phase: str, variants: dict, workloads: list, tmp: Path, sizes: dict,
              compile_budget_s: float, timeout_s: float, device: str) -> dict:
    """Start one process per variant (its environment set as a user would), join them all."""
    names = list(variants)
    store = _processes.serve()
    plan = {"phase": phase, "port": store.port, "variants": names, "tmp": str(tmp),
            "workloads": workloads,
            "options": {v: variants[v]["options"] for v in names},
            "timed": {v: variants[v]["timed"] for v in names},
            "compile_deadline": time.time() + compile_budget_s,
            "store_timeout_s": timeout_s, "device": device, **sizes}
    contexts = []
    for v in names:
        env = {"FASTLAUNCH": variants[v]["fastlaunch"], **EXTRA_ENV.get(v, {}),
               "TORCHINDUCTOR_CACHE_DIR": str(tmp / "cache" / variants[v]["cache"] / "inductor"),
               "TRITON_CACHE_DIR": str(tmp / "cache" / variants[v]["cache"] / "triton")}
        contexts.append((v, _processes.spawn(variant_main, (v, plan), 1, env)))
    deadline = time.monotonic() + timeout_s
    failures, pending = {}, dict(contexts)
    while pending:
        for v, ctx in list(pending.items()):
            try:
                if ctx.join(timeout=0.2):
                    del pending[v]
                elif time.monotonic() > deadline:
                    raise TimeoutError(f"still running after {timeout_s} s")
            except Exception as err:  # the others may wait on its turns: stop them all
                failures[v] = f"{type(err).__name__}: {str(err)[-2000:]}"
                for other in pending.values():
                    for p in other.processes:
                        if p.is_alive():
                            p.kill()
                pending.clear()
                break
    results = {}
    for v in names:
        path = tmp / f"{phase}.{v}.json"
        results[v] = json.loads(path.read_text()) if path.exists() else {
            "error": failures.get(v, "no result")}
    return results


# ---------------------------------------------------------------- report

def compare(tmp: Path, phase_a: str, a: str, phase_b: str, b: str, w: Workload) -> dict | None:
    """Bit-equality of two variants' records; the largest difference where not equal."""
    suffix = f"{w.model}.{w.task}{'.dyn' if w.dynamic else ''}{'.ma' if w.mode else ''}.pt"
    pa, pb = tmp / f"{phase_a}.{a}.{suffix}", tmp / f"{phase_b}.{b}.{suffix}"
    if not (pa.exists() and pb.exists()):
        return None
    ra, rb = torch.load(pa), torch.load(pb)
    tensors_a = ra["outputs"] + ra.get("params", [])
    tensors_b = rb["outputs"] + rb.get("params", [])
    equal = all(torch.equal(x, y) for x, y in zip(tensors_a, tensors_b))
    diff = max((x - y).abs().max().item() for x, y in zip(tensors_a, tensors_b))
    return {"bit_equal": equal, "max_abs_diff": diff}


def verdict(vs_stock: dict | None, stock_vs_stock: dict | None,
            same_choices: dict | None, stock_same_choices: dict | None) -> str:
    """Bit-equal, or, where each process autotuned for itself, how far from stock compared
    with a second stock process; and whether fastlaunch over stock's cache (stock's
    autotuning choices) is bit-equal to stock, or as far as stock over its own cache is
    (what stays non-deterministic with the same choices, e.g. cuDNN's backward)."""
    if vs_stock is None:
        return "n/a"
    if vs_stock["bit_equal"]:
        return "bit-equal"
    bound = stock_vs_stock["max_abs_diff"] if stock_vs_stock else 0.0
    within = vs_stock["max_abs_diff"] <= bound
    text = (f"{'within' if within else 'OUTSIDE'} stock-vs-stock "
            f"({vs_stock['max_abs_diff']:.2e} vs {bound:.2e})")
    if same_choices is not None:
        if same_choices["bit_equal"]:
            return text + "; bit-equal with stock's autotuning choices"
        diff = same_choices["max_abs_diff"]
        text += f"; {diff:.2e} with stock's autotuning choices"
        if stock_same_choices is not None:
            own = stock_same_choices["max_abs_diff"]
            where = "within" if diff <= own else "OUTSIDE"
            text += f", {where} stock over its own cache ({own:.2e})"
    return text


def cell(row: dict) -> str:
    if "median_ms" not in row:
        return "-"
    return f"{row['median_ms']:.2f} ({row['min_ms']:.2f}-{row['max_ms']:.2f})"


def attribution_cell(row: dict) -> str:
    if "inside_call_ms" not in row:
        return "-"
    peak = f", {row['peak_mib']:.0f}" if row.get("peak_mib") is not None else ""
    return f"{row['inside_call_ms']:.2f} / {row['outside_call_ms']:.2f}{peak}"


def markdown(result: dict) -> str:
    cold, warm = result["cold"], result["warm"]
    timed = result.get("variants", list(VARIANTS))
    lines = ["| workload | " + " | ".join(f"{v} ms" for v in timed)
             + " | stock / fastlaunch | fastlaunch vs stock (outputs) | fast launches "
             "| planned calls |", "|---" * (len(timed) + 5) + "|"]
    for w in result["workloads"]:
        rows = {v: cold.get(v, {}).get(w, {}) for v in timed}
        ratio = (f"{rows['stock']['median_ms'] / rows['fastlaunch']['median_ms']:.2f} x"
                 if "median_ms" in rows["stock"] and "median_ms" in rows["fastlaunch"] else "-")
        eq = result["equality"].get(w, {})
        lines.append(f"| {w} | " + " | ".join(cell(rows[v]) for v in timed)
                     + f" | {ratio} | {eq.get('verdict', 'n/a')} | "
                     f"{rows['fastlaunch'].get('fast_launches_during_timing', '-')} | "
                     f"{rows['fastlaunch'].get('planned_calls_during_timing', '-')} |")
    attributed = [v for v in timed if any("inside_call_ms" in cold.get(v, {}).get(w, {})
                                          for w in result["workloads"])]
    if attributed:
        lines += ["", "Inside the compiled graphs' `call()` / outside it, ms per step, and the "
                  "peak of allocated device memory over a step (attribution blocks, "
                  "`CallClock`):", "",
                  "| workload | " + " | ".join(f"{v}: in / out ms, peak MiB" for v in attributed)
                  + " |", "|---" * (len(attributed) + 1) + "|"]
        for w in result["workloads"]:
            lines.append(f"| {w} | " + " | ".join(
                attribution_cell(cold.get(v, {}).get(w, {})) for v in attributed) + " |")
    if warm:
        names = list(WARM_VARIANTS)
        lines += ["", "Warm caches (new processes over the caches the cold set filled):", "",
                  "| workload | " + " | ".join(f"{v} ms" for v in names)
                  + " | " + " | ".join(f"fast launches, {v}" for v in names[1:])
                  + " | compile s (" + ", ".join(names) + ") |",
                  "|---" * (2 * len(names) + 1) + "|"]
        for w in result["workloads"]:
            rows = {v: warm.get(v, {}).get(w, {}) for v in names}
            if not any(rows.values()):
                continue  # a run without the warm-cache set
            lines.append(
                f"| {w} | " + " | ".join(cell(rows[v]) for v in names) + " | "
                + " | ".join(str(rows[v].get("fast_launches_during_timing", "-"))
                             for v in names[1:]) + " | "
                + ", ".join(f"{rows[v]['compile_and_warmup_s']:.1f}"
                            if "compile_and_warmup_s" in rows[v] else "-" for v in names) + " |")
    problems = [f"- {phase} {v} {w}: {row.get('error') or row.get('skipped')}"
                for phase in ("cold", "warm") for v, rows in result[phase].items()
                for w, row in (rows.items() if isinstance(rows, dict) else ())
                if isinstance(row, dict) and ("error" in row or "skipped" in row)]
    problems += [f"- {phase} {v}: {rows['error']}" for phase in ("cold", "warm")
                 for v, rows in result[phase].items() if "error" in rows]
    if result.get("sources"):
        lines += ["", "Runs (each workload's row comes from one run):", "",
                  *(f"- {w}: {src}" for w, src in result["sources"].items())]
    if result.get("warm_skipped"):
        problems.append(f"- warm-cache set skipped: {result['warm_skipped']}")
    if problems:
        lines += ["", "Not measured:", "", *problems]
    return "\n".join(lines) + "\n"


def chart(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cold = result["cold"]
    variants = ["fastlaunch", "cpp_wrapper", "reduce-overhead", "stock2"]
    workloads = [w for w in result["workloads"] if "median_ms" in cold["stock"].get(w, {})]
    fig, ax = plt.subplots(figsize=(11, 0.55 * len(workloads) + 1.5))
    height = 0.8 / len(variants)
    for j, v in enumerate(variants):
        for i, w in enumerate(workloads):
            row = cold.get(v, {}).get(w, {})
            if "median_ms" not in row:
                continue
            stock = cold["stock"][w]["median_ms"]
            speed = stock / row["median_ms"]
            lo, hi = stock / row["max_ms"], stock / row["min_ms"]
            y = i + (j - 1.5) * height
            ax.barh(y, speed, height, color=f"C{j}", label=v if i == 0 else None,
                    xerr=[[speed - lo], [hi - speed]], capsize=2)
            ax.text(speed, y, f" {speed:.2f}", va="center", fontsize=7)
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(range(len(workloads)), workloads)
    ax.invert_yaxis()
    ax.set_xlabel("speed-up over stock torch.compile (median step time; bars: min-max)")
    ax.legend(loc="lower right")
    ax.set_title(f"model zoo on {result['device']} (torch {result['torch']}, "
                 f"triton {result['triton']})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def merge(paths: list[Path]) -> dict:
    """One zoo table from several runs' JSON: per workload, the last run given that timed
    both stock and fastlaunch (``sources`` names it). Runs must share machine and versions."""
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        raise SystemExit(f"--merge: no such file {missing}; expected bench_models.json files")
    runs = [(path, json.loads(path.read_text())) for path in paths]
    merged = {"workloads": [], "cold": {}, "warm": {}, "equality": {}, "sources": {}}
    for field in ("device", "torch", "triton", "python"):
        values = {run[field] for _, run in runs}
        if len(values) != 1:
            raise SystemExit(f"--merge: the runs differ in {field}: {sorted(values)}; "
                             "expected runs of one machine and one software stack")
        merged[field] = values.pop()
    merged["variants"] = [v for v in VARIANTS
                          if any(v in run.get("variants", VARIANTS) for _, run in runs)]
    for w in (w.name for w in WORKLOADS):
        for path, run in reversed(runs):
            cold = run["cold"]
            if not all("median_ms" in cold.get(v, {}).get(w, {}) for v in ("stock", "fastlaunch")):
                continue
            merged["workloads"].append(w)
            for phase in ("cold", "warm"):
                for v, rows in run[phase].items():
                    if w in rows:
                        merged[phase].setdefault(v, {})[w] = rows[w]
            merged["equality"][w] = run["equality"][w]
            merged["sources"][w] = f"{path.parent.name}/{path.name}"
            break
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_models.py")
    parser.add_argument("--out", default=".", help="folder for bench_models.{json,md,png}")
    parser.add_argument("--quick", action="store_true", help="fewer timed blocks")
    parser.add_argument("--workloads", default="", help="comma-separated names (default: all)")
    parser.add_argument("--compile-budget", type=float, default=300.0,
                        help="seconds after which a variant starts no new compile")
    parser.add_argument("--variants", default="",
                        help="comma-separated cold-set variants (default: all; stock and "
                             "fastlaunch are always run)")
    parser.add_argument("--no-warm", action="store_true", help="skip the warm-cache set")
    parser.add_argument("--device", default="cuda:0", help="cpu only checks the plumbing")
    parser.add_argument("--merge", nargs="+", type=Path, default=None, metavar="JSON",
                        help="no run: one table and chart from these runs' bench_models.json")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds for the whole run: a phase still running then is stopped "
                             "and reported as not measured; the warm set is skipped when less "
                             "than a minute is left for it")
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    if options.merge:
        result = merge(options.merge)
        (out / "bench_models.json").write_text(json.dumps(result, indent=2))
        (out / "bench_models.md").write_text(markdown(result))
        chart(result, out / "bench_models.png")
        return 0
    workloads = [w.name for w in WORKLOADS]
    if options.workloads:
        unknown = set(options.workloads.split(",")) - set(workloads)
        if unknown:
            parser.error(f"--workloads: unknown {sorted(unknown)}; expected some of {workloads}")
        workloads = [w for w in workloads if w in options.workloads.split(",")]
    variants = list(VARIANTS)
    if options.variants:
        asked = options.variants.split(",")
        unknown = set(asked) - set(VARIANTS)
        if unknown:
            parser.error(f"--variants: unknown {sorted(unknown)}; expected some of {variants}")
        variants = [v for v in VARIANTS if v in {"stock", "fastlaunch", *asked}]
    sizes = ({"rounds": 4, "blocks": 3, "calls": 20} if options.quick
             else {"rounds": 6, "blocks": 5, "calls": 30})
    tmp = Path(tempfile.mkdtemp(prefix="bench_models."))
    os.environ.pop("TORCHINDUCTOR_FORCE_DISABLE_CACHES", None)   # caches on, as users run
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "4")  # several compiling processes
    started = time.time()

    def phase_timeout() -> float:
        """The phase's own bound, cut to what --time-limit leaves (20 s kept for the report)."""
        bound = options.compile_budget + 300
        if options.time_limit is not None:
            bound = min(bound, options.time_limit - (time.time() - started) - 20)
        return bound

    cold_variants = {v: {"fastlaunch": o[0], "options": o, "timed": o[3], "cache": v}
                     for v, o in VARIANTS.items() if v in variants}
    cold = run_phase("cold", cold_variants, workloads, tmp, sizes, options.compile_budget,
                     phase_timeout(), options.device)
    warm, warm_skipped = {}, None
    if options.no_warm:
        warm_skipped = "--no-warm"
    elif phase_timeout() < 60:
        warm_skipped = f"--time-limit {options.time_limit:g} s: {phase_timeout():.0f} s left"
    else:
        warm_variants = {v: {"fastlaunch": fl, "options": ("", {}, None, True), "timed": True,
                             "cache": cache} for v, (fl, cache) in WARM_VARIANTS.items()}
        warm = run_phase("warm", warm_variants, workloads, tmp, sizes, options.compile_budget,
                         phase_timeout(), options.device)
    try:
        import triton
    except ImportError:  # --device cpu on a machine without Triton
        triton = None
    device = torch.device(options.device)
    result = {"device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
              "torch": torch.__version__,
              "triton": triton.__version__ if triton else "not installed",
              "python": platform.python_version(),
              "date": time.strftime("%Y-%m-%d"), "wall_s": time.time() - started,
              "command": " ".join([Path(sys.executable).name, *sys.argv]),
              "sizes": sizes, "workloads": workloads, "variants": variants, "cold": cold,
              "warm": warm,
              "warm_skipped": warm_skipped,
              "equality": {}}
    for w in WORKLOADS:
        if w.name not in workloads:
            continue
        vs_stock = compare(tmp, "cold", "fastlaunch", "cold", "stock", w)
        stock2 = compare(tmp, "cold", "stock2", "cold", "stock", w)
        warm_fast = compare(tmp, "warm", "fastlaunch (warm cache)", "cold", "fastlaunch", w)
        same_choices = compare(tmp, "warm", "fastlaunch over stock's cache", "cold", "stock", w)
        stock_same = compare(tmp, "warm", "stock (warm cache)", "cold", "stock", w)
        result["equality"][w.name] = {"fastlaunch_vs_stock": vs_stock, "stock2_vs_stock": stock2,
                                      "warm_fastlaunch_vs_cold_fastlaunch": warm_fast,
                                      "fastlaunch_over_stock_cache_vs_stock": same_choices,
                                      "warm_stock_vs_stock": stock_same,
                                      "verdict": verdict(vs_stock, stock2, same_choices,
                                                         stock_same)}
    (out / "bench_models.json").write_text(json.dumps(result, indent=2))
    (out / "bench_models.md").write_text(markdown(result))
    try:
        chart(result, out / "bench_models.png")
    except Exception as err:  # the table and JSON stand without the picture
        print(f"chart not drawn: {type(err).__name__}: {err}")
    print(markdown(result))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
