# SPDX-License-Identifier: Apache-2.0
"""The torch-built tensor accessor: its cache key, its states, and a real
build that reads a CPU tensor's address and device."""

from __future__ import annotations

import ctypes

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

from fastlaunch import _core  # noqa: E402
from fastlaunch.backends import torch_accessor  # noqa: E402


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """Module state as in a new process, a private cache, and no accessor set."""
    monkeypatch.setattr(torch_accessor, "_status", "not built yet")
    monkeypatch.setattr(torch_accessor, "_builder", None)
    monkeypatch.setattr(torch_accessor, "_target", [])
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FASTLAUNCH_TORCH_ACCESSOR", raising=False)
    _core.set_tensor_accessor(None)
    yield tmp_path
    _core.set_tensor_accessor(None)


def test_cache_key_covers_torch_version_git_version_and_compiler(monkeypatch):
    base = torch_accessor.cache_key("g++ 13")
    assert torch_accessor.cache_key("clang++ 18") != base
    monkeypatch.setattr(torch, "__version__", "9.9.9")
    assert torch_accessor.cache_key("g++ 13") != base
    monkeypatch.undo()
    monkeypatch.setattr(torch.version, "git_version", "0" * 40)
    assert torch_accessor.cache_key("g++ 13") != base


def test_off_by_environment(fresh, monkeypatch):
    monkeypatch.setenv("FASTLAUNCH_TORCH_ACCESSOR", "0")
    assert torch_accessor.ensure() is False
    assert torch_accessor.status().startswith("off (FASTLAUNCH_TORCH_ACCESSOR=0)")
    assert torch_accessor._builder is None


def test_no_compiler_is_reported_not_raised(fresh, monkeypatch):
    monkeypatch.setenv("CXX", "no-such-compiler-fastlaunch")
    assert torch_accessor.ensure() is False
    assert "no C++ compiler (no-such-compiler-fastlaunch not found)" in torch_accessor.status()


def _call_accessor(capsule, obj):
    """Calls the accessor through the contract of csrc/plan.h, as the core does."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get(capsule, b"fastlaunch.tensor_accessor.v2")
    out, dtype, index = ctypes.c_uint64(), ctypes.c_int32(-7), ctypes.c_int32(-7)
    fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_void_p)(address)
    rc = fn(obj, ctypes.addressof(out), ctypes.addressof(dtype), ctypes.addressof(index))
    return rc, out.value, dtype.value, index.value


def test_build_in_background_then_load_from_cache(fresh, monkeypatch):
    """Builds for real (about a minute): never in the caller, keyed, atomic."""
    if not torch_accessor.compiler():
        pytest.skip("no C++ compiler on this machine: the accessor cannot be built")
    assert torch_accessor.ensure() is False  # plan makers never start a build
    assert torch_accessor.status().startswith("not built: no cached build")
    assert torch_accessor._builder is None
    assert torch_accessor.ensure(build=True) is False  # returns at once, building meanwhile
    assert torch_accessor.status().startswith("building in the background")
    assert torch_accessor.ensure(wait=True), torch_accessor.status()
    assert torch_accessor.status().startswith("active (")
    key = torch_accessor.cache_key(torch_accessor.compiler())
    path = torch_accessor.library_path(key)
    assert path.exists() and path.parent.parent == fresh / "torch_accessor"
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no leftovers

    # a new process (state reset) loads the cached library without building
    _core.set_tensor_accessor(None)
    monkeypatch.setattr(torch_accessor, "_status", "not built yet")
    monkeypatch.setattr(torch_accessor, "_builder", None)
    monkeypatch.setattr(torch_accessor, "_target", [])
    assert torch_accessor.ensure() is True
    assert torch_accessor._builder is None

    import importlib.util

    spec = importlib.util.spec_from_file_location(f"fastlaunch_torch_accessor_{key}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    t = torch.arange(6, dtype=torch.float32)[2:]
    assert _call_accessor(module.capsule(), t) == (1, t.data_ptr(), 0, -1)

    class Sub(torch.Tensor):
        pass

    assert _call_accessor(module.capsule(), t.as_subclass(Sub))[0] == 0
    assert _call_accessor(module.capsule(), 5)[0] == 0
