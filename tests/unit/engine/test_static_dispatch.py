# SPDX-License-Identifier: Apache-2.0
"""Static dispatch of the planned call's functional ATen ops, on CPU: the ATen
shim calls SDPA's and convolution's backend kernel itself (as AOTI's C shim
does) only where ATen's dispatcher would pass nothing but the Autograd,
ADInplaceOrView and BackendSelect kernels on the way, with no grad to record.

Each case runs one wrapper three ways on the same inputs: ATen's own call
(``torch.ops.aten``), the Python ``call()`` and its PlannedCall. Outputs are
bit-equal, with the same autograd state, or the errors are the same; the
shim's ``static_ops()`` says which route the planned call took.
"""

from __future__ import annotations

import contextlib
import json

import pytest

torch = pytest.importorskip("torch")

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.engine.planned_call import program as P  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402
from helpers import call_trace  # noqa: E402

# program.NATIVE_KINDS by op name ("ops.aten.convolution.default" or "convolution": convolution)
KIND = {path.removesuffix(".default").rsplit(".", 1)[-1]: k for k, path in P.NATIVE_KINDS.items()}
FLASH_CPU = KIND["_scaled_dot_product_flash_attention_for_cpu"]
CONV = KIND["convolution"]
CUDA_ONLY_SDPA = {
    KIND[name]: name
    for name in (
        "_scaled_dot_product_efficient_attention",
        "_scaled_dot_product_flash_attention",
        "_scaled_dot_product_cudnn_attention",
    )
}


@pytest.fixture(autouse=True)
def _enabled():
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="fake", strict=False):
        yield
    fastlaunch.reset_stats()


_SDPA_CPU = """import torch
def call(args):
    q, k, v, mask = args
    args.clear()
    buf0 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, 0.0, {causal}, attn_mask=mask, scale={scale})
    return (buf0[0], buf0[1])
"""  # noqa: E501  (as Inductor writes it)

_CONV = """import torch
from torch._inductor.select_algorithm import extern_kernels
def call(args):
    x, w, b = args
    args.clear()
    buf0 = extern_kernels.convolution(x, w, b, stride={stride}, padding={padding}, dilation={dilation}, transposed={transposed}, output_padding={output_padding}, groups={groups})
    return (buf0,)
"""  # noqa: E501


def _wrapper(tmp_path, text: str):
    """(the Python call(), its PlannedCall) of the wrapper ``text``: one native call."""
    path = tmp_path / f"w{len(list(tmp_path.iterdir()))}.py"
    path.write_text(text)
    python, planned, _ = call_trace.plan_file(path, native=1)
    return python, planned


def _state(value: object) -> object:
    """What autograd made of an output: (requires_grad, grad_fn type, inference)."""
    if isinstance(value, torch.Tensor):
        return value.requires_grad, type(value.grad_fn).__name__, value.is_inference()
    return tuple(_state(v) for v in value) if isinstance(value, tuple) else value


def _delta(before: dict[int, object], after: dict[int, object]) -> dict[int, object]:
    out = {}
    for kind, value in after.items():
        if isinstance(value, tuple):
            change = tuple(a - b for a, b in zip(value, before.get(kind, (0, 0))))
            if any(change):
                out[kind] = change
        elif value != before.get(kind, 0):
            out[kind] = value - before.get(kind, 0)
    return out


def _three_ways(aten_shim, aten, python, planned, make_args):
    """[(result, error) of ATen's own call, the Python call(), the planned call],
    and the planned call's {kind: static calls} and {kind: (ran, declined)}."""
    results = []
    for call in (aten, python, planned):
        args = make_args()
        static, native = aten_shim.static_ops(), dict(_core.planned_call_native_ops())
        try:
            result, error = call(args), None
        except Exception as exc:  # compared below, type and text
            result, error = None, (type(exc), str(exc))
        results.append((result, error))
        counts = (
            _delta(static, aten_shim.static_ops()),
            _delta(native, dict(_core.planned_call_native_ops())),
        )
        if call is not planned:
            assert counts == ({}, {})  # only the planned call goes through the shim
    (expected, error), *others = results
    for result, other_error in others:
        assert other_error == error
        if error is None:
            call_trace.assert_bit_equal(expected, result)
            assert _state(result) == _state(expected)
    return (expected, error), counts


def _sdpa_case(
    shape_q, shape_kv, *, causal=False, scale=None, mask=None, layout="bhle", dtype=torch.float32
):
    """make_args for (q, k, v, mask): ``layout`` "blhe" gives the strides of the
    (batch, length, heads, embed) projections Inductor views as (b, h, l, e)."""

    def tensor(shape):
        if layout == "blhe":
            b, h, length, e = shape
            return torch.randn(b, length, h, e, dtype=dtype).transpose(1, 2)
        return torch.randn(*shape, dtype=dtype)

    def make_args():
        torch.manual_seed(0)
        q, k, v = tensor(shape_q), tensor(shape_kv), tensor(shape_kv)
        m = None
        if mask == "float":
            m = torch.randn(shape_q[2], shape_kv[2], dtype=dtype)
        elif mask == "broadcast":
            m = torch.randn(shape_q[0], 1, shape_q[2], shape_kv[2], dtype=dtype)
        return [q, k, v, m]

    def aten(args):
        q, k, v, m = args
        out = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(
            q, k, v, 0.0, causal, attn_mask=m, scale=scale
        )
        return (out[0], out[1])

    return _SDPA_CPU.format(causal=causal, scale=scale), aten, make_args


_SDPA_CASES = {
    "plain": ((2, 4, 16, 8), (2, 4, 16, 8), {}),
    "causal": ((2, 4, 16, 8), (2, 4, 16, 8), {"causal": True}),
    "cross_lengths_scale": ((1, 2, 7, 16), (1, 2, 33, 16), {"scale": 0.25}),
    "projection_strides": ((2, 3, 12, 8), (2, 3, 12, 8), {"layout": "blhe", "causal": True}),
    "float_mask": ((2, 2, 9, 8), (2, 2, 11, 8), {"mask": "float"}),
    "broadcast_mask": ((2, 2, 9, 8), (2, 2, 9, 8), {"mask": "broadcast", "scale": 0.5}),
    "bfloat16": ((1, 2, 16, 32), (1, 2, 16, 32), {"dtype": torch.bfloat16, "causal": True}),
}


@pytest.mark.parametrize("case", sorted(_SDPA_CASES))
def test_sdpa_flash_for_cpu_runs_its_cpu_kernel_bit_equal(aten_shim, tmp_path, case):
    q, kv, options = _SDPA_CASES[case]
    text, aten, make_args = _sdpa_case(q, kv, **options)
    python, planned = _wrapper(tmp_path, text)
    (expected, error), (static, native) = _three_ways(aten_shim, aten, python, planned, make_args)
    assert error is None and expected[0].shape == (*q[:3], kv[3])
    assert static == {FLASH_CPU: 1} and native == {FLASH_CPU: (1, 0)}


def _conv_case(
    x_shape,
    w_shape,
    *,
    bias=True,
    stride=(1, 1),
    padding=(0, 0),
    dilation=(1, 1),
    transposed=False,
    output_padding=(0, 0),
    groups=1,
    channels_last=False,
    weight=lambda w: w,
):
    options = {
        "stride": stride,
        "padding": padding,
        "dilation": dilation,
        "transposed": transposed,
        "output_padding": output_padding,
        "groups": groups,
    }

    def make_args():
        torch.manual_seed(0)
        x = torch.randn(*x_shape)
        if channels_last:
            x = x.to(memory_format=torch.channels_last)
        out_channels = w_shape[1] * groups if transposed else w_shape[0]
        return [x, weight(torch.randn(*w_shape)), torch.randn(out_channels) if bias else None]

    def aten(args):
        x, w, b = args
        return (torch.ops.aten.convolution.default(x, w, b, **options),)

    return _CONV.format(**options), aten, make_args


_CONV_CASES = {
    "plain": ((2, 3, 10, 10), (4, 3, 3, 3), {}),
    "no_bias": ((2, 3, 10, 10), (4, 3, 3, 3), {"bias": False}),
    "stride_padding_dilation": (
        (1, 4, 13, 11),
        (6, 4, 3, 2),
        {"stride": (2, 1), "padding": (1, 2), "dilation": (2, 1)},
    ),
    "groups": ((2, 4, 8, 8), (6, 2, 3, 3), {"groups": 2, "padding": (1, 1)}),
    "depthwise_channels_last": (
        (2, 4, 8, 8),
        (4, 1, 3, 3),
        {"groups": 4, "channels_last": True, "padding": (1, 1)},
    ),
    "transposed": (
        (2, 4, 5, 5),
        (4, 3, 3, 3),
        {"transposed": True, "stride": (2, 2), "output_padding": (1, 1)},
    ),
    "transposed_groups_no_bias": (
        (1, 4, 6, 7),
        (4, 2, 2, 3),
        {
            "transposed": True,
            "groups": 2,
            "bias": False,
            "stride": (2, 1),
            "padding": (1, 0),
            "dilation": (1, 2),
        },
    ),
    "conv1d": (
        (2, 3, 17),
        (5, 3, 4),
        {"stride": (3,), "padding": (2,), "dilation": (1,), "output_padding": (0,)},
    ),
    "conv3d": (
        (1, 2, 5, 6, 7),
        (3, 2, 2, 3, 2),
        {
            "stride": (1, 2, 1),
            "padding": (1, 0, 1),
            "dilation": (1, 1, 2),
            "output_padding": (0, 0, 0),
        },
    ),
}


@pytest.mark.parametrize("case", sorted(_CONV_CASES))
def test_convolution_runs_its_composite_kernel_bit_equal(aten_shim, tmp_path, case):
    x, w, options = _CONV_CASES[case]
    text, aten, make_args = _conv_case(x, w, **options)
    python, planned = _wrapper(tmp_path, text)
    (expected, error), (static, native) = _three_ways(aten_shim, aten, python, planned, make_args)
    assert error is None and expected[0].shape[:2] == (x[0], aten(make_args())[0].shape[1])
    assert static == {CONV: 1} and native == {CONV: (1, 0)}


def _as_parameter(tensor):
    return torch.nn.Parameter(tensor)  # requires grad, as a model's weight


# (case, context, static): where the dispatcher's path is only the kernels the
# static call stands in for, and where it is not (grad to record, autocast).
_CONTEXTS = [
    ("weight_grad_mode", contextlib.nullcontext, 0),
    ("weight_no_grad", torch.no_grad, 1),
    ("weight_inference_mode", torch.inference_mode, 1),
    ("plain_inference_mode", torch.inference_mode, 1),
    ("plain_autocast", lambda: torch.autocast("cpu", dtype=torch.bfloat16), 0),
    ("weight_autocast_no_grad", lambda: _both(torch.no_grad(), torch.autocast("cpu")), 0),
]


@contextlib.contextmanager
def _both(first, second):
    with first, second:
        yield


@pytest.mark.parametrize(
    ("case", "context", "static"), _CONTEXTS, ids=[case for case, _, _ in _CONTEXTS]
)
@pytest.mark.parametrize("op", ["convolution", "sdpa"])
def test_static_only_where_the_dispatcher_passes_nothing_else(
    aten_shim, tmp_path, op, case, context, static
):
    """A grad to record (a Parameter under grad mode) or autocast on keep the
    dispatcher, whose Autograd and Autocast kernels run: the same outputs with the
    same grad_fn (and the same gradients) as ATen's own call."""
    weight = _as_parameter if case.startswith("weight_") else (lambda t: t)
    if op == "convolution":
        text, aten, make_args = _conv_case((2, 3, 8, 8), (4, 3, 3, 3), weight=weight)
        kind = CONV
    else:
        text, aten, base_args = _sdpa_case((1, 2, 8, 8), (1, 2, 8, 8), causal=True)
        kind = FLASH_CPU

        def make_args():
            q, k, v, m = base_args()
            return [q, weight(k), v, m]  # a key that requires grad

    python, planned = _wrapper(tmp_path, text)
    with context():
        (expected, error), (ran_static, native) = _three_ways(
            aten_shim, aten, python, planned, make_args
        )
    assert error is None and native == {kind: (1, 0)}
    assert ran_static == ({kind: 1} if static else {})
    if case == "weight_grad_mode":
        assert expected[0].grad_fn is not None
        grads = []
        for call in (aten, planned):
            args = make_args()
            params = [a for a in args if isinstance(a, torch.nn.Parameter)]
            call(list(args))[0].sum().backward()  # (call() clears its list)
            grads.append(tuple(p.grad for p in params))
        assert len(grads[0]) == 1
        call_trace.assert_bit_equal(grads[0], grads[1])


def test_forward_ad_keeps_the_dispatcher(aten_shim, tmp_path):
    """A dual tensor: the Autograd kernel computes the output's tangent."""
    import torch.autograd.forward_ad as fwAD

    text, aten, make_args = _conv_case((2, 3, 8, 8), (4, 3, 3, 3))
    python, planned = _wrapper(tmp_path, text)
    tangents = []
    with fwAD.dual_level():

        def dual_args():
            x, w, b = make_args()
            return [fwAD.make_dual(x, torch.ones_like(x)), w, b]

        for call in (aten, python, planned):
            static = aten_shim.static_ops()
            primal, tangent = fwAD.unpack_dual(call(dual_args())[0])
            assert tangent is not None and aten_shim.static_ops() == static
            tangents.append((primal, tangent))
    call_trace.assert_bit_equal(tangents[0], tangents[2])
    call_trace.assert_bit_equal(tangents[1], tangents[2])


@pytest.mark.parametrize("op", ["convolution", "sdpa"])
def test_errors_are_the_kernels_own(aten_shim, tmp_path, op):
    """Arguments the kernel refuses: the same error from every route, uncounted."""
    if op == "convolution":
        text, aten, make_args = _conv_case((2, 3, 8, 8), (4, 5, 3, 3))  # 3 vs 5 channels
        match = "expected input"
    else:
        text, aten, make_args = _sdpa_case((1, 2, 8, 8), (1, 2, 8, 16))  # head dims differ
        match = ""
    python, planned = _wrapper(tmp_path, text)
    (_, error), (static, native) = _three_ways(aten_shim, aten, python, planned, make_args)
    assert error is not None and error[0] is RuntimeError and match in error[1]
    assert static == {} and native == {}  # raised inside the shim: neither ran nor declined


@pytest.mark.parametrize("kind", sorted(CUDA_ONLY_SDPA))
def test_cuda_only_attention_on_cpu_raises_the_dispatchers_error(aten_shim, tmp_path, kind):
    """Their only kernels are CUDA's: on CPU tensors the shim binds the arguments and
    leaves the call to the dispatcher, which raises as torch.ops does."""
    name = CUDA_ONLY_SDPA[kind]
    extra = {
        "_scaled_dot_product_efficient_attention": (None, False, 0.0, True),
        "_scaled_dot_product_flash_attention": (0.0, True),
        "_scaled_dot_product_cudnn_attention": (None, False, 0.0, True),
    }[name]
    text = (
        "import torch\ndef call(args):\n    q, k, v = args\n    args.clear()\n"
        f"    buf0 = torch.ops.aten.{name}.default(q, k, v, {', '.join(map(repr, extra))}, "
        "scale=0.5)\n    return (buf0[0],)\n"
    )
    python, planned = _wrapper(tmp_path, text)
    op = getattr(torch.ops.aten, name).default

    def aten(args):
        return (op(*args, *extra, scale=0.5)[0],)

    def make_args():
        return [torch.randn(1, 2, 8, 8) for _ in range(3)]

    (_, error), (static, native) = _three_ways(aten_shim, aten, python, planned, make_args)
    assert error is not None and error[0] is NotImplementedError and name in error[1]
    assert static == {} and native == {}


def test_record_function_observer_keeps_the_dispatcher(aten_shim, tmp_path):
    """An execution-trace observer sees aten::convolution and what it calls from the
    planned call as from Python: the dispatcher calls its callbacks."""
    from torch.profiler import ExecutionTraceObserver

    text, _, make_args = _conv_case((2, 3, 8, 8), (4, 3, 3, 3))
    python, planned = _wrapper(tmp_path, text)
    events, static = [], aten_shim.static_ops()
    for call in (python, planned):
        trace = tmp_path / f"trace{len(events)}.json"
        observer = ExecutionTraceObserver()
        observer.register_callback(str(trace))
        observer.start()
        try:
            call(make_args())
        finally:
            observer.stop()
            observer.unregister_callback()
        events.append(
            [
                n["name"]
                for n in json.loads(trace.read_text())["nodes"]
                if n["name"].startswith("aten::")
            ]
        )
    assert "aten::convolution" in events[0] and events[0] == events[1]
    assert aten_shim.static_ops() == static


@pytest.mark.parametrize("op", ["convolution", "sdpa"])
def test_prepared_ops_off_keeps_the_dispatcher(aten_shim, tmp_path, op):
    if op == "convolution":
        text, aten, make_args = _conv_case((2, 3, 8, 8), (4, 3, 3, 3))
    else:
        text, aten, make_args = _sdpa_case((1, 2, 8, 8), (1, 2, 8, 8))
    python, planned = _wrapper(tmp_path, text)
    aten_shim.prepare(False)
    try:
        (_, error), (static, native) = _three_ways(aten_shim, aten, python, planned, make_args)
    finally:
        aten_shim.prepare(True)
    assert error is None and static == {} and sum(ran for ran, _ in native.values()) == 1


def test_static_ops_counts_every_kind_and_resets(aten_shim, tmp_path):
    for text, _, make_args in (
        _conv_case((1, 3, 6, 6), (2, 3, 3, 3)),
        _sdpa_case((1, 2, 8, 8), (1, 2, 8, 8)),
    ):
        _, planned = _wrapper(tmp_path, text)
        planned(make_args())
    assert {CONV, FLASH_CPU} <= set(aten_shim.static_ops())
    assert fastlaunch.stats()["call.native_static"] == sum(aten_shim.static_ops().values())
    fastlaunch.reset_stats()
    assert aten_shim.static_ops() == {}
    assert "call.native_static" not in fastlaunch.stats()
