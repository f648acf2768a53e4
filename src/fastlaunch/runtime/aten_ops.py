# SPDX-License-Identifier: Apache-2.0
"""The planned call's native extern kernels and aten ops, built against the installed torch.

The program tags the calls it knows (``program.NATIVE_KINDS``: the ``out=``
GEMMs, attention, convolution, the wrapper's ``empty_strided_*`` allocations
and ``reinterpret_tensor`` views); the executor hands their arguments to this
shim, which calls ATen's C++ API without torch's Python argument parsing, or
declines (an argument it does not take as the binding would) so the Python
callable runs. Until it is loaded, and with ``FASTLAUNCH_PLANNED_CALL=0``,
every such call is the Python one.

Built and found like the tensor accessor, by ``fastlaunch.builds.shims``.
"""

from __future__ import annotations

from .. import config
from ..builds import registry, shims
from . import _core

SHIM = registry.ATEN_OPS
_module: list[object] = []  # the shim's module once loaded


def _check_switch(on: object) -> None:
    if not isinstance(on, bool):
        msg = f"on: got {on!r}, expected True or False"
        raise TypeError(msg)


def _activate(module: object) -> None:
    _core.set_aten_ops(module.capsule())  # type: ignore[attr-defined]
    prepared = config.get().prepared_ops
    module.set_prepared_ops(prepared, prepared)  # type: ignore[attr-defined]
    _module[:] = [module]


def prepare(on: bool, *, cublaslt: bool | None = None) -> None:
    """Run the ops the shim takes (GEMMs, attention, convolution) on their kernel
    directly where that is the same call, and the CUDA GEMMs the cuBLASLt tier takes
    through checked plans (True, ``FASTLAUNCH_PREPARED_OPS``' default), or through ATen's dispatcher
    (False), for A/B measurements; ``cublaslt=False`` keeps static dispatch without
    the plans. Nothing until the shim is loaded."""
    _check_switch(on)
    cublaslt = on if cublaslt is None else cublaslt
    if not isinstance(cublaslt, bool):
        msg = f"cublaslt: got {cublaslt!r}, expected True, False or None"
        raise TypeError(msg)
    if cublaslt and not on:
        msg = "cublaslt: got True with on=False, expected False or None (plans are prepared ops)"
        raise ValueError(msg)
    if _module:
        _module[0].set_prepared_ops(on, cublaslt)  # type: ignore[attr-defined]


def static_ops() -> dict[int, int]:
    """Calls the shim ran on their backend kernel directly (static dispatch, as
    AOTI's C shim calls them), per native kind (kinds with none left out); the
    others it ran went through the dispatcher. Empty until the shim is loaded."""
    return dict(_module[0].static_ops()) if _module else {}  # type: ignore[attr-defined]


def reset_static_ops() -> None:
    if _module:
        _module[0].reset_static_ops()  # type: ignore[attr-defined]


def cublaslt() -> tuple[bool, dict[int, int], dict[str, int]]:
    """The cached cuBLASLt tier of the CUDA GEMMs: whether the loaded shim was
    built with it (CUDA's headers found, of torch's CUDA major version, torch 2.9
    or later; where not, doctor's ``aten_ops`` row says why), the GEMMs run
    through a checked plan per native kind, and per reason the CUDA GEMMs that
    kept static dispatch (``form``, ``first_call``, ``mismatch``, ...: the
    reasons of ``csrc/shims/cublaslt_plans.h``, listed in docs/configuration.md).
    (False, {}, {}) until the shim is loaded."""
    if not _module:
        return False, {}, {}
    built, gemms, declined = _module[0].cublaslt()  # type: ignore[attr-defined]
    return bool(built), dict(gemms), dict(declined)


def _without_cublaslt() -> str:
    """What doctor's row adds where the loaded shim of a CUDA torch lacks the
    cuBLASLt tier: why (``shims.cublaslt_headers``' reason, else torch's version)."""
    if not _module or cublaslt()[0]:
        return ""
    try:
        cuda = shims.torch_has_cuda()
    except ImportError:  # doctor run where torch cannot be imported: no tier to explain
        return ""
    if not cuda:
        return ""
    _, why = shims.cublaslt_headers()
    return f"without the cuBLASLt tier: {why or 'torch before 2.9'}"


def reset_cublaslt() -> None:
    if _module:
        _module[0].reset_cublaslt()  # type: ignore[attr-defined]


def use(on: bool) -> bool:
    """Run tagged calls through the loaded shim (True) or their Python callables
    (False), for A/B measurements; returns whether the shim is in use now."""
    _check_switch(on)
    _core.set_aten_ops(_module[0].capsule() if on and _module else None)  # type: ignore[attr-defined]
    return _core.has_aten_ops()


OWNER = shims.Owner(SHIM, _activate, _core.has_aten_ops, detail=_without_cublaslt)
status = OWNER.status  # doctor's row
ensure = OWNER.ensure  # True when the shim is active
