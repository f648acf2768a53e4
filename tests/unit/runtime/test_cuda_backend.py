# SPDX-License-Identifier: Apache-2.0
"""The CUDA backend on a machine without a GPU: it builds, packs and says why
it cannot launch."""

import ctypes.util

import pytest

from fastlaunch import PlanUnavailable
from fastlaunch.engine import routing
from fastlaunch.runtime import _core
from fastlaunch.runtime.cuda import CudaBackend
from fastlaunch.testing import pack_bytes_reference


@pytest.mark.skipif(ctypes.util.find_library("cuda") is not None,
                    reason="libcuda is present: the unavailable path cannot be observed here")
def test_unavailable_without_libcuda_names_the_library():
    ok, why = CudaBackend().available()
    assert not ok and "libcuda.so.1" in why
    with pytest.raises(_core.LaunchError, match="libcuda"):
        _core.CudaLauncher(_core.Plan("cuda", ["i32"]), 1, 4, 0, 0)


def test_cuda_plan_packs_like_the_reference():
    plan = _core.Plan("cuda", ["*fp32", "i1", "fp16", "bf16", "i64"], n_scratch=2)
    args = (0x1000, True, 1.5, -2.0, -9)
    assert plan.pack(args) == pack_bytes_reference("cuda", ["*fp32", "i1", "fp16", "bf16", "i64"],
                                                   args)


def test_fixed_args_are_refused_for_cuda():
    from fastlaunch.testing import fakes

    with pytest.raises(PlanUnavailable, match="fixed_args_unsupported"):
        CudaBackend().make_plan(fakes.spec("k", ["i32", "i32"]), input_count=1, fixed_args=(4,))


@pytest.mark.parametrize(("args", "message"), [
    ((None, 1, 4, 0, 0), "plan: got NoneType, expected a fastlaunch.runtime._core.Plan"),
    (("plan", 1, 4, 0, 0), "plan: got str"),
    ((_core.Plan("cuda", ["i32"]), None, 4, 0, 0), "function: got NoneType"),
    ((_core.Plan("cuda", ["i32"]), 2**64, 4, 0, 0), "function: got 18446744073709551616"),
    ((_core.Plan("cuda", ["i32"]), 1, 0, 0, 0), r"num_warps: got 0, expected an int in \[1, 32\]"),
    ((_core.Plan("cuda", ["i32"]), 1, 4, -1, 0), "shared: got -1"),
    ((_core.Plan("cuda", ["i32"]), 1, 4, 0, -1), "device: got -1"),
])
def test_launcher_constructor_names_the_bad_field(args, message):
    with pytest.raises(_core.InputError, match=message):
        _core.CudaLauncher(*args)


def test_allocator_setter_does_what_stock_run_does(monkeypatch):
    """Stock ``CachingAutotuner.run`` is executed up to its interpret branch with
    a recording ``triton``; the allocator it installs and ours must agree."""
    import sys
    import types

    torch = pytest.importorskip("torch", reason="torch is not installed")
    from torch._inductor.runtime import triton_heuristics as th

    from fastlaunch.integrations.inductor import integration

    installed = []
    fake_triton = types.SimpleNamespace(set_allocator=installed.append)
    monkeypatch.setattr(th, "triton", fake_triton)
    monkeypatch.setitem(sys.modules, "triton", fake_triton)
    autotuner = types.SimpleNamespace(
        _cached_launcher=None, triton_interpret=True, device_props=types.SimpleNamespace(
            type="cpu"), triton_meta={}, configs=[types.SimpleNamespace(kwargs={})],
        _interpret_args_grid=lambda args, cfg: (args, (1,)),
        fn={(1,): lambda *a, **k: None})
    th.CachingAutotuner.run(autotuner, stream=0)
    integration._allocator_setter(autotuner)()
    assert len(installed) == 2
    stock, ours = (fn(96, 16, None) for fn in installed)
    for t in (stock, ours):
        assert isinstance(t, torch.Tensor)
    assert (ours.dtype, ours.device, ours.shape) == (stock.dtype, stock.device, stock.shape)


def test_full_entry_reasons_for_dump_tensors_and_overridden_run():
    """Both are per-call work of the autotuner's own ``run``: every call goes there."""
    pytest.importorskip("torch", reason="torch is not installed")
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    from fastlaunch.integrations.inductor import integration

    class Overriding(CachingAutotuner):
        def run(self, *args, stream, **kwargs):
            return super().run(*args, stream=stream, **kwargs)

    def reason(autotuner):
        """What the router fixes at bind for this autotuner, with the CUDA options."""
        options = integration._bind_options(autotuner)
        return routing.static_full_entry_reason(autotuner, options["static_reasons"],
                                                options["stock_runs"])

    stock = object.__new__(CachingAutotuner)
    stock.dump_launch_tensors = False
    stock.device_props = None
    assert reason(stock) == ""
    stock.dump_launch_tensors = True
    assert reason(stock) == "dump_launch_tensors"
    sub = object.__new__(Overriding)
    sub.dump_launch_tensors = False
    sub.device_props = None
    assert reason(sub) == "run_overridden"


@pytest.mark.parametrize("stack_len", [None, lambda: 0])
def test_the_debug_mode_probe_is_kept_without_the_dispatch_stack_probe(monkeypatch, stack_len):
    """Where torch has no ``_len_torch_dispatch_stack``, the DebugMode probe
    stays and is its own per-call test (the router reads probes only when
    maybe_full is true); with it, the stack length is the cheap test."""
    import types

    pytest.importorskip("torch", reason="torch is not installed")
    from torch._inductor.runtime import triton_heuristics
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    from fastlaunch.engine import probes
    from fastlaunch.integrations.inductor import integration

    active: list = []
    monkeypatch.setattr(triton_heuristics, "get_active_debug_mode",
                        lambda: active[0] if active else None, raising=False)
    monkeypatch.setattr(probes, "dispatch_stack_len", lambda: stack_len)
    autotuner = object.__new__(CachingAutotuner)
    autotuner.dump_launch_tensors = False
    autotuner.device_props = types.SimpleNamespace(type="cpu")
    options = integration._bind_options(autotuner)
    [(reason, probe)] = options["probes"]
    assert reason == "debug_mode"
    if stack_len is not None:
        assert options["maybe_full"] is stack_len
    else:
        assert options["maybe_full"] is probe
    assert not probe()
    active.append(object())
    assert probe()


def test_before_direct_is_offered_where_the_router_takes_it(monkeypatch):
    import sys
    import types

    torch = pytest.importorskip("torch", reason="torch is not installed")
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    from fastlaunch.integrations.inductor import integration

    installed = []
    monkeypatch.setitem(sys.modules, "triton", types.SimpleNamespace(
        set_allocator=installed.append))
    autotuner = object.__new__(CachingAutotuner)
    autotuner.dump_launch_tensors = False
    autotuner.device_props = types.SimpleNamespace(type="cpu")
    before = integration._bind_options(autotuner)["before_direct"]
    before()
    before()
    assert len(installed) == 2
    buf = installed[-1](32, 16, None)
    assert (buf.dtype, buf.device.type, buf.numel()) == (torch.int8, "cpu", 32)


def test_plan_device_follows_the_load_device_when_compile_meta_has_none(monkeypatch):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from fastlaunch.integrations.inductor import integration

    monkeypatch.setattr(torch.cuda, "current_device", lambda: 1)
    assert integration.plan_device({"device": None}) == 1
    assert integration.plan_device({}) == 1
    assert integration.plan_device({"device": 0}) == 0
    assert integration.plan_device({"device": 3}) == 3
