# SPDX-License-Identifier: Apache-2.0
"""The prepared GEMMs against ATen's own call, bit for bit, on CPU (issue 29).

Each case runs ``extern_kernels.<op>(..., out=out)`` three times on identical
inputs (tests/helpers/gemm_oracle.py): the wrapper's Python ``call()``, its
planned call, and ``torch.<op>(..., out=)`` itself. Every byte of out's
allocation, the error text, the returned object and out's version counter
must be equal, and the planned call must have run its GEMM prepared (the
counter's delta is exactly 1) wherever the dispatcher would reach the kernel
directly; where it would not, the shim declines (delta 0) with the same bits.
"""

from __future__ import annotations

import contextlib

import pytest

torch = pytest.importorskip("torch")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastlaunch import config  # noqa: E402
from helpers import gemm_oracle as G  # noqa: E402
from helpers.gemm_oracle import Case  # noqa: E402
from helpers.gemm_oracle import prepared_count as _prepared_count  # noqa: E402

DTYPES = ("float32", "float64", "bfloat16", "float16")
SEEDS = (0, 1)


@pytest.fixture(scope="module", autouse=True)
def _enabled():
    with config.override(enabled=True, backend="fake", strict=False):
        yield


@pytest.fixture(scope="module")
def wrappers(tmp_path_factory):
    return G.Wrappers(tmp_path_factory.mktemp("gemm_wrappers"))


def _oracle(aten_shim, wrappers, case: Case, expect: int = 1, context=contextlib.nullcontext):
    return G.compare(case, wrappers, lambda: _prepared_count(aten_shim), expect, context)


# ---- layouts, dtypes, seeds ---------------------------------------------------------------

_LAYOUTS = {
    "contig": {},
    "a_t": {"a": "t"},
    "b_t": {"b": "t"},
    "ab_t": {"a": "t", "b": "t"},
    "out_t": {"out": "t"},
    "all_t": {"a": "t", "b": "t", "out": "t"},
    "ld": {"a": "ld", "b": "ld", "out": "ld"},
    "ld_t": {"a": "ld_t", "b": "ld_t"},
    **{f"off{k}": {"a": f"off{k}", "b": f"off{k}:t", "out": f"off{k}"} for k in (1, 2, 3, 4, 8)},
    "off5_ld": {"a": "off5:ld_t", "b": "off5:ld", "out": "off5:ld"},
    "out_resized": {"out": "resize"},
    "m1": {"m": 1},
    "n1": {"n": 1},
    "k1": {"k": 1},
    "mnk1": {"m": 1, "n": 1, "k": 1},
    "m1_t": {"m": 1, "a": "t", "b": "t"},
    "n1_t": {"n": 1, "a": "t", "b": "t"},
    "k0": {"k": 0},
    "m0": {"m": 0},
    "odd": {"m": 33, "n": 65, "k": 47, "a": "t"},
}
_BATCH_LAYOUTS = {
    "batch1": {"batch": 1},
    "batch1_t": {"batch": 1, "a": "t", "out": "t"},
    "bexpand_a": {"a": "bexpand"},
    "bexpand_b_t": {"b": "bexpand_t"},
    "bstride": {"a": "bstride", "b": "bstride", "out": "bstride"},
    "bperm": {"a": "bperm", "b": "bperm", "out": "bperm"},
    "bperm_t": {"a": "bperm", "b": "t", "out": "t"},
    "off3_bexpand": {"a": "off3:bexpand_t", "b": "off3:bstride", "out": "off3"},
}
_MATRIX = [
    (op, name, kw)
    for op in G.OPS
    for name, kw in [*_LAYOUTS.items(), *(_BATCH_LAYOUTS.items() if op in G.BATCHED else [])]
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("op", "layout", "kw"), _MATRIX, ids=[f"{o}-{n}" for o, n, _ in _MATRIX])
def test_layouts(aten_shim, wrappers, op, layout, kw, dtype, seed):
    """Every operand layout of every GEMM, each dtype: ATen's bits, run prepared."""
    bias = {"bias": "full", "bias_layout": kw.get("out", "contig")} if op in G.ADD else {}
    if kw.get("out") == "resize":
        bias["bias_layout"] = "contig"
    case = Case(op, dtype=dtype, seed=seed, beta=2, alpha=0.5, **{**bias, **kw})
    assert _oracle(aten_shim, wrappers, case)["aten"].error is None


# ---- biases, scalars, non-finite values ---------------------------------------------------

_BIASES = {
    "full": {},
    "full_t": {"bias_layout": "t"},
    "full_off3": {"bias_layout": "off3:ld"},
    "1d": {"bias": "1d"},
    "row": {"bias": "row"},
    "col": {"bias": "col"},
    "expand": {"bias": "expand"},
    "scalar": {"bias": "scalar"},
    "batch1": {"bias": "batch1"},
}
_SCALARS = [
    (1, 1),
    (None, None),
    (0, 1),
    (0, 2),
    (0.0, 1.0),
    (2, 1),
    (1, 3),
    (0.5, 0.25),
    (-1.5, 2),
    (1, 0),
    (0, 0),
    (True, 1),
]


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize(("beta", "alpha"), _SCALARS)
@pytest.mark.parametrize(
    ("op", "bias"),
    [(op, bias) for op in G.ADD for bias in _BIASES if bias != "batch1" or op == "baddbmm"],
)
def test_bias_and_scalars(aten_shim, wrappers, op, bias, beta, alpha, dtype):
    """1-D, (1, n), (m, 1), expanded, 0-d and full biases; beta/alpha 0, non-1 ints,
    floats, omitted (ATen's default): ATen's bits, run prepared."""
    kw = {"bias": "full", **_BIASES[bias]}
    case = Case(op, dtype=dtype, beta=beta, alpha=alpha, a="t", **kw)
    assert _oracle(aten_shim, wrappers, case)["aten"].error is None


_NONFINITE = [
    (op, special, beta)
    for op in G.OPS
    for special in ("nan_a", "nan_out", *(("nan_bias", "out_is_bias") * (op in G.ADD)))
    for beta in ((0, 1) if op in G.ADD else (None,))
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("op", "special", "beta"), _NONFINITE)
def test_nonfinite_and_aliased(aten_shim, wrappers, op, special, beta, dtype):
    """NaN and inf in an input, in a bias that beta=0 must ignore, in out's old
    contents; out aliasing the bias: the same bytes (NaN payloads included)."""
    case = Case(op, dtype=dtype, beta=beta, alpha=2, special=special, b="t")
    outcomes = _oracle(aten_shim, wrappers, case)
    assert outcomes["aten"].error is None
    if special == "nan_a":  # the NaN reached out: the comparison was of NaN bytes
        assert torch.isnan(outcomes["aten"].out_bytes.view(getattr(torch, dtype))).any()


# ---- global flags -------------------------------------------------------------------------


def _cpu_fp16_reduction_available() -> str:
    try:
        with G.global_flags(cpu_fp16_reduction=True):
            pass
    except RuntimeError as exc:
        return str(exc)
    return ""


_FLAGS = {
    "default": {},
    "deterministic": {"deterministic": True},
    "deterministic_warn_only": {"deterministic": (True, True)},
    "float32_precision_medium": {"float32_matmul_precision": "medium"},  # oneDNN bf16 for fp32
    "float32_precision_high": {"float32_matmul_precision": "high"},
    "mkldnn_matmul_bf16": {"mkldnn_matmul_fp32_precision": "bf16"},
    "mkldnn_matmul_tf32": {"mkldnn_matmul_fp32_precision": "tf32"},
    "mkldnn_off": {"mkldnn_enabled": False},
    "mkldnn_off_deterministic": {"mkldnn_enabled": False, "deterministic": True},
    "cpu_fp16_reduction": {"cpu_fp16_reduction": True},
}


@pytest.mark.parametrize("layout", ["contig", "a_t_off3"])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
@pytest.mark.parametrize("flags", list(_FLAGS))
@pytest.mark.parametrize("op", G.OPS)
def test_global_flags(aten_shim, wrappers, op, flags, dtype, layout):
    """Deterministic mode, the fp32 matmul precision (legacy and oneDNN's own
    setting), oneDNN off, CPU fp16 reduced-precision reduction: the planned call
    reads the same flags as ATen's call (restored afterwards, checked)."""
    if flags == "cpu_fp16_reduction" and (why := _cpu_fp16_reduction_available()):
        pytest.skip(f"this CPU refuses fp16 reduced-precision reduction: {why}")
    kw = {"a": "off3:t", "b": "ld"} if layout == "a_t_off3" else {}
    case = Case(op, dtype=dtype, m=17, n=33, k=64, beta=0.5, alpha=2, seed=3, **kw)
    with G.global_flags(**_FLAGS[flags]):
        assert _oracle(aten_shim, wrappers, case)["aten"].error is None


def test_the_precision_flags_matter_here():
    """The flag cases above are not all alike on this CPU: where oneDNN runs fp32
    GEMMs in bf16 (AMX or AVX512-BF16), precision "medium" changes ATen's bits."""
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(64, 512, generator=gen), torch.randn(512, 64, generator=gen)
    default = torch.mm(a, b)
    with G.global_flags(float32_matmul_precision="medium"):
        medium = torch.mm(a, b)
    if torch.equal(default, medium):
        pytest.skip(
            "oneDNN runs no fp32 GEMM in bf16 on this CPU: the precision cases "
            "compare identical paths"
        )


# ---- random cases -------------------------------------------------------------------------

_FORMS_2D = ("contig", "t", "ld", "ld_t")
_FORMS_3D = (*_FORMS_2D, "bexpand", "bexpand_t", "bstride", "bperm")
_SCALAR_VALUES = (None, 0, 1, 2, -1, 0.5, -1.5, 0.0, 1.0)


@st.composite
def _cases(draw):
    op = draw(st.sampled_from(G.OPS))
    forms = _FORMS_3D if op in G.BATCHED else _FORMS_2D

    def layout(choices):
        offset = draw(st.sampled_from((0, 0, 0, 1, 2, 3, 4, 8, 16)))
        form = draw(st.sampled_from(choices))
        return f"off{offset}:{form}" if offset else form

    dim = st.sampled_from((0, 1, 1, 2, 3, 5, 8, 17, 33))
    biases = ("full", "1d", "row", "col", "expand", "scalar") + (
        ("batch1",) if op == "baddbmm" else ()
    )
    out_forms = [f for f in forms if not f.startswith("bexpand")]
    return Case(
        op,
        dtype=draw(st.sampled_from((*DTYPES, "complex64", "int64"))),
        m=draw(dim),
        n=draw(dim),
        k=draw(dim),
        batch=draw(st.sampled_from((1, 2, 3))),
        a=layout(forms),
        b=layout(forms),
        out=draw(st.one_of(st.just("resize"), st.just(layout(out_forms)))),
        bias=draw(st.sampled_from(biases)),
        bias_layout=layout(out_forms),
        beta=draw(st.sampled_from(_SCALAR_VALUES)),
        alpha=draw(st.sampled_from(_SCALAR_VALUES)),
        seed=draw(st.integers(0, 2**16)),
        special=draw(st.sampled_from(("", "", "", "nan_a", "nan_bias", "nan_out"))),
    )


@settings(max_examples=250, deadline=None, derandomize=True)
@given(case=_cases(), deterministic=st.booleans(), mkldnn=st.booleans())
def test_random_cases(aten_shim, wrappers, case, deterministic, mkldnn):
    """Random combinations of all of the above (and complex, integer dtypes, whose
    errors for float scalars must be ATen's own): ATen's bits or ATen's error."""
    with G.global_flags(deterministic=deterministic, mkldnn_enabled=mkldnn):
        _oracle(aten_shim, wrappers, case)


# ---- where the shim must decline, and ATen's errors ---------------------------------------


class _PassThroughMode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _no_grad_context():
    return torch.no_grad()


_DECLINES = {  # name: (Case changes, context, prepared GEMMs expected)
    "conjugate": ({"dtype": "complex64", "special": "conj_a"}, contextlib.nullcontext, 0),
    "negative": ({"special": "neg_a"}, contextlib.nullcontext, 0),
    "autocast": ({}, lambda: torch.autocast("cpu"), 0),
    "torch_function_mode": ({}, _PassThroughMode, 0),
    "weight_grad_mode": ({"special": "param_b"}, contextlib.nullcontext, 0),  # ATen raises
    "forward_ad": ({"special": "dual_a"}, torch.autograd.forward_ad.dual_level, 0),
    # the dispatcher would reach the kernel directly: prepared
    "weight_no_grad": ({"special": "param_b"}, _no_grad_context, 1),
    "inference_mode": ({}, torch.inference_mode, 1),
}


@pytest.mark.parametrize("name", list(_DECLINES))
@pytest.mark.parametrize("op", G.OPS)
def test_declines_where_the_dispatcher_does_more(aten_shim, wrappers, op, name):
    """Conjugate or negative bits, autocast, a torch function mode, grad or forward AD
    needed: the shim leaves the GEMM to the dispatcher (none prepared) and the
    results, errors and version counters are still ATen's. No grad needed, or
    inference mode: prepared, with out's version bumped as ADInplaceOrView does."""
    changes, context, expect = _DECLINES[name]
    case = Case(op, **{"a": "t", "beta": 0.5, "alpha": 2, **changes})
    outcomes = _oracle(aten_shim, wrappers, case, expect, context)
    if name == "weight_grad_mode":
        assert "don't support automatic differentiation" in outcomes["aten"].error
    elif name != "forward_ad":
        assert outcomes["aten"].error is None
    if name == "inference_mode":
        assert outcomes["aten"].version is None  # an inference tensor has none
    elif outcomes["aten"].error is None:
        assert outcomes["aten"].version == 1


@pytest.mark.parametrize("switch", ["prepare", "use"])
@pytest.mark.parametrize("op", G.OPS)
def test_off_switches_keep_the_dispatcher(aten_shim, wrappers, op, switch):
    """``prepare(False)`` (the dispatcher in the shim) and ``use(False)`` (the Python
    callables): nothing prepared, ATen's bits."""
    try:
        getattr(aten_shim, switch)(False)
        _oracle(aten_shim, wrappers, Case(op, b="t", beta=2, alpha=3), expect=0)
    finally:
        getattr(aten_shim, switch)(True)
    _oracle(aten_shim, wrappers, Case(op, b="t", beta=2, alpha=3), expect=1)


_ERRORS = {
    "k_mismatch": {"special": "k_mismatch"},
    "mixed_dtypes": {"special": "float64_b"},
    "out_dtype": {"special": "float64_out"},
    "out_overlaps_itself": {"out": "bexpand", "batch": 2},
}
_ERROR_CASES = [
    (op, name, name != "out_overlaps_itself" or op == "baddbmm")
    for op in G.OPS
    for name in _ERRORS
    if name != "out_overlaps_itself" or op in G.BATCHED
]


@pytest.mark.parametrize(("op", "name", "raises"), _ERROR_CASES)
def test_atens_errors(aten_shim, wrappers, op, name, raises):
    """Arguments ATen refuses: the planned call raises ATen's error, word for word,
    out as ATen leaves it; nothing counted (an error is not a run). (ATen's bmm
    writes into a self-overlapping out where baddbmm refuses: the same there too.)"""
    outcomes = _oracle(aten_shim, wrappers, Case(op, **_ERRORS[name]))
    assert (outcomes["aten"].error is not None) == raises


def test_the_oracle_can_fail(aten_shim, wrappers):
    """A planned call that computes something else (alpha=3 written, the case's
    alpha=2 given to ATen) or a wrong expected count is caught."""
    case = Case("addmm", beta=1, alpha=2)
    wrong = wrappers(Case("addmm", beta=1, alpha=3))
    with pytest.raises(AssertionError, match="planned differs from ATen's own call"):
        G.compare(case, lambda _: (wrappers(case)[0], wrong[1]), lambda: _prepared_count(aten_shim))
    with pytest.raises(AssertionError, match="prepared GEMMs per runner"):
        _oracle(aten_shim, wrappers, case, expect=0)
