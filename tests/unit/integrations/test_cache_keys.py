# SPDX-License-Identifier: Apache-2.0
"""fastlaunch's state in Inductor's cache keys, computed by Inductor's own
key function (``compiled_fx_graph_hash``) and observed through its FX graph
cache counters."""

from __future__ import annotations

import os
import shutil

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

from torch._inductor import config as inductor_config  # noqa: E402
from torch._inductor.codecache import compiled_fx_graph_hash  # noqa: E402
from torch._inductor.custom_graph_pass import CustomGraphPass  # noqa: E402

from fastlaunch import config  # noqa: E402
from fastlaunch.integrations import cache_keys  # noqa: E402

_GM = torch.fx.symbolic_trace(lambda x: (x * 2).relu())
_INPUTS = [torch.randn(4)]


def inductor_key() -> str:
    return compiled_fx_graph_hash(_GM, _INPUTS, {}, [])[0]


class UserPass(CustomGraphPass):
    def __init__(self, ident="user-pass-v1"):
        self.ident = ident
        self.calls = 0

    def __call__(self, graph):
        self.calls += 1

    def uuid(self):
        return self.ident


def _uninstall_all() -> None:
    for abi in ("cuda", "npu"):
        cache_keys.uninstall(abi)


@pytest.fixture(autouse=True)
def _clean():
    """Each test starts with no ABI in the key (an integration an earlier test of the
    session installed keeps its entry) and leaves none."""
    saved = inductor_config.post_grad_custom_post_pass
    _uninstall_all()
    yield
    _uninstall_all()
    inductor_config.post_grad_custom_post_pass = saved


def test_key_is_stock_when_not_installed_and_differs_when_installed():
    stock = inductor_key()
    cache_keys.install("cuda")
    assert cache_keys.active()
    with config.override(enabled=True, backend="auto"):
        on = inductor_key()
        with config.override(backend="cuda"):
            other_backend = inductor_key()
    with config.override(enabled=False):
        disabled = inductor_key()
    assert len({stock, on, other_backend, disabled}) == 4
    cache_keys.uninstall("cuda")
    assert not cache_keys.active()
    assert inductor_config.post_grad_custom_post_pass is None
    assert inductor_key() == stock


def test_key_names_each_installed_abi():
    with config.override(enabled=True):
        cache_keys.install("cuda")
        cuda_only = inductor_key()
        cache_keys.install("npu")
        both = inductor_key()
        cache_keys.uninstall("npu")
        assert inductor_key() == cuda_only
    assert cuda_only != both


def test_key_follows_version_and_generated_code_format(monkeypatch):
    with config.override(enabled=True):
        cache_keys.install("cuda")
        base = inductor_key()
        monkeypatch.setattr(cache_keys, "__version__", "999.0")
        bumped = inductor_key()
        monkeypatch.undo()
        monkeypatch.setattr(cache_keys, "CODEGEN_FORMAT", cache_keys.CODEGEN_FORMAT + 1)
        reformatted = inductor_key()
    assert len({base, bumped, reformatted}) == 3


def test_users_pass_keeps_running_and_keying_on_pass_lists():
    user = UserPass()
    inductor_config.post_grad_custom_post_pass = user
    with_user = inductor_key()
    cache_keys.install("cuda")
    value = inductor_config.post_grad_custom_post_pass
    assert isinstance(value, list) and value[0] is user  # torch 2.13+ takes lists
    assert inductor_key() != with_user
    user.ident = "user-pass-v2"
    changed_user = inductor_key()
    user.ident = "user-pass-v1"
    assert changed_user != inductor_key()
    cache_keys.uninstall("cuda")
    assert inductor_config.post_grad_custom_post_pass is user
    assert inductor_key() == with_user


def test_chaining_wrapper_where_pass_lists_are_unsupported(monkeypatch):
    monkeypatch.setattr(cache_keys, "_accepts_pass_lists", lambda: False)
    user = UserPass()
    inductor_config.post_grad_custom_post_pass = user
    with_user = inductor_key()
    cache_keys.install("cuda")
    wrapper = inductor_config.post_grad_custom_post_pass
    assert wrapper.inner is user
    wrapper(_GM.graph)
    assert user.calls == 1
    assert inductor_key() != with_user
    user.ident = None  # a pass without a uuid: Inductor bypasses, so must we
    assert wrapper.uuid() is None
    user.ident = "user-pass-v1"
    cache_keys.uninstall("cuda")
    assert inductor_config.post_grad_custom_post_pass is user


def test_run_time_switch_decides_the_key_and_call_site_rewrites():
    """set_enabled(True) in a process started with fastlaunch off: graphs compiled
    after it get fastlaunch call sites, so the key must say so (and back)."""
    from fastlaunch.integrations.inductor import integration

    cache_keys.install("cuda")
    try:
        with config.override(enabled=False):
            off = inductor_key()
            previous = config.set_runtime(True)
            try:
                assert config.enabled_now() and cache_keys.state()[4] is True
                on = inductor_key()
                assert integration.fastlaunch_config.enabled_now()  # what codegen reads
            finally:
                config.set_runtime(previous)
            assert not config.enabled_now() and inductor_key() == off
        assert on != off
    finally:
        cache_keys.uninstall("cuda")


def test_replaced_config_turns_the_key_and_call_site_rewrites_off():
    cache_keys.install("cuda")
    inductor_config.post_grad_custom_post_pass = UserPass()
    assert not cache_keys.active()
    cache_keys.uninstall("cuda")  # ours is gone: the user's value stays
    assert isinstance(inductor_config.post_grad_custom_post_pass, UserPass)


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None,
                    reason="no C++ compiler: Inductor cannot compile for the CPU here")
def test_warm_cache_toggle_through_inductors_fx_graph_cache(tmp_path, monkeypatch):
    """CPU code has no Triton call sites, but the key is the same: Inductor's
    own cache must miss when fastlaunch's state changes and hit when it
    returns."""
    from torch._dynamo.utils import counters

    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", raising=False)

    def fn(x):
        return torch.sin(x) * 2 + 1

    x = torch.randn(8)

    def compile_once():
        torch._dynamo.reset()
        counters.clear()
        with inductor_config.patch(fx_graph_cache=True, fx_graph_remote_cache=False,
                                   force_disable_caches=False):
            out = torch.compile(fn, backend="inductor")(x)
        hits = counters["inductor"]["fxgraph_cache_hit"]
        misses = counters["inductor"]["fxgraph_cache_miss"]
        return out, hits, misses

    out_off, hits, misses = compile_once()
    assert (hits, misses) == (0, 1)
    assert compile_once()[1:] == (1, 0)
    cache_keys.install("cuda")
    with config.override(enabled=True):
        out_on, hits, misses = compile_once()
        assert (hits, misses) == (0, 1)
        assert compile_once()[1:] == (1, 0)
    cache_keys.uninstall("cuda")
    assert compile_once()[1:] == (1, 0)
    assert torch.equal(out_off, out_on)

    def plain(graph):  # a user's pass without a uuid: Inductor bypasses its cache
        return None

    inductor_config.post_grad_custom_post_pass = plain
    cache_keys.install("cuda")
    with config.override(enabled=True):
        compile_once()
    assert counters["inductor"]["fxgraph_cache_bypass"] == 1
    assert counters["inductor"]["fxgraph_cache_hit"] == 0
    torch._dynamo.reset()
