# SPDX-License-Identifier: Apache-2.0
"""Backend registry: one instance per backend name, created on first use."""

from __future__ import annotations

import importlib

from .. import config
from ..errors import PlanUnavailable
from .base import Backend, KernelSpec, LaunchRecord

__all__ = ["NAMES", "Backend", "KernelSpec", "LaunchRecord", "for_abi", "get", "set_backend"]

NAMES = ("fake", "npu", "cuda")
_CLASSES = {"fake": "FakeBackend", "npu": "NpuBackend", "cuda": "CudaBackend"}
_instances: dict[str, Backend] = {}
_fakes: dict[str, Backend] = {}  # FASTLAUNCH_BACKEND=fake: by ABI, when the registered one differs


def get(name: str) -> Backend:
    """The shared instance of backend ``name`` (fake, npu or cuda)."""
    if name not in NAMES:
        msg = f"backend: got {name!r}, expected one of {NAMES}"
        raise ValueError(msg)
    if name not in _instances:
        module = importlib.import_module(f"{__package__}.{name}")
        _instances[name] = getattr(module, _CLASSES[name])()
    return _instances[name]


def set_backend(name: str, backend: Backend | None) -> Backend | None:
    """Install (or with None, drop) the instance used for ``name``; returns the previous one."""
    previous = _instances.pop(name, None)
    if backend is not None:
        _instances[name] = backend
    return previous


def for_abi(abi: str) -> Backend:
    """The backend that launches code generated for ``abi`` (npu or cuda).

    ``FASTLAUNCH_BACKEND=fake`` routes every plan to the fake runtime, which
    records launches instead of running them, with the layout of ``abi``: the
    registered fake when it has that ABI, otherwise one fake per ABI.
    """
    choice = config.get().backend
    if choice == "fake":
        fake = get("fake")
        if getattr(fake, "abi", abi) == abi:
            return fake
        if abi not in _fakes:
            from .fake import FakeBackend

            _fakes[abi] = FakeBackend(abi)
        return _fakes[abi]
    if choice not in ("auto", abi):
        raise PlanUnavailable("backend_mismatch",
                              detail=f"FASTLAUNCH_BACKEND={choice} but the code targets {abi}")
    backend = get(abi)
    ok, why = backend.available()
    if not ok:
        raise PlanUnavailable("backend_unavailable", detail=why)
    return backend
