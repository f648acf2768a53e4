# SPDX-License-Identifier: Apache-2.0
"""fastlaunch's state in Inductor's compile-cache keys.

Inductor's FX graph cache (and the AOTAutograd cache built on it) stores the
generated wrapper code. Code generated with fastlaunch imports it, code
generated without it does not, so the two must never share a key. Inductor
hashes the ``uuid()`` of each custom graph pass into those keys
(``FxGraphHashDetails``, torch 2.10 to 2.14); this module puts a no-op
``CustomGraphPass`` into ``config.post_grad_custom_post_pass`` whose uuid
names fastlaunch's state. Off or not installed, the key is stock Inductor's.

A pass the user had set keeps running and keeps its own uuid in the key
(torch 2.13+ takes a list of passes; older releases get a chaining wrapper).
If the user replaces the config value afterwards, ``active()`` turns false and
the integrations generate stock code, so cached fastlaunch code can only ever
sit under a fastlaunch key.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from .. import config
from .._version import __version__

_lock = threading.Lock()
_abis: set[str] = set()
_installed: dict[str, Any] = {}  # "value": what we set, "previous": what was there


#: The format of generated code, in the key so that code written by another
#: format is never reused. Bump it when anything generated code depends on
#: changes: the call-site text (``engine.callsite``) and where ``codegen`` writes
#: it, ``routing.bind``'s signature, or which call sites the integrations
#: rewrite. ``tests/unit/integrations/test_codegen_format.py`` pins those functions
#: (docstrings and comments aside) to this number.
CODEGEN_FORMAT = 4


def state() -> tuple:
    """What the key carries now (read at each cache lookup)."""
    cfg = config.get()
    return ("fastlaunch", __version__, CODEGEN_FORMAT, tuple(sorted(_abis)),
            config.enabled_now(), cfg.backend)


def _key_pass_class() -> type:
    from torch._inductor.custom_graph_pass import CustomGraphPass

    class FastlaunchCacheKey(CustomGraphPass):
        """Changes nothing in the graph; its uuid keys fastlaunch's state."""

        def __init__(self, inner: Any = None) -> None:
            self.inner = inner  # a user's pass on releases without pass lists

        def __call__(self, graph: Any) -> None:
            if self.inner is not None:
                self.inner(graph)

        def uuid(self) -> Any:
            if self.inner is None:
                return repr(state())
            inner_uuid = getattr(self.inner, "uuid", None)
            if not isinstance(self.inner, CustomGraphPass) or inner_uuid is None:
                return None  # Inductor bypasses the cache, as it would for the user's pass
            inner_id = inner_uuid()
            return None if inner_id is None else repr((state(), inner_id))

    return FastlaunchCacheKey


_CLASS: type | None = None


def _accepts_pass_lists() -> bool:
    from torch._inductor import custom_graph_pass

    return hasattr(custom_graph_pass, "get_custom_graph_passes")


def install(abi: str) -> None:
    """Key the caches on fastlaunch's state for ``abi`` (idempotent per abi).

    Called by each integration's ``install`` before it patches codegen.
    """
    global _CLASS
    from torch._inductor import config as inductor_config

    with _lock:
        _abis.add(abi)
        if active():
            return
        if _CLASS is None:
            _CLASS = _key_pass_class()
        previous = inductor_config.post_grad_custom_post_pass
        if not previous:
            value: Any = _CLASS()
        elif _accepts_pass_lists():
            passes = list(previous) if isinstance(previous, (list, tuple)) else [previous]
            value = [*passes, _CLASS()]
        else:
            value = _CLASS(previous)
        inductor_config.post_grad_custom_post_pass = value
        _installed.update(value=value, previous=previous)


def uninstall(abi: str) -> None:
    """Drop ``abi``; the last one out restores the user's pass (if ours is still set)."""
    from torch._inductor import config as inductor_config

    with _lock:
        _abis.discard(abi)
        if _abis or not _installed:
            return
        if inductor_config.post_grad_custom_post_pass is _installed["value"]:
            inductor_config.post_grad_custom_post_pass = _installed["previous"]
        _installed.clear()


def active() -> bool:
    """True when the current Inductor config carries fastlaunch's key pass."""
    inductor_config = sys.modules.get("torch._inductor.config")
    if _CLASS is None or inductor_config is None:
        return False
    value = inductor_config.post_grad_custom_post_pass
    values = value if isinstance(value, (list, tuple)) else [value]
    return any(isinstance(v, _CLASS) for v in values)
