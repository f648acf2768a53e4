# SPDX-License-Identifier: Apache-2.0
"""Errors as data: a slug reason plus what the caller may still do."""

from __future__ import annotations


class FastLaunchError(RuntimeError):
    """A planned launch failed.

    ``submitted`` is True when the runtime's launch call may have been
    entered (the kernel may be queued); the engine then never launches it
    again. Anything found before that call (``submitted=False``) is
    *recoverable*: the engine hands that one call to the original path.
    ``stable`` marks a failure that will repeat for the same launcher, so a
    negative cache entry is worth it.
    """

    def __init__(self, reason: str, *, submitted: bool = False, stable: bool = False,
                 detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.submitted = submitted
        self.stable = stable
        self.detail = detail

    @property
    def recoverable(self) -> bool:
        """True when the original path may still run this call: the runtime's
        launch call was not entered."""
        return not self.submitted


class CallRefused(FastLaunchError):
    """This one call cannot use the plan (grid, stream, args, device); nothing was submitted."""

    def __init__(self, reason: str, *, stable: bool = False, detail: str = "") -> None:
        super().__init__(reason, stable=stable, detail=detail)


class PlanUnavailable(CallRefused):
    """No plan can be made for this launcher; it stays on the original path."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason, stable=True, detail=detail)
