# SPDX-License-Identifier: Apache-2.0
"""Static dispatch of the planned call's CUDA attention and convolution on a real
NVIDIA GPU: the ATen shim calls ``at::cuda::_scaled_dot_product_{efficient,flash,
cudnn}_attention`` and ``at::compositeexplicitautograd::convolution`` itself (as
AOTI's C shim does) only where ATen's dispatcher would pass nothing but the
Autograd, ADInplaceOrView and BackendSelect kernels. Each case runs ATen's own
call, the Python ``call()`` and its PlannedCall on the same inputs: the same
bits (or the same error), and ``static_ops()`` says which route was taken.
"""

from __future__ import annotations

import contextlib

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.builds import shims  # noqa: E402
from fastlaunch.engine.planned_call import program as P  # noqa: E402
from fastlaunch.runtime import _core, aten_ops  # noqa: E402
from helpers import call_trace  # noqa: E402

pytestmark = pytest.mark.cuda
# program.NATIVE_KINDS by op name
KIND = {path.removesuffix(".default").rsplit(".", 1)[-1]: k for k, path in P.NATIVE_KINDS.items()}
# positional arguments after (q, k, v) as Inductor writes them; then scale= by keyword
_SDPA = {
    "_scaled_dot_product_efficient_attention": "bias, True, {dropout}, {causal}",
    "_scaled_dot_product_flash_attention": "{dropout}, {causal}",
    "_scaled_dot_product_cudnn_attention": "bias, True, {dropout}, {causal}",
}
_CONV = (
    "import torch\nfrom torch._inductor.select_algorithm import extern_kernels\n"
    "def call(args):\n    x, w, b = args\n    args.clear()\n"
    "    buf0 = extern_kernels.convolution(x, w, b, stride={stride}, padding={padding}, "
    "dilation=(1, 1), transposed={transposed}, output_padding={output_padding}, groups={groups})\n"
    "    return (buf0,)\n"
)


@pytest.fixture(autouse=True)
def _enabled():
    assert shims.torch_has_cuda()
    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
    fastlaunch.reset_stats()
    with config.override(enabled=True, strict=False):
        yield
    fastlaunch.reset_stats()


def _planned(tmp_path, text: str):
    path = tmp_path / f"w{len(list(tmp_path.iterdir()))}.py"
    path.write_text(text)
    python, planned, _ = call_trace.plan_file(path, native=1)
    return python, planned


def _comparable(out: tuple) -> tuple:
    """The outputs every route must give bit for bit: the attention output and its
    logsumexp, the max lengths; the other tensors (RNG state, unused, debug mask,
    possibly left uninitialized) by dtype and shape."""
    keep = []
    for i, value in enumerate(out):
        if isinstance(value, torch.Tensor) and i >= 2:
            keep.append((value.dtype, tuple(value.shape)))
        else:
            keep.append(value)
    return tuple(keep)


def _three_ways(aten, python, planned, make_args):
    """((ATen's own result, error), the planned call's {kind: static}, {kind: (ran, declined)})."""
    results = []
    for call in (aten, python, planned):
        args = make_args()
        static, native = aten_ops.static_ops(), dict(_core.planned_call_native_ops())
        torch.manual_seed(1)  # the same dropout mask on every route
        try:
            result, error = _comparable(call(args)), None
        except Exception as exc:  # compared below, type and text
            result, error = None, (type(exc), str(exc))
        torch.cuda.synchronize()
        results.append((result, error))
        after = dict(_core.planned_call_native_ops())
        counts = (
            {
                k: v - static.get(k, 0)
                for k, v in aten_ops.static_ops().items()
                if v != static.get(k, 0)
            },
            {
                k: (r - native.get(k, (0, 0))[0], d - native.get(k, (0, 0))[1])
                for k, (r, d) in after.items()
                if (r, d) != native.get(k, (0, 0))
            },
        )
        if call is not planned:
            assert counts == ({}, {})
    (expected, error), *others = results
    for result, other_error in others:
        assert other_error == error
        if error is None:
            call_trace.assert_bit_equal(expected, result)
    return (expected, error), counts


def _sdpa(
    name,
    *,
    dtype=torch.float16,
    causal=False,
    dropout=0.0,
    bias=False,
    scale=0.125,
    shape=(2, 4, 64, 64),
    requires_grad=False,
):
    extra = _SDPA[name].format(dropout=dropout, causal=causal)
    text = (
        f"import torch\ndef call(args):\n    q, k, v, bias = args\n    args.clear()\n"
        f"    buf0 = torch.ops.aten.{name}.default(q, k, v, {extra}, scale={scale})\n"
        "    return buf0\n"
    )
    op = getattr(torch.ops.aten, name).default

    def make_args():
        torch.manual_seed(0)
        b, h, length, e = shape
        # (b, l, h, e) projections viewed as (b, h, l, e), as Inductor's wrappers pass them
        q, k, v = (
            torch.randn(b, length, h, e, device="cuda", dtype=dtype).transpose(1, 2)
            for _ in range(3)
        )
        if requires_grad:
            k = k.detach().requires_grad_()
        mask = torch.randn(b, h, length, length, device="cuda", dtype=dtype) if bias else None
        return [q, k, v, mask]

    def aten(args):
        q, k, v, mask = args
        if name == "_scaled_dot_product_flash_attention":
            return op(q, k, v, dropout, causal, scale=scale)
        return op(q, k, v, mask, True, dropout, causal, scale=scale)

    return text, aten, make_args


def _skip_unsupported(error):
    if error is not None and error[0] is RuntimeError and "No available kernel" in error[1]:
        pytest.skip(f"this GPU/torch has no kernel for it: {error[1][:200]}")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("_scaled_dot_product_efficient_attention", {}),
        ("_scaled_dot_product_efficient_attention", {"bias": True, "dtype": torch.float32}),
        ("_scaled_dot_product_efficient_attention", {"causal": True, "dropout": 0.1}),
        ("_scaled_dot_product_flash_attention", {}),
        ("_scaled_dot_product_flash_attention", {"causal": True, "dtype": torch.bfloat16}),
        ("_scaled_dot_product_flash_attention", {"dropout": 0.2, "shape": (1, 2, 128, 32)}),
        ("_scaled_dot_product_cudnn_attention", {}),
        ("_scaled_dot_product_cudnn_attention", {"causal": True, "dtype": torch.bfloat16}),
        ("_scaled_dot_product_cudnn_attention", {"bias": True}),
    ],
)
def test_sdpa_runs_its_cuda_kernel_bit_equal(tmp_path, name, options):
    text, aten, make_args = _sdpa(name, **options)
    python, planned = _planned(tmp_path, text)
    (expected, error), (static, native) = _three_ways(aten, python, planned, make_args)
    _skip_unsupported(error)
    assert error is None, error
    assert static == {KIND[name]: 1} and native == {KIND[name]: (1, 0)}


@pytest.mark.parametrize("name", sorted(_SDPA))
@pytest.mark.parametrize("case", ["grad", "autocast", "no_grad", "inference_mode"])
def test_sdpa_static_only_where_the_dispatcher_passes_nothing_else(tmp_path, name, case):
    text, aten, make_args = _sdpa(name, requires_grad=case in ("grad", "no_grad"))
    python, planned = _planned(tmp_path, text)
    context = {
        "autocast": lambda: torch.autocast("cuda"),
        "no_grad": torch.no_grad,
        "inference_mode": torch.inference_mode,
    }.get(case, contextlib.nullcontext)
    with context():
        (expected, error), (static, native) = _three_ways(aten, python, planned, make_args)
    _skip_unsupported(error)
    assert error is None and native == {KIND[name]: (1, 0)}
    assert static == ({} if case in ("grad", "autocast") else {KIND[name]: 1})


@pytest.mark.parametrize(
    ("options", "bias"),
    [
        (
            {
                "stride": (1, 1),
                "padding": (1, 1),
                "transposed": False,
                "output_padding": (0, 0),
                "groups": 1,
            },
            True,
        ),
        (
            {
                "stride": (2, 1),
                "padding": (0, 2),
                "transposed": False,
                "output_padding": (0, 0),
                "groups": 2,
            },
            False,
        ),
        (
            {
                "stride": (2, 2),
                "padding": (1, 1),
                "transposed": True,
                "output_padding": (1, 1),
                "groups": 1,
            },
            True,
        ),
    ],
)
@pytest.mark.parametrize("case", ["plain", "grad", "autocast", "inference_mode"])
def test_convolution_on_cuda(tmp_path, monkeypatch, options, bias, case):
    monkeypatch.setattr(torch.backends.cudnn, "deterministic", True)
    python, planned = _planned(tmp_path, _CONV.format(**options))

    def make_args():
        torch.manual_seed(0)
        x = torch.randn(2, 4, 12, 12, device="cuda")
        shape = (
            (4, 8 // options["groups"], 3, 3)
            if options["transposed"]
            else (8, 4 // options["groups"], 3, 3)
        )
        w = torch.randn(*shape, device="cuda", requires_grad=case == "grad")
        return [x, w, torch.randn(8, device="cuda") if bias else None]

    def aten(args):
        x, w, b = args
        return (torch.ops.aten.convolution.default(x, w, b, dilation=(1, 1), **options),)

    context = {
        "autocast": lambda: torch.autocast("cuda"),
        "inference_mode": torch.inference_mode,
    }.get(case, contextlib.nullcontext)
    with context():
        (expected, error), (static, native) = _three_ways(aten, python, planned, make_args)
    assert error is None and native == {KIND["convolution"]: (1, 0)}
    assert static == ({} if case in ("grad", "autocast") else {KIND["convolution"]: 1})
    if case == "grad":
        assert expected[0].grad_fn is not None


def test_mixed_devices_keep_the_dispatcher(tmp_path):
    """A CPU bias with CUDA operands: the dispatcher's error, from every route."""
    python, planned = _planned(
        tmp_path,
        _CONV.format(
            stride=(1, 1), padding=(0, 0), transposed=False, output_padding=(0, 0), groups=1
        ),
    )

    def make_args():
        return [
            torch.randn(1, 2, 5, 5, device="cuda"),
            torch.randn(3, 2, 3, 3, device="cuda"),
            torch.randn(3),
        ]

    def aten(args):
        return (
            torch.ops.aten.convolution.default(*args, (1, 1), (0, 0), (1, 1), False, (0, 0), 1),
        )

    (_, error), (static, _) = _three_ways(aten, python, planned, make_args)
    assert error is not None and static == {}
