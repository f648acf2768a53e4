# SPDX-License-Identifier: Apache-2.0
"""Process plumbing the multi-process benchmarks share: NVLink multicast off, the
parent's store through which variants take turns, CPU shares, and starting a
variant's processes with its own environment.

Import it before torch: NCCL and torch read the multicast switches when they load.
"""

from __future__ import annotations

import datetime
import os

NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
                "NVSHMEM_DISABLE_NVLS": "1"}
os.environ.update(NO_MULTICAST)

import torch  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402


def wait_for_all(store, key: str, count: int) -> None:
    """A barrier for processes that share only the store."""
    if store.add(key, 1) == count:
        store.set(key + "/go", "1")
    store.wait([key + "/go"])


def connect(port: int, timeout_s: float):
    """The parent's store: turns are handed over without polling."""
    return torch.distributed.TCPStore("127.0.0.1", port, is_master=False,
                                      timeout=datetime.timedelta(seconds=timeout_s))


def serve() -> torch.distributed.TCPStore:
    return torch.distributed.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)


def pin(index: int, count: int) -> list[int]:
    """Give process ``index`` of ``count`` its own share of this process's CPUs (if >= 2)."""
    cpus = sorted(os.sched_getaffinity(0))
    share = len(cpus) // count
    if share >= 2:
        os.sched_setaffinity(0, cpus[index * share:(index + 1) * share])
    return sorted(os.sched_getaffinity(0))


def spawn(fn, args: tuple, nprocs: int, env: dict):
    """Start ``nprocs`` spawned processes of ``fn`` with ``env`` in their environment, as
    a user starts one (``FASTLAUNCH``, cache folders); this process's environment is
    left as it was."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return mp.start_processes(fn, args=args, nprocs=nprocs, join=False,
                                  start_method="spawn")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k)
            else:
                os.environ[k] = v
