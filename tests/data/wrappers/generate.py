# SPDX-License-Identifier: Apache-2.0
"""Regenerate the saved Inductor wrappers (CPU, the installed torch).

Run: ``python tests/data/wrappers/generate.py [--float-lanes N] [NAME ...]``
(default: all). Each small model is compiled
with a fresh Inductor cache and the generated wrapper module (the one whose
``call(args)`` the planned call translates) is written to
``inductor/<name>.py``, with the torch version in its first line. The planned-call
tests load these files, so what they translate is what Inductor really wrote.

The C++ kernels in them are written for the float vector width of the ISA
Inductor picked (8 lanes for AVX2, 16 for AVX-512) and are compiled when a test
loads the file; ``inductor/isa.json`` records that ISA and width per file, and
the tests' loader (helpers/call_trace.py) pins Inductor to it, or skips where
this host has no such ISA. ``--float-lanes 8`` writes 8-lane kernels on an
AVX-512 host too (the saved files are AVX2's).
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).parent
MANIFEST = HERE / "inductor" / "isa.json"


def _models():
    import torch

    class Mlp(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(16, 32)
            self.fc2 = torch.nn.Linear(32, 8)

        def forward(self, x):
            return self.fc2(torch.relu(self.fc1(x))).softmax(-1)

    class Conv(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

        def forward(self, x):
            return torch.nn.functional.gelu(self.conv(x)).mean((2, 3))

    class Attention(torch.nn.Module):
        def forward(self, q, k, v):
            w = torch.bmm(q, k.transpose(1, 2)) * 0.125
            return torch.bmm(w.softmax(-1), v) + q

    class Views(torch.nn.Module):
        def forward(self, x, w):
            y = (x @ w).view(2, 4, 8).transpose(0, 1)
            return y.sin(), (y + 1).sum(0), torch.addmm(x[:, :8], x, w[:, :8])

    class BatchedGemm(torch.nn.Module):
        def forward(self, x, a, b):
            return torch.relu(torch.baddbmm(x, a, b, beta=0.5))

    class Transformer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(64, 32)
            layer = torch.nn.TransformerEncoderLayer(32, 2, 64, dropout=0.0, batch_first=True)
            self.layers = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = torch.nn.Linear(32, 64)

        def forward(self, tokens):
            return self.head(self.layers(self.embed(tokens)))

    class Block(torch.nn.Module):
        """A GPT-2 block: pre-LayerNorm, causal SDPA, GELU MLP."""

        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = torch.nn.LayerNorm(32), torch.nn.LayerNorm(32)
            self.qkv, self.proj = torch.nn.Linear(32, 96), torch.nn.Linear(32, 32)
            self.fc, self.out = torch.nn.Linear(32, 128), torch.nn.Linear(128, 32)

        def forward(self, x):
            q, k, v = self.qkv(self.ln1(x)).view(1, 16, 3, 2, 16).permute(2, 0, 3, 1, 4)
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).reshape(1, 16, 32))
            return x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))

    yield "mlp", Mlp(), (torch.randn(4, 16),), False
    yield "conv", Conv(), (torch.randn(2, 3, 8, 8),), False
    yield "attention", Attention(), tuple(torch.randn(2, 6, 8) for _ in range(3)), False
    yield "views", Views(), (torch.randn(8, 8), torch.randn(8, 8)), False
    yield "mlp_dynamic", Mlp(), (torch.randn(5, 16),), True
    yield "transformer", Transformer().eval(), (torch.randint(0, 64, (1, 16)),), False
    yield "baddbmm", BatchedGemm(), tuple(torch.randn(*shape) for shape in
                                          ((4, 16, 24), (4, 16, 32), (4, 32, 24))), False
    yield "gpt_block", torch.nn.Sequential(Block(), Block()), (torch.randn(1, 16, 32),), False


def main(names: list[str], float_lanes: int | None) -> None:
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="fl_wrappers_")
    os.environ["FASTLAUNCH"] = "0"
    import torch
    from torch._inductor import cpu_vec_isa
    from torch._inductor.codecache import PyCodeCache

    from fastlaunch.tools.selfcheck import vector_width

    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    with vector_width.pinned(float_lanes):
        isa = cpu_vec_isa.pick_vec_isa()
        lanes = isa.nelements(torch.float) if isa else None
        for name, model, inputs, dynamic in _models():
            if names and name not in names:
                continue
            torch._dynamo.reset()
            before = len(PyCodeCache.modules)
            compiled = torch.compile(model, dynamic=dynamic)
            with torch.no_grad():
                compiled(*inputs)
            wrappers = [m for m in PyCodeCache.modules[before:] if hasattr(m, "call")]
            if len(wrappers) != 1:
                raise SystemExit(f"{name}: expected one wrapper module, found {len(wrappers)}")
            source = pathlib.Path(wrappers[0].__file__).read_text()
            # selfcheck --planned-call reads the width from the source: it must agree
            read = vector_width.written_float_lanes(source)
            if read - {lanes}:
                raise SystemExit(f"{name}: Inductor picked {isa} ({lanes} float lanes), the "
                                 f"source reads as {sorted(read)}")
            header = f"# generated by torch {torch.__version__} (tests/data/wrappers/generate.py)"
            (HERE / "inductor" / f"{name}.py").write_text(f"{header}\n{source}")
            manifest[f"{name}.py"] = {"isa": str(isa), "float_lanes": lanes}
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    argv = sys.argv[1:]
    lanes = None
    if argv[:1] == ["--float-lanes"]:
        lanes, argv = int(argv[1]), argv[2:]
    main(argv, lanes)
