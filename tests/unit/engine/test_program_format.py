# SPDX-License-Identifier: Apache-2.0
"""The program format has two owners that must agree: program.py (its
native kinds among them) on the Python side, csrc/core/program_format.h on the
native side (the executor and the ATen shim include it). Every number of
either is checked against the other here, read from the header's text, so
changing one side alone fails."""

from __future__ import annotations

import re
import shutil

import pytest

from fastlaunch.engine.planned_call import program as P
from helpers import program_format as F

# The header's constants with a Python twin of the same name (kFoldedView: FOLDED_VIEW).
_SUB_CONSTANTS = ("kFoldedView", "kIslandUnbinds", "kViewShift", "kNativeKindMask",
                  "kMaxViewOperands")


def _python_numbers() -> dict[str, int]:
    """program.py's int constants (opcodes, operators, sub bits) by plain name
    (the native kinds are compared with the header's NativeKind below)."""
    return {F.plain(name): value for name, value in vars(P).items()
            if name.isupper() and type(value) is int and name != "REINTERPRET_KIND"}


def test_opcodes_operators_and_sub_bits_are_the_headers():
    opcodes = F.enum("OpCode")
    assert opcodes.pop("kOpCount") == len(P.NAMES)
    header = {**opcodes, **F.enum("BinaryOp"), **F.enum("UnaryOp"),
              **{name: F.constant(name) for name in _SUB_CONSTANTS}}
    assert _python_numbers() == {F.plain(name): value for name, value in header.items()}
    assert [P.NAMES[value] for value in opcodes.values()] == [F.plain(n) for n in opcodes]


def test_the_operand_table_has_one_row_per_opcode_in_its_order():
    assert [row.name for row in F.op_formats()] == list(P.NAMES)


def test_an_op_has_the_headers_fields():
    assert len(P.Op._fields) == F.constant("kOpFields")
    assert P.Op._fields == ("code", "dst", "a", "b", "sub", "operands", "extra", "extra2")


def _callable_name(path: str) -> str:
    """``ops.aten._scaled_dot_product_efficient_attention.default`` -> its op's name."""
    return [part for part in path.split(".") if part != "default"][-1]


def test_native_kinds_are_the_headers_numbered_and_named_alike():
    kinds = F.enum("NativeKind")
    assert kinds.pop("kNotNative") == 0
    assert kinds.pop("kNativeKinds") == max(P.NATIVE_KINDS) + 1
    assert {number: F.plain(name) for name, number in kinds.items()} == {
        number: F.plain(_callable_name(path)) for number, path in P.NATIVE_KINDS.items()}
    assert kinds["kReinterpretTensor"] == P.REINTERPRET_KIND


def test_the_kinds_that_take_folded_views_are_those_below_the_first_viewless_one():
    """The planner folds views only into the kinds the validator lets carry view bits."""
    assert frozenset(range(1, F.constant("kFirstViewlessKind"))) == P._VIEW_TAKERS


def test_the_check_fails_when_one_side_changes_alone(monkeypatch):
    """The comparison is live: a Python number changed alone no longer matches."""
    monkeypatch.setattr(P, "SITE", 99)
    with pytest.raises(AssertionError):
        test_opcodes_operators_and_sub_bits_are_the_headers()


def test_a_wheel_ships_every_header_a_shim_includes():
    """The shims are compiled after install from fastlaunch/csrc: each header of
    csrc/ they include is installed there, where their ``-I csrc`` finds it."""
    root = F.HEADER.parents[2]
    cmake = (root / "CMakeLists.txt").read_text()
    # folders installed whole (the shims' own, with their headers), and header-only ones
    whole = {folder for line in re.findall(
        r"^install\(DIRECTORY ((?:csrc/\w+ ?)+) DESTINATION fastlaunch/csrc\)$", cmake, re.M)
        for folder in line.split()}
    assert "csrc/shims" in whole
    for source in (root / "csrc" / "shims").glob("*.[ch]*"):
        for header in re.findall(r'^#include "([^"]+)"', source.read_text(), re.M):
            if not (root / "csrc" / header).is_file():
                continue  # not fastlaunch's (torch_npu's, for the task-queue shim)
            folder = header.rsplit("/", 1)[0]
            assert f"csrc/{folder}" in whole or (
                f"install(DIRECTORY csrc/{folder}/ DESTINATION fastlaunch/csrc/{folder} "
                'FILES_MATCHING PATTERN "*.h")') in cmake, header


def test_a_change_of_the_header_rebuilds_the_shim(tmp_path):
    """The ATen shim's build key covers the header it includes (its source digest)."""
    from fastlaunch.builds import core

    copy = tmp_path / "csrc"
    shutil.copytree(F.HEADER.parents[1] / "shims", copy / "shims")
    shutil.copytree(F.HEADER.parent, copy / "core")
    base = core.digest(copy / "shims" / "aten_ops.cpp")
    (copy / "core" / F.HEADER.name).write_text(F.HEADER.read_text() + "\n// edited\n")
    assert core.digest(copy / "shims" / "aten_ops.cpp") != base
