# SPDX-License-Identifier: Apache-2.0
"""Outcomes of a selfcheck run: the table, the JSON report and the exit code."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

from .compare import Difference
from .interpose import Launch

EXIT_OK = 0           # every planned launch sent exactly what the original sent
EXIT_MISMATCH = 1     # a difference, or a path that raised
EXIT_USAGE = 2        # bad command line (argparse)
EXIT_UNCHECKED = 3    # nothing could be compared here (no device, no reference launcher)


@dataclasses.dataclass
class Outcome:
    """One kernel call, made once through the original path and once through the plan."""

    kernel: str
    launcher: str                      # which original launcher ran (static, triton, ...)
    original: list[Launch]
    planned: list[Launch]
    differences: list[Difference]
    planned_used: bool                 # the planned path really launched (not a fallback)
    note: str = ""                     # why it was not planned, or what fell back
    error: str = ""                    # a path raised
    options: dict = dataclasses.field(default_factory=dict)  # the plan's launch settings

    @property
    def verdict(self) -> str:
        if self.error:
            return "ERROR"
        if self.differences:
            return "MISMATCH"
        return "equal" if self.planned_used else "not planned"

    @property
    def failed(self) -> bool:
        return self.verdict in ("ERROR", "MISMATCH")

    @property
    def api(self) -> str:
        a = self.original[0].api if self.original else "-"
        b = self.planned[0].api if self.planned else "-"
        return a if a == b else f"{a} / {b}"

    @property
    def bytes_equal(self) -> str:
        if not self.original and not self.planned:
            return "no launch"
        if self.error or len(self.original) != len(self.planned):
            return "-"
        same = all(a.args == b.args for a, b in zip(self.original, self.planned))
        size = sum(len(a.args) for a in self.original)
        return f"yes ({size} B)" if same else "NO"

    def as_json(self) -> dict:
        return {"kernel": self.kernel, "launcher": self.launcher, "verdict": self.verdict,
                "api": self.api, "bytes_equal": self.bytes_equal,
                "planned_used": self.planned_used, "note": self.note, "error": self.error,
                "options": {k: repr(v) for k, v in self.options.items()},
                "differences": [dataclasses.asdict(d) | {"text": str(d)}
                                for d in self.differences],
                "original": [x.as_json() for x in self.original],
                "planned": [x.as_json() for x in self.planned]}


@dataclasses.dataclass
class Report:
    backend: str
    stack: dict[str, str]
    forwarded: bool
    outcomes: list[Outcome] = dataclasses.field(default_factory=list)
    checked: list[str] = dataclasses.field(default_factory=list)
    not_checked: list[str] = dataclasses.field(default_factory=list)
    routes: list[str] = dataclasses.field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if any(o.failed for o in self.outcomes):
            return EXIT_MISMATCH
        if not any(o.planned_used for o in self.outcomes):
            return EXIT_UNCHECKED
        return EXIT_OK

    def table(self) -> str:
        rows = [("kernel", "launcher", "API", "bytes equal", "verdict")]
        rows += [(o.kernel, o.launcher, o.api, o.bytes_equal,
                  o.verdict + (f" ({o.note})" if o.note else "")) for o in self.outcomes]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = ["  ".join([*(c.ljust(w) for c, w in zip(r[:4], widths)), r[4]]).rstrip()
                 for r in rows]
        lines.insert(1, "  ".join("-" * w for w in [*widths, 7]))
        return "\n".join(lines)

    def text(self) -> str:
        if self.backend == "fake-npu":
            how = "recorded by a fake CANN runtime"
        else:
            how = "forwarded to the device" if self.forwarded else "swallowed (nothing ran)"
        out = [f"fastlaunch selfcheck: backend {self.backend}, launches {how}",
               "stack: " + ", ".join(f"{k} {v}" for k, v in self.stack.items()), "",
               self.table()]
        for o in self.outcomes:
            if o.failed:
                out.append(f"\n{o.kernel}: {o.verdict}")
                out += [f"  {d}" for d in o.differences]
                if o.error:
                    out.append(f"  {o.error}")
        if self.routes:
            out.append("\nlaunch entry points caught via: " + ", ".join(self.routes))
        out.append("\nchecked:")
        out += [f"  - {c}" for c in self.checked] or ["  - nothing"]
        out.append("not checked:")
        out += [f"  - {c}" for c in self.not_checked] or ["  - nothing"]
        counts = {v: sum(o.verdict == v for o in self.outcomes)
                  for v in ("equal", "not planned", "MISMATCH", "ERROR")}
        out.append("\n" + ", ".join(f"{n} {v}" for v, n in counts.items())
                   + f" -> exit {self.exit_code}")
        return "\n".join(out)

    def as_json(self) -> dict:
        return {"backend": self.backend, "stack": self.stack, "forwarded": self.forwarded,
                "exit_code": self.exit_code, "checked": self.checked,
                "not_checked": self.not_checked, "routes": self.routes,
                "outcomes": [o.as_json() for o in self.outcomes]}

    def write_json(self, path: str | Path) -> None:
        write_json(path, self.as_json())


def write_json(path: str | Path, report: dict) -> None:
    """``report`` as indented JSON in ``path``; an OSError (a full disk) reaches the caller."""
    with Path(path).open("w") as out:
        out.write(json.dumps(report, indent=1) + "\n")
        out.flush()


def unchecked(backend: str, why: Sequence[str]) -> Report:
    """A report that compared nothing, saying why."""
    return Report(backend=backend, stack={}, forwarded=False, not_checked=list(why))
