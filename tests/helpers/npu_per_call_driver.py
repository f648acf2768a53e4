# SPDX-License-Identifier: Apache-2.0
"""Per-call features of one torch_npu release, run in a child process.

``python -m helpers.npu_per_call_driver VERSION SCENARIO OUT.json`` loads
``VERSION``'s own Inductor modules (``npu_release``), installs fastlaunch's
NPU integration on them as a program would, and drives the release's own
``NPUCachingAutotuner`` through a bound call site on the recording CANN
runtime (``npu_release_driver`` builds the kernel, autotuner and runtime):

* ``flag_after_bind[:FLAG]``: two calls, then ``check_accuracy`` (or FLAG)
  is set in torch_npu's config, three calls, then it is cleared, two calls;
* ``logging_after_bind``: the same with the release's logger at INFO;
* ``store_cubin``: an autotuner whose launchers the release made with
  ``store_cubin``, three calls on three streams;
* ``subgraph``: the call line the release's subgraph wrapper codegen writes;
* ``backend=NAME``: ``TORCHINDUCTOR_NPU_BACKEND=NAME`` when fastlaunch installs.

Writes the counters, the launches each call sent and what the release did
itself (its log records, its saved kernel) for the parent test.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import types
from pathlib import Path

from . import npu_release
from . import npu_release_driver as drv

STREAMS = (0x5151, 0x5152, 0x5153)
# The logger the releases' maybe_run_debug writes to (``from .config import log``).
RELEASE_LOGGER = "torch_npu._inductor.config"
# The subgraph wrapper codegen classes (2.11 and 2.12 spell it without "Python").
SUBGRAPH_CLASSES = ("NPUSubgraphPythonWrapperCodegen", "NPUSubgraphWrapperCodegen")


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _site(tuner) -> tuple[dict, object]:
    """The call site the release's wrapper codegen writes, ready to exec."""
    header, body = drv._kernel_call_code()
    scope = {drv.KERNEL: tuner, "get_raw_stream": lambda device: drv.STREAM}
    exec(header, scope)  # generated wrapper code, run as Inductor runs it
    return scope, compile(body, "<generated call>", "exec")


def _calls(scope, step, recorder, ar, launcher, first: int, count: int) -> list:
    out = []
    for i in range(first, first + count):
        recorder.reset()
        a0, a1, b0, n = drv._args(i)
        exec(step, scope, {"arg0_1": a0, "arg1_1": a1, "buf0": b0, "x0_numel": n})
        out.append(ar.observe(recorder.events(), [launcher.padding]))
    return out


def _originals(stock, recorder, ar, launcher, count: int) -> list:
    from fastlaunch import config

    out = []
    with config.override(enabled=False):
        for i in range(count):
            recorder.reset()
            stock.run(*drv._args(i), stream=drv.STREAM)
            out.append(ar.observe(recorder.events(), [launcher.padding]))
    return out


def _toggled(report, version, setting, th, make, recorder, ar, launcher) -> None:
    """2 calls, ``setting(True)``, 3 calls, ``setting(False)``, 2 calls: each
    phase's counters and launches, and the original run's launches."""
    import fastlaunch

    report["original"] = _originals(make(), recorder, ar, launcher, 7)
    tuner = make()
    scope, step = _site(tuner)
    fastlaunch.reset_stats()
    planned = _calls(scope, step, recorder, ar, launcher, 0, 2)
    report["stats_bound"] = fastlaunch.stats()
    setting(True)
    try:
        fastlaunch.reset_stats()
        planned += _calls(scope, step, recorder, ar, launcher, 2, 3)
        report["stats_set"] = fastlaunch.stats()
    finally:
        setting(False)
    fastlaunch.reset_stats()
    planned += _calls(scope, step, recorder, ar, launcher, 5, 2)
    report["stats_cleared"] = fastlaunch.stats()
    report["planned"] = planned


def _flag_after_bind(report, version, th, make, recorder, ar, launcher,
                     flag: str = "check_accuracy") -> None:
    """``flag`` in torch_npu's config set (to a kernel id list for
    ``force_fallback_kernel_id``: one naming no kernel of this graph, so the
    release's run launches) after the site was bound."""
    from torch_npu._inductor import config as npu_config

    # 2.7.1's FASTA_AUTOTUNE_STATS switch lives on its heuristics module's stats
    owner = th.stats if flag == "stats.enabled" else npu_config
    name = flag.rsplit(".", 1)[-1]
    saved = getattr(owner, name)
    value = [999] if flag == "force_fallback_kernel_id" else True

    def setting(on: bool) -> None:
        setattr(owner, name, value if on else saved)

    _toggled(report, version, setting, th, make, recorder, ar, launcher)


def _logging_after_bind(report, version, th, make, recorder, ar, launcher) -> None:
    logger = logging.getLogger(RELEASE_LOGGER)
    records = _Records()
    saved = logger.level

    def setting(on: bool) -> None:
        if on:
            logger.addHandler(records)
            logger.setLevel(logging.INFO)
        else:
            logger.removeHandler(records)
            logger.setLevel(saved)

    _toggled(report, version, setting, th, make, recorder, ar, launcher)
    report["release_records"] = records.messages


def _store_cubin(report, version, th, make, recorder, ar, launcher) -> None:
    """The release saves the kernel with each call's stream (save_gpu_kernel
    in its run); where it saves to is torch's CudaKernelParamCache."""
    from torch._inductor.codecache import CudaKernelParamCache

    import fastlaunch

    tuner = make()
    tuner.inductor_meta["store_cubin"] = True
    for result in tuner.compile_results:
        result.inductor_meta["store_cubin"] = True
        # what triton-ascend's compiler puts in asm and metadata, which
        # save_npu_kernel reads (its compiler is not here)
        result.kernel.asm = {"npubin": b"npubin of " + drv.KERNEL.encode()}
        for field, value in (("mix_mode", "aiv"), ("parallel_mode", "simd"),
                             ("force_simt_only", False), ("is_pure_simt", False)):
            if not hasattr(result.kernel.metadata, field):
                setattr(result.kernel.metadata, field, value)
    tuner.launchers = []
    tuner._make_launchers()  # the release's make_launcher, now reading store_cubin
    report["launcher_store_cubin"] = [bool(getattr(lr, "store_cubin", False))
                                      for lr in tuner.launchers]
    scope, step = _site(tuner)
    saved_streams = []
    fastlaunch.reset_stats()
    for i, stream in enumerate(STREAMS):
        scope["get_raw_stream"] = lambda device, stream=stream: stream
        a0, a1, b0, n = drv._args(i)
        recorder.reset()
        exec(step, scope, {"arg0_1": a0, "arg1_1": a1, "buf0": b0, "x0_numel": n})
        saved_streams.append((CudaKernelParamCache.get(drv.KERNEL) or {}).get("stream"))
    report["stats"] = fastlaunch.stats()
    report["saved_streams"] = saved_streams
    report["streams"] = list(STREAMS)


def _subgraph(report, version, th, make, recorder, ar, launcher) -> None:
    """What the release's subgraph wrapper codegen writes for a kernel call in
    a subgraph (torch.cond / while_loop body), with its parent wrapper."""
    import importlib

    import torch
    from torch._inductor.codegen.common import get_device_op_overrides
    from torch._inductor.codegen.wrapper import WrapperLine
    from torch._inductor.graph import GraphLowering
    from torch._inductor.utils import IndentedBuffer
    from torch._inductor.virtualized import V

    drv._kernel_call_code()  # registers the npu device ops, as the release's __init__ does
    module = importlib.import_module("torch_npu._inductor.codegen.wrapper")
    main_cls = getattr(module, "NPUPythonWrapperCodeGen", None) or module.NPUWrapperCodeGen
    name = next(n for n in SUBGRAPH_CLASSES if hasattr(module, n))
    report["subgraph_class"] = name
    for key, partition in (("call_site", None), ("partition_call_site", ())):
        graph = GraphLowering(torch.fx.symbolic_trace(lambda x: x + 1))
        graph.device_ops = get_device_op_overrides("npu")
        graph.scheduler = types.SimpleNamespace(current_stream_idx=None)
        with V.set_graph_handler(graph):
            parent = main_cls()
            graph.wrapper_code = parent
            # partition_signatures set: a graph-partition subgraph
            sub = getattr(module, name)("true_graph_0", parent, partition)
            graph.wrapper_code = sub
            sub.generate_kernel_call(drv.KERNEL, ["arg0_1", "arg1_1", "buf0", "x0_numel"],
                                     device=torch.device("npu", 0), triton=True,
                                     arg_types=[torch.float32] * 3 + [int])
            body = IndentedBuffer()
            for line in sub.lines:
                if isinstance(line, WrapperLine):
                    line.codegen(body)
                else:
                    body.writeline(line)
        report[key] = body.getvalue()
        if partition is None:
            report["parent_imports"] = [line for line in parent.imports.getvalue().splitlines()
                                        if "fastlaunch" in line]


SCENARIOS = {"flag_after_bind": _flag_after_bind, "logging_after_bind": _logging_after_bind,
             "store_cubin": _store_cubin, "subgraph": _subgraph}


def main(version: str, scenario: str, out: str) -> int:
    backend = scenario.removeprefix("backend=") if scenario.startswith("backend=") else None
    if backend is not None:
        os.environ["TORCHINDUCTOR_NPU_BACKEND"] = backend
    npu_release.install(version)
    import importlib

    import fastlaunch
    from fastlaunch import config
    from fastlaunch.integrations import autoload
    from fastlaunch.integrations.torch_npu import integration
    from fastlaunch.runtime import backends
    from fastlaunch.tools.selfcheck import ascend_reference as ar

    report: dict = {"version": version, "scenario": scenario, "codegen": drv._wrapper_codegen()}
    if npu_release.wrote_without_own_code(report, out):
        return 0
    recorder = ar.CannRecorder(ar.build_recorder())
    kernel = drv.Kernel(npu_release.RELEASES[version])
    gen, case, launcher = drv._reference_launch(ar, recorder, kernel)
    records = _Records()
    logging.getLogger("fastlaunch").addHandler(records)
    with ar.environment(case.env()), config.override(enabled=True, backend="npu"):
        fastlaunch.reset_stats()
        autoload.watch(("npu",))
        th = importlib.import_module(npu_release.heuristics_module(version))
        importlib.import_module("torch_npu._inductor.codegen.wrapper")
        report["installed"] = integration.installed()
        report["install_stats"] = fastlaunch.stats()
        report["fastlaunch_records"] = records.messages
        if backend is None:
            backends.set_backend("npu", drv.recorder_backend(recorder))

            def make():
                return drv._autotuner(th, drv._binary(gen, case, launcher, kernel), kernel)

            name, _, flag = scenario.partition(":")
            extra = {"flag": flag} if flag else {}
            SCENARIOS[name](report, version, th, make, recorder, ar, launcher, **extra)
    Path(out).write_text(json.dumps(report, default=repr, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
