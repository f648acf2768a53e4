# SPDX-License-Identifier: Apache-2.0
"""Typed, frozen launch options that check themselves: the one rule both
backends' options follow (``NpuOptions``, ``CudaOptions``).

A spec written by hand (tests, benchmarks) may carry a plain mapping, which
``of`` checks: an unknown key or a value of the wrong type is refused,
naming the field, the value and what was expected, so a stale or misspelt
option never passes silently. Options read as a mapping too, for reports and
launch records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import ClassVar

from ..errors import PlanUnavailable

_EXPECTED = {"bool": "True or False", "int": "an int", "str": "a str",
             "str | None": "None or a str"}


def _is(value: object, kind: str) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    return value is None or isinstance(value, str)


@dataclasses.dataclass(frozen=True, eq=False)
class LaunchOptions(Mapping):
    """Base of one backend's options: subclasses declare fields with the
    annotations ``bool``, ``int``, ``str`` or ``str | None`` and ``refusal``,
    the PlanUnavailable reason of a bad value."""

    refusal: ClassVar[str] = "bad_options"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not _is(value, f.type):  # the annotation's text: "bool", "int", ...
                raise PlanUnavailable(self.refusal, detail=(
                    f"options.{f.name}: got {value!r} ({type(value).__name__}), "
                    f"expected {_EXPECTED[f.type]}"))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def of(cls, options: Mapping):
        """``options`` as this class; PlanUnavailable for an unknown key or a bad value."""
        if isinstance(options, cls):
            return options
        names = cls.names()
        unknown = sorted(str(k) for k in options if k not in names)
        if unknown:
            raise PlanUnavailable(cls.refusal, detail=(
                f"options: got unknown key {unknown[0]!r}, expected one of "
                f"{', '.join(sorted(names))}"))
        return cls(**options)

    def __getitem__(self, key: str) -> object:
        if key not in self.names():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.items())})"
