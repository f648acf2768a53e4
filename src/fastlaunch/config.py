# SPDX-License-Identifier: Apache-2.0
"""Environment switches, parsed once, with an override for tests."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import warnings
from collections.abc import Iterator

_TRUE = frozenset({"1", "true", "yes", "on", "y"})
_FALSE = frozenset({"", "0", "false", "no", "off", "n"})
BACKENDS = ("auto", "npu", "cuda", "fake")
NPU_IMPLS = ("fastlaunch", "torch_npu")


@dataclasses.dataclass(frozen=True)
class Config:
    enabled: bool = False
    enabled_by: str = ""  # the variable that turned it on
    backend: str = "auto"
    strict: bool = False
    npu_impl: str = "fastlaunch"
    cann_libraries: tuple[str, ...] = ("libascendcl.so", "libruntime.so")
    parsed: tuple[tuple[str, str, str], ...] = ()  # (name, raw, meaning) for doctor


def parse_bool(name: str, raw: str | None) -> bool:
    """1/true/yes/on/y (any case, stripped) is on; anything unknown warns and is off."""
    value = (raw or "").strip().lower()
    if value in _TRUE:
        return True
    if value not in _FALSE:
        warnings.warn(f"{name}={raw!r} is not a boolean (expected one of "
                      f"{sorted(_TRUE)} or {sorted(_FALSE - {''})}); treating it as off",
                      RuntimeWarning, stacklevel=3)
    return False


def _parse_choice(name: str, raw: str | None, choices: tuple[str, ...]) -> str:
    value = (raw or "").strip().lower() or choices[0]
    if value not in choices:
        warnings.warn(f"{name}={raw!r} is not one of {choices}; using {choices[0]!r}",
                      RuntimeWarning, stacklevel=3)
        return choices[0]
    return value


def from_environ(environ: dict[str, str] | os._Environ | None = None) -> Config:
    env = os.environ if environ is None else environ
    parsed = []
    enabled, enabled_by = False, ""
    for name in ("FASTLAUNCH", "TORCHINDUCTOR_NPU_FAST_LAUNCH"):
        if name in env:
            on = parse_bool(name, env[name])
            parsed.append((name, env[name], "on" if on else "off"))
            if on and not enabled:
                enabled, enabled_by = True, name
    backend = _parse_choice("FASTLAUNCH_BACKEND", env.get("FASTLAUNCH_BACKEND"), BACKENDS)
    strict = parse_bool("FASTLAUNCH_STRICT", env.get("FASTLAUNCH_STRICT"))
    npu_impl = _parse_choice("FASTLAUNCH_NPU_IMPL", env.get("FASTLAUNCH_NPU_IMPL"), NPU_IMPLS)
    libs = tuple(p for p in env.get("FASTLAUNCH_CANN_LIBRARIES", "").split(os.pathsep) if p)
    parsed += [("FASTLAUNCH_BACKEND", env.get("FASTLAUNCH_BACKEND", ""), backend),
               ("FASTLAUNCH_STRICT", env.get("FASTLAUNCH_STRICT", ""), "on" if strict else "off"),
               ("FASTLAUNCH_NPU_IMPL", env.get("FASTLAUNCH_NPU_IMPL", ""), npu_impl)]
    extra = {"cann_libraries": libs} if libs else {}
    return Config(enabled=enabled, enabled_by=enabled_by, backend=backend, strict=strict,
                  npu_impl=npu_impl, parsed=tuple(parsed), **extra)


_current: Config | None = None


def get() -> Config:
    """The process configuration, read from the environment on first use."""
    global _current
    if _current is None:
        _current = from_environ()
    return _current


@contextlib.contextmanager
def override(**changes: object) -> Iterator[Config]:
    """Temporarily replace fields of the configuration (tests, the demo)."""
    global _current
    previous = get()
    _current = dataclasses.replace(previous, **changes)
    try:
        yield _current
    finally:
        _current = previous
