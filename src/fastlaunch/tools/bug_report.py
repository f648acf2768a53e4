# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch doctor --json``: what a bug report needs, as one JSON object.

Every probe is guarded: a machine that lacks a tool or a package gets ``null``
or the error text in that field, never a failed report.
"""

from __future__ import annotations

import glob
import json
import os
import platform
import shutil
import subprocess
import sys
from typing import Any

from .. import config
from .._version import __version__
from ..integrations import autoload
from ..runtime import backends
from . import doctor

PACKAGES = ("torch", "triton", "torch-npu", "triton-ascend", "numpy", "pybind11",
            "scikit-build-core")


def _tool(name: str) -> dict[str, str] | None:
    """Path and first ``--version`` line of a command-line tool, or None."""
    path = shutil.which(name)
    if path is None:
        return None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError) as err:
        out = f"{type(err).__name__}: {err}"
    return {"path": path, "version": (out.splitlines() or [""])[0]}


def _cann() -> dict[str, Any]:
    """Where CANN is, the version its install files name, and the libraries fastlaunch loads."""
    home = (os.environ.get("ASCEND_HOME_PATH") or os.environ.get("ASCEND_TOOLKIT_HOME")
            or "/usr/local/Ascend/ascend-toolkit/latest")
    versions = []
    for info in sorted(glob.glob(os.path.join(home, "*", "*install.info")))[:4]:
        with open(info, errors="replace") as f:
            versions += [f"{info}: {line.strip()}" for line in f if line.startswith("version")]
    return {"home": home if os.path.isdir(home) else None, "versions": versions,
            "libraries": list(config.get().cann_libraries)}


def _devices() -> dict[str, Any]:
    """Device counts as torch (and torch_npu) see them; only when torch is already loaded."""
    torch = sys.modules.get("torch")
    if torch is None:
        return {"cuda": None, "npu": None, "why": "torch is not imported"}
    found: dict[str, Any] = {}
    for kind in ("cuda", "npu"):
        module = getattr(torch, kind, None)
        try:
            count = module.device_count() if module is not None and module.is_available() else 0
            found[kind] = [module.get_device_name(i) for i in range(count)]
        except Exception as err:  # a broken driver is part of the report
            found[kind] = f"{type(err).__name__}: {err}"
    return found


def _backends() -> dict[str, str]:
    found = {}
    for name in backends.NAMES:
        try:
            ok, why = backends.get(name).available()
        except Exception as err:
            ok, why = False, f"{type(err).__name__}: {err}"
        found[name] = "available" if ok else f"unavailable: {why}"
    return found


def main() -> int:
    """``doctor --json``: the report as one JSON object on stdout (no background build)."""
    from ..builds import shims

    with shims.foreground_only():
        print(json.dumps(collect(), indent=2, sort_keys=True))
    return 0


def collect() -> dict[str, Any]:
    cfg = config.get()
    problems = doctor.import_targets(cfg)  # imports torch as a program would
    from ..builds import core, shims
    from ..runtime import torch_accessor

    rows = doctor.build_rows()

    return {
        "fastlaunch": __version__,
        "os": {"platform": platform.platform(), "machine": platform.machine(),
               "libc": " ".join(platform.libc_ver())},
        "python": {"version": platform.python_version(), "executable": sys.executable,
                   "implementation": platform.python_implementation()},
        "compiler": core.described(core.cxx_compiler()) or None,
        "cmake": _tool("cmake"),
        "ninja": _tool("ninja"),
        "packages": {name: doctor.package_version(name) for name in PACKAGES},
        "cann": _cann(),
        "devices": _devices(),
        "environment": {name: os.environ.get(name) for name, _ in config.VARIABLES},
        "config": doctor.config_values(cfg),
        "enabled": cfg.enabled,
        "decision": autoload.decision(),
        "strict": cfg.strict,
        "backend": cfg.backend,
        "backends": _backends(),
        "integrations": doctor.integrations(cfg, problems),
        "planned_call": doctor.planned_call_status(cfg),
        "import_problems": problems,
        "cpu": doctor.cpu_facts(),
        "torch_build": doctor.torch_build_facts(),
        "cache_folder": core.cache_row(),
        "builds": rows,
        "shim_phases": {name: row.phase.name.lower() for name, row in rows.items()
                        if isinstance(row, shims.State)},
        "tensor_accessor": torch_accessor.status(),
    }
