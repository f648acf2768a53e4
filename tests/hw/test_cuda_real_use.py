# SPDX-License-Identifier: Apache-2.0
"""What a user meets in production, on a real NVIDIA GPU: warm compile caches
(on, as by default), the Triton-launcher path, user-defined Triton kernels,
kernels fastlaunch refuses (through the negative cache, also from a second
thread), large shared memory, y/z grid overflow, views, empty inputs, threads
and autograd's thread, per-call features of ``run`` and launch hooks."""

from __future__ import annotations

import ctypes
import threading

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from torch._dynamo.utils import counters as dynamo_counters  # noqa: E402
from torch._inductor import config as inductor_config  # noqa: E402

import fastlaunch  # noqa: E402
from fastlaunch.engine import routing  # noqa: E402
from fastlaunch.integrations import cache_keys, launchers  # noqa: E402
from fastlaunch.integrations.inductor import integration  # noqa: E402
from helpers import compiled as hw  # noqa: E402

pytestmark = pytest.mark.cuda
DEVICE = "cuda"


@pytest.fixture(autouse=True)
def _fresh_kernels_in_memory():
    """Inductor reuses compiled kernels by source within a process; autotuners
    read some settings (e.g. TORCHINDUCTOR_DUMP_LAUNCH_TENSORS) when built."""
    launchers.forget_compiled_kernels()


def fast_launch(on: bool = True, strict: bool = False):
    return hw.fast_launch(integration, on, strict)


def exact(expected, got):
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e, rtol=0, atol=0)


def in_thread(fn, *args):
    """``fn(*args)`` in a new thread; its result or its exception."""
    box = {}

    def body():
        try:
            box["out"] = fn(*args)
        except BaseException as err:  # re-raised in the caller
            box["err"] = err

    t = threading.Thread(target=body)
    t.start()
    t.join()
    if "err" in box:
        raise box["err"]
    return box["out"]


class BindSpy:
    """Collects the autotuners that generated code binds (to read their metadata)."""

    def __init__(self, monkeypatch):
        self.autotuners = []
        original = routing.bind

        def spy(metadata, autotuner, **kw):
            self.autotuners.append(autotuner)
            return original(metadata, autotuner, **kw)

        monkeypatch.setattr(routing, "bind", spy)

    def specs(self):
        found = []
        for a in self.autotuners:
            for launcher in getattr(a, "launchers", ()):
                spec = getattr(launcher, routing.SPEC_ATTR, None)
                if spec is not None:
                    found.append(spec)
        return found


def _loaded_code_count():
    from torch._inductor.codecache import PyCodeCache

    return len(PyCodeCache.modules)


def _loaded_code_since(start):
    from torch._inductor.codecache import PyCodeCache

    texts = []
    for module in PyCodeCache.modules[start:]:
        with open(module.__file__) as f:
            texts.append(f.read())
    return texts


def cache_hits():
    return (dynamo_counters["inductor"]["fxgraph_cache_hit"]
            + dynamo_counters["aot_autograd"]["autograd_cache_hit"])


def _fn(a, b):
    return (a * 1.5 + b).sigmoid() - a.sum(-1, keepdim=True)


# ---- compile caches on -------------------------------------------------------

def test_caches_on_warm_off_then_on_launches_fast_and_on_then_off_loads_stock_code():
    assert inductor_config.fx_graph_cache, "the FX graph cache must be on for this test"
    x = torch.randn(64, 1000, device=DEVICE)
    y = torch.randn(64, 1000, device=DEVICE)
    with fast_launch(False):
        expected = torch.compile(_fn)(x, y)  # warms the cache without fastlaunch
        torch._dynamo.reset()
        dynamo_counters.clear()
        exact([expected], [torch.compile(_fn)(x, y)])
        assert cache_hits() >= 1  # the cache is warm
    with fast_launch(True):
        compiled = torch.compile(_fn)
        got = [compiled(x, y) for _ in range(3)]
        on = fastlaunch.stats()
        assert cache_keys.active()
    assert on.get("fast", 0) > 0, on  # not the stock code cached above
    exact([expected] * 3, got)
    # warm with fastlaunch on (above), run with it off: stock code is loaded
    with fast_launch(True):
        torch.compile(_fn)(x, y)
    start = _loaded_code_count()
    with fast_launch(False):
        out = torch.compile(_fn)(x, y)
        off = fastlaunch.stats()
    texts = _loaded_code_since(start)
    assert texts and not any("fastlaunch" in t for t in texts)
    assert off.get("fast", 0) == 0
    exact([expected], [out])
    # and with fastlaunch on again, its cached code is a hit that launches fast
    with fast_launch(True):
        dynamo_counters.clear()
        compiled = torch.compile(_fn)
        got = [compiled(x, y) for _ in range(3)]
        again = fastlaunch.stats()
        hits = cache_hits()
    assert hits >= 1 and again.get("fast", 0) > 0, (hits, again)
    exact([expected] * 3, got)


# ---- the Triton-launcher path -------------------------------------------------

def test_triton_launcher_path_end_to_end():
    x = torch.randn(37, 3000, device=DEVICE)
    y = torch.randn(37, 3000, device=DEVICE)
    with inductor_config.patch(use_static_cuda_launcher=False):
        expected, got, counts = hw.run_both(integration, _fn, x, y, calls=3)
    exact(expected, got)
    assert counts.get("plan.created", 0) >= 1 and counts.get("fast", 0) >= 2, counts


# ---- user-defined Triton kernels -----------------------------------------------

@triton.jit
def _add_fixed(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m),
             mask=m)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 256})],
                 key=["n"])
@triton.jit
def _add_tuned(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2 - tl.load(y_ptr + offs, mask=m),
             mask=m)


@triton.jit
def _mid_constexpr(x_ptr, SCALE: tl.constexpr, out_ptr, bias_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m) * SCALE
    if bias_ptr is not None:
        v += tl.load(bias_ptr + offs, mask=m)
    tl.store(out_ptr + offs, v, mask=m)


def _user_kernels(x, y):
    n = x.numel()
    out1, out2, out3, out4 = (torch.empty_like(x) for _ in range(4))
    _add_fixed[(triton.cdiv(n, 128),)](x, y, out1, n, BLOCK=128)
    _add_tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out2, n)
    _mid_constexpr[(triton.cdiv(n, 128),)](x, 3, out3, None, n, BLOCK=128)
    _mid_constexpr[(triton.cdiv(n, 128),)](x, 2, out4, y, n, BLOCK=128)
    return out1, out2, out3, out4


def test_user_defined_triton_kernels(monkeypatch):
    x = torch.randn(5000, device=DEVICE)
    y = torch.randn(5000, device=DEVICE)
    eager = _user_kernels(x, y)
    spy = BindSpy(monkeypatch)
    expected, got, counts = hw.run_both(integration, _user_kernels, x, y, calls=3)
    for e, g in zip(expected, got):
        exact(e, g)
    exact(eager, got[-1])
    assert counts.get("plan.created", 0) >= 4, counts
    assert counts.get("fast", 0) >= 8, counts
    names = {s.name for s in spy.specs()}
    assert any("mid_constexpr" in n for n in names), names


# ---- refusals through the negative cache, also from a second thread ------------

def _refused(fn, args, reason, *, second_thread=True, **patches):
    with inductor_config.patch(patches):
        expected, got, counts = hw.run_both(integration, fn, *args, calls=3)
        exact(expected, got)
        assert counts.get(f"plan.refused.{reason}", 0) >= 1, counts
        assert counts.get("fallback.negative_cache", 0) >= 1, counts
        if second_thread:
            with fast_launch(True):
                compiled = torch.compile(fn)
                compiled(*args)
                compiled(*args)
                out = in_thread(compiled, *args)
                torch.cuda.synchronize()
                counts = fastlaunch.stats()
            exact(expected[:1], [out])
            assert counts.get("fallback.negative_cache", 0) >= 2, counts


def test_cooperative_reduction_refused():
    x = torch.randn(8, 1 << 18, device=DEVICE)
    _refused(lambda a: a.sum(-1), (x,), "cooperative_launch_unsupported",
             **{"triton.cooperative_reductions": True,
                "triton.force_cooperative_reductions": True})


def test_pdl_refused():
    x = torch.randn(4096, device=DEVICE)
    _refused(lambda a: a.cos() * 2, (x,), "pdl_launch_unsupported", **{"triton.enable_pdl": True})


def test_num_ctas_2_refused():
    """Inductor (2.11) drops ``num_ctas`` from user-kernel configs, so a cluster
    kernel cannot come out of torch.compile; Triton's own compile with
    ``num_ctas=2`` is described the way the integration describes it."""
    import types

    from fastlaunch import PlanUnavailable

    compiled = triton.compile(triton.compiler.ASTSource(
        fn=_add_fixed, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                                  "n": "i32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 256}),
        options={"num_ctas": 2})
    assert compiled.metadata.num_ctas == 2
    launcher = types.FunctionType((lambda stream: None).__code__, {"bin": compiled})
    with pytest.raises(PlanUnavailable, match="clusters_unsupported"):
        integration._kernel_params(None, launcher)


@triton.jit
def _scratch_copy(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # a device-side tensor descriptor: the kernel needs global scratch memory,
    # allocated per launch through triton.set_allocator
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    dst.store([pm, pn], src.load([pm, pn]) * 2)


def _call_scratch(x):
    out = torch.empty_like(x)
    m, n = x.shape
    _scratch_copy[(triton.cdiv(m, 64), triton.cdiv(n, 64))](x, out, m, n, BM=64, BN=64)
    return out


def test_scratch_kernel_refused():
    _refused(_call_scratch, (torch.randn(256, 256, device=DEVICE),),
             "scratch_memory_unsupported", second_thread=False)


def test_scratch_kernel_from_a_second_thread_gets_the_allocator():
    _refused(_call_scratch, (torch.randn(256, 256, device=DEVICE),),
             "scratch_memory_unsupported")


# ---- shared memory, grids, views, empty inputs ---------------------------------

@triton.jit
def _mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]),
                      tl.load(b + (k + rk)[:, None] * N + rn[None, :]))
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


def _call_mm(a, b):
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty(m, n, device=a.device, dtype=torch.float32)
    _mm[(m // 128, n // 128)](a, b, c, m, n, k, BM=128, BN=128, BK=64, num_warps=8,
                              num_stages=4)
    return c


def test_more_than_48k_shared_memory_is_planned(monkeypatch):
    a = torch.randn(512, 512, device=DEVICE, dtype=torch.float16)
    b = torch.randn(512, 512, device=DEVICE, dtype=torch.float16)
    spy = BindSpy(monkeypatch)
    expected, got, counts = hw.run_both(integration, _call_mm, a, b, calls=3)
    exact(expected, got)
    shared = [s.options["shared"] for s in spy.specs() if "mm" in s.name]
    assert shared and max(shared) > 48 * 1024, shared
    assert counts.get("plan.created", 0) >= 1 and counts.get("fast", 0) >= 2, counts


def test_2d_grid_with_yz_overflow(monkeypatch):
    spy = BindSpy(monkeypatch)
    tall = torch.randn(1 << 22, 16, device=DEVICE)
    wide = torch.randn(16, 1 << 22, device=DEVICE)

    def fn(a, b):
        return a.t().contiguous() * 2 + 1, b.t().contiguous() - 1

    expected, got, counts = hw.run_both(integration, fn, tall, wide, calls=3)
    for e, g in zip(expected, got):
        exact(e, g)
    grid_types = {a.inductor_meta.get("grid_type") for a in spy.autotuners}
    assert "Grid2DWithYZOverflow" in grid_types, grid_types
    assert counts.get("fast", 0) >= 2, counts


def test_views_with_a_storage_offset():
    base = torch.randn(4096 + 8, device=DEVICE)
    view = base[8:]  # 32 bytes in: still 16-byte aligned, so Inductor does not copy it
    assert view.storage_offset() == 8
    expected, got, counts = hw.run_both(integration, lambda v: v * 3 + 1, view, calls=3)
    exact(expected, got)
    assert counts.get("fast", 0) >= 2, counts


def test_zero_size_inputs():
    def fn(a):
        return torch.cat([a * 2, a + 1])

    x = torch.randn(0, device=DEVICE)
    torch._dynamo.decorators.mark_unbacked(x, 0)
    with fast_launch(True):
        compiled = torch.compile(fn)
        outs = [compiled(x) for _ in range(3)]
        y = torch.randn(5, device=DEVICE)
        filled = compiled(y)
        counts = fastlaunch.stats()
    assert all(o.shape == (0,) for o in outs)
    exact([fn(y)], [filled])
    assert not any(k.startswith("error.") for k in counts), counts


# ---- threads -------------------------------------------------------------------

def _current_context():
    lib = ctypes.CDLL("libcuda.so.1")
    ctx = ctypes.c_void_p()
    assert lib.cuCtxGetCurrent(ctypes.byref(ctx)) == 0
    return ctx.value


def test_plan_launch_in_a_thread_without_a_context_makes_the_primary_context_current():
    from fastlaunch.runtime.base import KernelSpec
    from fastlaunch.runtime.cuda import CudaBackend

    compiled = triton.compile(triton.compiler.ASTSource(
        fn=_add_fixed, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                                  "n": "i32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 128}))
    compiled._init_handles()
    names = ("x_ptr", "y_ptr", "out_ptr", "n")
    spec = KernelSpec(name="add", handle=int(compiled.function),
                      signature=("*fp32", "*fp32", "*fp32", "i32"), names=names,
                      positions=(0, 1, 2, 3), grid=None, static_grid=(2, 1, 1),
                      device=torch.cuda.current_device(),
                      options={"num_warps": compiled.metadata.num_warps,
                               "shared": compiled.metadata.shared}, owner=compiled)
    backend = CudaBackend()
    plan = backend.make_plan(spec, input_count=4, fixed_args=())
    x, y = torch.randn(256, device=DEVICE), torch.randn(256, device=DEVICE)
    out = torch.zeros(256, device=DEVICE)
    stream = torch.cuda.current_stream().cuda_stream
    args = (x.data_ptr(), y.data_ptr(), out.data_ptr(), 256)  # no torch call in the thread
    main_ctx = _current_context()

    def launch():
        before = _current_context()
        plan.submit(stream, (2, 1, 1), args)
        return before, _current_context()

    before, after = in_thread(launch)
    torch.cuda.synchronize()
    assert before is None and after == main_ctx
    exact([x + y], [out])


def test_warm_in_one_thread_call_from_new_threads_with_and_without_set_device():
    x = torch.randn(64, 1000, device=DEVICE)
    y = torch.randn(64, 1000, device=DEVICE)
    with fast_launch(False):
        expected = torch.compile(_fn)(x, y)
    with fast_launch(True):
        compiled = torch.compile(_fn)
        compiled(x, y)
        compiled(x, y)
        before = fastlaunch.stats().get("fast", 0)
        plain = in_thread(compiled, x, y)

        def with_set_device():
            torch.cuda.set_device(x.device)
            return compiled(x, y)

        selected = in_thread(with_set_device)
        torch.cuda.synchronize()
        counts = fastlaunch.stats()
    exact([expected, expected], [plain, selected])
    assert counts.get("fast", 0) >= before + 2, counts
    assert not any(k.startswith(("error.", "fallback.device")) for k in counts), counts


def test_training_step_backward_in_autograds_thread():
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                                torch.nn.LayerNorm(128), torch.nn.Linear(128, 8)).to(DEVICE)
    data = torch.randn(32, 64, device=DEVICE)

    def step(m):
        m.zero_grad(set_to_none=True)
        loss = torch.compile(m)(data).square().mean()
        loss.backward()
        return [loss.detach()] + [p.grad.clone() for p in m.parameters()]

    import copy

    with fast_launch(False):
        expected = step(copy.deepcopy(model))
    with fast_launch(True):
        twin = copy.deepcopy(model)
        step(twin)
        got = step(twin)
        counts = fastlaunch.stats()
    for e, g in zip(expected, got):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-6)
    assert counts.get("fast", 0) >= 2, counts
    assert not any(k.startswith("error.") for k in counts), counts


# ---- per-call features of run, launch hooks --------------------------------------

def test_dump_launch_tensors_takes_the_full_entry(monkeypatch, fresh_codegen):
    """Fresh codegen, compiled in this process: an autotuner reads the variable
    when it is built, so one restored from a warm cache, or built by a compile
    worker started before the variable was set, keeps what it read then (stock
    behaviour)."""
    from torch._inductor.runtime import triton_heuristics as th

    monkeypatch.setenv("TORCHINDUCTOR_DUMP_LAUNCH_TENSORS", "1")
    dumps = []
    original = th._dump_launch_tensors

    def spy(args, kernel_path, kernel_hash, kernel_name):
        dumps.append(kernel_name)
        return original(args, kernel_path, kernel_hash, kernel_name)

    monkeypatch.setattr(th, "_dump_launch_tensors", spy)
    x = torch.randn(2048, device=DEVICE)
    with inductor_config.patch(compile_threads=1):
        expected, got, counts = hw.run_both(integration, lambda a: a.exp() - 1, x, calls=3)
    exact(expected, got)
    assert len(dumps) == 6, dumps  # every call dumps, fastlaunch off (3) and on (3)
    assert counts.get("fast", 0) == 0, counts
    assert counts.get("fallback.dump_launch_tensors", 0) == 3, counts


def test_profile_bandwidth_runs_the_debug_autotuner(monkeypatch):
    from torch._inductor.runtime import triton_heuristics as th

    calls = []
    original = th.DebugAutotuner.run

    def run(self, *args, **kwargs):
        calls.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(th.DebugAutotuner, "run", run)
    x = torch.randn(2048, device=DEVICE)
    with inductor_config.patch(profile_bandwidth=True), fast_launch(True):
        compiled = torch.compile(lambda a: a.cos() + 2)
        outs = [compiled(x) for _ in range(3)]
        counts = fastlaunch.stats()
    # stock DebugAutotuner.run launches only while benchmarking the first call
    torch.testing.assert_close(outs[0], x.cos() + 2)
    assert len(calls) == 3
    assert counts.get("fast", 0) == 0, counts  # call sites are generated stock


def test_launch_hook_is_invoked_once_per_launch():
    from triton import knobs

    x = torch.randn(1024, device=DEVICE)
    seen = []

    def hook(metadata):
        seen.append(metadata)

    # the static launcher ignores hooks added after it was built: Triton's
    # launcher calls them, so the original path here is Triton's
    with inductor_config.patch(use_static_cuda_launcher=False), fast_launch(True):
        compiled = torch.compile(lambda a: a.exp() * 2)
        compiled(x)
        compiled(x)
        fast_before = fastlaunch.stats().get("fast", 0)
        knobs.runtime.launch_enter_hook.add(hook)
        try:
            outs = [compiled(x) for _ in range(3)]
        finally:
            knobs.runtime.launch_enter_hook.remove(hook)
        counts = fastlaunch.stats()
        compiled(x)
        after = fastlaunch.stats()
    torch.cuda.synchronize()
    exact([x.exp() * 2] * 3, outs)
    assert len(seen) == 3, len(seen)
    assert counts.get("fast", 0) == fast_before and counts.get("fallback.launch_hooks", 0) == 3
    assert after.get("fast", 0) == fast_before + 1


# ---- device checks -------------------------------------------------------------

def test_cpu_tensor_where_a_device_pointer_goes_takes_the_original_path():
    """Called through the planned call site itself (torch.compile would guard
    on the device and recompile): the call goes to the original launcher, which
    raises exactly what it raises when called alone, nothing is launched, and
    the context stays healthy."""
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    from fastlaunch.runtime import torch_accessor

    assert torch_accessor.ensure(build=True, wait=True), torch_accessor.status()
    x = torch.randn(1024, device=DEVICE)
    y = torch.randn(1024, device=DEVICE)  # not x: Dynamo would compile x + x with one input
    cpu = torch.randn(1024)
    with fast_launch(True):
        start = _loaded_code_count()
        compiled = torch.compile(lambda a, b: a + b)
        compiled(x, y)
        compiled(x, y)
        from torch._inductor.codecache import PyCodeCache

        module = next(m for m in PyCodeCache.modules[start:] if hasattr(m, "_fastlaunch_call_0"))
        site = module._fastlaunch_call_0[0]
        assert site is not None
        kernel = next(v for v in vars(module).values() if isinstance(v, CachingAutotuner))
        out = torch.zeros(1024, device=DEVICE)
        stream = torch.cuda.current_stream().cuda_stream
        try:  # the oracle: Inductor's own run, same call
            kernel.run(x, cpu, out, 1024, stream=stream)
        except Exception as err:  # whatever the original raises is the contract
            stock = err
        else:
            pytest.fail("the original launcher accepted a CPU tensor for a device pointer")
        torch.cuda.synchronize()
        fastlaunch.reset_stats()
        with pytest.raises(type(stock)) as info:
            site(x, cpu, out, 1024, stream=stream)
        counts = fastlaunch.stats()
        torch.cuda.synchronize()  # the context is healthy
        assert str(info.value) == str(stock)
        assert out.count_nonzero().item() == 0
        site(x, y, out, 1024, stream=stream)
        torch.cuda.synchronize()
    exact([x + y], [out])
    assert counts == {"fallback.device_mismatch": 1}, counts
