# SPDX-License-Identifier: Apache-2.0
"""Field-by-field comparison of what the original and the planned path sent."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .interpose import Launch

# A cuLaunchKernelEx without launch attributes is the same launch as cuLaunchKernel
# (Triton's launcher always uses Ex; fastlaunch plain cuLaunchKernel).
_CUDA_FAMILY = {"cuLaunchKernel": ("cuda", False), "cuLaunchKernelEx": ("cuda", False),
                "cuLaunchKernel_ptsz": ("cuda", True), "cuLaunchKernelEx_ptsz": ("cuda", True)}
_CUDA_LEGACY_STREAM = 0  # the NULL stream, whose meaning depends on the per-thread flag

# Field: (name, fields of Launch compared as a whole).
_SCALAR_FIELDS = ("handle", "stream", "grid", "block", "shared", "block_dim", "flags", "attrs",
                  "extra")


@dataclasses.dataclass(frozen=True)
class Difference:
    """One field that differs; for argument bytes, one parameter's bytes."""

    field: str
    original: str
    planned: str
    offset: int | None = None
    param: str | None = None

    def __str__(self) -> str:
        where = self.field
        if self.param is not None:
            where += f" {self.param}"
        if self.offset is not None:
            where += f" at offset {self.offset}"
        return f"{where}: original {self.original}, planned {self.planned}"


def _api_difference(original: Launch, planned: Launch) -> Difference | None:
    if original.api == planned.api:
        return None
    a, b = _CUDA_FAMILY.get(original.api), _CUDA_FAMILY.get(planned.api)
    if a is not None and b is not None:
        ex_attrs = original.attrs or planned.attrs
        stream_meaning = a[1] != b[1] and original.stream == _CUDA_LEGACY_STREAM
        if not ex_attrs and not stream_meaning:
            return None
    return Difference("api", original.api, planned.api)


def _fields(planned: Launch, names: Sequence[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """(name, offset, size) of each parameter: the plan's names where given,
    else the driver's parameter list."""
    if names:
        return list(names)
    return [(f"param {i}", off, size) for i, (off, size) in enumerate(planned.params)]


def _byte_differences(original: Launch, planned: Launch,
                      names: Sequence[tuple[str, int, int]]) -> list[Difference]:
    a, b = original.args, planned.args
    if len(a) != len(b):
        return [Difference("args_size", str(len(a)), str(len(b)))]
    diffs = []
    covered = set()
    for name, offset, size in _fields(planned, names):
        chunk_a, chunk_b = a[offset:offset + size], b[offset:offset + size]
        covered.update(range(offset, offset + size))
        if chunk_a != chunk_b:
            diffs.append(Difference("args", chunk_a.hex(), chunk_b.hex(), offset, name))
    stray = [i for i in range(len(a)) if a[i] != b[i] and i not in covered]
    if stray:  # bytes outside every known field (padding, or no layout)
        lo, hi = stray[0], stray[-1] + 1
        diffs.append(Difference("args", a[lo:hi].hex(), b[lo:hi].hex(), lo, "(unnamed bytes)"))
    return diffs


def compare(original: Sequence[Launch], planned: Sequence[Launch],
            names: Sequence[tuple[str, int, int]] = ()) -> list[Difference]:
    """Every difference between two launch sequences (empty: the same launches).

    ``names``: (name, offset, size) of the planned layout's fields, used to
    name differing bytes.
    """
    if len(original) != len(planned):
        return [Difference("launches", str(len(original)), str(len(planned)))]
    diffs: list[Difference] = []
    for a, b in zip(original, planned):
        if a.problem or b.problem:
            diffs.append(Difference("record", a.problem or "ok", b.problem or "ok"))
            continue
        api = _api_difference(a, b)
        if api is not None:
            diffs.append(api)
        diffs.extend(Difference(f, str(getattr(a, f)), str(getattr(b, f)))
                     for f in _SCALAR_FIELDS if getattr(a, f) != getattr(b, f))
        diffs.extend(_byte_differences(a, b, names))
    return diffs
