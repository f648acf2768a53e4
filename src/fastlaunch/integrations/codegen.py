# SPDX-License-Identifier: Apache-2.0
"""Where a patched wrapper codegen writes fastlaunch's call sites.

It finds the ``kernel.run(args, stream=s)`` line Inductor writes for one
Triton call and puts the call site ``engine.callsite`` emits in its place.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..engine import callsite

# The stream expression: a name (``stream0``) or a dotted attribute, as
# torch_npu's multi-stream codegen writes (``stream_group_vector.npu_stream``).
_STREAM = r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"


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
            root.imports.writeline(callsite.IMPORT_LINE)  # type: ignore[attr-defined]
        meta = callsite.metadata(kernel_name=kernel_name, arg_count=arg_count,
                                 graph_id=graph_id, index=index, abi=abi)
        site = callsite.emit(kernel_name=kernel_name, call_args=match.group(2),
                             stream=match.group(3), meta=meta, index=index, indent=match.group(1))
        for header_line in site.header:
            root.imports.writeline(header_line)  # type: ignore[attr-defined]
        for body_line in site.body:
            wrapper.writeline(body_line)  # type: ignore[attr-defined]
    return result
