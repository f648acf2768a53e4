# SPDX-License-Identifier: Apache-2.0
"""An independent layout oracle: a C struct per case, compiled by the system
C compiler, whose bytes are written out. The npu struct copies triton-ascend's
``__attribute__((packed))`` struct with per-field ``aligned`` attributes; the
cuda struct is a plain C struct of the parameter types."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

NPU_C = {"i1": "int32_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
         "u1": "uint32_t", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t",
         "u64": "uint64_t", "fp16": "float", "bf16": "float", "fp32": "float", "fp64": "double"}
CUDA_C = {**NPU_C, "i1": "int8_t", "u1": "uint8_t", "fp16": "_Float16", "bf16": "uint16_t"}


def cc() -> str | None:
    return shutil.which("cc") or shutil.which("gcc")


def _literal(type_name: str, value) -> str:
    if type_name.startswith("*"):
        return f"{0 if value is None else value}ULL"
    if type_name in ("fp16", "bf16", "fp32", "fp64"):
        return float(value).hex() if value == value else "0.0"
    if isinstance(value, bool):
        return str(int(value))
    return f"{value}LL" if value < 0 else f"{value}ULL"


def _struct(abi: str, index: int, case: dict) -> tuple[str, str]:
    sig, args = case["signature"], case["args"]
    fields, inits = [], []
    if abi == "npu":
        attr = "__attribute__((aligned({})))"
        if case.get("ffts"):
            fields.append(f"void* ffts {attr.format(8)};")
            inits.append(f"s.ffts = (void*){case['ffts_addr']}ULL;")
        if not case.get("pure_simt"):
            fields += [f"void* lock {attr.format(8)};", f"void* ws {attr.format(8)};"]
        for i, (t, v) in enumerate(zip(sig, args)):
            wide = t.startswith("*") or t.endswith("64")
            ctype = "void*" if t.startswith("*") else NPU_C[t]
            fields.append(f"{ctype} a{i} {attr.format(8 if wide else 4)};")
            cast = "(void*)" if t.startswith("*") else f"({ctype})"
            inits.append(f"s.a{i} = {cast}{_literal(t, v)};")
        fields += [f"int32_t g{k} {attr.format(4)};" for k in range(3)]
        inits += [f"s.g{k} = {g};" for k, g in enumerate(case["grid"])]
        decl = f"struct __attribute__((packed)) S{index} {{ {' '.join(fields)} }};"
    else:
        for i, (t, v) in enumerate(zip(sig, args)):
            ctype = "uint64_t" if t.startswith("*") else CUDA_C[t]
            fields.append(f"{ctype} a{i};")
            if t == "bf16":
                inits.append(f"s.a{i} = bf16_bits((float){_literal(t, v)});")
            else:
                inits.append(f"s.a{i} = ({ctype}){_literal(t, v)};")
        fields += ["uint64_t scratch0;", "uint64_t scratch1;"][:case.get("n_scratch", 2)]
        decl = f"struct S{index} {{ {' '.join(fields) or 'char empty[0];'} }};"
    body = (f"{{ struct S{index} s; memset(&s, 0, sizeof s); {' '.join(inits)} "
            f"dump((const unsigned char*)&s, sizeof s); }}")
    return decl, body


def oracle_bytes(abi: str, cases: list[dict]) -> list[bytes]:
    """Bytes of each case's struct, from one compiled C program."""
    decls, bodies = zip(*(_struct(abi, i, c) for i, c in enumerate(cases)))
    source = "\n".join([
        "#include <stdint.h>", "#include <stdio.h>", "#include <string.h>",
        "static uint16_t bf16_bits(float f) { uint32_t u; memcpy(&u, &f, 4);"
        " return (uint16_t)(u >> 16); }",
        "static void dump(const unsigned char* p, size_t n) {"
        " for (size_t i = 0; i < n; ++i) printf(\"%02x\", p[i]); printf(\"\\n\"); }",
        *decls, "int main(void) {", *bodies, "return 0; }"])
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "oracle.c", Path(tmp) / "oracle"
        src.write_text(source)
        subprocess.run([cc(), "-O0", "-std=gnu11", str(src), "-o", str(exe)], check=True,
                       capture_output=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return [bytes.fromhex(line) for line in out.splitlines()]
