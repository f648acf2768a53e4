# SPDX-License-Identifier: Apache-2.0
"""What the installed triton-ascend's loader and launcher generator do.

Every triton-ascend branch (the 3.2.0 wheel; release/3.2.x to 3.6.x and main
on GitHub) registers the binary with ``rtDevBinaryRegister`` +
``rtFunctionRegister`` in its loader (``npu_utils.cpp``) and launches the stub
with ``rtKernelLaunch``/``rtKernelLaunchWithFlagV2`` from the generated
launcher (``driver.py``). A tree whose loader or generator does anything else
is refused with what was read, as is one whose generator cannot be read.

The branches differ in what the generator renders, and those differences
are read from its source, never assumed from a version: which scalar kinds
it has a C type and a parse format for, where the SIMT local memory size
comes from, whether it checks tensor addresses with
``aclrtPointerGetAttributes``, which launcher switches it reads, and the
generator's name (``generate_npu_wrapper_src``, ``make_launcher`` on newer
branches).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import math
import re
import warnings
from collections.abc import Callable

from ...installed import source_reader
from .kernel_meta import PACKER_FORMATS, SIMT_LOCAL_MEMORY, SWITCHES, LaunchFamily

DRIVER = "backends/ascend/driver.py"
LOADER = "backends/ascend/npu_utils.cpp"
UTILS = "backends/ascend/utils.py"

_RT_LAUNCH = re.compile(r"\brtKernelLaunch(?:WithFlagV2)?\s*\(")
_LOCAL_MEMORY = re.compile(r"localMemorySize\s*=\s*([^;\n]+);")
_GENERATOR = re.compile(r"^def (generate_npu_wrapper_src|make_launcher)\(", re.M)


@dataclasses.dataclass(frozen=True)
class Detection:
    """The family, or why none can be used (``family`` is None then)."""

    family: LaunchFamily | None
    reason: str = ""   # slug when refused
    detail: str = ""   # what was read


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


def _string_dicts(text: str) -> list[dict[str, str]]:
    """Every dict literal of the generator whose keys and values are all strings."""
    with warnings.catch_warnings():  # its regex escapes warn on newer Pythons
        warnings.simplefilter("ignore")
        tree = ast.parse(text)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(
                isinstance(n, ast.Constant) and isinstance(n.value, str)
                for n in (*node.keys, *node.values)):
            out.append({k.value: v.value for k, v in zip(node.keys, node.values)})
    return out


def scalar_kinds(text: str) -> frozenset[str]:
    """The scalar kinds the generator renders as fastlaunch packs them: every
    type-to-C map (``_ty_to_cpp``, ``_extracted_ty``) has the kind with the
    packer's C type, and every C-to-format map gives the packer's
    ``PyArg_ParseTuple`` unit (a kind missing from one raises KeyError there,
    so no launcher exists for it)."""
    dicts = _string_dicts(text)
    type_maps = [d for d in dicts if "i32" in d and "fp32" in d]
    format_maps = [d for d in dicts if "int32_t" in d and "float" in d]
    if not type_maps or not format_maps:
        return frozenset()
    kinds = set()
    for kind, (ctype, codes) in PACKER_FORMATS.items():
        if all(m.get(kind) == ctype for m in type_maps) and all(
                m.get(ctype) in codes for m in format_maps):
            kinds.add(kind)
    return frozenset(kinds)


def detect(read: Callable[[str], str | None]) -> Detection:
    """The family of a triton-ascend tree; ``read(path)`` gives a file under
    the ``triton`` package (``backends/ascend/driver.py``), or None."""
    driver, loader = read(DRIVER), read(LOADER)
    if driver is None or loader is None:
        missing = ", ".join(p for p, t in ((DRIVER, driver), (LOADER, loader)) if t is None)
        return Detection(None, "launch_family_unknown", f"triton-ascend lacks {missing}")
    if "rtFunctionRegister" not in loader or not _RT_LAUNCH.search(driver):
        what = (f"loader {'registers' if 'rtFunctionRegister' in loader else 'does not register'}"
                " rtFunctionRegister stubs, generated launcher "
                f"{'calls' if _RT_LAUNCH.search(driver) else 'does not call'} rtKernelLaunch")
        return Detection(None, "launch_family_unknown", what)
    generator = _GENERATOR.search(driver)
    kinds = scalar_kinds(driver)
    if generator is None or not kinds:
        return Detection(None, "launcher_generator_unreadable",
                         f"{DRIVER}: no generate_npu_wrapper_src/make_launcher with readable "
                         "type maps")
    utils = read(UTILS) or ""
    family = LaunchFamily(
        "rt", simt_needs_910_95=bool(re.search(r"compile_on_910_95\s+and\s+enable_simt", driver)),
        simt_local_memory=_local_memory(driver), scalar_kinds=kinds,
        checks_pointers="aclrtPointerGetAttributes" in driver,
        switches=frozenset(s for s in SWITCHES if s in driver or s in utils),
        generator=generator.group(1), source=f"{DRIVER} + {LOADER}")
    return Detection(family, detail=f"rtFunctionRegister stubs launched by rtKernelLaunch; "
                                    f"generator {family.generator}")


def installed_reader() -> Callable[[str], str | None] | None:
    """A reader over the installed ``triton`` package's files (not imported)."""
    return source_reader("triton", inside=True)


@functools.cache
def installed() -> Detection:
    """The installed triton-ascend's family (read once per process)."""
    read = installed_reader()
    if read is None:
        return Detection(None, "launch_family_unknown", "triton is not installed")
    return detect(read)
