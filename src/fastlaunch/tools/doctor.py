# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch doctor``: what is installed, available and switched on.

It imports torch (when installed) so that the ``torch.backends`` entry point
runs as in a user's program, then Inductor's modules, so each integration
shows whether it actually installed.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import importlib.util
import os
import platform
import sys
from pathlib import Path

from .. import config
from .._version import __version__
from ..integrations import autoload
from ..runtime import backends, counters


def package_version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _npu_release() -> str:
    from ..integrations.torch_npu import contract

    read = contract.installed_reader()
    if read is None:
        return "torch_npu not installed"
    problems = contract.check(read)
    from ..integrations.torch_npu import layouts

    version = layouts.release(read) or "(no version.py)"
    layout = layouts.detect(read)
    state = (f"{version}, {layout.name} layout: supported" if not problems
             else f"{version}: UNSUPPORTED: " + "; ".join(problems))
    in_tree = "ships" if contract.has_in_tree_fast_launch(read) else "does not ship"
    return f"{state}; {in_tree} its own in-tree fast launch"


def import_targets(cfg: config.Config) -> list[str]:
    """Import torch and the modules the integrations patch, as a program would;
    returns what could not be imported."""
    problems = []
    try:
        import torch  # noqa: F401  (runs fastlaunch's torch.backends entry point)
    except Exception as err:  # doctor reports, never fails
        return [f"torch: {type(err).__name__}: {err}"]
    if cfg.enabled and not autoload.status():
        autoload.autoload()  # the entry point is not registered (source checkout)
    if not cfg.enabled:
        return problems
    for name in autoload.TARGETS:
        modules = autoload.targets(name)
        root = modules[0].split(".")[0]
        if importlib.util.find_spec(root) is None:
            continue
        for module in modules:
            try:
                importlib.import_module(module)
            except Exception as err:
                problems.append(f"{module}: {type(err).__name__}: {err}")
                break
    return problems


def _npu_lines() -> list[str]:
    """The launch family of the installed triton-ascend, and what CANN offers for it."""
    from ..runtime.npu.backend import launch_family_report

    try:
        return [f"  npu {what}: {finding}" for what, finding in launch_family_report()]
    except Exception as err:  # a probe must not stop the report
        return [f"  npu launch family: not determined ({type(err).__name__}: {err})"]


def integrations(cfg: config.Config, problems: list[str]) -> dict[str, str]:
    """Per integration: installed, waiting, or the real reason it is not armed."""
    status = autoload.status()
    lines = {}
    for name in ("cuda", "npu"):
        root = autoload.TARGETS[name][0].split(".")[0]
        if name in status:
            line = status[name]
        elif not cfg.enabled:
            line = "not armed (fastlaunch is off)"
        elif cfg.backend not in ("auto", "fake", name):
            line = f"not armed (FASTLAUNCH_BACKEND={cfg.backend})"
        elif any(p.startswith("torch:") for p in problems):
            line = "not armed (torch could not be imported, so its entry point never ran)"
        else:
            line = "not armed (fastlaunch's torch.backends entry point did not run)"
        if line.startswith("waiting") and importlib.util.find_spec(root) is None:
            line += f" ({root} is not installed)"
        lines[name] = line
    return lines


def main() -> int:
    """The report; it starts no background build (its own process's import of
    torch arms the integrations as a program's would)."""
    from ..runtime import torch_build

    with torch_build.foreground_only():
        return _report()


def _report() -> int:
    cfg = config.get()
    print(f"fastlaunch {__version__} on Python {platform.python_version()} ({sys.platform})")
    print("\nversions")
    for dist in ("torch", "triton", "torch-npu", "triton-ascend", "numpy"):
        print(f"  {dist:<14} {package_version(dist)}")
    print("\nenvironment (every variable fastlaunch reads)")
    meanings = {name: meaning for name, _, meaning in cfg.parsed}
    for name, what in config.VARIABLES:
        raw = os.environ.get(name)
        value = "unset" if raw is None else repr(raw)
        decided = f" -> {meanings[name]}" if name in meanings and raw is not None else ""
        print(f"  {name:<30} {value}{decided}")
        print(f"  {'':<30}   {what}")
    print(f"  fastlaunch: {autoload.decision()}; strict: {cfg.strict}; backend: {cfg.backend}")
    print("\nconfiguration (fastlaunch.config.get(), what the variables above were parsed to)")
    for field in dataclasses.fields(cfg):
        if field.name != "parsed":
            value = getattr(cfg, field.name)
            print(f"  {field.name:<16} {value if isinstance(value, Path) else repr(value)}")
    problems = import_targets(cfg)
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
    for line in _npu_lines():
        print(line)
    print("\nrun-time builds (one row each; python -m fastlaunch cache lists their folders)")
    from ..runtime import builds, torch_build

    print(f"  cache folder: {builds.cache_row()}")

    for name in builds.areas():
        shim = torch_build.SHIMS.get(name)
        if shim is None:
            print(f"  {name}: {builds.row(name)}")
            continue
        owner = importlib.import_module(shim.owner)  # built against torch: where from, or why not
        owner.ensure()  # looks for an installed or cached build; never builds
        print(f"  {name}: {owner.status()}")
    print("\nintegrations")
    print(f"  torch_npu release: {_npu_release()}")
    from ..integrations.torch_npu import in_tree

    if in_tree.choice():
        print(f"  npu planned launch in use: {in_tree.choice()}")
    for name, line in integrations(cfg, problems).items():
        print(f"  {name:<5} {line}")
    for problem in problems:
        print(f"  import failed: {problem}")
    from ..integrations import cache_keys

    if cache_keys.active():
        print(f"  Inductor cache key carries: {cache_keys.state()}")
    else:
        print("  Inductor cache key: stock (no integration installed: cached code never "
              "needs fastlaunch)")
    sites = counters.stats(per_site=True)
    if sites:
        print("\ncall sites (this process)")
        for site, counts in sites.items():
            print(f"  {site}: " + ", ".join(f"{k}={v}" for k, v in counts.items()))
    print("\nper call site in your program: fastlaunch.stats(per_site=True)")
    print("to prove planned launches send what the original launcher sends, on this machine:\n"
          "  python -m fastlaunch selfcheck")
    print("to report a problem, attach: python -m fastlaunch doctor --json "
          "(docs/troubleshooting.md, 'Reporting a problem')")
    return 0
