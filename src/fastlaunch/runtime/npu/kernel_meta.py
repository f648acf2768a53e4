# SPDX-License-Identifier: Apache-2.0
"""What triton-ascend's launcher generator decides for one kernel, as data.

``describe`` takes the inputs the launcher generator gets
(``generate_npu_wrapper_src``, ``make_launcher`` on newer branches: the
signature, the constants, the compiled kernel's metadata) plus the kernel
handle, its name and what ``family.detect`` read from the installed
generator, and applies the generator's own rules (``driver.py``):

* every signature index listed in ``constants`` (constexprs, and size
  arguments torch_npu specialised to 1) is parsed but left out of the struct,
  as is every ``constexpr`` signature entry (newer branches);
* a scalar kind the generator has no C type or parse format for cannot be
  launched (3.2.0 lacks i8/i16/u1/u8/u16; 3.3.x and later render them);
* ``enable_simt = "simt" in parallel_mode or force_simt_only`` (case
  sensitive); the SIMT launch (``rtKernelLaunchWithFlagV2`` with the local
  memory size the generator writes: 216 KiB, or
  ``metadata.shared_mem_dynamic_size`` on main and 3.5.x) only when also
  ``compile_on_910_95``;
* the lock and workspace slots exist unless ``force_simt_only``; a missing
  ``workspace_size``/``lock_num`` reads -1 and a missing ``lock_init_value``
  0, as the generator's ``hasattr`` defaults do;
* the task name is ``pack_metadata``'s: the kernel name cut to its last 49
  characters (CANN's limit);
* the launcher switches (environment variables) the generator reads become
  options; those the plan does not reproduce are refused by the backend.

Pure Python, no torch: the differential tests call it beside the real
generator.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from .options import NpuOptions

#: pack_metadata's cut: CANN limits kernel names to 50 bytes with the newline.
TASK_NAME_MAX = 49
#: rtTaskCfgInfo_t.localMemorySize the 3.2.0 generator writes for SIMT launches.
SIMT_LOCAL_MEMORY = 216 * 1024

#: Per scalar kind, the C type and the PyArg_ParseTuple units fastlaunch's
#: packer stores it as (``plan.cpp``); "l" and "L" read the same int64 on LP64.
PACKER_FORMATS = {
    "i1": ("int32_t", "i"), "i8": ("int8_t", "b"), "i16": ("int16_t", "h"),
    "i32": ("int32_t", "i"), "i64": ("int64_t", "lL"), "u1": ("uint32_t", "I"),
    "u8": ("uint8_t", "B"), "u16": ("uint16_t", "H"), "u32": ("uint32_t", "I"),
    "u64": ("uint64_t", "K"), "fp16": ("float", "f"), "bf16": ("float", "f"),
    "fp32": ("float", "f"), "f32": ("float", "f"), "fp64": ("double", "d"),
}
#: The scalar kinds triton-ascend 3.2.0's generator renders: its parse-type map
#: (_extracted_ty) lacks i8 and i16, its C-type map u1, u8 and u16.
KINDS_3_2 = frozenset(("i1", "i32", "i64", "u32", "u64", "fp16", "bf16", "fp32", "f32",
                       "fp64"))
#: Launcher switches (environment variables) that change what the generated
#: launcher or NPULauncher.__call__ does per launch.
SWITCHES = ("TRITON_ENABLE_TASKQUEUE", "TRITON_DEVICE_PRINT", "TRITON_ALL_BLOCKS_PARALLEL",
            "TRITON_GRID_WARN_PRINT", "TRITON_REGISTER_TENSOR_MSPROF")


class KernelMetaError(ValueError):
    """The generator could not have rendered a launcher for these inputs."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclasses.dataclass(frozen=True)
class LaunchFamily:
    """What the installed triton-ascend's loader and generator do.

    ``name``: "rt", the only family any triton-ascend has (an
    ``rtFunctionRegister`` stub launched with ``rtKernelLaunch``, SIMT with
    ``rtKernelLaunchWithFlagV2``). ``simt_needs_910_95``: the SIMT launch also
    needs ``compile_on_910_95``. ``simt_local_memory``: bytes passed to a SIMT
    launch, or the metadata field holding them. ``scalar_kinds``: the scalar
    kinds the generator renders. ``checks_pointers``: every tensor address is
    checked with ``aclrtPointerGetAttributes`` before the launch.
    ``switches``: the launcher switches it reads. The defaults are 3.2.0's.
    """

    name: str
    simt_needs_910_95: bool = True
    simt_local_memory: int | str = SIMT_LOCAL_MEMORY
    scalar_kinds: frozenset[str] = KINDS_3_2
    checks_pointers: bool = False
    switches: frozenset[str] = frozenset(SWITCHES)
    generator: str = "generate_npu_wrapper_src"
    source: str = ""  # where it was read, for doctor

    def __post_init__(self) -> None:
        if self.name != "rt":
            msg = f"LaunchFamily.name: got {self.name!r}, expected 'rt'"
            raise ValueError(msg)


#: triton-ascend 3.2.0.
RT_3_2 = LaunchFamily("rt", source="triton-ascend 3.2.0 rules")


@dataclasses.dataclass(frozen=True)
class KernelMeta:
    """The KernelSpec fields and plan options of one kernel.

    ``indices`` are the signature keys (as indices) of the packed args, in
    struct order; ``names`` their parameter names (``argN`` when unknown);
    ``signature`` their Triton types. ``parsed`` lists every signature key the
    launcher parses from Python (packed or not).
    """

    name: str
    handle: int
    signature: tuple[str, ...]
    names: tuple[str, ...]
    indices: tuple[int, ...]
    parsed: tuple[int, ...]
    options: NpuOptions


def field(metadata: Any, name: str, default: Any = None) -> Any:
    """A metadata field read as the generator does (attribute or dict)."""
    if isinstance(metadata, Mapping):
        return metadata.get(name, default)
    return getattr(metadata, name, default)


def _has(metadata: Any, name: str) -> bool:
    if isinstance(metadata, Mapping):
        return name in metadata
    return hasattr(metadata, name)


def task_name(kernel_name: str, metadata: Any = None) -> str:
    """``pack_metadata``'s kernel name, cut to its last 49 chars:
    ``metadata.kernel_name`` (every branch's compiler sets it), else the first
    word of ``metadata.name`` (``"<kernel> <mix_mode>"`` on 3.2.0)."""
    found = field(metadata, "kernel_name", None) if metadata is not None else None
    full = field(metadata, "name", None) if metadata is not None else None
    base = (str(found) if found else str(full).split()[0] if full and str(full).split()
            else str(kernel_name))
    return base[-TASK_NAME_MAX:] if len(base) > TASK_NAME_MAX else base


def _keyed(mapping: Mapping, arg_names: Sequence[str] | None) -> dict[int, Any]:
    """Keys to indices, as NPULauncher's ``cst_key`` does."""
    out = {}
    for key, value in mapping.items():
        if isinstance(key, str):
            if arg_names is None or key not in arg_names:
                raise KernelMetaError("signature_key_unknown",
                                      f"{key!r} is not a parameter name")
            key = list(arg_names).index(key)
        out[int(key)] = value
    return out


def _env_on(env: Mapping[str, str], name: str, default: str = "false") -> bool:
    return env.get(name, default).lower() in ("true", "1")


def describe(signature: Mapping, constants: Mapping | None, metadata: Any, *,
             handle: int, kernel_name: str, family: LaunchFamily, ffts: bool,
             arg_names: Sequence[str] | None = None,
             packed_metadata: Mapping | None = None,
             env: Mapping[str, str] | None = None) -> KernelMeta:
    """Apply the generator's rules. ``ffts`` is the generator's
    ``is_ffts_supported(arch) and not force_disable_ffts()``; ``env`` the
    environment it read (default: ``os.environ``); ``packed_metadata`` the
    dict the launcher receives (its ``kernel_name`` wins when present)."""
    env = os.environ if env is None else env
    sig = _keyed(signature, arg_names)
    const = _keyed(constants or {}, arg_names)
    indices, types, names = [], [], []
    for i, ty in sig.items():
        if isinstance(ty, tuple):
            raise KernelMetaError("signature_tuple_unsupported",
                                  f"arg {i} is a tuple {ty!r}: the generator flattens it and "
                                  "renumbers the arguments after it")
        ty = str(ty)
        if ty == "constexpr":
            continue  # never in the struct (newer generators parse it as "O")
        if not ty.startswith("*") and ty not in family.scalar_kinds:
            raise KernelMetaError("signature_type_unrenderable",
                                  f"arg {i} has type {ty!r}, which the installed triton-ascend "
                                  f"generator ({family.generator}) cannot render")
        if i in const:
            continue
        indices.append(i)
        types.append(ty)
        names.append(arg_names[i] if arg_names is not None and i < len(arg_names) else f"arg{i}")

    def switch(name: str, default: str = "false") -> bool:
        """A launcher switch as the installed generator reads it (unread: its default)."""
        return _env_on(env if name in family.switches else {}, name, default)

    force_simt_only = bool(field(metadata, "force_simt_only", False)
                           or field(metadata, "is_pure_simt", False))
    parallel_mode = field(metadata, "parallel_mode", "simd")
    simt = ("simt" in str(parallel_mode)) or force_simt_only
    on_910_95 = bool(field(metadata, "compile_on_910_95", False))
    simt_launch = simt and (on_910_95 or not family.simt_needs_910_95)
    local_memory = family.simt_local_memory
    if isinstance(local_memory, str):
        local_memory = int(field(metadata, local_memory, 0) or 0)
    workspace = int(field(metadata, "workspace_size")) if _has(metadata, "workspace_size") else -1
    lock_num = int(field(metadata, "lock_num")) if _has(metadata, "lock_num") else -1
    lock_init = int(field(metadata, "lock_init_value")) \
        if _has(metadata, "lock_init_value") else 0
    bs_task_type = field(metadata, "bs_task_type", 0) or 0
    name = (packed_metadata or {}).get("kernel_name") or task_name(kernel_name, metadata)
    options = NpuOptions(
        family=family.name,
        ffts=bool(ffts),
        pure_simt=force_simt_only,        # no lock/workspace slots
        simt=simt,
        simt_launch=simt_launch,          # rtKernelLaunchWithFlagV2
        local_memory=int(local_memory) if simt_launch else 0,
        workspace_size=workspace,
        lock_num=lock_num,
        lock_init_value=lock_init,
        mix_mode=str(field(metadata, "mix_mode", "") or ""),
        bs_task_type=int(bs_task_type),
        coalesce_factor=int(field(metadata, "coalesce_factor", 1) or 1),
        check_pointers=family.checks_pointers,
        device_print=switch("TRITON_DEVICE_PRINT"),
        taskqueue=switch("TRITON_ENABLE_TASKQUEUE", "true"),
        blocks_parallel=switch("TRITON_ALL_BLOCKS_PARALLEL"),
        grid_warn_print=switch("TRITON_GRID_WARN_PRINT"),
        register_tensor_msprof=switch("TRITON_REGISTER_TENSOR_MSPROF"),
    )
    return KernelMeta(name=str(name), handle=int(handle), signature=tuple(types),
                      names=tuple(names), indices=tuple(indices), parsed=tuple(sig),
                      options=options)
