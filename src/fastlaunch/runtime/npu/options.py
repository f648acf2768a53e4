# SPDX-License-Identifier: Apache-2.0
"""What triton-ascend's generator decided for one kernel's launch, typed.

``kernel_meta.describe`` makes these; a spec written by hand (tests,
benchmarks) may carry a plain mapping, which ``NpuOptions.of`` checks: an
unknown key or a value of the wrong type is refused naming the field, so a
stale or misspelt option never passes silently. It reads as a mapping too,
for reports and launch records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

from ...errors import PlanUnavailable


@dataclasses.dataclass(frozen=True, eq=False)
class NpuOptions(Mapping):
    """One kernel's launch options (``kernel_meta.describe`` explains each)."""

    family: str | None = None       # launch family; None: the installed one
    ffts: bool = False
    pure_simt: bool = False         # no lock/workspace slots
    simt: bool = False
    simt_launch: bool = False       # rtKernelLaunchWithFlagV2
    local_memory: int = 0           # bytes, for the SIMT launch
    workspace_size: int = 0         # bytes per block; -1: the metadata has none
    lock_num: int = 0               # sync-block locks; -1: the metadata has none
    lock_init_value: int = 0
    mix_mode: str = ""
    bs_task_type: int = 0
    coalesce_factor: int = 1
    check_pointers: bool = False    # aclrtPointerGetAttributes on every tensor
    device_print: bool = False
    taskqueue: bool = True          # False: launch inline, then synchronise
    blocks_parallel: bool = False
    grid_warn_print: bool = False
    register_tensor_msprof: bool = False

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not _is(value, f.type):  # the annotation's text: "bool", "int", ...
                raise PlanUnavailable("bad_npu_options", detail=(
                    f"options.{f.name}: got {value!r} ({type(value).__name__}), "
                    f"expected {_EXPECTED[f.type]}"))

    @classmethod
    def of(cls, options: Mapping) -> NpuOptions:
        """``options`` as NpuOptions; PlanUnavailable for an unknown key or a bad value."""
        if isinstance(options, cls):
            return options
        unknown = sorted(str(k) for k in options if k not in _NAMES)
        if unknown:
            raise PlanUnavailable("bad_npu_options", detail=(
                f"options: got unknown key {unknown[0]!r}, expected one of "
                f"{', '.join(sorted(_NAMES))}"))
        return cls(**options)

    def __getitem__(self, key: str) -> object:
        if key not in _NAMES:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(_ORDER)

    def __len__(self) -> int:
        return len(_ORDER)

    def __repr__(self) -> str:
        return f"NpuOptions({', '.join(f'{k}={v!r}' for k, v in self.items())})"


def _is(value: object, kind: str) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    return value is None or isinstance(value, str)


_EXPECTED = {"bool": "True or False", "int": "an int", "str": "a str",
             "str | None": "None or a str"}
_ORDER = tuple(f.name for f in dataclasses.fields(NpuOptions))
_NAMES = frozenset(_ORDER)
