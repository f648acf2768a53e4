# SPDX-License-Identifier: Apache-2.0
"""csrc/core/program_format.h as data: its numbers and its operand table, read
from the text, so the tests compare them with program.py and fuzz the
validator against the table the executor itself checks with."""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

HEADER = Path(__file__).resolve().parents[2] / "csrc" / "core" / "program_format.h"
_NUMBER = r"(0x[0-9A-Fa-f]+|\d+)"


@functools.cache
def text() -> str:
    """The header without its comments."""
    return re.sub(r"//[^\n]*", "", HEADER.read_text())


def enum(name: str) -> dict[str, int]:
    """The enumerators of ``enum name`` with their numbers (each is written with one)."""
    body = re.search(rf"enum {name} : int \{{(.*?)\}};", text(), re.S)
    assert body is not None, f"enum {name} not found in {HEADER}"
    entries = [e.strip() for e in body.group(1).split(",") if e.strip()]
    numbers = {}
    for entry in entries:
        found = re.fullmatch(rf"(k\w+) = {_NUMBER}", entry)
        assert found is not None, f"enum {name}: {entry!r} is not written with its number"
        numbers[found.group(1)] = int(found.group(2), 0)
    return numbers


def constant(name: str) -> int:
    """``constexpr int name``: written with its number, or as an enumerator
    (``kFirstViewlessKind = kReinterpretTensor``)."""
    found = re.search(rf"constexpr int {name} = ({_NUMBER}|k\w+);", text())
    assert found is not None, f"constexpr int {name} not found in {HEADER}"
    if found.group(2) is not None:
        return int(found.group(2), 0)
    enums = [enum(e) for e in re.findall(r"enum (\w+) : int \{", text())]
    return next(numbers[found.group(1)] for numbers in enums if found.group(1) in numbers)


def plain(name: str) -> str:
    """An enumerator or Python name as the other side spells it, compared:
    ``kFloorDiv`` and ``FLOORDIV``, ``kIsNot`` and ``IS_NOT`` are both ``floordiv``, ``isnot``."""
    return re.sub(r"^k(?=[A-Z])", "", name).replace("_", "").lower()


@dataclasses.dataclass(frozen=True)
class OpFormat:
    """One row of kOpFormats: what each field of an op of this kind holds
    (the enumerator's name without its ``k``: "Unused", "Slot", ...)."""

    name: str
    dst: str
    a: str
    b: str
    sub: str
    operands: str
    min_operands: int
    max_operands: int
    extra: str
    extra2: str


@functools.cache
def op_formats() -> tuple[OpFormat, ...]:
    """kOpFormats, one row per opcode in its order."""
    table = re.search(r"kOpFormats\[kOpCount\] = \{(.*?)\n\};", text(), re.S)
    assert table is not None, f"kOpFormats not found in {HEADER}"
    any_count = constant("kAnyCount")
    rows = []
    for row in re.findall(r"\{(\"\w+\",[^{}]*)\}", table.group(1)):
        name, *fields = [f.strip() for f in row.split(",")]
        values = [f.split("::k")[-1] if "::" in f else
                  any_count if f == "kAnyCount" else int(f) for f in fields]
        rows.append(OpFormat(name.strip('"'), *values))
    return tuple(rows)
