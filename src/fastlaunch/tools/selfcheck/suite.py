# SPDX-License-Identifier: Apache-2.0
"""The representative programs, compiled with ``torch.compile`` and checked
call site by call site on the machine's own stack (cuda or npu)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import Any

from ... import config
from .interpose import InterposeRecorder
from .report import Outcome
from .sites import CallSites, differential


@dataclasses.dataclass(frozen=True)
class Program:
    name: str
    what: str                                  # what it covers, for the report
    make: Callable[[str], tuple[Callable, tuple]]  # device -> (function, inputs)
    compile_kw: dict = dataclasses.field(default_factory=dict)
    inductor: dict = dataclasses.field(default_factory=dict)  # torch._inductor.config patch
    devices: tuple[str, ...] = ("cuda", "npu")


def _pointwise(device):
    import torch

    return (lambda a, b: (a * 2 + b).relu(),
            (torch.randn(4096, device=device), torch.randn(4096, device=device)))


def _reductions(device):
    import torch

    return (lambda a: (a.sum(-1) + a.amax(-1), a.softmax(-1)),
            (torch.randn(37, 3000, device=device),))


def _full_reduction(device):
    import torch

    return (lambda a: (a.sum(), a.mean(0)), (torch.randn(1, 1024, device=device),))


def _dynamic(device):
    import torch

    return (lambda a, b: torch.sin(a) * 3 + b[: a.shape[0]],
            (torch.randn(1000, device=device), torch.randn(1500, device=device)))


def _float_input(device):
    import torch

    return (lambda a, s: a * s + 1, (torch.randn(777, device=device), 0.375))


def _gather(device):
    import torch

    return (lambda a, idx: a[idx] * 2 + 1,
            (torch.randn(4096, device=device), torch.randint(0, 4096, (3000,), device=device)))


def _scan(device):
    import torch

    return (lambda a: torch.cumsum(a, -1) * 0.5, (torch.randn(16, 2048, device=device),))


def _user_kernel(n: int):
    def make(device):
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def _selfcheck_add(x, y, out, n_elements, BLOCK_SIZE: tl.constexpr):
            i = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
            mask = i < n_elements
            tl.store(out + i, tl.load(x + i, mask=mask) + tl.load(y + i, mask=mask), mask=mask)

        def fn(x, y):
            out = torch.empty_like(x)
            n_elements = out.numel()
            grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
            _selfcheck_add[grid](x, y, out, n_elements, BLOCK_SIZE=128)
            return out

        return fn, (torch.randn(n, device=device), torch.randn(n, device=device))

    return make


PROGRAMS = (
    Program("pointwise", "pointwise kernel", _pointwise),
    Program("pointwise-triton-launcher", "pointwise kernel through Triton's own launcher",
            _pointwise, inductor={"use_static_cuda_launcher": False}, devices=("cuda",)),
    Program("reductions", "row reductions (sum, amax, softmax)", _reductions),
    Program("full-reduction", "full reduction (size argument equal to 1)", _full_reduction),
    Program("dynamic", "dynamic shapes: integer size arguments", _dynamic,
            compile_kw={"dynamic": True}),
    Program("float-input", "a Python float input (the stack decides how it reaches the kernel)",
            _float_input, compile_kw={"dynamic": True}),
    Program("user-kernel", "user-defined Triton kernel", _user_kernel(3000)),
    # Kernels triton-ascend may compile as SIMT (indirect indexing) or with
    # workspace and sync-block locks (scans); the report says which it did.
    Program("gather", "indirect indexing (a SIMT candidate)", _gather, devices=("npu",)),
    Program("scan", "cumulative sum (workspace and lock candidate)", _scan, devices=("npu",)),
    Program("user-kernel-n1", "user-defined Triton kernel on a 1-element input (size 1)",
            _user_kernel(1)),
)


@contextlib.contextmanager
def _inductor_config(patch: dict):
    import torch._inductor.config as inductor_config

    known = {k: v for k, v in patch.items() if hasattr(inductor_config, k)}
    # Fresh codegen: the check needs the call sites this process generates.
    with inductor_config.patch({"force_disable_caches": True, **known}):
        yield


def run_programs(device: str, programs: tuple[Program, ...], recorder: InterposeRecorder,
                 outcomes: list[Outcome], not_checked: list[str], *, forward: bool,
                 settle: Callable[[], Any]) -> list[str]:
    """Compile and check each program; returns what was covered."""
    import torch

    covered = []
    for program in programs:
        if device not in program.devices:
            continue
        torch._dynamo.reset()
        try:
            with _inductor_config(program.inductor), config.override(enabled=True,
                                                                      strict=False):
                fn, inputs = program.make(device)
                with CallSites() as found:
                    compiled = torch.compile(fn, **program.compile_kw)
                    compiled(*inputs)  # warm-up: compile, autotune, promote
                    settle()
                before = len(outcomes)
                with differential(found.sites, recorder, outcomes, forward=forward,
                                  settle=settle, label=f"{program.name}: "):
                    compiled(*inputs)
                settle()
        except Exception as err:  # the stack cannot compile it: say so, check the rest
            not_checked.append(f"{program.name}: could not compile or run "
                               f"({type(err).__name__}: {str(err).splitlines()[0][:160]})")
            continue
        finally:
            torch._dynamo.reset()
        if len(outcomes) == before:
            not_checked.append(f"{program.name}: no fastlaunch call site was generated")
        else:
            covered.append(f"{program.name}: {program.what} ({len(outcomes) - before} kernels)")
    return covered
