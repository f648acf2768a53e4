# SPDX-License-Identifier: Apache-2.0
"""Saved Inductor wrappers, written as torch_npu writes them, on the ``npu``
test device, as Python ``call()`` and as a planned call, in a child process.

``python -m helpers.npu_device_calls OUT.json NAME...`` installs the test
device (``npu_device``), loads the torch-built ATen shim, and for each
``tests/data/wrappers/inductor/NAME.py``:

* ``cpu``: the saved wrapper's Python ``call()`` on its CPU inputs (what the
  device's kernels must reproduce);
* ``python``: the npu-style text's Python ``call()`` on the same inputs moved
  to ``npu`` (the oracle);
* ``planned``: the npu-style text planned by the code cache hook's
  ``plan_module``, on the same ``npu`` inputs.

Per run it reports each output (device, dtype, size, stride, bytes), the
device guard log, the device's allocations and frees (arena offsets: the same
sequence gives the same offsets), and, planned, the ATen shim's per-kind
counts (``_core.planned_call_native_ops``: ran natively, declined).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import call_trace, npu_device


def _describe(outputs) -> list:
    import torch

    out = []
    for t in outputs:
        if not isinstance(t, torch.Tensor):
            out.append(repr(t))
            continue
        host = t.cpu() if t.device.type != "cpu" else t  # .cpu() keeps a dense layout's strides
        out.append({"device": str(t.device), "type": type(t).__name__, "dtype": str(t.dtype),
                    "size": list(t.shape), "stride": list(t.stride()),
                    "stride_on_host": list(host.stride()),
                    "bytes": npu_device.tensor_bytes(host)})
    return out


def _kinds(before: dict) -> dict:
    from fastlaunch.runtime import _core

    out = {}
    for kind, (ran, declined) in _core.planned_call_native_ops().items():
        r0, d0 = before.get(kind, (0, 0))
        if (ran - r0, declined - d0) != (0, 0):
            out[str(kind)] = [ran - r0, declined - d0]
    return out


def _run(module, inputs, device: str | None) -> dict:
    from fastlaunch.runtime import _core

    args = [t.to(device) if device and hasattr(t, "to") else t for t in inputs]
    npu_device.GUARD_LOG.clear()
    npu_device.allocations()  # the inputs' allocations are not the call's
    before, runs = dict(_core.planned_call_native_ops()), _core.planned_call_runs()
    outputs = module.call(args)
    report = {"kinds": _kinds(before), "runs": _core.planned_call_runs() - runs,
              "call_type": type(module.call).__name__, "outputs": _describe(outputs),
              "guard": list(npu_device.GUARD_LOG)}
    del outputs, args  # the outputs go back to the device; the inputs died inside the call
    report["allocations"] = npu_device.allocations()
    return report


def main(out: str, *names: str) -> int:
    npu_device.install()
    import torch

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.integrations import planned_call_hook
    from fastlaunch.runtime import aten_ops

    report: dict = {"aten_ops": aten_ops.ensure(build=True, wait=True),
                    "backend": torch._C._get_privateuse1_backend_name()}
    folder = Path(out).parent
    with config.override(enabled=True, backend="fake", strict=False):
        for name in names:
            saved = call_trace.WRAPPERS / "inductor" / f"{name}.py"
            text = npu_device.npu_style(saved.read_text())
            path = folder / f"npu_{name}.py"
            path.write_text(text)
            torch.manual_seed(0)
            inputs = call_trace.load_file(saved).get_args()
            entry = {"text": text, "cpu": _run(call_trace.load_file(saved), inputs, None),
                     "python": _run(call_trace.load_file(path), inputs, "npu")}
            planned = call_trace.load_file(path)
            fastlaunch.reset_stats()
            entry["planning"] = [planned_call_hook.plan_module(planned), fastlaunch.stats()]
            entry["planned"] = _run(planned, inputs, "npu")
            report[name] = entry
    Path(out).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
