# SPDX-License-Identifier: Apache-2.0
"""What a patched wrapper codegen writes for one Triton call site.

Per call site *i*: a module-level metadata dict and a one-slot call cache;
in the body, a lazy bind on first call, then a call shaped like
``kernel.run(*args, stream=...)``.
"""

from __future__ import annotations

import dataclasses

IMPORT_LINE = "from fastlaunch.routing import bind as _fastlaunch_bind"


@dataclasses.dataclass(frozen=True)
class CallSite:
    header: tuple[str, ...]  # module level, after the imports
    body: tuple[str, ...]    # replaces the ``kernel.run(...)`` line


def metadata(*, kernel_name: str, arg_count: int, graph_id: str, index: int, abi: str) -> dict:
    return {"kernel_name": kernel_name, "callsite_id": f"{graph_id}:{index}",
            "arg_count": arg_count, "abi": abi}


def emit(*, kernel_name: str, call_args: str, stream: str, meta: dict, index: int,
         indent: str = "") -> CallSite:
    slot = f"_fastlaunch_call_{index}"
    meta_name = f"_fastlaunch_meta_{index}"
    header = (f"{meta_name} = {meta!r}", f"{slot} = [None]")
    body = (
        f"{indent}_fastlaunch_fn = {slot}[0]",
        f"{indent}if _fastlaunch_fn is None:",
        f"{indent}    _fastlaunch_fn = _fastlaunch_bind({meta_name}, {kernel_name}, "
        f"call_slot={slot})",
        f"{indent}_fastlaunch_fn({call_args}, stream={stream})"
        if call_args else f"{indent}_fastlaunch_fn(stream={stream})",
    )
    return CallSite(header, body)
