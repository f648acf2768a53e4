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
from typing import Any

from .. import config
from .._version import __version__
from ..integrations import autoload
from ..runtime import backends, counters


def package_version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def issue_tracker() -> str | None:
    """The ``Issues`` URL of the installed package's metadata (pyproject's
    ``[project.urls]``), or None when the metadata does not name one."""
    try:
        urls = importlib.metadata.metadata("fastlaunch").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "issues":
            return url.strip()
    return None


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


def config_values(cfg: config.Config) -> dict[str, Any]:
    """The parsed configuration with JSON's types: booleans stay booleans, tuples
    become lists, folders their path (text and ``--json`` show these same values)."""
    values = {}
    for field in dataclasses.fields(cfg):
        if field.name == "parsed":
            continue
        value = getattr(cfg, field.name)
        values[field.name] = (str(value) if isinstance(value, Path)
                              else list(value) if isinstance(value, tuple) else value)
    return values


def _cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (empty where there is none)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", errors="replace") as f:
            for line in f:
                if not line.strip():
                    if fields:
                        break
                    continue
                name, _, value = line.partition(":")
                fields.setdefault(name.strip(), value.strip())
    except OSError:
        pass
    return fields


def cpu_facts() -> dict[str, Any]:
    """The CPU and the vector ISA that CPU code is compiled for: /proc/cpuinfo's
    model and flags (None where it does not say), the ISA Inductor picks for its
    C++ kernels and the capability ATen dispatches to (when torch is imported)."""
    info = _cpuinfo()
    flags = (info.get("flags") or info.get("Features") or "").split()
    facts: dict[str, Any] = {
        "machine": platform.machine(),
        "model": info.get("model name") or info.get("Model") or platform.processor() or None,
        "avx2": ("avx2" in flags) if flags else None,
        "avx512f": ("avx512f" in flags) if flags else None,
        "inductor_vec_isa": None,
        "aten_cpu_capability": None,
    }
    torch = sys.modules.get("torch")
    if torch is None:
        return facts
    try:
        facts["inductor_vec_isa"] = _inductor_vec_isa()
    except Exception as err:  # a probe must not stop the report
        facts["inductor_vec_isa"] = f"not determined ({type(err).__name__}: {err})"
    try:
        facts["aten_cpu_capability"] = torch.backends.cpu.get_cpu_capability()
    except Exception as err:
        facts["aten_cpu_capability"] = f"not determined ({type(err).__name__}: {err})"
    return facts


def _inductor_vec_isa() -> str:
    """The ISA Inductor picks for its C++ kernels. Where this process has not
    probed yet, picked by Inductor's own rule from the ISAs of its list whose
    flags the CPU reports (cpuid, through torch), never ``bool()``-ed: that
    dry-compiles, and AVX-512's also probes BF16, VNNI and AMX whatever
    ``cpp.vec_isa_ok`` says (doctor waited on a held compiler), caching the
    answer on Inductor's shared instance. Other machines' lists probe nothing."""
    from torch._inductor import cpu_vec_isa

    if cpu_vec_isa.valid_vec_isa_list.cache_info().currsize or \
            platform.machine() not in ("x86_64", "AMD64"):
        isa = cpu_vec_isa.pick_vec_isa()
    else:
        on_cpu = cpu_vec_isa.x86_isa_checker()
        isa = _pick_vec_isa([isa for isa in cpu_vec_isa.supported_vec_isa_list
                             if all(flag in on_cpu for flag in str(isa).split())])
    return "none (scalar code)" if isinstance(isa, cpu_vec_isa.InvalidVecISA) else str(isa)


def _pick_vec_isa(valid: list[Any]) -> Any:
    """Inductor's ``cpu_vec_isa.pick_vec_isa`` (the same body in torch 2.7 to
    2.14) over ``valid`` instead of its ``valid_vec_isa_list()``."""
    from torch._inductor import config as inductor_config
    from torch._inductor import cpu_vec_isa

    if inductor_config.is_fbcode() and platform.machine() in ("x86_64", "AMD64"):
        return cpu_vec_isa.VecAVX2()
    if not valid:
        return cpu_vec_isa.invalid_vec_isa
    if inductor_config.cpp.simdlen is None:
        return cpu_vec_isa.get_isa_from_cpu_capability(os.getenv("ATEN_CPU_CAPABILITY"), valid,
                                                       cpu_vec_isa.invalid_vec_isa)
    return next((isa for isa in valid if isa.bit_width() == inductor_config.cpp.simdlen),
                cpu_vec_isa.invalid_vec_isa)


def torch_build_facts() -> dict[str, Any] | None:
    """How the imported torch was built (None when torch is not imported): the
    version, CUDA / ROCm / CPU, and the C++ ABI the torch shims are compiled for."""
    torch = sys.modules.get("torch")
    if torch is None or not hasattr(torch, "version"):
        return None
    cuda, hip = torch.version.cuda, getattr(torch.version, "hip", None)
    return {"version": torch.__version__, "git_version": torch.version.git_version,
            "build": "cuda" if cuda else "rocm" if hip else "cpu", "cuda": cuda, "hip": hip,
            "cxx11abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI),
            "debug": bool(torch.version.debug)}


def planned_call_status(cfg: config.Config) -> dict[str, Any]:
    """Whether Inductor's wrappers run as planned calls in a program like this one:
    the switch, whether the hook on Inductor's code cache is in, and why not."""
    from ..integrations import planned_call_hook

    result = autoload.status().get("planned_call")
    if not cfg.planned_call:
        line = "off (FASTLAUNCH_PLANNED_CALL=0)"
    elif not cfg.enabled:
        line = "not armed (fastlaunch is off)"
    elif result is not None:
        line = result
    elif importlib.util.find_spec("torch") is None:
        line = "not armed (torch is not installed)"
    else:
        line = "waiting (installs when torch._inductor.codecache is imported)"
    return {"switch": cfg.planned_call, "installed": planned_call_hook.installed(),
            "status": line}


def build_rows() -> dict[str, str]:
    """One line per run-time build: the torch shims' states where they were
    found (an installed or cached build; never builds), the others' cache rows."""
    from ..builds import core, registry
    from .build import owners

    shims = owners()
    rows: dict[str, str] = {}
    for name in registry.AREAS:
        owner = shims.get(name)
        if owner is None:
            rows[name] = core.row(name)
            continue
        owner.ensure()  # looks for an installed or cached build; never builds
        rows[name] = owner.status()  # a shims.State: its line, and its phase for --json
    return rows


def shown(value: object, missing: str = "unknown") -> str:
    """A fact as the text report shows it (the same value ``--json`` holds; None
    is ``missing``)."""
    if value is None:
        return missing
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def main() -> int:
    """The report; it starts no background build (its own process's import of
    torch arms the integrations as a program's would)."""
    from ..builds import shims

    with shims.foreground_only():
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
    for name, value in config_values(cfg).items():
        print(f"  {name:<16} {value if isinstance(value, str) else repr(value)}")
    problems = import_targets(cfg)
    print("\ncpu (/proc/cpuinfo; the ISA Inductor's C++ kernels and ATen are built for)")
    for name, value in cpu_facts().items():
        print(f"  {name:<20} {shown(value)}")
    facts = torch_build_facts()
    print("\ntorch build" + ("" if facts else ": torch is not imported"))
    for name, value in (facts or {}).items():
        print(f"  {name:<20} {shown(value, missing='none')}")
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
    from ..builds import core

    print(f"  cache folder: {core.cache_row()}")
    for name, row in build_rows().items():
        print(f"  {name}: {row}")
    print("\nintegrations")
    print(f"  torch_npu release: {_npu_release()}")
    from ..integrations.torch_npu import in_tree

    if in_tree.choice():
        print(f"  npu planned launch in use: {in_tree.choice()}")
    for name, line in integrations(cfg, problems).items():
        print(f"  {name:<5} {line}")
    print(f"  planned call: {planned_call_status(cfg)['status']}")
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
    tracker = issue_tracker()
    print("to report a problem, attach: python -m fastlaunch doctor --json"
          + (f" to an issue at {tracker}" if tracker else "")
          + " (docs/troubleshooting.md, 'Reporting a problem')")
    return 0
