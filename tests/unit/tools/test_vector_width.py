# SPDX-License-Identifier: Apache-2.0
"""Saved CPU wrappers run on any host that has the ISA they were written for.

Their C++ kernels compile when the module loads, for the float vector width
Inductor picks here; written for 8 lanes (AVX2) and compiled for 16 (AVX-512)
they write past their buffers. The tests' loader pins the recorded width and
``selfcheck --planned-call`` the width it reads from the kernels, or refuses.
"""

from __future__ import annotations

import pathlib

import pytest

torch = pytest.importorskip("torch")

from fastlaunch.tools import selfcheck  # noqa: E402
from fastlaunch.tools.selfcheck import report, vector_width  # noqa: E402
from helpers import call_trace  # noqa: E402

SAVED = sorted(call_trace.SAVED.glob("*.py"))


def _load_line(lanes: int, vectors: int = 0, tail: bool = False) -> str:
    vec = f"VectorizedN<float, {vectors}>" if vectors else "Vectorized<float>"
    count = f"{lanes}L" if tail else str(lanes)
    return (f"auto tmp0 = at::vec::{vec}::loadu(in_ptr0 + static_cast<int64_t>(x1 + 32L*x0), "
            f"static_cast<int64_t>({count}));")


def test_width_is_read_from_full_float_loads_only():
    assert vector_width.written_float_lanes(_load_line(8)) == {8}
    assert vector_width.written_float_lanes(_load_line(32, vectors=2)) == {16}
    assert vector_width.written_float_lanes(_load_line(6, tail=True)) == set()  # a tail
    assert vector_width.written_float_lanes(_load_line(8) + _load_line(16)) == {8, 16}
    assert vector_width.written_float_lanes("x = 1\n") == set()


def test_every_saved_wrapper_is_recorded_with_the_width_its_kernels_read_as():
    manifest = call_trace._manifest()
    assert sorted(manifest) == [p.name for p in SAVED]
    for path in SAVED:
        lanes = vector_width.written_float_lanes(path.read_text())
        assert lanes == {manifest[path.name]["float_lanes"]}, path.name
        assert call_trace.written_float_lanes(path) == manifest[path.name]["float_lanes"]
    assert call_trace.written_float_lanes(call_trace.WRAPPERS / "handwritten" / "npu_style.py") \
        is None


def _generated_source(fn, *inputs) -> str:
    """The wrapper Inductor writes for ``fn`` now: not one from the FX graph cache,
    whose key leaves out ATEN_CPU_CAPABILITY (an earlier run's width would come back)."""
    from torch._inductor import config as inductor_config
    from torch._inductor.codecache import PyCodeCache

    torch._dynamo.reset()
    before = len(PyCodeCache.modules)
    with inductor_config.patch(fx_graph_cache=False):
        torch.compile(fn)(*inputs)
    sources = [pathlib.Path(m.__file__).read_text() for m in PyCodeCache.modules[before:]
               if hasattr(m, "call")]
    assert len(sources) == 1
    return sources[0]


def test_width_read_from_what_inductor_writes_here_pinned_and_not():
    """The signal, on kernels Inductor writes now: its own width, and 8 when pinned."""
    host = vector_width.host_float_lanes()
    if host is None:
        pytest.skip("this host's Inductor has no vector ISA: it writes no vector kernels")
    x = torch.randn(64, 64)
    assert vector_width.written_float_lanes(
        _generated_source(lambda t: (t.relu() + 1).softmax(-1), x)) == {host}
    if vector_width.isa_with(8) is None:
        pytest.skip(vector_width.unavailable(8))
    with vector_width.pinned(8):
        assert vector_width.host_float_lanes() == 8
        assert vector_width.written_float_lanes(
            _generated_source(lambda t: (t.sin() * 2).softmax(-1), x)) == {8}
    assert vector_width.host_float_lanes() == host  # the pin ends with the block


def test_saved_wrappers_compute_what_eager_torch_computes():
    """Loaded through the tests' loader (their width pinned), the saved mlp's
    Python call() gives eager torch's result: its kernels stayed in their buffers."""
    module = call_trace.load("inductor/mlp.py")
    torch.manual_seed(0)
    args = module.get_args()
    w1, b1, x, w2, b2 = args
    expected = torch.softmax(torch.relu(x @ w1.T + b1) @ w2.T + b2, -1)
    (out,) = module.call(list(args))
    torch.testing.assert_close(out, expected)


def test_loader_skips_naming_the_width_where_the_host_has_none(monkeypatch):
    monkeypatch.setattr(call_trace, "_manifest", lambda: {"mlp.py": {"float_lanes": 64}})
    with pytest.raises(pytest.skip.Exception, match="written for 64 float lanes"):
        call_trace.load("inductor/mlp.py")


@pytest.fixture
def wide_host(monkeypatch):
    """This process's Inductor picks 16 lanes unless pinned (an AVX-512 host; the
    caller's ATEN_CPU_CAPABILITY=avx2, if any, set aside for Inductor only)."""
    if vector_width.isa_with(16) is None or vector_width.isa_with(8) is None:
        pytest.skip("needs a host with 16- and 8-lane ISAs (x86 with AVX-512): "
                    + (vector_width.unavailable(16) or vector_width.unavailable(8)))
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "avx512")
    assert vector_width.host_float_lanes() == 16


def test_selfcheck_pins_an_8_lane_wrapper_on_a_16_lane_host(wide_host, capsys):
    path = str(call_trace.SAVED / "mlp.py")
    assert selfcheck.main(["--planned-call", path]) == report.EXIT_OK
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith(f"planned call {path}: equal: "), line
    isa = vector_width.isa_with(8)
    assert line.endswith(f"; C++ kernels compiled for {isa} (8 float lanes, as written; this "
                         "host's default is 16)"), line


_CLAIMS_64_LANES = '''\
import torch
kernel_source = r"""
auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0),
                                              static_cast<int64_t>(64));
"""
open(LOADED, "w").close()


def call(args):
    a, = args
    args.clear()
    return (a + 1,)


def get_args():
    return [torch.ones(64)]
'''


def test_selfcheck_refuses_a_width_this_host_cannot_compile(tmp_path, capsys):
    marker = tmp_path / "loaded"
    path = tmp_path / "wide.py"
    path.write_text(_CLAIMS_64_LANES.replace("LOADED", repr(str(marker))))
    host = vector_width.host_float_lanes()
    assert selfcheck.main(["--planned-call", str(path)]) == report.EXIT_UNCHECKED
    assert capsys.readouterr().out == (
        f"planned call {path}: not compared: its C++ kernels were written for 64 float lanes "
        f"(2048-bit vectors) and this host's Inductor compiles for "
        f"{f'{host} lanes' if host else 'no vector ISA'} and has no 64-lane ISA to pin: "
        "regenerate the wrapper on this host, or run selfcheck on a host with that ISA\n")
    assert not marker.exists()  # refused before the module ran


def test_selfcheck_refuses_kernels_of_two_widths(tmp_path, capsys):
    marker = tmp_path / "loaded"
    path = tmp_path / "mixed.py"
    path.write_text(_CLAIMS_64_LANES.replace("LOADED", repr(str(marker))).replace(
        '"""\nopen(', f'{_load_line(8)}\n{_load_line(16)}\n"""\nopen('))
    assert selfcheck.main(["--planned-call", str(path)]) == report.EXIT_UNCHECKED
    assert capsys.readouterr().out == (
        f"planned call {path}: not compared: its C++ kernels were written for several float "
        "vector widths (8, 16, 64 lanes), which no one ISA compiles\n")
    assert not marker.exists()
