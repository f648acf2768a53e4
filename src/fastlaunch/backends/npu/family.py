# SPDX-License-Identifier: Apache-2.0
"""Which launch API fits the installed triton-ascend's kernel handles.

The handle Python sees (``CompiledKernel.function``) is made by the loader
``npu_utils.cpp``: triton-ascend 3.2.0 and its release branches register the
binary (``rtDevBinaryRegister`` + ``rtFunctionRegister``) and hand out a stub,
which only ``rtKernelLaunch``/``rtKernelLaunchWithFlagV2`` accept; newer
development branches load it (``aclrtBinaryLoadFromData`` +
``aclrtBinaryGetFunction``) and hand out an ``aclrtFuncHandle`` for
``aclrtLaunchKernelWithHostArgs``. The generated launcher (``driver.py``)
agrees with its loader. Both are read from the installed sources, never from
which symbols CANN exports: a plan is refused when they disagree or when the
family cannot be told (e.g. a build-time macro picks it).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import math
import re
from collections.abc import Callable
from pathlib import Path

from .kernel_meta import SIMT_LOCAL_MEMORY, LaunchFamily

DRIVER = "backends/ascend/driver.py"
LOADER = "backends/ascend/npu_utils.cpp"

_RT_LOADER = ("rtFunctionRegister",)
_ACL_LOADER = ("aclrtBinaryGetFunction",)
_RT_LAUNCH = re.compile(r"\brtKernelLaunch(?:WithFlagV2)?\s*\(")
_ACL_LAUNCH = re.compile(r"\baclrtLaunchKernelWithHostArgs\s*\(")
_LOCAL_MEMORY = re.compile(
    r"(?:localMemorySize|dynUBufSize|localMemSize)\s*=\s*([^;\n]+);")


@dataclasses.dataclass(frozen=True)
class Detection:
    """The family, or why none can be used (``family`` is None then)."""

    family: LaunchFamily | None
    reason: str = ""   # slug when refused
    detail: str = ""   # what was read


def _loader_family(text: str) -> set[str]:
    found = set()
    if any(s in text for s in _RT_LOADER):
        found.add("rt")
    if any(s in text for s in _ACL_LOADER):
        found.add("acl")
    return found


def _launcher_family(text: str) -> set[str]:
    found = set()
    if _RT_LAUNCH.search(text):
        found.add("rt")
    if _ACL_LAUNCH.search(text):
        found.add("acl")
    return found


def _local_memory(text: str) -> int | str:
    """The SIMT local memory size the generator writes: a constant
    expression (``216 * 1024``) or a metadata field it substitutes."""
    match = _LOCAL_MEMORY.search(text)
    if match is None:
        return SIMT_LOCAL_MEMORY
    expr = match.group(1).strip()
    if re.fullmatch(r"\d+(\s*\*\s*\d+)*", expr):
        return math.prod(int(n) for n in expr.split("*"))
    field = re.search(r"metadata\.(\w+)", expr)
    return field.group(1) if field else SIMT_LOCAL_MEMORY


def detect(read: Callable[[str], str | None]) -> Detection:
    """The family of a triton-ascend tree; ``read(path)`` gives a file under
    the ``triton`` package (``backends/ascend/driver.py``), or None."""
    driver, loader = read(DRIVER), read(LOADER)
    if driver is None or loader is None:
        missing = ", ".join(p for p, t in ((DRIVER, driver), (LOADER, loader)) if t is None)
        return Detection(None, "launch_family_unknown", f"triton-ascend lacks {missing}")
    # Newer variants launch from npu_utils (dlopen-ed helpers) rather than
    # from the generated source: then the loader's launch call counts.
    loads, launches = _loader_family(loader), _launcher_family(driver) or _launcher_family(loader)
    if len(loads) != 1 or len(launches) != 1:
        what = (f"loader uses {sorted(loads) or 'neither'}, "
                f"generated launcher uses {sorted(launches) or 'neither'}")
        if "TRITON_CANN_910" in loader or "TRITON_CANN_910" in driver:
            what += " (chosen at build time by TRITON_CANN_910)"
        return Detection(None, "launch_family_ambiguous", what)
    (load,), (launch,) = loads, launches
    if load != launch:
        return Detection(None, "launch_family_mismatch",
                         f"loader makes {load} handles, generated launcher calls the {launch} API")
    needs_910_95 = bool(re.search(r"compile_on_910_95\s+and\s+enable_simt", driver))
    family = LaunchFamily(launch, simt_needs_910_95=needs_910_95,
                          simt_local_memory=_local_memory(driver),
                          source=f"{DRIVER} + {LOADER}")
    return Detection(family, detail=f"loader and generated launcher both use {launch}")


def installed_reader() -> Callable[[str], str | None] | None:
    """A reader over the installed ``triton`` package's files (not imported)."""
    spec = importlib.util.find_spec("triton")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))

    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8", errors="replace") if file.is_file() else None

    return read


@functools.cache
def installed() -> Detection:
    """The installed triton-ascend's family (read once per process)."""
    read = installed_reader()
    if read is None:
        return Detection(None, "launch_family_unknown", "triton is not installed")
    return detect(read)
