# SPDX-License-Identifier: Apache-2.0
"""What a patched wrapper codegen writes for one Triton call site.

Per call site *i*: a module-level metadata dict and a one-slot call cache;
in the body, a lazy bind on first call, then a call shaped like
``kernel.run(*args, stream=...)``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

IMPORT_LINE = "from fastlaunch.engine.routing import bind as _fastlaunch_bind"
# The stream expression: a name (``stream0``) or a dotted attribute, as
# torch_npu's multi-stream codegen writes (``stream_group_vector.npu_stream``).
_STREAM = r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"


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


def _root(wrapper: object) -> object:
    get_root = getattr(wrapper, "get_root_graph", None)
    return get_root() if callable(get_root) else wrapper


def rewrite_run_line(wrapper: object, kernel_name: str, arg_count: int, abi: str,
                     graph_id: str, generate: Callable[[], object]) -> object:
    """Run ``generate`` (the original codegen for one call) and replace the
    ``kernel.run(args, stream=s)`` line it writes with a fastlaunch call site
    (``s`` a name or a dotted attribute such as ``main_stream.npu_stream``).

    Everything else the original writes (stream setup, debug printer, autotune
    blocks) is kept in order. Module-level names go to the root wrapper's
    imports, so partition subgraphs share one set.
    """
    pattern = re.compile(rf"^(\s*){re.escape(kernel_name)}\.run\((.*?),?\s*stream={_STREAM}\)$")
    lines: list[object] = []
    # Inductor itself redirects ``writeline`` per instance while it emits the
    # final code (``set_writeline``); capture on top of that and restore it.
    redirected = vars(wrapper).get("writeline")
    wrapper.writeline = lines.append  # type: ignore[attr-defined]
    try:
        result = generate()
    finally:
        if redirected is None:
            del wrapper.writeline  # type: ignore[attr-defined]
        else:
            wrapper.writeline = redirected  # type: ignore[attr-defined]
    root = _root(wrapper)
    for line in lines:
        match = pattern.match(line) if isinstance(line, str) else None
        if match is None:
            wrapper.writeline(line)  # type: ignore[attr-defined]
            continue
        index = getattr(root, "_fastlaunch_sites", 0)
        root._fastlaunch_sites = index + 1  # type: ignore[attr-defined]
        if index == 0:
            root.imports.writeline(IMPORT_LINE)  # type: ignore[attr-defined]
        meta = metadata(kernel_name=kernel_name, arg_count=arg_count, graph_id=graph_id,
                        index=index, abi=abi)
        site = emit(kernel_name=kernel_name, call_args=match.group(2), stream=match.group(3),
                    meta=meta, index=index, indent=match.group(1))
        for header_line in site.header:
            root.imports.writeline(header_line)  # type: ignore[attr-defined]
        for body_line in site.body:
            wrapper.writeline(body_line)  # type: ignore[attr-defined]
    return result
