# SPDX-License-Identifier: Apache-2.0
"""What the native launchers' exceptions mean to the engine."""

from __future__ import annotations

from .. import _core
from ..errors import CallRefused, FastLaunchError


def translate(err: BaseException) -> FastLaunchError:
    """Grid errors are raised before anything is packed, so the call may take
    the original path; input errors before anything is submitted; launch
    errors after the runtime was called (the kernel may be queued)."""
    if isinstance(err, FastLaunchError):
        return err
    if isinstance(err, _core.GridError):
        return CallRefused("grid_out_of_range", detail=str(err))
    if isinstance(err, _core.DeviceMismatch):
        return FastLaunchError("device_mismatch", detail=str(err))
    if isinstance(err, _core.InputError):
        return FastLaunchError("bad_argument", detail=str(err))
    if isinstance(err, _core.LaunchError):
        return FastLaunchError("launch_failed", submitted=True, detail=str(err))
    return FastLaunchError("backend_error", submitted=True, detail=f"{type(err).__name__}: {err}")
