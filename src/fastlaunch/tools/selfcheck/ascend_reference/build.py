# SPDX-License-Identifier: Apache-2.0
"""Building the recording runtime and the rendered reference launchers."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ....builds import core
from .generator import Generator
from .toolchain import (
    AREA,
    INCLUDE,
    RECORDER_C,
    c_compiler,
    cache_root,
    compiler,
    headers_digest,
)

RECORDER_PARTS = ("rt", "services")  # what recorder.c's REC_WITHOUT_* leave out


def build_recorder(directory: Path | None = None, without: Sequence[str] = ()) -> Path:
    """The recording runtime as a shared library, built once per content (cached).
    ``without`` leaves parts of it out (unit tests: a runtime without launch
    functions, or one with no copy, synchronisation, pointer-query or msprof
    functions)."""
    unknown = sorted(set(without) - set(RECORDER_PARTS))
    if unknown:
        msg = f"without: got {unknown}, expected some of {list(RECORDER_PARTS)}"
        raise ValueError(msg)
    parts = sorted(set(without))
    name = "libfastlaunch_cann_recorder" + "".join(f"_without_{p}" for p in parts) + ".so"
    folder = Path(directory or cache_root()) / f"recorder-{headers_digest()}"
    out = folder / name
    if out.is_file():
        return out
    cc = c_compiler()
    # -Bsymbolic: builds loaded side by side each keep their own state and entry points.
    return core.build(AREA, out, lambda tmp: [
        cc, "-shared", "-fPIC", "-O1", "-fvisibility=hidden", f"-I{INCLUDE}",
        *(f"-DREC_WITHOUT_{p.upper()}" for p in parts), "-Wl,-Bsymbolic",
        f"-Wl,-soname,{name}", RECORDER_C, "-o", tmp])


_STRUCT = re.compile(r"struct __attribute__\(\(packed\)\) \{(.*?)\} args = \{", re.S)
_FIELD = re.compile(r"(\w+)\s+__attribute__\(\(aligned\(\d+\)\)\);")


def _padding_mask(i: int, source: str) -> str:
    """C++ returning the launch struct's padding (1) and field (0) bytes,
    from the generated struct itself as the compiler lays it out."""
    found = _STRUCT.findall(source)
    if len(found) != 1:
        msg = f"case {i}: expected one packed launch struct, found {len(found)}"
        raise RuntimeError(msg)
    fields = "".join(f"  memset(m + offsetof(FlArgs, {name}), 0, sizeof(((FlArgs*)0)->{name}));\n"
                     for name in _FIELD.findall(found[0]))
    return (f"struct __attribute__((packed)) FlArgs {{{found[0]}}};\n"
            f"static PyObject* fl_padding() {{\n  unsigned char m[sizeof(FlArgs)];\n"
            f"  memset(m, 1, sizeof m);\n{fields}"
            f"  return PyBytes_FromStringAndSize((const char*)m, sizeof m);\n}}")


def _batch_source(header: str, sources: Sequence[str], module: str) -> str:
    """Many rendered launchers in one translation unit: each in its own
    namespace, with the few names they give C linkage renamed apart."""
    parts = ["#include \"precompiled.h\"", "#include <cstddef>"]
    renamed = ("ProfCtrlHandle", "__MsprofFlagL0", "__MsprofFlagL1", "PyInit___triton_launcher")
    for i, source in enumerate(sources):
        parts += [f"#define {name} fl_{i}_{name.strip('_')}" for name in renamed]
        parts += [f"namespace fl_case_{i} {{", source, _padding_mask(i, source), "}"]
        parts += [f"#undef {name}" for name in renamed]
    inits = "\n".join(
        f"  sub = fl_case_{i}::fl_{i}_PyInit___triton_launcher();\n"
        f"  if (sub == NULL || PyList_Append(cases, sub) != 0) return NULL;\n  Py_DECREF(sub);\n"
        f"  sub = fl_case_{i}::fl_padding();\n"
        f"  if (sub == NULL || PyList_Append(masks, sub) != 0) return NULL;\n  Py_DECREF(sub);"
        for i in range(len(sources)))
    parts.append(f"""
static struct PyModuleDef fl_batch_def = {{PyModuleDef_HEAD_INIT, "{module}", NULL, -1, NULL}};
extern "C" PyMODINIT_FUNC PyInit_{module}(void) {{
  PyObject* m = PyModule_Create(&fl_batch_def);
  PyObject* cases = PyList_New(0);
  PyObject* masks = PyList_New(0);
  PyObject* sub = NULL;
  if (m == NULL || cases == NULL || masks == NULL) return NULL;
{inits}
  if (PyModule_AddObject(m, "cases", cases) != 0) return NULL;
  if (PyModule_AddObject(m, "padding", masks) != 0) return NULL;
  return m;
}}""")
    return "\n".join(parts)


@dataclasses.dataclass(frozen=True)
class Launcher:
    """A built reference launcher: its ``launch`` and its struct's padding mask."""

    launch: Any
    padding: bytes

    def __call__(self, *args: Any) -> Any:
        return self.launch(*args)


def build_launchers(gen: Generator, sources: Sequence[str], recorder: Path,
                    directory: Path | None = None) -> list[Any]:
    """Compile rendered launcher sources (one shared object, cached by
    content) and return each one's ``launch``."""
    header = gen.header()
    key = core.key(header, *sources, headers_digest(), sys.version, str(recorder))
    module = f"fl_reference_{key}"
    folder = Path(directory or cache_root()) / "launchers"
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{module}{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not out.is_file():
        cxx = compiler()
        work = folder / f"{module}.build{os.getpid()}"
        work.mkdir(exist_ok=True)
        (work / "precompiled.h").write_text(header)
        src = work / "batch.cpp"
        src.write_text(_batch_source(header, sources, module))
        try:
            core.build(AREA, out, lambda tmp: [
                cxx, "-shared", "-fPIC", "-O0", "-std=c++17", "-w",
                f"-I{work}", f"-I{INCLUDE}", f"-I{sysconfig.get_paths()['include']}",
                src, "-o", tmp, f"-L{recorder.parent}",
                "-l:" + recorder.name, f"-Wl,-rpath,{recorder.parent}"])
        finally:
            shutil.rmtree(work, ignore_errors=True)
    spec = importlib.util.spec_from_file_location(module, out)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return [Launcher(case.launch, mask) for case, mask in zip(loaded.cases, loaded.padding)]
