# SPDX-License-Identifier: Apache-2.0
"""Transactional attribute patching: all replacements or none."""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger(__name__)
_MISSING = object()


class PatchSet:
    """A named list of (owner, attribute, value) replacements.

    ``install`` applies them in order; if one fails, every earlier one is
    undone in reverse (attributes that did not exist are deleted) and the
    error propagates. ``uninstall`` puts the original objects back. Both hold
    the set's lock, so a racing install and uninstall each see the other
    complete: never a partial patch that reports installed.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.RLock()
        self._planned: list[tuple[Any, str, Any]] = []
        self._applied: list[tuple[Any, str, Any]] = []  # (owner, attr, previous or _MISSING)
        self._installed = False

    def add(self, owner: Any, attr: str, value: Any) -> PatchSet:
        with self._lock:
            if self._applied:
                msg = f"patch set {self.name!r}: cannot add {attr!r} while installed"
                raise RuntimeError(msg)
            self._planned.append((owner, attr, value))
        return self

    @property
    def installed(self) -> bool:
        return self._installed

    def install(self) -> bool:
        """Apply every replacement; False (and a log line) when already installed."""
        with self._lock:
            if self._applied:
                log.info("fastlaunch: patch set %s is already installed", self.name)
                return False
            try:
                for owner, attr, value in self._planned:
                    previous = owner.__dict__.get(attr, _MISSING) if isinstance(owner, type) \
                        else getattr(owner, attr, _MISSING)
                    setattr(owner, attr, value)
                    self._applied.append((owner, attr, previous))
            except BaseException:
                self._restore()
                raise
            self._installed = True
        log.info("fastlaunch: installed patch set %s (%d attributes)", self.name,
                 len(self._planned))
        return True

    def uninstall(self) -> bool:
        with self._lock:
            if not self._applied:
                return False
            self._restore()
            return True

    def _restore(self) -> None:
        """Undo in reverse order; what could not be restored stays applied (and
        the set installed), so ``uninstall`` can be retried."""
        errors, failed = [], []
        while self._applied:
            owner, attr, previous = entry = self._applied.pop()
            try:
                if previous is _MISSING:
                    delattr(owner, attr)
                else:
                    setattr(owner, attr, previous)
            except Exception as err:  # keep restoring the rest
                errors.append(f"{attr}: {err}")
                failed.append(entry)
        self._applied = failed[::-1]
        self._installed = bool(failed)
        if errors:
            msg = f"patch set {self.name!r}: could not restore " + "; ".join(errors)
            raise RuntimeError(msg)
