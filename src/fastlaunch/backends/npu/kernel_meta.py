# SPDX-License-Identifier: Apache-2.0
"""What triton-ascend's launcher generator decides for one kernel, as data.

``describe`` takes the inputs ``generate_npu_wrapper_src`` gets (the
signature, the constants, the compiled kernel's metadata) plus the kernel
handle, its name and the launch family of the installed triton-ascend, and
applies the generator's own rules (triton-ascend 3.2.0, ``driver.py``):

* every signature index listed in ``constants`` (constexprs, and size
  arguments torch_npu specialised to 1) is parsed but left out of the struct;
* ``enable_simt = "simt" in parallel_mode or force_simt_only`` (case
  sensitive); the SIMT launch (``rtKernelLaunchWithFlagV2`` with a fixed
  local memory size) only when also ``compile_on_910_95``;
* the lock and workspace slots exist unless ``force_simt_only``; a missing
  ``workspace_size``/``lock_num`` reads -1 and a missing ``lock_init_value``
  0, as the generator's ``hasattr`` defaults do;
* the task name is ``pack_metadata``'s: the kernel name cut to its last 49
  characters (CANN's limit).

Pure Python, no torch: the differential tests call it beside the real
generator.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

#: pack_metadata's cut: CANN limits kernel names to 50 bytes with the newline.
TASK_NAME_MAX = 49
#: rtTaskCfgInfo_t.localMemorySize the 3.2.0 generator writes for SIMT launches.
SIMT_LOCAL_MEMORY = 216 * 1024

# The scalar types the 3.2.0 generator can render: both its struct mapping
# (_ty_to_cpp) and its parse-format mapping (_extracted_ty) must know them;
# the second lacks i8 and i16.
_RENDERABLE = frozenset(("i1", "i32", "i64", "u32", "u64", "fp16", "bf16", "fp32", "f32",
                         "fp64"))


class KernelMetaError(ValueError):
    """The generator could not have rendered a launcher for these inputs."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclasses.dataclass(frozen=True)
class LaunchFamily:
    """How the installed triton-ascend made and launches kernel handles.

    ``name``: "rt" (an ``rtFunctionRegister`` stub, launched with
    ``rtKernelLaunch``/``rtKernelLaunchWithFlagV2``) or "acl" (an
    ``aclrtFuncHandle`` from ``aclrtBinaryGetFunction``, launched with
    ``aclrtLaunchKernelWithHostArgs``). ``simt_needs_910_95``: the SIMT launch
    also needs ``compile_on_910_95``. ``simt_local_memory``: bytes passed to
    a SIMT launch, or the metadata field holding them.
    """

    name: str
    simt_needs_910_95: bool = True
    simt_local_memory: int | str = SIMT_LOCAL_MEMORY
    source: str = ""  # where it was read, for doctor

    def __post_init__(self) -> None:
        if self.name not in ("rt", "acl"):
            msg = f"LaunchFamily.name: got {self.name!r}, expected 'rt' or 'acl'"
            raise ValueError(msg)


#: triton-ascend 3.2.0 and its release branches.
RT_3_2 = LaunchFamily("rt", simt_needs_910_95=True, simt_local_memory=SIMT_LOCAL_MEMORY,
                      source="triton-ascend 3.2.0 rules")


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
    options: Mapping[str, Any]


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
    """``pack_metadata``'s kernel name: the first word of ``metadata.name``
    (``"<kernel> <mix_mode>"``) when present, cut to its last 49 chars."""
    full = field(metadata, "name", None) if metadata is not None else None
    base = str(full).split()[0] if full and str(full).split() else str(kernel_name)
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
        ty = str(ty)
        if ty == "constexpr":
            continue  # never in the struct (newer generators parse it as "O")
        if not ty.startswith("*") and ty not in _RENDERABLE:
            raise KernelMetaError("signature_type_unrenderable",
                                  f"arg {i} has type {ty!r}, which triton-ascend's generator "
                                  "cannot render")
        if i in const:
            continue
        indices.append(i)
        types.append(ty)
        names.append(arg_names[i] if arg_names is not None and i < len(arg_names) else f"arg{i}")

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
    options = {
        "family": family.name,
        "ffts": bool(ffts),
        "pure_simt": force_simt_only,        # no lock/workspace slots
        "simt": simt,
        "simt_launch": simt_launch,          # rtKernelLaunchWithFlagV2 / DYN_UBUF_SIZE attr
        "local_memory": int(local_memory) if simt_launch else 0,
        "workspace_size": workspace,
        "lock_num": lock_num,
        "lock_init_value": lock_init,
        "mix_mode": str(field(metadata, "mix_mode", "") or ""),
        "bs_task_type": int(bs_task_type),
        "coalesce_factor": int(field(metadata, "coalesce_factor", 1) or 1),
        "device_print": _env_on(env, "TRITON_DEVICE_PRINT"),
        "taskqueue": _env_on(env, "TRITON_ENABLE_TASKQUEUE", "true"),
        "blocks_parallel": _env_on(env, "TRITON_ALL_BLOCKS_PARALLEL"),
    }
    return KernelMeta(name=str(name), handle=int(handle), signature=tuple(types),
                      names=tuple(names), indices=tuple(indices), parsed=tuple(sig),
                      options=options)
