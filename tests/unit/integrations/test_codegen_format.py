# SPDX-License-Identifier: Apache-2.0
"""``cache_keys.CODEGEN_FORMAT`` is bumped whenever what generated code depends on changes.

Inductor's cache keeps generated code across fastlaunch upgrades; the key
carries the format number, not the source files, so a docstring edit keeps
every user's cache while a change to the emitted lines must bump the number.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import fastlaunch
from fastlaunch.integrations import cache_keys

PACKAGE = Path(fastlaunch.__file__).parent
# (file, top-level function, or None for the whole module): what generated code
# depends on -- the lines written, the router's entry point, which call sites
# are rewritten.
CODEGEN_PARTS = (
    ("engine/callsite.py", None),
    ("integrations/codegen.py", None),
    ("engine/routing.py", "bind"),
    ("integrations/inductor/integration.py", "_call_site_eligible"),
    ("integrations/inductor/integration.py", "_wrap_call_helper"),
    ("integrations/torch_npu/integration.py", "_eligible"),
    ("integrations/torch_npu/integration.py", "_wrap_call"),
)
# CODEGEN_FORMAT -> digest of CODEGEN_PARTS at that format. 4: torch_npu's
# subgraph wrapper classes write call sites too (patched in install, outside
# these parts), so the parts read as at 3; re-pinned when the call-site text
# moved to engine/callsite.py (the same lines written, bind's slot read by
# callsite.SLOT_KEYWORD: code cached at 4 runs unchanged).
PINNED = {1: "210acc3c943c27a9", 2: "31ee798bac8c4110", 3: "bc7ac2c0af6bcff1",
          4: "4d1fed946fe09619"}


def _canonical(node: object) -> str:
    """A dump of the tree without positions, docstrings or empty fields (so it reads
    the same on every supported Python)."""
    if isinstance(node, list):
        return "[" + ",".join(_canonical(item) for item in node) + "]"
    if not isinstance(node, ast.AST):
        return repr(node)
    body = getattr(node, "body", None)
    if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
        body = body[1:]
    fields = []
    for name in node._fields:
        value = body if name == "body" and body is not None else getattr(node, name, None)
        if value is None or value == []:
            continue
        fields.append(f"{name}={_canonical(value)}")
    return f"{type(node).__name__}(" + ",".join(fields) + ")"


def _part(source: str, function: str | None) -> str:
    tree = ast.parse(source)
    if function is None:
        return _canonical(tree)
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function]
    assert len(found) == 1, f"{function} not found: update CODEGEN_PARTS"
    return _canonical(found[0])


def digest(read=lambda path: (PACKAGE / path).read_text()) -> str:
    h = hashlib.sha256()
    for path, function in CODEGEN_PARTS:
        h.update(f"{path}:{function}\0{_part(read(path), function)}\0".encode())
    return h.hexdigest()[:16]


def test_codegen_format_is_bumped_when_generated_code_changes():
    got = digest()
    assert PINNED.get(cache_keys.CODEGEN_FORMAT) == got, (
        f"what generated code depends on changed (digest {got}): bump CODEGEN_FORMAT in "
        f"src/fastlaunch/integrations/cache_keys.py and pin {cache_keys.CODEGEN_FORMAT + 1}: "
        f"{got!r} in PINNED here; if only formatting changed, re-pin the current number")


def test_docstrings_and_comments_do_not_change_the_digest():
    def edited(path: str) -> str:
        text = (PACKAGE / path).read_text()
        if path == "engine/routing.py":
            text = text.replace('"""The callable a generated call site uses',
                                '"""Edited docstring. The callable a generated call site uses')
            text = text.replace("def bind(", "# a new comment\ndef bind(")
        return text

    assert edited("engine/routing.py") != (PACKAGE / "engine/routing.py").read_text()
    assert digest(edited) == digest()


def test_code_changes_change_the_digest():
    def edited(path: str) -> str:
        text = (PACKAGE / path).read_text()
        if path == "engine/callsite.py":
            return text.replace("_fastlaunch_call_", "_fastlaunch_slot_")
        return text

    assert digest(edited) != digest()


def test_the_key_carries_the_format_not_file_contents(monkeypatch):
    before = cache_keys.state()
    monkeypatch.setattr(cache_keys, "CODEGEN_FORMAT", cache_keys.CODEGEN_FORMAT + 1)
    assert cache_keys.state() != before
