# SPDX-License-Identifier: Apache-2.0
"""torch.compile programs on a real NVIDIA GPU, fast launch on and off."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import fastlaunch  # noqa: E402
from fastlaunch.engine import routing  # noqa: E402
from fastlaunch.integrations.inductor import integration  # noqa: E402
from helpers import compiled as hw  # noqa: E402

pytestmark = pytest.mark.cuda
DEVICE = "cuda"


def fast_launch(on: bool = True, strict: bool = False):
    return hw.fast_launch(integration, on, strict)


def _detach(out):
    # CUDA-graph outputs are overwritten by the next replay: keep copies.
    return torch.utils._pytree.tree_map(lambda t: t.clone() if isinstance(t, torch.Tensor)
                                        else t, out)


def run_both(fn, *args, calls: int = 3, **compile_kw):
    result = hw.run_both(integration, fn, *args, calls=calls, copy=_detach, **compile_kw)
    torch.cuda.synchronize()
    return result


def assert_same(expected, got, exact: bool = True):
    """Pointwise kernels must match bit for bit; reductions may differ by the
    summation order of the config each compile's autotuning picked."""
    tol = {"rtol": 0, "atol": 0} if exact else {"rtol": 1e-5, "atol": 1e-5}
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e, **tol)


def test_pointwise_hits_fast_path():
    x = torch.randn(4096, device=DEVICE)
    y = torch.randn(4096, device=DEVICE)
    expected, got, counts = run_both(lambda a, b: (a * 2 + b).relu(), x, y, calls=4)
    assert_same(expected, got)
    assert counts.get("plan.created", 0) >= 1
    assert counts.get("fast", 0) >= 3, counts


def test_reductions():
    x = torch.randn(37, 3000, device=DEVICE)

    def fn(a):
        return a.sum(-1) + a.amax(-1), a.softmax(-1)

    expected, got, counts = run_both(fn, x, calls=3)
    for e, g in zip(expected, got):
        assert_same(e, g, exact=False)
    assert counts.get("fast", 0) >= 2, counts


def test_dynamic_shapes_grid_per_call():
    def fn(a):
        return torch.sin(a) * 3

    sizes = (100, 257, 1000, 4099)
    with fast_launch(False):
        compiled = torch.compile(fn, dynamic=True)
        expected = [compiled(torch.arange(n, device=DEVICE, dtype=torch.float32)) for n in sizes]
    with fast_launch(True):
        compiled = torch.compile(fn, dynamic=True)
        got = [compiled(torch.arange(n, device=DEVICE, dtype=torch.float32)) for n in sizes]
        counts = fastlaunch.stats()
    assert_same(expected, got)
    assert counts.get("fast", 0) >= len(sizes) - 1, counts


SCALARS_SIGNATURE = {"out": "*fp32", "b1": "i1", "i8": "i8", "i16": "i16", "h": "fp16",
                     "bf": "bf16", "f": "fp32", "i64": "i64", "u8": "u8", "n": "constexpr"}


@triton.jit
def _scalars_kernel(out, b1, i8, i16, h, bf, f, i64, u8, n: tl.constexpr):
    idx = tl.arange(0, n)
    vals = tl.where(idx == 0, b1.to(tl.float32), 0.0)
    vals = tl.where(idx == 1, i8.to(tl.float32), vals)
    vals = tl.where(idx == 2, i16.to(tl.float32), vals)
    vals = tl.where(idx == 3, h.to(tl.float32), vals)
    vals = tl.where(idx == 4, bf.to(tl.float32), vals)
    vals = tl.where(idx == 5, f, vals)
    vals = tl.where(idx == 6, i64.to(tl.float32), vals)
    vals = tl.where(idx == 7, u8.to(tl.float32), vals)
    tl.store(out + idx, vals)


def test_scalar_abi_i1_fp16_bf16_against_triton_and_driver():
    """Pack i1/i8/i16/fp16/bf16/fp32/i64/u8 scalars ourselves; the kernel must
    read what Triton's own launcher passes, and the layout must match
    cuFuncGetParamInfo."""
    from fastlaunch.runtime import _core
    from fastlaunch.runtime.cuda import CudaBackend
    from fastlaunch.runtime.cuda.backend import spec_from_compiled

    values = (True, -3, 300, 1.5, 2.25, 3.5, -7, 200)
    compiled = triton.compile(triton.compiler.ASTSource(
        fn=_scalars_kernel, signature=SCALARS_SIGNATURE, constexprs={"n": 8}))
    compiled._init_handles()
    out = torch.zeros(8, device=DEVICE)
    spec = spec_from_compiled(compiled, "scalars", SCALARS_SIGNATURE,
                              torch.cuda.current_device())
    backend = CudaBackend()
    plan = backend.make_plan(spec, input_count=len(spec.names), fixed_args=())
    driver = _core.cuda_param_info(spec.handle)
    assert [tuple(p) for p in driver] == [(o, s) for _, o, s in plan.packer.fields]
    plan.submit(torch.cuda.current_stream().cuda_stream, (1, 1, 1), (out, *values))
    torch.cuda.synchronize()
    # every value is exact in its type, so the kernel must read them back unchanged
    assert out.tolist() == [1.0, -3.0, 300.0, 1.5, 2.25, 3.5, -7.0, 200.0]


def test_two_streams():
    x = torch.randn(2048, device=DEVICE)

    def fn(a):
        return a.cos() + 1

    with fast_launch(False):
        expected = torch.compile(fn)(x)
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    with fast_launch(True):
        compiled = torch.compile(fn)
        compiled(x)
        torch.cuda.synchronize()
        results = []
        for s in (s1, s2, s1, s2):
            with torch.cuda.stream(s):
                results.append(compiled(x))
        torch.cuda.synchronize()
        counts = fastlaunch.stats()
    for r in results:
        assert_same([expected], [r])
    assert counts.get("fast", 0) >= 4, counts


def test_profiler_takes_full_entry_and_records_kernel():
    x = torch.randn(1024, device=DEVICE)
    with fast_launch(False):
        expected = torch.compile(lambda a: a * 3 - 1)(x)
    with fast_launch(True):
        compiled = torch.compile(lambda a: a * 3 - 1)
        compiled(x)
        compiled(x)
        fast_before = fastlaunch.stats().get("fast", 0)
        with torch.profiler.profile() as prof:
            out = compiled(x)
        counts = fastlaunch.stats()
    assert counts.get("fallback.profiler", 0) >= 1, counts
    assert counts.get("fast", 0) == fast_before
    names = [e.name for e in prof.events()]
    assert any("triton" in n for n in names), names[:20]
    assert_same([expected], [out])


def test_launch_hook_goes_to_original_launcher_and_back():
    from triton import knobs

    x = torch.randn(1024, device=DEVICE)
    with fast_launch(True):
        compiled = torch.compile(lambda a: a.exp())
        compiled(x)
        compiled(x)

        def hook(*_args, **_kwargs):
            return None

        knobs.runtime.launch_enter_hook.add(hook)
        try:
            out = compiled(x)
            with_hook = fastlaunch.stats()
        finally:
            knobs.runtime.launch_enter_hook.remove(hook)
        out2 = compiled(x)
        after = fastlaunch.stats()
    assert with_hook.get("fallback.launch_hooks", 0) >= 1, with_hook
    assert after.get("fast", 0) > with_hook.get("fast", 0)
    assert_same([x.exp(), x.exp()], [out, out2], exact=False)


def test_reduce_overhead_cudagraphs():
    x = torch.randn(512, device=DEVICE)
    expected, got, counts = run_both(lambda a: (a + 1).sigmoid() * 2, x, calls=5,
                                     mode="reduce-overhead")
    assert_same(expected, got)


def test_injected_backend_error_is_not_replayed(monkeypatch):
    """On the Python launch path (the FastSite's error path is covered on the
    fake CANN runtime, tests/unit/engine/test_fast_site.py)."""
    from fastlaunch.runtime.cuda import CudaPlan

    monkeypatch.setattr(CudaPlan, "native", property(lambda self: None))
    x = torch.zeros(256, device=DEVICE)
    fail = {"on": False}
    original = CudaPlan.launch.fget

    def launch_failing(self):
        launch = original(self)

        def launch_then_fail(stream, grid, args):
            launch(stream, grid, args)
            if fail["on"]:
                raise RuntimeError("injected after submit")

        return launch_then_fail

    monkeypatch.setattr(CudaPlan, "launch", property(launch_failing))

    def bump(a):
        a.add_(1)
        return a

    with fast_launch(True):
        compiled = torch.compile(bump)
        compiled(x)
        compiled(x)
        torch.cuda.synchronize()
        assert fastlaunch.stats().get("fast", 0) >= 1
        before = x.clone()
        fail["on"] = True
        with pytest.raises(fastlaunch.FastLaunchError) as info:
            compiled(x)
        torch.cuda.synchronize()
    assert info.value.submitted
    torch.testing.assert_close(x, before + 1)  # exactly one launch


def test_wrong_device_is_refused_and_launches_nothing():
    """A plan made for device 0 called while another device is current (faked
    here by recording a different device index in the plan)."""
    from fastlaunch.runtime.cuda import CudaBackend
    from fastlaunch.runtime.cuda.backend import spec_from_compiled

    compiled = triton.compile(triton.compiler.ASTSource(
        fn=_scalars_kernel, signature=SCALARS_SIGNATURE, constexprs={"n": 8}))
    compiled._init_handles()
    spec = spec_from_compiled(compiled, "scalars", SCALARS_SIGNATURE,
                              torch.cuda.current_device() + 1)
    backend = CudaBackend()
    plan = backend.make_plan(spec, input_count=9, fixed_args=())
    out = torch.zeros(8, device=DEVICE)
    with pytest.raises(fastlaunch.FastLaunchError, match="device_mismatch"):
        plan.submit(torch.cuda.current_stream().cuda_stream, (1, 1, 1),
                       (out, True, 1, 2, 1.0, 1.0, 1.0, 3, 4))
    torch.cuda.synchronize()
    assert out.count_nonzero().item() == 0


def test_strict_mode_raises_on_unexpected_fallback():
    x = torch.randn(64, device=DEVICE)
    with fast_launch(True, strict=True):
        compiled = torch.compile(lambda a: a + 2)
        compiled(x)
        out = compiled(x)
    assert_same([x + 2], [out], exact=False)
    assert not any(k.startswith("fallback.") and k.split(".", 1)[1] not in
                   fastlaunch.engine.fallbacks.EXPECTED for k in fastlaunch.stats())


def test_routing_metadata_in_generated_code():
    x = torch.randn(64, device=DEVICE)
    seen = []
    original = routing.bind

    def spy(metadata, autotuner, **kw):
        seen.append(metadata)
        return original(metadata, autotuner, **kw)

    with fast_launch(True):
        routing_bind = routing.bind
        try:
            import fastlaunch.engine.routing as r

            r.bind = spy
            compiled = torch.compile(lambda a: a * a)
            compiled(x)
        finally:
            r.bind = routing_bind
    assert seen and seen[0]["abi"] == "cuda" and seen[0]["arg_count"] >= 2
