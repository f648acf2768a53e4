# SPDX-License-Identifier: Apache-2.0
"""csrc's include rule (csrc/README.md): each folder includes only the folders
below it, and of the folders built into ``_core`` only ``bind/`` includes pybind11.

Includes are written from ``csrc/`` (``"core/plan.h"``), quoted or in angle
brackets alike (``<engine/...>`` binds as ``"engine/..."`` does); an include
whose first part is no folder of csrc names a file beside the includer
(``"recorder.h"``) or a vendor or system header (``"acl/acl.h"``,
``<torch/extension.h>``), and binds no folder.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parents[2] / "csrc"
# folder -> the folders its files may include (its own included).
ALLOWED = {
    "core": {"core"},
    "cuda": {"core", "cuda"},
    "npu": {"core", "npu"},
    "engine": {"core", "engine"},
    "bind": {"core", "cuda", "npu", "engine", "bind"},
    "shims": {"core", "shims"},
    "testing": {"core", "testing"},
    "interpose": {"core", "interpose"},
    "bench": {"core", "bench"},
}
# The folders built into fastlaunch.runtime._core (the others are built apart:
# the shims get pybind11 through torch/extension.h).
_CORE = {"core", "cuda", "npu", "engine", "bind"}
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
_SOURCES = ("*.c", "*.cpp", "*.h")


def includes(text: str) -> list[tuple[str, str]]:
    """(delimiter, path) of each ``#include`` in ``text``."""
    return _INCLUDE.findall(text)


def violations(folder: str, text: str) -> list[str]:
    """What a file of ``folder`` with this text includes against the rule."""
    found = []
    for delimiter, path in includes(text):
        shown = f"<{path}>" if delimiter == "<" else f'"{path}"'
        target = path.split("/", 1)[0]
        if target == "pybind11":
            if folder in _CORE and folder != "bind":
                found.append(f"{shown} (pybind11 is bind/'s)")
            continue
        if "/" in path and target in ALLOWED and target not in ALLOWED[folder]:
            found.append(f'{shown} ({folder}/ may include {", ".join(sorted(ALLOWED[folder]))})')
    return found


def _sources() -> list[Path]:
    return sorted(p for pattern in _SOURCES for p in CSRC.rglob(pattern))


def test_every_folder_of_csrc_has_a_rule():
    assert {p.name for p in CSRC.iterdir() if p.is_dir()} == set(ALLOWED)


def test_no_folder_includes_one_above_it():
    found = [f"{path.relative_to(CSRC)}: {problem}" for path in _sources()
             for problem in violations(path.relative_to(CSRC).parts[0],
                                       path.read_text(errors="replace"))]
    assert not found, "csrc/README.md's include rule:\n" + "\n".join(found)


@pytest.mark.parametrize(("folder", "text", "problem"), [
    ("engine", '#include "bind/bindings.h"\n', "bind/bindings.h"),
    ("engine", "#include <pybind11/pybind11.h>\n", "pybind11"),
    ("core", '#  include "engine/fast_site.h"\n', "engine/fast_site.h"),
    ("cuda", '#include "npu/npu_abi.h"\n', "npu/npu_abi.h"),
    ("shims", '#include "engine/planned_call.h"\n', "engine/planned_call.h"),
    ("core", "#include <engine/fast_site.h>\n", "<engine/fast_site.h>"),
    ("engine", '#include "pybind11/pybind11.h"\n', "pybind11"),
])
def test_an_upward_include_is_found(folder, text, problem):
    assert len(violations(folder, text)) == 1
    assert problem in violations(folder, text)[0]


@pytest.mark.parametrize(("folder", "text"), [
    ("bind", '#include "engine/planned_call.h"\n#include <pybind11/pybind11.h>\n'),
    ("shims", '#include "core/plan.h"\n#include <torch/extension.h>\n'),
    ("testing", '#include "recorder.h"\n#include "acl/acl.h"\n'),
    ("interpose", '#include "runtime/runtime/rt.h"\n'),
])
def test_downward_beside_and_vendor_includes_pass(folder, text):
    assert violations(folder, text) == []
