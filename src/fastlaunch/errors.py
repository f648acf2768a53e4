# SPDX-License-Identifier: Apache-2.0
"""Errors as data: a slug reason plus what the caller may still do."""

from __future__ import annotations


class FastLaunchError(RuntimeError):
    """A planned launch failed.

    ``submitted`` is True when the kernel may have reached the device queue;
    the engine then never launches it again. ``stable`` marks a failure that
    will repeat for the same launcher, so a negative cache entry is worth it.
    """

    #: True when the original path may still run this call: nothing reached
    #: the backend's launch call.
    recoverable = False

    def __init__(self, reason: str, *, submitted: bool = False, stable: bool = False,
                 detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.submitted = submitted
        self.stable = stable
        self.detail = detail


class CallRefused(FastLaunchError):
    """This one call cannot use the plan (grid, stream, args); nothing was packed."""

    recoverable = True


class PlanUnavailable(CallRefused):
    """No plan can be made for this launcher; it stays on the original path."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason, stable=True, detail=detail)
