# SPDX-License-Identifier: Apache-2.0
"""A CPU twin of a wrapper module Inductor wrote on the H200 (tests/data/wrappers/h200).

The twin keeps the module's text, and so its ``call()`` statement for
statement, except what needs CUDA or Triton:

* the top-level statements that compile Triton kernels or import Triton and
  CUDA entry points are dropped, and each kernel becomes a ``CpuKernel``
  (its ``run`` adds 1 to every floating-point tensor argument it is given
  that has no zero stride, so values flow between ops deterministically);
* fastlaunch's ``bind`` is a stand-in that puts the kernel's ``run`` in the
  call slot, as the real one puts a launcher there;
* ``torch.cuda._DeviceGuard`` / ``torch.cuda.set_device`` become no-op
  stand-ins, ``get_raw_stream`` returns 0;
* ``empty_strided_cuda`` allocates zeroed CPU memory (deterministic outputs);
* ``torch.ops.aten._scaled_dot_product_efficient_attention.default``, which
  has no CPU kernel, becomes a function returning what it returns on CUDA
  (the output laid out (batch, length, heads, dim), the logsumexp, the two
  philox tensors), computed by ``scaled_dot_product_attention``;
* ``get_args()`` makes its tensors on the CPU.

Extern GEMMs, views, asserts, frees and every size expression stay as
Inductor wrote them, so the planned call translates and runs the real thing.
"""

from __future__ import annotations

import ast
import pathlib

H200 = pathlib.Path(__file__).resolve().parent.parent / "data" / "wrappers" / "h200"

_HEADER = '''\
import torch as _torch


class CpuKernel:
    def __init__(self, name):
        self.name = name

    def run(self, *args, stream=None):
        for t in args:
            if isinstance(t, _torch.Tensor) and t.is_floating_point() and 0 not in t.stride():
                t.add_(1.0)


def _fastlaunch_bind(meta, kernel, call_slot):
    call_slot[0] = kernel.run
    return call_slot[0]


class _CpuDeviceGuard:
    def __init__(self, index):
        self.index = index

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _cpu_set_device(index):
    return None


def get_raw_stream(index):
    return 0


def _cpu_empty_strided(size, stride, dtype):
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    return _torch.zeros(extent, dtype=dtype).as_strided(size, stride)


def _cpu_sdpa_efficient(query, key, value, attn_bias, compute_log_sumexp, dropout_p=0.0,
                        is_causal=False, *, scale=None):
    batch, heads, length, _ = query.shape
    out = _torch.empty(batch, length, heads, value.shape[-1]).permute(0, 2, 1, 3)
    out.copy_(_torch.nn.functional.scaled_dot_product_attention(
        query, key, value, attn_mask=attn_bias, dropout_p=dropout_p, is_causal=is_causal,
        scale=scale))
    lse = _torch.zeros(batch, heads, (length + 31) // 32 * 32 if compute_log_sumexp else 0)
    return out, lse, _torch.zeros((), dtype=_torch.int64), _torch.zeros((), dtype=_torch.int64)


'''

_REPLACE = (
    ("torch.cuda._DeviceGuard(", "_CpuDeviceGuard("),
    ("torch.cuda.set_device(", "_cpu_set_device("),
    ("torch.ops.aten._scaled_dot_product_efficient_attention.default(", "_cpu_sdpa_efficient("),
    ("empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda",
     "empty_strided_cuda = _cpu_empty_strided"),
    ("device='cuda:0'", "device='cpu'"),
)


def _dropped(node: ast.stmt) -> str | None:
    """What a top-level statement that needs CUDA or Triton defines ("" when it
    defines nothing); None for a statement the twin keeps."""
    if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "triton" for a in node.names):
        return ""
    if isinstance(node, ast.ImportFrom) and (
            (node.module or "").split(".")[0] in ("triton", "fastlaunch")
            or node.module == "torch._inductor.runtime.triton_heuristics"
            or any(a.name == "_cuda_getCurrentRawStream" for a in node.names)):
        return ""
    value = getattr(node, "value", None)
    if isinstance(value, ast.Call) and ast.unparse(value.func) in ("async_compile.triton",
                                                                   "async_compile.wait"):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
        return ""
    if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'":
        return ""
    return None


def write_twin(name: str, folder: pathlib.Path) -> pathlib.Path:
    """The CPU twin of tests/data/wrappers/h200/<name>.py, written into ``folder``."""
    source = (H200 / f"{name}.py").read_text()
    lines = source.splitlines(keepends=True)
    kernels = []
    for node in reversed(ast.parse(source).body):  # from the end: line numbers stay valid
        defined = _dropped(node)
        if defined is None:
            continue
        if defined:
            kernels.append(defined)
        del lines[node.lineno - 1:node.end_lineno]
    text = "".join(lines)
    for old, new in _REPLACE:
        assert old in text, f"{name}: the twin expects {old!r} in the wrapper"
        text = text.replace(old, new)
    stand_ins = "".join(f"{k} = CpuKernel({k!r})\n" for k in reversed(kernels))
    path = folder / f"{name}_cpu_twin.py"
    path.write_text(_HEADER + stand_ins + text)
    return path
