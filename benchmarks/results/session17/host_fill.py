# SPDX-License-Identifier: Apache-2.0
"""How long the cuBLASLt tier's first-sight check took to fill its samples on the
host, as it did before the seventeenth session, for vit_tiny's fc1 problem at
batch 8: three input sets of five tensors (a, b, bias, two outputs).

Usage: python host_fill.py THREADS
"""

import statistics
import sys
import time

import torch

torch.set_num_threads(int(sys.argv[1]))
generator = torch.Generator().manual_seed(0x5EED)
ROWS, WIDTH, HIDDEN = 8 * 197, 192, 768
SIZES = [ROWS * WIDTH, HIDDEN * WIDTH, HIDDEN, ROWS * HIDDEN, ROWS * HIDDEN]


def fill(n: int, kind: str) -> torch.Tensor:
    values = torch.randn(n, generator=generator)
    if kind == "wide":
        values.mul_(torch.exp2(torch.randint(-12, 13, (n,), generator=generator,
                                             dtype=torch.float32)))
    elif kind == "edges":
        pick = torch.randint(0, 8, (n,), generator=generator, dtype=torch.float32)
        values = torch.where(pick == 0, values * 2.0**-130, values)
        values = torch.where(pick == 1, values * 0.0, values)
    return values


times = []
for _ in range(7):
    start = time.perf_counter()
    for kind in ("normal", "wide", "edges"):
        for i, n in enumerate(SIZES):
            fill(n, kind if i < 3 else "normal")  # the outputs are normal samples
    times.append((time.perf_counter() - start) * 1000)
print(f"{torch.get_num_threads()} thread(s): host fill of one problem's samples: "
      f"median {statistics.median(times):.1f} ms, min {min(times):.1f} ms "
      f"({sum(SIZES) * 3 / 1e6:.1f} M elements)")
