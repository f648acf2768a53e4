# SPDX-License-Identifier: Apache-2.0
"""Compiled data-parallel training on two ranks, with fast launch on or off.

A rank runs as ``python -m helpers.distributed_training RANK WORLD FOLDER DEVICE SCENARIO``
(a process of its own, started the way users start one: ``FASTLAUNCH`` in the
environment, read by the ``torch.backends`` entry point) and saves what it saw
in ``FOLDER/rankR.pt``: losses, the full parameters, fastlaunch's counters, and,
per wrapper module Inductor loaded, the collectives its source calls and how
many times it ran as a planned program. ``run_group`` starts and reaps a group.

Where torch 2.13 puts the collectives:

* ``ddp_python_reducer``: DDP with ``optimize_ddp="python_reducer"`` and
  compiled autograd. The gradient all-reduce is traced into the backward graph
  (``_c10d_functional.all_reduce_`` + ``wait_tensor`` in its wrapper).
* ``fsdp2_compiled_layers``: ``fully_shard`` over compiled layers. FSDP2's
  hooks are ``torch._dynamo.disable``-d in torch 2.13
  (``_fully_shard/_fsdp_common.py``), so its all-gathers and reduce-scatters
  run eagerly between planned calls; no wrapper holds a collective.
* ``dtensor_sharded``: parameters sharded on dim 0 as DTensors, gathered in the
  compiled forward (``all_gather_into_tensor``) with partial gradients
  (``reduce_scatter_tensor`` in the backward wrapper): FSDP written into the
  graph, as compiled FSDP implementations do.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

SCENARIOS = ("ddp_python_reducer", "fsdp2_compiled_layers", "dtensor_sharded")
# collectives (torch.ops._c10d_functional.*) the scenario's wrappers call, all of them
COLLECTIVES = {
    "ddp_python_reducer": {"all_reduce_", "wait_tensor"},
    "fsdp2_compiled_layers": set(),
    "dtensor_sharded": {"all_gather_into_tensor", "reduce_scatter_tensor", "wait_tensor"},
}
# rank 1 raises before training, rank 0 trains the first scenario (it waits at a collective)
FAILING = "rank1_fails"
STEPS = 3
# a rank may wait at a collective while the other compiles (the slower on a loaded host)
COLLECTIVE_TIMEOUT_S = 180
# NVLink multicast stays off (it can take a shared host's GPUs out of service)
NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
                "NVSHMEM_DISABLE_NVLS": "1"}


def _model():
    import torch

    class Layer(torch.nn.Module):
        def __init__(self, width_in: int, width_out: int) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(width_in, width_out)

        def forward(self, x):
            return torch.nn.functional.gelu(self.fc(x))

    return torch.nn.Sequential(Layer(16, 32), Layer(32, 32), Layer(32, 8))


def _batch(rank: int, step: int, device):
    """Different data per rank and step, the same in every run."""
    import torch

    gen = torch.Generator().manual_seed(1000 * rank + step)
    x, y = torch.randn(8, 16, generator=gen), torch.randn(8, 8, generator=gen)
    return x.to(device), y.to(device)


def _sharded_forward(model, mesh):
    """Each Linear's weight and bias become DTensors sharded on dim 0; the returned
    function gathers them (partial gradients: reduce-scattered in backward)."""
    import torch
    from torch.distributed.tensor import Partial, Replicate, Shard, distribute_tensor

    for layer in model:
        for name, param in list(layer.fc.named_parameters()):
            setattr(layer.fc, name,
                    torch.nn.Parameter(distribute_tensor(param.data, mesh, [Shard(0)])))

    def forward(x):
        for layer in model:
            weight, bias = (p.redistribute(placements=[Replicate()])
                            .to_local(grad_placements=[Partial()])
                            for p in (layer.fc.weight, layer.fc.bias))
            x = torch.nn.functional.gelu(torch.nn.functional.linear(x, weight, bias))
        return x

    return forward


def train(scenario: str, rank: int, device) -> dict:
    import torch

    torch.manual_seed(0)
    model = _model().to(device)
    autograd = contextlib.nullcontext  # entered around forward and backward
    if scenario == "ddp_python_reducer":
        from torch.nn.parallel import DistributedDataParallel as DDP

        torch._dynamo.config.optimize_ddp = "python_reducer"  # read when DDP is built
        module = torch.compile(DDP(model, device_ids=[device.index] if device.index is not None
                                   else None, bucket_cap_mb=1))

        def autograd():  # the backward graph, the DDP hooks' all-reduce included, compiled
            return torch._dynamo.compiled_autograd._enable(torch.compile)
    elif scenario == "fsdp2_compiled_layers":
        from torch.distributed.fsdp import fully_shard

        for layer in model:
            layer.compile()
            fully_shard(layer)
        module = fully_shard(model)
    elif scenario == "dtensor_sharded":
        from torch.distributed.device_mesh import init_device_mesh

        mesh = init_device_mesh(device.type, (int(os.environ["WORLD_SIZE"]),))
        module = torch.compile(_sharded_forward(model, mesh))
    else:
        raise ValueError(f"scenario: got {scenario!r}, expected one of {SCENARIOS}")
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    losses = []
    for step in range(STEPS):
        x, y = _batch(rank, step, device)
        with autograd():
            loss = torch.nn.functional.mse_loss(module(x), y)
            loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.detach())
    params = {}
    for name, p in model.named_parameters():  # full_tensor: a collective, every rank in order
        p = p.full_tensor() if hasattr(p, "full_tensor") else p
        params[name] = p.detach().cpu()
    return {"losses": torch.stack(losses).cpu(), "params": params}


def wrappers_seen() -> dict:
    """Wrapper file name -> (collectives its source calls, planned-program runs)."""
    from torch._inductor.codecache import PyCodeCache

    from fastlaunch.runtime import _core

    seen = {}
    for module in list(PyCodeCache.modules):
        call = getattr(module, "call", None)
        if call is None:
            continue
        source = Path(module.__file__).read_text()
        collectives = sorted(set(re.findall(r"torch\.ops\._c10d_functional\.(\w+)\.", source)))
        runs = None
        if isinstance(call, _core.PlannedCall):
            runs = max((n for _, n in _core.planned_call_profile(call)), default=0)
        seen[os.path.basename(module.__file__)] = (collectives, runs)
    return seen


def worker(rank: int, world: int, folder: Path, device_kind: str, scenario: str) -> None:
    import torch
    import torch.distributed as dist

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.runtime import _core

    torch.set_num_threads(1)  # two ranks share two cores; the same reduction order everywhere
    if device_kind == "cuda":
        torch.cuda.set_device(rank)
        device, backend = torch.device("cuda", rank), "nccl"
    else:
        device, backend = torch.device("cpu"), "gloo"
    dist.init_process_group(backend, init_method=f"file://{folder / 'store'}", rank=rank,
                            world_size=world,
                            timeout=datetime.timedelta(seconds=COLLECTIVE_TIMEOUT_S))
    try:
        if scenario == FAILING and rank == 1:
            raise RuntimeError("rank 1: injected failure before training")
        _core.set_planned_call_profiling(True)  # per planned call: how many times it ran
        result = {"enabled": config.get().enabled}
        result.update(train(SCENARIOS[0] if scenario == FAILING else scenario, rank, device))
        if device_kind == "cuda":
            torch.cuda.synchronize()
        result["stats"] = fastlaunch.stats()
        result["wrappers"] = wrappers_seen()
        torch.save(result, folder / f"rank{rank}.pt")
        # Both ranks done before either tears its group down: a gloo rank whose
        # peer had already destroyed the group and exited once aborted in its own
        # teardown ("terminate called without an active exception", after its
        # result was written; seen once in a full suite on 2 loaded cores).
        dist.barrier()
    finally:
        dist.destroy_process_group()


#: the process ids (each the leader of its own session) of run_group's last group
last_group_pids: list[int] = []


def run_group(folder: Path, world: int, device_kind: str, scenario: str, fast: bool,
              cache: Path, timeout: float) -> list[dict]:
    """Start ``world`` ranks in ``folder`` and wait for them; returns each rank's result.

    Each rank runs in a session of its own; when one fails, or ``timeout`` passes,
    every rank's session is killed (nothing is left behind) and the error names
    the rank, with the end of its output. Inductor's caches go to ``cache``, which
    a later group may share to run the same kernels: one folder per rank on a GPU
    (each rank autotunes on its own and must find its own choices), one for all
    ranks on the CPU (nothing is autotuned, and the ranks compile each kernel once).
    """
    import torch

    folder.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FASTLAUNCH", "TORCHINDUCTOR_", "TRITON_"))}
    # the user's switches stay out; where builds are kept, and how (tox -e asan), stay in
    keep = ("FASTLAUNCH_CACHE_DIR", "FASTLAUNCH_WHEEL_CACHE", "FASTLAUNCH_OFFLINE",
            "FASTLAUNCH_SHIM_FLAGS")
    env.update({k: os.environ[k] for k in keep if k in os.environ})
    tests = str(Path(__file__).resolve().parent.parent)
    env.update(NO_MULTICAST, FASTLAUNCH="1" if fast else "0", WORLD_SIZE=str(world),
               PYTHONPATH=os.pathsep.join(filter(None, (tests, os.environ.get("PYTHONPATH")))),
               GLOO_SOCKET_IFNAME=os.environ.get("GLOO_SOCKET_IFNAME", "lo"),
               TORCHINDUCTOR_COMPILE_THREADS="1")  # no compile worker pool per rank
    ranks = []
    timed_out = False
    try:
        for rank in range(world):
            rank_cache = cache / f"rank{rank}" if device_kind == "cuda" else cache
            rank_env = dict(env, RANK=str(rank),
                            TORCHINDUCTOR_CACHE_DIR=str(rank_cache / "inductor"),
                            TRITON_CACHE_DIR=str(rank_cache / "triton"))
            log = open(folder / f"rank{rank}.log", "wb")  # noqa: SIM115 (closed below)
            ranks.append((subprocess.Popen(
                [sys.executable, "-m", "helpers.distributed_training", str(rank), str(world),
                 str(folder), device_kind, scenario],
                env=rank_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True), log))
        last_group_pids[:] = [p.pid for p, _ in ranks]
        deadline = time.monotonic() + timeout
        while any(p.poll() is None for p, _ in ranks):
            if any(p.returncode not in (None, 0) for p, _ in ranks):
                break
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.2)
    finally:
        for proc, log in ranks:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            with contextlib.suppress(ProcessLookupError):  # its children (compile workers)
                os.killpg(proc.pid, signal.SIGKILL)
            log.close()
    codes = [p.returncode for p, _ in ranks]
    if codes != [0] * world:
        tails = "\n".join(f"--- rank {r} (exit {c}):\n"
                          + (folder / f"rank{r}.log").read_text(errors="replace")[-3000:]
                          for r, c in enumerate(codes) if c != 0)
        what = "killed after the timeout" if timed_out else "failed"
        raise AssertionError(f"{scenario} (FASTLAUNCH={int(fast)}): ranks {what}, exit "
                             f"codes {codes} ({timeout} s allowed)\n{tails}")
    return [torch.load(folder / f"rank{r}.pt", weights_only=False) for r in range(world)]


def check_equal_to_off(tmp_path: Path, device_kind: str, scenario: str, timeout: float,
                       world: int = 2) -> None:
    """A group with fast launch off, then one with ``FASTLAUNCH=1`` over its caches:
    every rank bit-equal to off, planned calls counted on every rank, every wrapper
    run as a planned program, the collectives in the wrappers where torch puts them.

    On a GPU a first off group autotunes: the groups compared both read its choices
    (left to timing, a reduction may pick another config, so another summation order).
    """
    import torch

    from fastlaunch.engine.fallbacks import EXPECTED

    cache = tmp_path / "cache"
    if device_kind == "cuda":
        run_group(tmp_path / "autotune", world, device_kind, scenario, False, cache, timeout)
    off = run_group(tmp_path / "off", world, device_kind, scenario, False, cache, timeout)
    on = run_group(tmp_path / "on", world, device_kind, scenario, True, cache, timeout)
    for rank in range(world):
        assert (off[rank]["enabled"], on[rank]["enabled"]) == (False, True)
        assert off[rank]["stats"] == {}, (rank, off[rank]["stats"])
        stats = on[rank]["stats"]
        assert stats.get("call.translated", 0) > 0, (rank, stats)
        assert stats.get("call.planned", 0) > 0, (rank, stats)
        if device_kind == "cuda":
            assert stats.get("fast", 0) > 0, (rank, stats)
        unexpected = {k: v for k, v in stats.items()
                      if k.startswith("fallback.") and k.split(".", 1)[1] not in EXPECTED}
        assert unexpected == {}, (rank, stats)
        # every wrapper planned and run as a planned program, none of the off group's;
        # the same wrappers (by the collectives each calls) in both groups
        wrappers, off_wrappers = on[rank]["wrappers"], off[rank]["wrappers"]
        assert all(runs is None for _, runs in off_wrappers.values()), (rank, off_wrappers)
        assert wrappers and all(runs and runs > 0 for _, runs in wrappers.values()), (
            rank, wrappers)
        assert (sorted(c for c, _ in wrappers.values())
                == sorted(c for c, _ in off_wrappers.values())), (rank, wrappers, off_wrappers)
        called = set().union(*(set(c) for c, _ in wrappers.values()))
        assert called == COLLECTIVES[scenario], (rank, wrappers)
        assert torch.equal(on[rank]["losses"], off[rank]["losses"]), (
            rank, (on[rank]["losses"] - off[rank]["losses"]).tolist())
        assert on[rank]["params"].keys() == off[rank]["params"].keys()
        for key, expected in off[rank]["params"].items():
            assert torch.equal(on[rank]["params"][key], expected), (
                rank, key, (on[rank]["params"][key] - expected).abs().max().item())
    # the ranks trained together: different data, one set of parameters
    assert not torch.equal(on[0]["losses"], on[1]["losses"])
    for key, param in on[0]["params"].items():
        assert torch.equal(param, on[1]["params"][key]), key


if __name__ == "__main__":
    rank_arg, world_arg, folder_arg, device_arg, scenario_arg = sys.argv[1:]
    worker(int(rank_arg), int(world_arg), Path(folder_arg), device_arg, scenario_arg)
