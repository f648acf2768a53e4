# SPDX-License-Identifier: Apache-2.0
"""Every build made after install, declared once: its cache folder (an area),
what it holds, and for a torch shim its source, flags and switch.

``python -m fastlaunch cache`` lists the areas, ``doctor`` gives each a row,
``cache clear`` removes what each area's manifest names, and the shim policy
(``shims``) builds the shims. Adding a torch shim is its source in
``csrc/shims``, one ``Shim`` here and a runtime module that activates it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .. import config


@dataclasses.dataclass(frozen=True)
class Area:
    """A build's cache folder, ``config.cache_dir() / name``, and what it holds."""

    name: str
    holds: str


@dataclasses.dataclass(frozen=True)
class Shim(Area):
    """A C++ source of ``csrc/shims`` built against the installed torch.
    ``enabled`` reads its ``Config`` switch, whose variable is ``switch``; a
    ``cuda`` shim uses libtorch_cuda where the installed torch has it."""

    source: str  # in csrc/shims
    switch: str
    enabled: Callable[[config.Config], bool]
    cflags: tuple[str, ...] = ("-O2",)
    cuda: bool = False


TORCH_ACCESSOR = Shim("torch_accessor", "torch tensor accessor, one build per torch",
                      "torch_accessor.cpp", "FASTLAUNCH_TORCH_ACCESSOR",
                      lambda cfg: cfg.torch_accessor)
TENSOR_GEOMETRY = Shim("tensor_geometry",
                       "the planned call's size/stride reader, one build per torch",
                       "tensor_geometry.cpp", "FASTLAUNCH_PLANNED_CALL",
                       lambda cfg: cfg.planned_call)
ATEN_OPS = Shim("aten_ops", "the planned call's ATen calls, one build per torch", "aten_ops.cpp",
                "FASTLAUNCH_PLANNED_CALL", lambda cfg: cfg.planned_call, cuda=True)
NPU_QUEUE = Area("npu_queue", "torch_npu task-queue shim, one build per torch and torch_npu")
ASCEND_REFERENCE = Area("ascend_reference",
                        "selfcheck's recording CANN runtime and reference launchers")
BENCH = Area("bench", "the benchmarks' C launchers (benchmarks/, from a checkout)")

#: Every area, the torch shims first (doctor's and ``cache``'s order).
AREAS = {area.name: area for area in (TORCH_ACCESSOR, TENSOR_GEOMETRY, ATEN_OPS, NPU_QUEUE,
                                      ASCEND_REFERENCE, BENCH)}
#: The torch shims, built by the shim policy at install, by ``python -m fastlaunch
#: build``, or in the background.
SHIMS = {area.name: area for area in AREAS.values() if isinstance(area, Shim)}
