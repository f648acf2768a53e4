# SPDX-License-Identifier: Apache-2.0
"""DDP and FSDP2 with torch.compile: every rank equals fast launch off, and no rank hangs.

Each setting runs as its own process group, started the way a user starts
one (``FASTLAUNCH`` in the environment, read by the ``torch.backends`` entry
point). The comparison is bit for bit, so the two groups must run the same
kernels with the same configs, under the same conditions: a first off group
autotunes and fills the cache folders (one per rank); then an off group and
an on group run over them, where Inductor's autotuning cache hands each rank
the choices the first group made (left to timing, a reduction may pick
another config and so another summation order). The on group is compared
with the second off group, which met the same warm autotuning cache; how far
the first off group is from the second is logged. In that test the FX graph
and AOTAutograd caches are off, so each group generates its own code; other
groups run with Inductor's caches on, as users do.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
import os
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

import torch.multiprocessing as mp  # noqa: E402

# NVLink multicast stays off in every process (it can take a shared host's GPUs out of service).
NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
                "NVSHMEM_DISABLE_NVLS": "1"}
os.environ.update(NO_MULTICAST)

log = logging.getLogger(__name__)
STEPS = 4
JOIN_TIMEOUT_S = 420
HANG_TIMEOUT_S = 120      # collectives (NCCL's own watchdog)
REAP_S = 60               # how long the group may outlive its failed rank
SCENARIOS = ("ddp_compiled", "ddp_of_compiled", "fsdp2_compiled_blocks")
GPUS = torch.cuda.device_count() if torch.cuda.is_available() else 0

needs_gpu = pytest.mark.skipif(GPUS < 1, reason="no CUDA device: runs on an NVIDIA GPU")
needs_two = pytest.mark.skipif(GPUS < 2, reason="needs two CUDA devices (run on nvidia-h200-x2)")
WORLD_SIZES = [pytest.param(1, marks=[pytest.mark.cuda, needs_gpu], id="world1"),
               pytest.param(2, marks=[pytest.mark.multigpu, needs_two], id="world2")]


# ---------------------------------------------------------------- models and training

class MLP(torch.nn.Module):
    def __init__(self, width: int = 256) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(width, 4 * width)
        self.norm = torch.nn.LayerNorm(4 * width)
        self.fc2 = torch.nn.Linear(4 * width, width)
        self.fc3 = torch.nn.Linear(width, width)

    def forward(self, x):
        h = self.norm(torch.nn.functional.gelu(self.fc1(x)))
        return self.fc3(torch.tanh(self.fc2(h)) + x)


class Block(torch.nn.Module):
    """A pre-norm transformer block (attention + MLP)."""

    def __init__(self, dim: int = 64, heads: int = 4) -> None:
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
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        # written out: the fused attention kernels' backward may use atomics (not bit-stable)
        scores = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        att = scores.masked_fill(~causal, float("-inf")).softmax(-1) @ v
        x = x + self.proj(att.transpose(1, 2).reshape(b, t, d))
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))


class Transformer(torch.nn.Module):
    def __init__(self, dim: int = 64, depth: int = 2) -> None:
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block(dim) for _ in range(depth))
        self.head = torch.nn.Linear(dim, dim)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def batch(rank: int, step: int, shape: tuple, device) -> tuple:
    """Different data per rank and step, the same in every run."""
    gen = torch.Generator().manual_seed(1000 * rank + step)
    x = torch.randn(shape, generator=gen)
    return x.to(device), torch.randn(shape, generator=gen).to(device)


def train(module, params, shape, rank, device) -> torch.Tensor:
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    losses = []
    for step in range(STEPS):
        x, y = batch(rank, step, shape, device)
        loss = torch.nn.functional.mse_loss(module(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.detach())
    return torch.stack(losses).cpu()


def full_params(model) -> dict:
    """Every parameter, unsharded (a collective for FSDP2: all ranks call it in order)."""
    out = {}
    for name, p in model.named_parameters():
        p = p.full_tensor() if hasattr(p, "full_tensor") else p
        out[name] = p.detach().cpu()
    return out


def run_scenario(name: str, rank: int, device) -> dict:
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.manual_seed(0)
    ids = [device.index]
    if name == "ddp_compiled":
        model = MLP().to(device)
        # 1 MB buckets (the smallest DDPOptimizer accepts): the graph is split in three
        module = torch.compile(DDP(model, device_ids=ids, bucket_cap_mb=1))
        losses = train(module, model.parameters(), (32, 256), rank, device)
    elif name == "ddp_of_compiled":
        model = MLP().to(device)
        module = DDP(torch.compile(model), device_ids=ids, bucket_cap_mb=1)
        losses = train(module, model.parameters(), (32, 256), rank, device)
    elif name == "fsdp2_compiled_blocks":
        from torch.distributed.fsdp import fully_shard

        model = Transformer().to(device)
        for block in model.blocks:
            block.compile()
            fully_shard(block)
        fully_shard(model)
        losses = train(model, model.parameters(), (4, 16, 64), rank, device)
    else:
        raise ValueError(f"scenario: got {name!r}, expected one of {SCENARIOS}")
    return {"losses": losses, "params": full_params(model)}


# ---------------------------------------------------------------- process groups

def _init(rank: int, world: int, store: str):
    """Join the group; returns this rank's device."""
    os.environ.update(NO_MULTICAST)
    # A cache folder per rank: each rank autotunes on its own, and rank r of the on group
    # must read rank r's choices (read by Inductor and Triton at use, not at import).
    for var in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
        os.environ[var] = os.path.join(os.environ[var], f"rank{rank}")
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"file://{store}", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=HANG_TIMEOUT_S))
    return torch.device("cuda", rank)


def chosen_configs() -> dict:
    """Kernel (name, source) -> the config its autotuner settled on (groups must share it)."""
    from torch._inductor.codecache import PyCodeCache
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    chosen = {}
    for module in PyCodeCache.modules:
        for value in vars(module).values():
            if isinstance(value, CachingAutotuner) and len(value.launchers) == 1:
                source = hashlib.sha1(value.fn.src.encode()).hexdigest()[:12]
                chosen[f"{value.fn.__name__}@{source}"] = str(value.launchers[0].config)
    return chosen


def scenarios_worker(rank: int, world: int, store: str, out: str, names: tuple) -> None:
    """One rank: every scenario, then what it saw (results, counters, install state)."""
    import torch.distributed as dist

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.integrations import autoload

    device = _init(rank, world, store)
    try:
        result = {"enabled": config.get().enabled}
        for name in names:
            torch._dynamo.reset()
            fastlaunch.reset_stats()
            result[name] = run_scenario(name, rank, device)
            result[name]["stats"] = fastlaunch.stats()
        result["configs"] = chosen_configs()
        result["autoload"] = autoload.status()  # after Inductor was imported
        torch.save(result, Path(out) / f"rank{rank}.pt")
    finally:
        dist.destroy_process_group()


def failing_worker(rank: int, world: int, store: str, out: str) -> None:
    """Rank 1's fast launch fails at step 3 after submission; rank 0 goes on into the
    next gradient all-reduce, which can only finish if rank 1 takes part."""
    from torch.nn.parallel import DistributedDataParallel as DDP

    import fastlaunch
    from fastlaunch.runtime.cuda import CudaPlan

    fail = {"on": False}
    if rank == 1:
        CudaPlan.native = property(lambda self: None)   # Python launch path
        plain_launch = CudaPlan.launch.fget

        def launch_failing(self):
            launch = plain_launch(self)

            def launch_then_fail(stream, grid, args):
                launch(stream, grid, args)
                if fail["on"]:
                    (Path(out) / "rank1.failed").write_text(repr(time.time()))
                    raise RuntimeError("injected failure after submission")

            return launch_then_fail

        CudaPlan.launch = property(launch_failing)
    device = _init(rank, world, store)
    torch.manual_seed(0)
    model = MLP().to(device)
    module = torch.compile(DDP(model, device_ids=[rank]))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(STEPS):
        if step == 2:
            fail["on"] = True
            (Path(out) / f"rank{rank}.step2").write_text(str(fastlaunch.stats().get("fast", 0)))
        x, y = batch(rank, step, (32, 256), device)
        torch.nn.functional.mse_loss(module(x), y).backward()
        opt.step()
        opt.zero_grad()
    torch.cuda.synchronize()
    (Path(out) / f"rank{rank}.finished").write_text("")


def start_group(fn, world: int, folder: Path, fast: bool, *args, cache: Path | None = None,
                fresh_code: bool = False):
    """Start one process group in its own folder, with fast launch on or off;
    ``fresh_code`` turns the FX graph and AOTAutograd caches off for it."""
    folder.mkdir(parents=True)
    cache = cache or folder
    env = {"FASTLAUNCH": "1" if fast else "0", "TORCHINDUCTOR_CACHE_DIR": str(cache / "inductor"),
           "TRITON_CACHE_DIR": str(cache / "triton")}
    if fresh_code:
        env.update({"TORCHINDUCTOR_FX_GRAPH_CACHE": "0", "TORCHINDUCTOR_AUTOGRAD_CACHE": "0"})
    with pytest.MonkeyPatch.context() as patch:  # spawn copies os.environ
        patch.delenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", raising=False)
        for key, value in env.items():
            patch.setenv(key, value)
        return mp.start_processes(fn, args=(world, str(folder / "store"), str(folder), *args),
                                  nprocs=world, join=False, start_method="spawn")


def join(contexts, timeout: float) -> None:
    """Join every group; a failure or ``timeout`` kills whatever is left (and fails)."""
    deadline = time.monotonic() + timeout
    pending = list(contexts)
    try:
        while pending:
            if time.monotonic() > deadline:
                pytest.fail(f"process group still running after {timeout} s")
            pending = [ctx for ctx in pending if not ctx.join(timeout=1)]
    finally:
        for ctx in contexts:
            for p in ctx.processes:
                if p.is_alive():
                    p.kill()
                p.join()


# ---------------------------------------------------------------- tests

def unexpected_fallbacks(stats: dict) -> dict:
    from fastlaunch.engine.fallbacks import EXPECTED as EXPECTED_FALLBACKS

    return {k: v for k, v in stats.items()
            if k.startswith("fallback.") and k.split(".", 1)[1] not in EXPECTED_FALLBACKS}


@pytest.mark.parametrize("world", WORLD_SIZES)
def test_ddp_and_fsdp2_equal_fast_launch_off_on_every_rank(world, tmp_path):
    for name, fast in (("autotune", False), ("off", False), ("on", True)):
        group = start_group(scenarios_worker, world, tmp_path / name, fast, SCENARIOS,
                            cache=tmp_path / "cache", fresh_code=True)
        join([group], JOIN_TIMEOUT_S)
    for rank in range(world):
        first = torch.load(tmp_path / "autotune" / f"rank{rank}.pt", weights_only=False)
        off = torch.load(tmp_path / "off" / f"rank{rank}.pt", weights_only=False)
        for name in SCENARIOS:  # stock against stock: a cold autotuning run against a warm one
            diff = max((first[name]["params"][k] - p).abs().max().item()
                       for k, p in off[name]["params"].items())
            log.warning("rank %d %s: stock (autotuned) vs stock (warm autotune cache): "
                        "largest parameter difference %.3g", rank, name, diff)
        on = torch.load(tmp_path / "on" / f"rank{rank}.pt", weights_only=False)
        assert (off["enabled"], on["enabled"]) == (False, True)
        assert off["autoload"] == {} and on["autoload"].get("cuda") == "installed", on["autoload"]
        assert on["configs"] == off["configs"], {
            k: (off["configs"].get(k), v) for k, v in on["configs"].items()
            if off["configs"].get(k) != v}
        for name in SCENARIOS:
            assert off[name]["stats"] == {}, (rank, name, off[name]["stats"])
            stats = on[name]["stats"]
            assert stats.get("fast", 0) > 0, (rank, name, stats)
            assert unexpected_fallbacks(stats) == {}, (rank, name, stats)
            assert torch.equal(on[name]["losses"], off[name]["losses"]), (
                rank, name, (on[name]["losses"] - off[name]["losses"]).tolist())
            assert on[name]["params"].keys() == off[name]["params"].keys()
            for key, expected in off[name]["params"].items():
                assert torch.equal(on[name]["params"][key], expected), (
                    rank, name, key, (on[name]["params"][key] - expected).abs().max().item())
    if world == 2:  # DDP really all-reduced the gradients: replicas agree, data did not
        r0 = torch.load(tmp_path / "on" / "rank0.pt", weights_only=False)
        r1 = torch.load(tmp_path / "on" / "rank1.pt", weights_only=False)
        for name in ("ddp_compiled", "ddp_of_compiled"):
            assert not torch.equal(r0[name]["losses"], r1[name]["losses"])
            for key, p in r0[name]["params"].items():
                assert torch.equal(p, r1[name]["params"][key]), (name, key)


@pytest.mark.multigpu
@needs_two
def test_failing_rank_does_not_leave_the_other_hanging(tmp_path):
    folder = tmp_path / "group"
    ctx = start_group(failing_worker, 2, folder, True)
    with pytest.raises(mp.ProcessRaisedException, match="injected failure after submission"):
        join([ctx], JOIN_TIMEOUT_S)
    after_failure = time.time() - float((folder / "rank1.failed").read_text())
    # both ranks had made fast launches before the failure
    assert int((folder / "rank1.step2").read_text()) > 0
    assert int((folder / "rank0.step2").read_text()) > 0
    assert not (folder / "rank1.finished").exists()
    assert not (folder / "rank0.finished").exists()  # it was waiting in the all-reduce
    assert all(not p.is_alive() for p in ctx.processes)
    assert after_failure < REAP_S, after_failure
