# SPDX-License-Identifier: Apache-2.0
"""selfcheck on an Ascend NPU: triton-ascend's launcher against fastlaunch's plans.

The CANN launch entry points (``rtKernelLaunch``, ``rtKernelLaunchWithFlagV2``)
are interposed; launches made from
torch_npu's task queue are waited for (``torch.npu.synchronize``) inside each
capture.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util

from .interpose import InterposeRecorder
from .report import Outcome, Report
from .suite import PROGRAMS, run_programs


def available() -> tuple[bool, str]:
    if importlib.util.find_spec("torch_npu") is None:
        return False, "torch_npu is not installed"
    try:
        import torch
        import torch_npu  # noqa: F401
    except Exception as err:  # a broken CANN install surfaces here
        return False, f"torch_npu does not import: {type(err).__name__}: {err}"
    if not torch.npu.is_available():
        return False, "no Ascend NPU"
    return True, ""


def _stack() -> dict[str, str]:
    import torch

    out = {}
    for dist in ("torch", "torch-npu", "triton-ascend"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "?"
    out["device"] = torch.npu.get_device_name()
    return out


def _features(outcomes: list[Outcome]) -> dict[str, bool]:
    """Which NPU launch features the checked kernels exercised."""
    seen = {"workspace": False, "sync-block locks": False, "SIMT": False,
            "SIMT launch (rtKernelLaunchWithFlagV2)": False,
            "FFTS": False}
    for o in outcomes:
        if o.verdict != "equal":
            continue
        opts = o.options
        seen["workspace"] |= bool(opts.get("workspace_size", 0) and opts["workspace_size"] > 0)
        seen["sync-block locks"] |= bool(opts.get("lock_num", 0) and opts["lock_num"] > 0)
        seen["SIMT"] |= bool(opts.get("simt"))
        seen["SIMT launch (rtKernelLaunchWithFlagV2)"] |= bool(
            opts.get("simt_launch"))
        seen["FFTS"] |= bool(opts.get("ffts"))
    return seen


def run(forward: bool, programs: list[str] | None = None) -> Report:
    import torch

    from ...integrations.torch_npu import integration

    recorder = InterposeRecorder()
    report = Report(backend="npu", stack=_stack(), forwarded=forward)
    installed_here = integration.install()
    try:
        report.checked = run_programs("npu", tuple(p for p in PROGRAMS
                                                   if not programs or p.name in programs),
                                      recorder, report.outcomes,
                                      report.not_checked, forward=forward,
                                      settle=torch.npu.synchronize)
    finally:
        if installed_here:
            integration.uninstall()
    for feature, seen in _features(report.outcomes).items():
        if seen:
            report.checked.append(f"{feature}: at least one checked kernel uses it")
        else:
            report.not_checked.append(f"{feature}: no kernel of the suite used it on this "
                                      "stack and chip")
    report.checked.append("per launch: API, handle, blockDim, stream, flags and task config "
                          "(SIMT local memory), argument bytes and size")
    report.routes = recorder.routes()
    return report
