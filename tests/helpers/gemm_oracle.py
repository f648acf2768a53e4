# SPDX-License-Identifier: Apache-2.0
"""The bitwise oracle of the planned call's prepared GEMMs (issue 29).

One case is an extern GEMM (``mm``, ``addmm``, ``bmm``, ``baddbmm`` with
``out=``) written in a one-line wrapper ``call()``, with its operands' layouts,
dtype, scalars and seed. ``compare`` makes identical inputs three times (from
the seed) and runs the Python ``call()``, its planned call and ATen's own
``torch.<op>(..., out=)`` on them: outputs (every byte of out's allocation),
errors, the returned object and out's version counter must be equal, and only
the planned call may move the prepared-op counter, by the number expected.

Shared by tests/unit/engine/test_prepared_gemm_oracle.py (CPU),
tests/hw/test_prepared_ops_cuda.py and its subprocesses (CUDA); its counters also by
tests/hw/test_prepared_cublaslt.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import pathlib
from collections.abc import Callable, Iterator

import torch

from fastlaunch.runtime import _core
from helpers import call_trace

OPS = ("mm", "addmm", "bmm", "baddbmm")
ADD = ("addmm", "baddbmm")
BATCHED = ("bmm", "baddbmm")
RUNNERS = ("python", "planned", "aten")


def prepared_count(aten_shim) -> int:
    """GEMMs the shim ran prepared (static dispatch, or a CUDA GEMM's checked
    cuBLASLt plan): the one place that names the counters."""
    return sum(aten_shim.static_ops().values()) + sum(aten_shim.cublaslt()[1].values())


def cublaslt_counts(aten_shim) -> tuple[int, dict[str, int]]:
    """(CUDA GEMMs run through a cuBLASLt plan, {reason: CUDA GEMMs the tier
    declined}) since the last ``reset_cublaslt``."""
    _, gemms, declined = aten_shim.cublaslt()
    return sum(gemms.values()), declined


@dataclasses.dataclass(frozen=True)
class Case:
    """One GEMM call. Layouts: ``contig``, ``t`` (a transposed view), ``ld``
    (a column slice of a wider tensor: leading dimension > columns), ``ld_t``,
    ``bexpand`` / ``bexpand_t`` (batch stride 0), ``bstride`` (every other batch),
    ``bperm`` (batch not outermost); ``offK:<layout>`` puts it K elements into its
    allocation. Out may also be ``resize`` (an empty tensor ATen resizes).
    Bias (add ops): ``full`` (in ``bias_layout``), ``1d`` (n,), ``row`` (1, n),
    ``col`` (m, 1), ``expand`` ((n,).expand to out's shape), ``scalar`` (0-d),
    ``batch1`` (1, m, n). ``beta`` / ``alpha`` None: not written (ATen's 1).
    ``special``: ``nan_a``, ``nan_bias``, ``nan_out`` (NaN and inf written in),
    ``out_is_bias`` (``addmm(x, a, b, out=x)``), the operand changes of
    ``_OPERAND_SPECIALS``, ``float64_out``, ``k_mismatch``."""

    op: str
    dtype: str = "float32"
    m: int = 5
    n: int = 7
    k: int = 6
    batch: int = 3
    a: str = "contig"
    b: str = "contig"
    out: str = "contig"
    bias: str = "full"
    bias_layout: str = "contig"
    beta: object = 1
    alpha: object = 1
    seed: int = 0
    special: str = ""
    device: str = "cpu"

    @property
    def add(self) -> bool:
        return self.op in ADD

    @property
    def out_shape(self) -> tuple[int, ...]:
        lead = (self.batch,) if self.op in BATCHED else ()
        return (*lead, self.m, self.n)

    def scalars(self) -> dict[str, object]:
        if not self.add:
            return {}
        return {
            name: value
            for name, value in (("beta", self.beta), ("alpha", self.alpha))
            if value is not None
        }


# ---- inputs -------------------------------------------------------------------------------


class _Fill:
    """Flat allocations of the case's dtype on its device, drawn in order from one
    seeded CPU generator: the same case gives the same bytes every time."""

    def __init__(self, case: Case):
        self.gen = torch.Generator().manual_seed(case.seed)
        self.dtype = getattr(torch, case.dtype)
        self.device = case.device

    def __call__(self, numel: int, poison: bool = False, nan: bool = False) -> torch.Tensor:
        if self.dtype.is_complex:
            values = torch.randn(numel, dtype=torch.complex128, generator=self.gen)
        elif self.dtype.is_floating_point:
            values = torch.randn(numel, dtype=torch.float64, generator=self.gen)
        else:
            values = torch.randint(-3, 4, (numel,), generator=self.gen)
        values = values.to(self.dtype)
        if nan and (self.dtype.is_floating_point or self.dtype.is_complex):
            values.fill_(math.nan)
        elif poison and numel and (self.dtype.is_floating_point or self.dtype.is_complex):
            values[0], values[numel // 2], values[-1] = math.nan, -math.inf, math.inf
        return values.to(self.device)


def _parse(layout: str) -> tuple[int, str]:
    if layout.startswith("off"):
        head, _, form = layout.partition(":")
        return int(head[3:]), form or "contig"
    return 0, layout


def _view(
    fill: _Fill, shape: tuple[int, ...], layout: str, **fill_kw
) -> tuple[torch.Tensor, torch.Tensor]:
    """A tensor of logical ``shape`` in ``layout``, and the flat allocation it views."""
    offset, form = _parse(layout)
    *lead, r, c = shape
    lead = tuple(lead)
    batch = lead[0] if lead else 1
    forms: dict[str, tuple[tuple[int, ...], Callable]] = {
        "contig": ((*lead, r, c), lambda t: t),
        "t": ((*lead, c, r), lambda t: t.transpose(-1, -2)),
        "ld": ((*lead, r, c + 3), lambda t: t[..., :c]),
        "ld_t": ((*lead, c, r + 5), lambda t: t[..., :r].transpose(-1, -2)),
        "bexpand": ((1, r, c), lambda t: t.expand(batch, r, c)),
        "bexpand_t": ((1, c, r), lambda t: t.transpose(-1, -2).expand(batch, r, c)),
        "bstride": ((2 * batch, r, c), lambda t: t[::2]),
        "bperm": ((r, batch, c), lambda t: t.transpose(0, 1)),
    }
    alloc, make = forms[form]
    flat = fill(offset + math.prod(alloc), **fill_kw)
    view = make(flat[offset:].view(alloc))
    assert view.shape == shape, (layout, view.shape, shape)
    return view, flat


def _bias(fill: _Fill, case: Case) -> torch.Tensor:
    shape = case.out_shape
    m, n = shape[-2:]
    poison = case.special == "nan_bias"
    if case.bias == "full":
        return _view(fill, shape, case.bias_layout, poison=poison)[0]
    sizes = {
        "1d": (n,),
        "row": (1, n),
        "col": (m, 1),
        "expand": (n,),
        "scalar": (),
        "batch1": (1, m, n),
    }[case.bias]
    bias = fill(math.prod(sizes), poison=poison).view(sizes)
    return bias.expand(shape) if case.bias == "expand" else bias


# what a special does to an operand once made (declines and ATen's errors)
_OPERAND_SPECIALS: dict[str, tuple[str, Callable[[torch.Tensor], torch.Tensor]]] = {
    "conj_a": ("a", lambda t: t.conj()),  # a conjugate bit (complex dtypes)
    "neg_a": ("a", torch._neg_view),  # a negative bit
    "param_b": ("b", torch.nn.Parameter),  # requires grad, as a model's weight
    "dual_a": ("a", lambda t: torch.autograd.forward_ad.make_dual(t, torch.ones_like(t))),
    "float64_b": ("b", lambda t: t.to(torch.float64)),  # mixed dtypes
}


def make_inputs(case: Case) -> tuple[list[torch.Tensor], torch.Tensor, torch.Tensor | None]:
    """(operands in the op's order, out, out's whole allocation or None), fresh."""
    fill = _Fill(case)
    lead = (case.batch,) if case.op in BATCHED else ()
    k_b = case.k + (case.special == "k_mismatch")
    made = {
        "a": _view(fill, (*lead, case.m, case.k), case.a, poison=case.special == "nan_a")[0],
        "b": _view(fill, (*lead, k_b, case.n), case.b)[0],
    }
    if case.special in _OPERAND_SPECIALS:
        name, change = _OPERAND_SPECIALS[case.special]
        made[name] = change(made[name])
    a, b = made["a"], made["b"]
    if case.special == "out_is_bias":
        out, base = _view(fill, case.out_shape, case.out)
        return [out, a, b], out, base
    operands = [_bias(fill, case), a, b] if case.add else [a, b]
    if case.out == "resize":
        return operands, torch.empty(0, dtype=fill.dtype, device=case.device), None
    if case.special == "float64_out":
        return (
            operands,
            torch.full(case.out_shape, 7.0, dtype=torch.float64, device=case.device),
            None,
        )
    out, base = _view(fill, case.out_shape, case.out, nan=case.special == "nan_out")
    return operands, out, base


# ---- the wrappers -------------------------------------------------------------------------


def wrapper_source(op: str, beta: object, alpha: object, alias: bool) -> str:
    """A ``call()`` as Inductor writes one extern GEMM (scalars as literals)."""
    names = ["x", "a", "b"] if op in ADD else ["a", "b"]
    out = "x" if alias else "out"
    unpack = ", ".join(names if alias else [*names, "out"])
    scalars = "".join(
        f"{name}={value!r}, "
        for name, value in (("alpha", alpha), ("beta", beta))
        if op in ADD and value is not None
    )
    return (
        "import torch\nfrom torch._inductor.select_algorithm import extern_kernels\n"
        f"def call(args):\n    {unpack} = args\n    args.clear()\n"
        f"    extern_kernels.{op}({', '.join(names)}, {scalars}out={out})\n"
        f"    return ({out},)\n"
    )


class Wrappers:
    """(Python call(), planned call) per wrapper source, made once each."""

    def __init__(self, directory: pathlib.Path):
        self.directory = pathlib.Path(directory)
        self.made: dict[str, tuple[object, object]] = {}

    def __call__(self, case: Case) -> tuple[object, object]:
        source = wrapper_source(case.op, case.beta, case.alpha, case.special == "out_is_bias")
        if source not in self.made:
            path = self.directory / f"gemm_{len(self.made)}.py"
            path.write_text(source)
            python, planned, _ = call_trace.plan_file(path, native=1, name=f"oracle_{case.op}")
            assert isinstance(planned, _core.PlannedCall)
            self.made[source] = (python, planned)
        return self.made[source]


# ---- the comparison -----------------------------------------------------------------------


@dataclasses.dataclass
class Outcome:
    error: str | None
    returned_out: bool
    meta: tuple | None
    out_bytes: torch.Tensor | None
    base_bytes: torch.Tensor | None
    version: int | None
    prepared: int
    runs: int

    def differences(self, other: Outcome) -> list[str]:
        diffs = [
            name
            for name in ("error", "returned_out", "meta", "version")
            if getattr(self, name) != getattr(other, name)
        ]
        for name in ("out_bytes", "base_bytes"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if (mine is None) != (theirs is None) or (
                mine is not None and not torch.equal(mine, theirs)
            ):
                diffs.append(name)
        return diffs


def _bytes(tensor: torch.Tensor | None) -> torch.Tensor | None:
    if tensor is None:
        return None
    # a fresh contiguous copy: .contiguous() keeps a tensor whose odd strides are
    # only on size-1 dimensions, which a dtype view then refuses
    dense = tensor.detach().clone(memory_format=torch.contiguous_format)
    return dense.reshape(-1).view(torch.uint8).cpu()


def _run(
    runner: str, case: Case, calls: tuple[object, object], count: Callable[[], int]
) -> Outcome:
    operands, out, base = make_inputs(case)
    before, runs = count(), _core.planned_call_runs()
    returned, error = None, None
    try:
        if runner == "aten":
            returned = getattr(torch, case.op)(*operands, **case.scalars(), out=out)
        else:
            args = list(operands) if case.special == "out_is_bias" else [*operands, out]
            (returned,) = calls[RUNNERS.index(runner)](args)
    except Exception as exc:  # ATen's error, compared as text
        error = f"{type(exc).__name__}: {exc}"
    if case.device != "cpu":
        torch.cuda.synchronize()
    return Outcome(
        error=error,
        returned_out=returned is out,
        meta=(tuple(out.shape), out.stride(), out.dtype, out.storage_offset()),
        out_bytes=_bytes(out),
        base_bytes=_bytes(base),
        version=None if out.is_inference() else out._version,
        prepared=count() - before,
        runs=_core.planned_call_runs() - runs,
    )


def compare(
    case: Case,
    wrappers: Wrappers,
    count: Callable[[], int],
    expect_prepared: int = 1,
    context: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
) -> dict[str, Outcome]:
    """Run the three on identical inputs under ``context``; assert they agree bit for bit
    and that only the planned call ran prepared, ``expect_prepared`` GEMMs where ATen
    raised no error (an error propagates uncounted)."""
    calls = wrappers(case)
    with context():
        outcomes = {runner: _run(runner, case, calls, count) for runner in RUNNERS}
    aten = outcomes["aten"]
    for runner in ("python", "planned"):
        diffs = outcomes[runner].differences(aten)
        assert not diffs, (
            f"{runner} differs from ATen's own call in {diffs}: {case}; "
            f"{runner} error {outcomes[runner].error!r}, ATen's {aten.error!r}"
        )
    prepared = [outcomes[r].prepared for r in RUNNERS]
    expected = expect_prepared if aten.error is None else 0
    assert prepared == [0, expected, 0], (
        f"prepared GEMMs per runner {prepared}, expected [0, {expected}, 0]: {case}"
    )
    if aten.error is None:
        assert aten.returned_out, case
        runs = [outcomes[r].runs for r in RUNNERS]
        assert runs == [0, 1, 0], (runs, case)  # the planned call ran, not its fallback
    return outcomes


# ---- global flags -------------------------------------------------------------------------

_PRECISION_PAIRS = [
    (backend, op)
    for backend in ("generic", "mkldnn", "cuda", "cudnn")
    for op in ("all", "matmul", "conv", "rnn")
]


def _flag_state() -> dict[str, object]:
    """Every global flag a GEMM reads that this torch has (a getter it lacks is left out)."""
    state: dict[str, object] = {}

    def read(name: str, getter: str, *args: object) -> None:
        function = getattr(torch._C, getter, None)
        if function is not None:
            with contextlib.suppress(RuntimeError):  # legacy and new precision APIs mixed
                state[name] = function(*args)

    state["deterministic"] = (
        torch._C._get_deterministic_algorithms(),
        torch._C._get_deterministic_algorithms_warn_only(),
    )
    read("mkldnn_enabled", "_get_mkldnn_enabled")
    read("cpu_fp16_reduction", "_get_cpu_allow_fp16_reduced_precision_reduction")
    read("cuda_tf32", "_get_cublas_allow_tf32")
    read("cuda_fp16_reduction", "_get_cublas_allow_fp16_reduced_precision_reduction")
    read("cuda_bf16_reduction", "_get_cublas_allow_bf16_reduced_precision_reduction")
    read("cuda_fp16_accumulation", "_get_cublas_allow_fp16_accumulation")
    state["float32_matmul_precision"] = None
    read("float32_matmul_precision", "_get_float32_matmul_precision")
    for backend, op in _PRECISION_PAIRS:
        read(f"fp32_precision/{backend}/{op}", "_get_fp32_precision_getter", backend, op)
    if torch.cuda.is_available():
        state["blas_library"] = torch.backends.cuda.preferred_blas_library()
    return state


def _set(name: str, value: object) -> None:
    C = torch._C
    if name == "deterministic":
        on, warn_only = value if isinstance(value, tuple) else (value, False)
        torch.use_deterministic_algorithms(on, warn_only=warn_only)
    elif name == "float32_matmul_precision":
        if value is not None:
            torch.set_float32_matmul_precision(value)
    elif name.startswith("fp32_precision/"):
        _, backend, op = name.split("/")
        C._set_fp32_precision_setter(backend, op, value)
    elif name == "mkldnn_matmul_fp32_precision":
        torch.backends.mkldnn.matmul.fp32_precision = value
    elif name == "mkldnn_enabled":
        C._set_mkldnn_enabled(value)
    elif name == "cpu_fp16_reduction":
        C._set_cpu_allow_fp16_reduced_precision_reduction(value)
    elif name == "cuda_tf32":
        torch.backends.cuda.matmul.allow_tf32 = value
    elif name == "cuda_fp16_reduction":
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = value
    elif name == "cuda_bf16_reduction":
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = value
    elif name == "cuda_fp16_accumulation":
        torch.backends.cuda.matmul.allow_fp16_accumulation = value
    elif name == "blas_library":
        torch.backends.cuda.preferred_blas_library(value)
    else:
        msg = f"unknown flag {name!r}"
        raise KeyError(msg)


@contextlib.contextmanager
def global_flags(**flags: object) -> Iterator[None]:
    """torch's global GEMM flags set for the duration, every one restored (checked)."""
    saved = _flag_state()
    try:
        for name, value in flags.items():
            _set(name, value)
        yield
    finally:
        # the legacy precision first (it sets the new API's values), then each of those
        _set("float32_matmul_precision", saved["float32_matmul_precision"])
        for name, value in saved.items():
            if name != "float32_matmul_precision":
                _set(name, value)
        restored = _flag_state()
        assert restored == saved, {
            k: (saved[k], restored.get(k)) for k in saved if restored.get(k) != saved[k]
        }


# ---- the CUDA sample (tests/hw/test_prepared_ops_cuda.py's environment runs) --------------

CUDA_DTYPE_FLAGS = (
    ("float32", {"cuda_tf32": False}),
    ("float32", {"cuda_tf32": True}),
    ("float16", {}),
    ("bfloat16", {}),
)
CUDA_SAMPLE_LAYOUTS = {
    "contig": {},
    "a_t": {"a": "t"},
    "ld_t": {"a": "ld", "b": "ld_t", "out": "ld"},
    "off1": {"a": "off1", "b": "off1:t", "out": "off1"},
    "off8": {"a": "off8:t", "b": "off8", "out": "off8"},
    "m1": {"m": 1},
    "bias_1d_beta1": {"bias": "1d", "beta": 1, "alpha": 1},  # cuBLASLt's bias epilogue
    "bias_expand": {"bias": "expand"},
}


def cuda_sample(seed: int = 0) -> list[tuple[Case, dict[str, object]]]:
    """(case, global flags) pairs over every GEMM, dtype and TF32 setting, a few
    layouts each, and deterministic mode: for one process per environment variable."""
    sample = []
    for op in OPS:
        for dtype, flags in CUDA_DTYPE_FLAGS:
            for name, kw in CUDA_SAMPLE_LAYOUTS.items():
                if name.startswith("bias") and op not in ADD:
                    continue
                given = {"m": 64, "n": 48, "k": 96, "b": "t", "beta": 0.5, "alpha": 2, **kw}
                sample.append((Case(op, dtype, seed=seed, device="cuda", **given), flags))
        case = Case(op, m=64, n=48, k=96, a="t", seed=seed, device="cuda")
        sample.append((case, {"deterministic": True}))
    return sample
