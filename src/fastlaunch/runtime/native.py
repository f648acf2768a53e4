# SPDX-License-Identifier: Apache-2.0
"""What the native launchers' exceptions mean to the engine.

The native packer raises ``GridError``, ``DeviceMismatch`` and
``InputError`` only before the runtime's launch call, so each becomes a
recoverable ``CallRefused``: the engine hands that one call to the original
path (strict mode raises). ``LaunchError`` and anything else may come after
submission and are never replayed.
"""

from __future__ import annotations

from ..errors import CallRefused, FastLaunchError
from . import _core
from .base import Plan

_DEFAULT_REASONS = (  # most specific first; the core names its own reason when it can
    (_core.GridError, "grid_out_of_range"),
    (_core.DeviceMismatch, "device_mismatch"),
    (_core.InputError, "bad_value"),
)


def _refusal(err: BaseException) -> str:
    """The reason slug of an error raised before submission ("" for any other)."""
    for kind, default in _DEFAULT_REASONS:
        if isinstance(err, kind):
            return getattr(err, "reason", None) or default
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


class NativePlan(Plan):
    """A plan around a ``_core`` launcher (the subclass's ``launcher`` field):
    it packs with the launcher's plan, and its errors mean what ``translate``
    says."""

    launcher: _core.CudaLauncher | _core.NpuLauncher

    @property
    def packer(self) -> _core.Plan:
        return self.launcher.plan

    def translate(self, err: BaseException) -> FastLaunchError:
        return translate(err)
