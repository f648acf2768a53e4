# SPDX-License-Identifier: Apache-2.0
"""Each side's recorded calls as comparable records, and their differences."""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import Any

from .recorder import FFTS_APIS, LAUNCH_APIS, Event


def _profile_record(event: Event) -> tuple:
    """A profiler record's fields that carry meaning (timestamps and the
    fields the original leaves uninitialised are left out)."""
    d = event.data
    magic, level, kind, thread = struct.unpack_from("<HHII", d)
    if event.api == "MsprofReportApi":
        reserve, item = struct.unpack_from("<I", d, 12)[0], struct.unpack_from("<Q", d, 32)[0]
        return (event.api, event.flags, magic, level, kind, thread, reserve, item)
    if event.api == "MsprofReportCompactInfo":
        op_name, task_type, op_type, block_dim = struct.unpack_from("<QIQI", d, 24)
        return (event.api, event.flags, len(d), magic, level, kind, thread, op_name, task_type,
                op_type, block_dim)
    payload = d[24:]
    if kind == 4:  # context ids
        op_name, count = struct.unpack_from("<QI", payload)
        ids = struct.unpack_from(f"<{min(count, 55)}I", payload, 12)
        body: tuple = (op_name, count, ids)
    elif kind == 1:  # tensor info
        op_name, count = struct.unpack_from("<QI", payload)
        tensors = [struct.unpack_from("<11I", payload, 12 + 44 * t) for t in range(min(count, 5))]
        body = (op_name, count, tuple(tensors))
    else:
        body = (payload,)
    return (event.api, event.flags, len(d), magic, level, kind, thread, *body)


def observe(events: Sequence[Event], padding: Sequence[bytes] = ()) -> dict[str, Any]:
    """What the device and the profiler would have been told, in order per
    kind (allocations by kind and size: fastlaunch's allocators take no
    stream). ``padding``: per launch, the bytes to ignore (1 = ignore)."""
    launches, padding = [], list(padding)
    for i, e in enumerate(x for x in events if x.api in LAUNCH_APIS):
        data = e.data
        if i < len(padding) and len(padding[i]) == len(data):
            data = bytes(0 if m else b for b, m in zip(data, padding[i]))
        launches.append({"api": e.api, "handle": e.handle, "block_dim": e.block_dim,
                         "stream": e.stream, "size": len(e.data), "args": data.hex(),
                         "attr": (e.attr_id, e.attr_value, e.flags), "extra": e.value2})
    return {
        "launches": launches,
        "tasks": [e.name for e in events if e.api == "task"],
        "allocs": [(e.flags, e.value) for e in events if e.api == "alloc"],
        "copies": [(e.api, e.handle, e.value, e.value2, e.flags, e.data.hex())
                   for e in events if e.api == "rtMemcpy"],
        "syncs": [(e.api, e.stream) for e in events if e.api == "rtStreamSynchronize"],
        "ffts": sorted({e.api for e in events if e.api in FFTS_APIS}),
        "pointer_checks": [e.handle for e in events if e.api == "aclrtPointerGetAttributes"],
        "hashed": [e.name for e in events if e.api == "MsprofGetHashId"],
        "profile": [_profile_record(e) for e in events if e.api.startswith("MsprofReport")],
    }


def differences(ref: Mapping[str, Any], got: Mapping[str, Any]) -> list[str]:
    """Every compared field that differs, as 'field: reference != fastlaunch'."""
    out = []
    for key in ref:
        a, b = ref[key], got.get(key)
        if key == "launches" and len(a) == len(b):
            for i, (la, lb) in enumerate(zip(a, b)):
                out += [f"launch {i} {k}: {la[k]!r} != {lb[k]!r}" for k in la if la[k] != lb[k]]
        elif a != b:
            out.append(f"{key}: {a!r} != {b!r}")
    return out
