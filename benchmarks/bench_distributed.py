# SPDX-License-Identifier: Apache-2.0
"""Training-step time with torch.distributed and torch.compile, fast launch off and on.

Two scenarios: ``ddp`` (``torch.compile(DDP(mlp))``) and ``fsdp2``
(``fully_shard`` on a transformer whose blocks are compiled). Each variant is
its own process group on the same GPUs, started as a user starts one
(``FASTLAUNCH=0/1``, Inductor's caches on, one cache folder per variant): in
one process Dynamo would hand the second model the first one's compiled code.
Each process has its own CPU cores where the machine has two or more per process.
The groups take turns through the parent's store, one timed block at a time,
the first variant flipped each round; each sample is the mean step time of
a block of steps (forward, backward with its collectives, optimizer) on the
group's slowest rank. Each variant's fast-launch count during its timed
blocks is recorded.

Usage: python benchmarks/bench_distributed.py --out DIR [--world 2] [--quick]
(writes bench_distributed.json; NVLink multicast is kept off in every rank).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _processes  # first: it turns NVLink multicast off before torch loads
import torch
import torch.distributed as dist

VARIANTS = ("stock", "fastlaunch")


class MLP(torch.nn.Module):
    """Deep and narrow: many small kernels per step, as in a launch-bound model."""

    def __init__(self, width: int = 256, depth: int = 8) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(width, width) for _ in range(depth))
        self.norms = torch.nn.ModuleList(torch.nn.LayerNorm(width) for _ in range(depth))

    def forward(self, x):
        for layer, norm in zip(self.layers, self.norms):
            x = x + torch.nn.functional.gelu(norm(layer(x)))
        return x


class Block(torch.nn.Module):
    def __init__(self, dim: int, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.proj = torch.nn.Linear(dim, dim)
        self.norm2 = torch.nn.LayerNorm(dim)
        self.up = torch.nn.Linear(dim, 4 * dim)
        self.down = torch.nn.Linear(4 * dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        att = torch.nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + self.proj(att.transpose(1, 2).reshape(b, t, d))
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))


class Transformer(torch.nn.Module):
    def __init__(self, dim: int = 128, depth: int = 4) -> None:
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block(dim) for _ in range(depth))
        self.head = torch.nn.Linear(dim, dim)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def build(scenario: str, device):
    """(module to call, its parameters, input shape) with the same weights every time."""
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.manual_seed(0)
    if scenario == "ddp":
        model = MLP().to(device)
        ids = [device.index] if device.type == "cuda" else None
        return torch.compile(DDP(model, device_ids=ids)), model.parameters(), (64, 256)
    if scenario == "fsdp2":
        from torch.distributed.fsdp import fully_shard

        model = Transformer().to(device)
        for block in model.blocks:
            block.compile()
            fully_shard(block)
        fully_shard(model)
        return model, model.parameters(), (8, 64, 128)
    raise ValueError(f"scenario: got {scenario!r}, expected 'ddp' or 'fsdp2'")


class Trainer:
    def __init__(self, scenario: str, device) -> None:
        self.module, params, shape = build(scenario, device)
        self.opt = torch.optim.SGD(params, lr=1e-3)
        gen = torch.Generator().manual_seed(dist.get_rank())
        self.x = torch.randn(shape, generator=gen).to(device)
        self.y = torch.randn(shape, generator=gen).to(device)

    def step(self) -> None:
        loss = torch.nn.functional.mse_loss(self.module(self.x), self.y)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)


def sync(device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def block_ms(trainer: Trainer, steps: int, device) -> float:
    """Mean step time of ``steps`` steps on the slowest rank, in ms."""
    sync(device)
    dist.barrier()
    t0 = time.perf_counter()
    for _ in range(steps):
        trainer.step()
    sync(device)
    elapsed = torch.tensor([(time.perf_counter() - t0) / steps * 1e3], dtype=torch.float64,
                           device=device)
    dist.all_reduce(elapsed, op=dist.ReduceOp.MAX)
    return elapsed.item()


def turns(rounds: int, blocks: int) -> list[str]:
    """Whose block is timed at each turn: alternating, first variant flipped each round."""
    out = []
    for r in range(rounds):
        order = VARIANTS if r % 2 == 0 else VARIANTS[::-1]
        out += [v for _ in range(blocks) for v in order]
    return out


def bench_scenario(scenario, variant, coord, processes, device, run) -> dict:
    """This group's side of one scenario; the other group takes the other turns."""
    import fastlaunch

    t0 = time.perf_counter()
    trainer = Trainer(scenario, device)
    for _ in range(3):  # compile forward and backward, warm up, promote
        trainer.step()
    sync(device)
    compile_s = time.perf_counter() - t0
    _processes.wait_for_all(coord, f"{scenario}/ready", processes)
    fastlaunch.reset_stats()
    samples = []
    for t, owner in enumerate(turns(run["rounds"], run["blocks"])):
        key = f"{scenario}/turn{t}"
        if owner == variant:
            samples.append(block_ms(trainer, run["steps"], device))
            if dist.get_rank() == 0:
                coord.set(key, "done")
        else:
            coord.wait([key])
    counts = fastlaunch.stats()
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples),
            "samples": len(samples), "compile_and_warmup_s": compile_s,
            "fast_launches_during_timing": counts.get("fast", 0),
            "fallbacks": {k: v for k, v in counts.items() if k.startswith("fallback.")}}


def rank_main(rank: int, variant: str, world: int, tmp: str, run: dict) -> None:
    """One rank of one variant's process group (fast launch set by FASTLAUNCH)."""
    os.environ.update(_processes.NO_MULTICAST)
    cpus = _processes.pin(VARIANTS.index(variant) * world + rank, len(VARIANTS) * world)
    if torch.cuda.is_available():
        torch.cuda.set_device(rank)
        device, backend = torch.device("cuda", rank), "nccl"
    else:
        device, backend = torch.device("cpu"), "gloo"
    timeout = datetime.timedelta(seconds=300)
    dist.init_process_group(backend, init_method=f"file://{tmp}/{variant}.store", rank=rank,
                            world_size=world, timeout=timeout)
    coord = _processes.connect(run["port"], 300)  # the parent's store, shared by both groups
    try:
        results = {}
        for scenario in run["scenarios"]:
            results[scenario] = bench_scenario(scenario, variant, coord, 2 * world, device, run)
            results[scenario]["rank0_cpus"] = cpus
            if rank == 0:
                print(variant, scenario, json.dumps(results[scenario]), flush=True)
        if rank == 0:
            Path(tmp, f"{variant}.json").write_text(json.dumps(results))
    finally:
        dist.destroy_process_group()


def start_group(variant: str, world: int, tmp: Path, run: dict):
    """Start one variant's ranks, fast launch on or off in their environment."""
    env = {"FASTLAUNCH": "1" if variant == "fastlaunch" else "0",
           "TORCHINDUCTOR_CACHE_DIR": str(tmp / variant / "inductor"),
           "TRITON_CACHE_DIR": str(tmp / variant / "triton")}
    return _processes.spawn(rank_main, (variant, world, str(tmp), run), world, env)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_distributed.py")
    parser.add_argument("--out", default=".", help="folder for bench_distributed.json")
    parser.add_argument("--world", type=int, default=2, help="ranks (one GPU each)")
    parser.add_argument("--scenarios", default="ddp,fsdp2")
    parser.add_argument("--quick", action="store_true", help="fewer rounds (CI-sized)")
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = {"rounds": 4, "blocks": 3, "steps": 10} if options.quick else \
        {"rounds": 6, "blocks": 5, "steps": 20}
    run = {"scenarios": options.scenarios.split(","), **sizes}
    tmp = Path(tempfile.mkdtemp(prefix="bench_distributed."))
    store = _processes.serve()
    run["port"] = store.port
    groups = [start_group(v, options.world, tmp, run) for v in VARIANTS]
    try:
        pending = groups
        while pending:
            pending = [g for g in pending if not g.join(timeout=1)]
    finally:
        for g in groups:
            for p in g.processes:
                if p.is_alive():
                    p.kill()
    import triton

    result = {"device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
              "gpus": options.world, "torch": torch.__version__, "triton": triton.__version__,
              "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
              "command": " ".join([Path(sys.executable).name, *sys.argv]),
              "environment": _processes.NO_MULTICAST, "sizes": sizes,
              "scenarios": {}}
    per_variant = {v: json.loads((tmp / f"{v}.json").read_text()) for v in VARIANTS}
    for scenario in run["scenarios"]:
        rows = {v: per_variant[v][scenario] for v in VARIANTS}
        rows["stock_over_fastlaunch"] = rows["stock"]["median"] / rows["fastlaunch"]["median"]
        result["scenarios"][scenario] = rows
    (out / "bench_distributed.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
