# SPDX-License-Identifier: Apache-2.0
"""Packing entry points for tests and tools: the native path and its numpy twin.

Both raise alike: ``FastLaunchError(reason)`` for a bad plan, ``CallRefused(reason)``
for a bad call (grid, args, values, device), with the same reason slugs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import CallRefused, FastLaunchError
from . import numpy_packer


def native_plan(abi_name: str, signature: Sequence[str], *, names: Sequence[str] | None = None,
                ffts: bool = False, ffts_addr: int = 0, pure_simt: bool = False,
                n_scratch: int = 2, expected_device: tuple[int, int] | None = None):
    """A ``fastlaunch.runtime._core.Plan`` (errors as FastLaunchError with the core's reason)."""
    from ..runtime import _core

    try:
        return _core.Plan(abi_name, signature, names=names, ffts=ffts, ffts_addr=ffts_addr,
                          pure_simt=pure_simt, n_scratch=n_scratch,
                          expected_device=expected_device)
    except _core.InputError as err:
        raise FastLaunchError(err.reason, detail=str(err)) from None


def pack_bytes(abi_name: str, signature: Sequence[str], args: Sequence[object],
               grid: Sequence[int] | None = None, *, workspace: int = 0, sync_lock: int = 0,
               **abi_flags: object) -> bytes:
    """One launch buffer packed by the C++ core."""
    from ..runtime import _core

    plan = native_plan(abi_name, signature, **abi_flags)  # type: ignore[arg-type]
    try:
        return plan.pack(args, grid, workspace=workspace, sync_lock=sync_lock)
    except _core.InputError as err:
        raise CallRefused(err.reason, detail=str(err)) from None


def pack_bytes_reference(abi_name: str, signature: Sequence[str], args: Sequence[object],
                         grid: Sequence[int] | None = None, **abi_flags: object) -> bytes:
    """The same buffer from the numpy reference packer."""
    return numpy_packer.pack(abi_name, signature, args, grid, **abi_flags)  # type: ignore[arg-type]
