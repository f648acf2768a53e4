# SPDX-License-Identifier: Apache-2.0
"""What the native launchers' exceptions mean to the engine.

The native packer raises ``GridError``, ``DeviceMismatch`` and
``InputError`` only before the runtime's launch call, so each becomes a
recoverable ``CallRefused``: the engine hands that one call to the original
path (strict mode raises). ``LaunchError`` and anything else may come after
submission and are never replayed.
"""

from __future__ import annotations

from .. import _core
from ..errors import CallRefused, FastLaunchError


def _refusal(err: BaseException) -> str:
    """The reason slug of an error raised before submission ("" for any other)."""
    no_context = getattr(_core, "NoContext", None)  # newer cores tell it apart
    if no_context is not None and isinstance(err, no_context):
        return "no_context"
    if isinstance(err, _core.GridError):
        return "grid_out_of_range"
    if isinstance(err, _core.DeviceMismatch):
        return "device_mismatch"
    if isinstance(err, _core.InputError):
        return "bad_argument"
    return ""


def translate(err: BaseException) -> FastLaunchError:
    if isinstance(err, FastLaunchError):
        return err
    reason = _refusal(err)
    if reason:
        return CallRefused(reason, detail=str(err))
    if isinstance(err, _core.LaunchError):
        return FastLaunchError("launch_failed", submitted=True, detail=str(err))
    return FastLaunchError("backend_error", submitted=True, detail=f"{type(err).__name__}: {err}")
