# SPDX-License-Identifier: Apache-2.0
"""selfcheck on an NVIDIA GPU: stock Inductor's launchers against fastlaunch's plans."""

from __future__ import annotations

import importlib.metadata

from .compare import compare
from .interpose import InterposeRecorder
from .report import Outcome, Report
from .suite import PROGRAMS, run_programs

SCALAR_PROGRAM = "scalar-kinds"
# Every scalar type Triton's CUDA launcher takes, with a value exact in each
# (i8 non-negative: Triton 3.6's launcher parses i8 with "b", which refuses
# negative values).
SCALARS = (("b1", "i1", True), ("i8", "i8", 100), ("i16", "i16", 300), ("i32", "i32", -70000),
           ("i64", "i64", -(2**40) - 7), ("u8", "u8", 200), ("u16", "u16", 60000),
           ("u32", "u32", 4_000_000_000), ("u64", "u64", 2**63 + 5), ("h", "fp16", 1.5),
           ("bf", "bf16", 2.25), ("f", "fp32", 3.5), ("d", "fp64", -0.125))


def available() -> tuple[bool, str]:
    try:
        import torch
    except ImportError:
        return False, "torch is not installed"
    if not torch.cuda.is_available():
        return False, "no CUDA device"
    try:
        import triton  # noqa: F401
    except ImportError:
        return False, "triton is not installed"
    return True, ""


def _stack() -> dict[str, str]:
    import torch

    out = {}
    for dist in ("torch", "triton"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "?"
    out["device"] = torch.cuda.get_device_name()
    out["cuda"] = str(torch.version.cuda)
    return out


def _scalar_kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def _selfcheck_scalars(out, b1, i8, i16, i32, i64, u8, u16, u32, u64, h, bf, f, d,
                           n: tl.constexpr):
        acc = b1.to(tl.float32) + i8.to(tl.float32) + i16.to(tl.float32) + i32.to(tl.float32)
        acc += i64.to(tl.float32) + u8.to(tl.float32) + u16.to(tl.float32) + u32.to(tl.float32)
        acc += u64.to(tl.float32) + h.to(tl.float32) + bf.to(tl.float32) + f + d.to(tl.float32)
        tl.store(out + tl.arange(0, n), tl.zeros([n], tl.float32) + acc)

    return _selfcheck_scalars


def scalar_kinds(recorder: InterposeRecorder, forward: bool) -> Outcome:
    """Every scalar kind, through Triton's own launcher and through a cuda plan
    of the same compiled kernel (Inductor's programs only produce some kinds)."""
    import torch
    import triton

    from ...runtime.cuda import CudaBackend
    from ...runtime.cuda.backend import spec_from_compiled

    signature = {"out": "*fp32", **{name: kind for name, kind, _ in SCALARS}, "n": "constexpr"}
    values = tuple(v for _, _, v in SCALARS)
    outcome = Outcome(kernel=f"{SCALAR_PROGRAM}: _selfcheck_scalars", launcher="triton",
                      original=[], planned=[], differences=[], planned_used=False)
    try:
        compiled = triton.compile(triton.compiler.ASTSource(
            fn=_scalar_kernel(), signature=signature, constexprs={"n": 8}))
        compiled._init_handles()
        out = torch.zeros(8, device="cuda")
        spec = spec_from_compiled(compiled, "_selfcheck_scalars", signature,
                                  torch.cuda.current_device())
        backend = CudaBackend()
        plan = backend.make_plan(spec, input_count=len(spec.names), fixed_args=())
        stream = torch.cuda.current_stream().cuda_stream
        with recorder.capture(forward) as original:
            compiled[(1, 1, 1)](out, *values, 8, stream=stream)
        with recorder.capture(forward) as planned:
            plan.submit(stream, (1, 1, 1), (out, *values))
        torch.cuda.synchronize()
    except Exception as err:
        outcome.error = f"{type(err).__name__}: {err}"
        return outcome
    outcome.original, outcome.planned, outcome.planned_used = original, planned, True
    outcome.differences = compare(original, planned, [tuple(f) for f in plan.packer.fields])
    return outcome


def run(forward: bool, programs: list[str] | None = None) -> Report:
    import torch

    from ...integrations.inductor import integration

    names = list(programs or [])
    suite = tuple(p for p in PROGRAMS if not names or p.name in names)
    with_scalars = not names or SCALAR_PROGRAM in names
    recorder = InterposeRecorder()
    report = Report(backend="cuda", stack=_stack(), forwarded=forward)
    installed_here = integration.install()
    try:
        report.checked = run_programs("cuda", suite, recorder, report.outcomes,
                                      report.not_checked, forward=forward,
                                      settle=torch.cuda.synchronize)
    finally:
        if installed_here:
            integration.uninstall()
    if with_scalars:
        report.outcomes.append(scalar_kinds(recorder, forward))
        report.checked.append(f"{SCALAR_PROGRAM}: " + ", ".join(k for _, k, _ in SCALARS)
                              + " through Triton's launcher and a cuda plan of the same kernel")
    report.checked.append("per launch: API (cuLaunchKernelEx without attributes = "
                          "cuLaunchKernel), CUfunction, grid, block, shared memory, stream, "
                          "launch attributes, parameter bytes (kernelParams rebuilt with "
                          "cuFuncGetParamInfo)")
    report.not_checked += [
        "clusters, cooperative and PDL launches: fastlaunch refuses them (original path kept)",
        "CUDA-graph replay: no launcher runs during replay",
    ]
    report.routes = recorder.routes()
    return report
