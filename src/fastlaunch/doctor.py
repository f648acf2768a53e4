# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch doctor``: what is installed, available and switched on."""

from __future__ import annotations

import importlib.metadata
import platform
import sys

from . import __version__, autoload, backends, config


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _npu_release() -> str:
    from .backends.npu import contract

    read = contract.installed_reader()
    if read is None:
        return "torch_npu not installed"
    problems = contract.check(read)
    state = "supported" if not problems else "UNSUPPORTED: " + "; ".join(problems)
    in_tree = "ships" if contract.has_in_tree_fast_launch(read) else "does not ship"
    return f"{state}; {in_tree} its own in-tree fast launch"


def main() -> int:
    cfg = config.get()
    print(f"fastlaunch {__version__} on Python {platform.python_version()} ({sys.platform})")
    print("\nversions")
    for dist in ("torch", "triton", "torch-npu", "triton-ascend", "numpy"):
        print(f"  {dist:<14} {_version(dist)}")
    print("\nenvironment")
    for name, raw, meaning in cfg.parsed:
        print(f"  {name:<32} {raw!r:<10} -> {meaning}")
    print(f"  enabled: {cfg.enabled} (by {cfg.enabled_by or 'nothing'}); strict: {cfg.strict}")
    print("\nbackends")
    for name in backends.NAMES:
        try:
            ok, why = backends.get(name).available()
        except Exception as err:  # a probe must not stop the report
            ok, why = False, f"{type(err).__name__}: {err}"
        extra = ""
        if name == "npu" and ok:
            extra = f" (launch API: {backends.get('npu').launch_api()})"
        print(f"  {name:<5} {'available' if ok else 'unavailable: ' + why}{extra}")
    from .backends import torch_accessor

    print(f"  tensor accessor: {torch_accessor.status()}")
    print("\nintegrations")
    print(f"  torch_npu release: {_npu_release()}")
    from .backends.npu import integration as npu_integration

    if npu_integration.choice():
        print(f"  npu planned launch in use: {npu_integration.choice()}")
    status = autoload.status()
    for name in ("cuda", "npu"):
        print(f"  {name:<5} {status.get(name, 'not armed (fastlaunch disabled)')}")
    return 0
