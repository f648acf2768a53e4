# SPDX-License-Identifier: Apache-2.0
"""triton-ascend's own generated launcher, run on a recording fake CANN.

The reference is not our reading of triton-ascend: its launcher generator
(``generate_npu_wrapper_src``, ``make_launcher`` on newer branches, in
``triton/backends/ascend/driver.py``) renders the C++ source for each case,
g++ builds it against the stub headers in ``csrc/testing/cann_recorder/include`` and
links it to the recorder (``recorder.c``), and its ``launch(...)`` is called
with Python values. fastlaunch's NPU backend then runs the same case against
the same recorder; ``observe`` turns each side's calls into comparable
records. One module per job:

* ``generator``: loading a tree's generator with stand-ins; the cases;
* ``build``: compiling the recorder and the rendered launchers;
* ``recorder``: the recorder's log and controls from Python;
* ``observe``: records and differences;
* ``differential``: both sides of one call;
* ``toolchain``: cache, compilers, content keys.
"""

from .build import RECORDER_PARTS, Launcher, build_launchers, build_recorder
from .differential import Differential, FakeTensor, LauncherCall, Observation
from .generator import Case, Generator, environment, generator, pack_metadata
from .observe import differences, observe
from .recorder import (
    FFTS_APIS,
    KIND_LOCK,
    KIND_WORKSPACE,
    LAUNCH_APIS,
    CannRecorder,
    Event,
    capsule,
)
from .toolchain import Unavailable, cache_root, compiler

__all__ = [
    "FFTS_APIS",
    "KIND_LOCK",
    "KIND_WORKSPACE",
    "LAUNCH_APIS",
    "RECORDER_PARTS",
    "CannRecorder",
    "Case",
    "Differential",
    "Event",
    "FakeTensor",
    "Generator",
    "Launcher",
    "LauncherCall",
    "Observation",
    "Unavailable",
    "build_launchers",
    "build_recorder",
    "cache_root",
    "capsule",
    "compiler",
    "differences",
    "environment",
    "generator",
    "observe",
    "pack_metadata",
]
