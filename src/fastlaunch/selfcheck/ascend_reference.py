# SPDX-License-Identifier: Apache-2.0
"""triton-ascend's own generated launcher, run on a recording fake CANN.

The reference is not our reading of triton-ascend: its launcher generator
(``generate_npu_wrapper_src`` in ``triton/backends/ascend/driver.py``) renders
the C++ source for each case, g++ builds it against the stub headers in
``cann_recorder/include`` and links it to the recorder (``recorder.c``), and
its ``launch(...)`` is called with Python values. fastlaunch's NPU backend
then runs the same case against the same recorder; ``observe`` turns each
side's calls into comparable records.

``generator(backend_dir)`` loads just ``driver.py`` and ``utils.py`` from a
triton-ascend tree (an extracted wheel or the installed package) with stub
parents for their ``triton`` imports. ``acl_variant(backend_dir, out)``
writes the ACL-family variant newer triton-ascend branches have (handles from
``aclrtBinaryGetFunction``, launches through ``aclrtLaunchKernelWithHostArgs``
with a ``DYN_UBUF_SIZE`` attribute for SIMT) by rewriting 3.2.0's generator.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import dataclasses
import hashlib
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
import types
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).with_name("cann_recorder")
INCLUDE = HERE / "include"
RECORDER_C = HERE / "recorder.c"
ENV_KEYS = ("TRITON_ASCEND_ARCH", "TRITON_DISABLE_FFTS", "TRITON_ENABLE_TASKQUEUE",
            "TRITON_DEVICE_PRINT", "TRITON_GRID_WARN_PRINT", "TRITON_ALL_BLOCKS_PARALLEL")
# Core counts the generator reads (NPUUtils) for its optional blockDim clamp.
AICORE_NUM = 24
KIND_WORKSPACE, KIND_LOCK = 0, 1


class Unavailable(RuntimeError):
    """The reference cannot be built here (no compiler, no triton-ascend)."""


def cache_root() -> Path:
    path = Path(os.environ.get("FASTLAUNCH_CACHE_DIR",
                               Path.home() / ".cache" / "fastlaunch")) / "ascend_reference"
    path.mkdir(parents=True, exist_ok=True)
    return path


def compiler() -> str:
    found = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++")
    if found is None:
        msg = "no C++ compiler (g++) to build triton-ascend's launcher"
        raise Unavailable(msg)
    return found


# ---------------------------------------------------------------- generator


class _CoreCounts:
    """Stands in for NPUUtils, which would build npu_utils.cpp against CANN."""

    def get_aicore_num(self) -> int:
        return AICORE_NUM

    def get_aivector_core_num(self) -> int:
        return 2 * AICORE_NUM


def _exec_module(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    with warnings.catch_warnings():  # its regex escapes warn on newer Pythons
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        spec.loader.exec_module(module)
    return module


def generator(backend_dir: Path) -> types.ModuleType:
    """triton-ascend's ``driver`` module from ``backend_dir`` (holding driver.py
    and utils.py), imported alone: its ``triton`` parents are stubs, and
    ``sys.modules`` is left as it was."""
    backend_dir = Path(backend_dir)
    for needed in ("driver.py", "utils.py"):
        if not (backend_dir / needed).is_file():
            msg = f"{backend_dir} has no {needed}: not a triton-ascend backend"
            raise Unavailable(msg)

    def unavailable(*_args, **_kwargs):
        msg = "not available in the fastlaunch reference harness"
        raise RuntimeError(msg)

    stubs = {name: types.ModuleType(name) for name in (
        "triton", "triton.runtime", "triton.runtime.cache", "triton.backends",
        "triton.backends.driver", "triton.backends.compiler", "triton.backends.ascend",
        "pybind11")}
    stubs["triton.runtime.cache"].get_cache_manager = unavailable
    stubs["triton.runtime.cache"].get_dump_manager = unavailable
    stubs["triton.backends.driver"].DriverBase = object
    stubs["triton.backends.compiler"].GPUTarget = tuple
    stubs["triton.backends.ascend"].__path__ = [str(backend_dir)]
    names = [*stubs, "triton.backends.ascend.utils", "triton.backends.ascend.driver"]
    saved = {name: sys.modules.get(name) for name in names}
    try:
        sys.modules.update(stubs)
        _exec_module("triton.backends.ascend.utils", backend_dir / "utils.py")
        driver = _exec_module("triton.backends.ascend.driver", backend_dir / "driver.py")
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    driver.NPUUtils = _CoreCounts
    return driver


def pack_metadata(backend_dir: Path) -> Any:
    """``AscendBackend.pack_metadata`` from compiler.py, lifted out alone (the
    module itself needs triton's compiled core)."""
    tree = ast.parse((Path(backend_dir) / "compiler.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "pack_metadata":
            namespace: dict[str, Any] = {}
            exec(compile(ast.Module([node], []), "compiler.py", "exec"), namespace)
            return namespace["pack_metadata"]
    msg = f"{backend_dir}/compiler.py has no pack_metadata"
    raise Unavailable(msg)


# What turns 3.2.0's rt-family generator into the ACL family of newer branches.
_ACL_DRIVER = [
    ("'void *ffts_addr = NULL; uint32_t ffts_len; ret = rtGetC2cCtrlAddr((uint64_t*)&ffts_addr,"
     " &ffts_len);'",
     "'void *ffts_addr = NULL; ret = aclrtGetHardwareSyncAddr(&ffts_addr);'"),
    ("ret = rtKernelLaunch(func, blockNum, static_cast<void*>(&args), sizeof(args), NULL, "
     "stream);",
     "ret = aclrtLaunchKernelWithHostArgs(const_cast<void*>(func), blockNum, stream, NULL, "
     "static_cast<void*>(&args), sizeof(args), NULL, 0);"),
    ('''        cpp_kernel_launch = """
    rtArgsEx_t argsInfo = {};
    argsInfo.args = static_cast<void*>(&args);
    argsInfo.argsSize = sizeof(args);
    rtTaskCfgInfo_t cfgInfo = {};
    cfgInfo.localMemorySize = 216 * 1024;
    ret = rtKernelLaunchWithFlagV2(func, blockNum, &argsInfo, NULL, stream, 0, &cfgInfo);
"""''',
     '''        cpp_kernel_launch = f"""
    aclrtLaunchKernelAttr attrInfo = {{}};
    attrInfo.id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
    attrInfo.value.dynUBufSize = {metadata.shared_mem_dynamic_size};
    aclrtLaunchKernelCfg cfgInfo = {{&attrInfo, 1}};
    ret = aclrtLaunchKernelWithHostArgs(const_cast<void*>(func), blockNum, stream, &cfgInfo,
                                        static_cast<void*>(&args), sizeof(args), NULL, 0);
"""'''),
    ("ret = rtMemcpy(", "ret = aclrtMemcpy("),
    ("RT_MEMCPY_HOST_TO_DEVICE\n", "ACL_MEMCPY_HOST_TO_DEVICE\n"),
    ("'ret = rtStreamSynchronize(stream);'", "'ret = aclrtSynchronizeStream(stream);'"),
    ("  const void *function;\n", "  aclrtFuncHandle function;\n"),
]
_ACL_LOADER = [
    ("rtRet = rtDevBinaryRegister(&devbin, &devbinHandle);",
     "rtRet = aclrtBinaryLoadFromData(devbin.data, devbin.length, NULL, &devbinHandle);"),
    ("rtRet = rtFunctionRegister(devbinHandle, func_stub_handle, stubName.c_str(),\n"
     "                             (void *)name, 0);",
     "rtRet = aclrtBinaryGetFunction(devbinHandle, name, &func_stub_handle);"),
    ('printf("rtDevBinaryRegister failed', 'printf("aclrtBinaryLoadFromData failed'),
    ('printf("rtFunctionRegister failed', 'printf("aclrtBinaryGetFunction failed'),
]


def _rewrite(text: str, edits: list[tuple[str, str]], what: str) -> str:
    for old, new in edits:
        if text.count(old) != 1:
            msg = f"{what}: expected one {old[:60]!r}, found {text.count(old)}"
            raise Unavailable(msg)
        text = text.replace(old, new)
    return text


def acl_variant(backend_dir: Path, out: Path) -> Path:
    """A copy of ``backend_dir`` whose loader and generator are the ACL family."""
    backend_dir, out = Path(backend_dir), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("utils.py", "compiler.py"):
        shutil.copyfile(backend_dir / name, out / name)
    (out / "driver.py").write_text(
        _rewrite((backend_dir / "driver.py").read_text(), _ACL_DRIVER, "driver.py"))
    (out / "npu_utils.cpp").write_text(
        _rewrite((backend_dir / "npu_utils.cpp").read_text(), _ACL_LOADER, "npu_utils.cpp"))
    return out


# ---------------------------------------------------------------- cases


@dataclasses.dataclass(frozen=True)
class Case:
    """One kernel as triton-ascend's generator sees it, plus the environment
    it renders under. ``signature`` lists every launcher argument's Triton
    type; ``constants`` maps argument indices to their specialised values."""

    signature: tuple[str, ...]
    constants: Mapping[int, Any] = dataclasses.field(default_factory=dict)
    name: str = "triton_poi_fused_add_0"
    mix_mode: str = "aiv"
    parallel_mode: str = "simd"
    force_simt_only: bool = False
    compile_on_910_95: bool = False
    shared_mem_dynamic_size: int = 221184
    workspace_size: int | None = -1  # None: the metadata lacks the field
    lock_num: int | None = -1
    lock_init_value: int | None = 0
    bs_task_type: int = 0
    tensor_kinds: tuple[int, ...] = ()
    arch: str = ""                   # TRITON_ASCEND_ARCH
    disable_ffts: bool = False       # TRITON_DISABLE_FFTS
    taskqueue: bool = True           # TRITON_ENABLE_TASKQUEUE

    def metadata(self) -> types.SimpleNamespace:
        """The compiled kernel's metadata, as the generator reads it."""
        fields = {"name": f"{self.name} {self.mix_mode}", "mix_mode": self.mix_mode,
                  "parallel_mode": self.parallel_mode, "force_simt_only": self.force_simt_only,
                  "compile_on_910_95": self.compile_on_910_95,
                  "shared_mem_dynamic_size": self.shared_mem_dynamic_size,
                  "bs_task_type": self.bs_task_type, "tensor_kinds": list(self.tensor_kinds),
                  "debug": False, "hash": "0" * 64}
        for key in ("workspace_size", "lock_num", "lock_init_value"):
            if getattr(self, key) is not None:
                fields[key] = getattr(self, key)
        return types.SimpleNamespace(**fields)

    def env(self) -> dict[str, str]:
        return {"TRITON_ASCEND_ARCH": self.arch,
                "TRITON_DISABLE_FFTS": "true" if self.disable_ffts else "false",
                "TRITON_ENABLE_TASKQUEUE": "true" if self.taskqueue else "false",
                "TRITON_DEVICE_PRINT": "false", "TRITON_GRID_WARN_PRINT": "false",
                "TRITON_ALL_BLOCKS_PARALLEL": "false"}


@contextlib.contextmanager
def environment(values: Mapping[str, str]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class Generator:
    """One triton-ascend tree's generator and metadata packer."""

    def __init__(self, backend_dir: Path) -> None:
        self.backend_dir = Path(backend_dir)
        self.driver = generator(self.backend_dir)
        self._pack = pack_metadata(self.backend_dir)

    def render(self, case: Case) -> str:
        signature = dict(enumerate(case.signature))
        with environment(case.env()):
            return self.driver.generate_npu_wrapper_src(dict(case.constants), signature,
                                                        case.metadata())

    def header(self) -> str:
        with environment({"TRITON_ENABLE_TASKQUEUE": "true"}):  # the superset of includes
            return self.driver.generate_npu_header_src()

    def packed_metadata(self, case: Case) -> dict:
        return self._pack(None, case.metadata())

    def read(self, path: str) -> str | None:
        """A file under the ``triton`` package, for fastlaunch's family detection."""
        prefix = "backends/ascend/"
        file = self.backend_dir / path[len(prefix):] if path.startswith(prefix) else None
        return file.read_text() if file is not None and file.is_file() else None


# ---------------------------------------------------------------- building


def _digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:24]


def _headers_digest() -> str:
    return _digest(*(p.read_bytes() for p in sorted(INCLUDE.rglob("*.h"))),
                   RECORDER_C.read_bytes())


RECORDER_PARTS = ("acl", "rt", "services")  # what recorder.c's REC_WITHOUT_* leave out


def build_recorder(directory: Path | None = None, without: Sequence[str] = ()) -> Path:
    """The recording runtime as a shared library, built once per content (cached).
    ``without`` leaves parts of it out (unit tests: a runtime of one launch family,
    or one with no copy, synchronisation or msprof functions)."""
    unknown = sorted(set(without) - set(RECORDER_PARTS))
    if unknown:
        msg = f"without: got {unknown}, expected some of {list(RECORDER_PARTS)}"
        raise ValueError(msg)
    parts = sorted(set(without))
    name = "libfastlaunch_cann_recorder" + "".join(f"_without_{p}" for p in parts) + ".so"
    folder = Path(directory or cache_root()) / f"recorder-{_headers_digest()}"
    out = folder / name
    if out.is_file():
        return out
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"tmp{os.getpid()}-{name}"
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        msg = "no C compiler to build the recording CANN runtime"
        raise Unavailable(msg)
    # -Bsymbolic: builds loaded side by side each keep their own state and entry points.
    _run([cc, "-shared", "-fPIC", "-O1", "-fvisibility=hidden", f"-I{INCLUDE}",
          *(f"-DREC_WITHOUT_{p.upper()}" for p in parts), "-Wl,-Bsymbolic",
          f"-Wl,-soname,{name}", str(RECORDER_C), "-o", str(tmp)])
    tmp.replace(out)
    return out


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        msg = f"{' '.join(cmd[:3])} ... failed:\n{done.stderr[-4000:]}"
        raise RuntimeError(msg)


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
    key = _digest(header, *sources, _headers_digest(), sys.version, str(recorder))
    module = f"fl_reference_{key}"
    folder = Path(directory or cache_root()) / "launchers"
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{module}{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not out.is_file():
        work = folder / f"{module}.build{os.getpid()}"
        work.mkdir(exist_ok=True)
        (work / "precompiled.h").write_text(header)
        src = work / "batch.cpp"
        src.write_text(_batch_source(header, sources, module))
        tmp = work / out.name
        _run([compiler(), "-shared", "-fPIC", "-O0", "-std=c++17", "-w",
              f"-I{work}", f"-I{INCLUDE}", f"-I{sysconfig.get_paths()['include']}",
              str(src), "-o", str(tmp), f"-L{recorder.parent}",
              "-l:" + recorder.name, f"-Wl,-rpath,{recorder.parent}"])
        tmp.replace(out)
        shutil.rmtree(work, ignore_errors=True)
    spec = importlib.util.spec_from_file_location(module, out)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return [Launcher(case.launch, mask) for case, mask in zip(loaded.cases, loaded.padding)]


# ---------------------------------------------------------------- recorder


class _Event(ctypes.Structure):
    _fields_ = [("api", ctypes.c_char * 40), ("name", ctypes.c_char * 72),
                ("handle", ctypes.c_uint64), ("stream", ctypes.c_uint64),
                ("value", ctypes.c_uint64), ("value2", ctypes.c_uint64),
                ("block_dim", ctypes.c_uint32), ("attr_id", ctypes.c_int32),
                ("attr_value", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("size", ctypes.c_uint32), ("data", ctypes.c_ubyte * 2048)]


@dataclasses.dataclass(frozen=True)
class Event:
    api: str
    name: str
    handle: int
    stream: int
    value: int
    value2: int
    block_dim: int
    attr_id: int
    attr_value: int
    flags: int
    data: bytes


LAUNCH_APIS = ("rtKernelLaunch", "rtKernelLaunchWithFlagV2", "aclrtLaunchKernelWithHostArgs")
FFTS_APIS = ("rtGetC2cCtrlAddr", "aclrtGetHardwareSyncAddr")


class Recorder:
    """The recording runtime. The reference launchers (linked to it by soname)
    and fastlaunch (dlopen of the same file) share this one loaded copy."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lib = ctypes.CDLL(str(self.path))
        if self.lib.rec_event_size() != ctypes.sizeof(_Event):
            msg = "recorder event layout differs from ascend_reference._Event"
            raise RuntimeError(msg)
        self.lib.rec_event.restype = ctypes.POINTER(_Event)
        self.lib.rec_submit_address.restype = ctypes.c_void_p
        self.lib.rec_alloc.restype = ctypes.c_uint64
        self.lib.rec_alloc.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64]
        self.lib.rec_set_ffts_addr.argtypes = [ctypes.c_uint64]
        self.lib.rec_prof_command.argtypes = [ctypes.c_uint32, ctypes.c_uint64]
        self.lib.rec_pending_name.restype = ctypes.c_char_p

    def reset(self) -> None:
        self.lib.rec_reset()

    def events(self) -> list[Event]:
        if self.lib.rec_overflowed():
            msg = "the recorder's event log overflowed"
            raise RuntimeError(msg)
        out = []
        for i in range(self.lib.rec_count()):
            e = self.lib.rec_event(i).contents
            out.append(Event(e.api.decode(), e.name.decode(errors="replace"), e.handle,
                             e.stream, e.value, e.value2, e.block_dim, e.attr_id, e.attr_value,
                             e.flags, bytes(e.data[:min(e.size, 2048)])))
        return out

    def alloc(self, kind: int, size: int, stream: int = 0) -> int:
        return self.lib.rec_alloc(kind, size, stream)

    def profiling(self, on: bool, level1: bool = True) -> None:
        """msprof's start command: L0 (task time) and optionally L1 switches."""
        self.lib.rec_prof_command(1, (0x800 | (0x2 if level1 else 0)) if on else 0)

    def submit_capsule(self) -> object:
        """The recorder's task queue as fastlaunch's "fastlaunch.npu_submit" capsule."""
        return capsule(self.lib.rec_submit_address(), b"fastlaunch.npu_submit")


def capsule(address: int, name: bytes) -> object:
    """A PyCapsule named ``name`` around ``address``: how fastlaunch takes C entry points."""
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(address, name, None)


# ---------------------------------------------------------------- comparison


def _profile_record(event: Event) -> tuple:
    """A profiler record's fields that carry meaning (timestamps and the
    fields the original leaves uninitialised are left out)."""
    d = event.data
    magic, level, kind, thread = struct.unpack_from("<HHII", d)
    if event.api == "MsprofReportApi":
        reserve, item = struct.unpack_from("<I", d, 12)[0], struct.unpack_from("<Q", d, 32)[0]
        return (event.api, event.flags, magic, level, kind, thread, reserve, item)
    if event.api == "MsprofReportCompactInfo":
        op_name, task_type, op_type, block_dim = struct.unpack_from("<QIQI", d, 24)
        return (event.api, event.flags, len(d), magic, level, kind, thread, op_name, task_type,
                op_type, block_dim)
    payload = d[24:]
    if kind == 4:  # context ids
        op_name, count = struct.unpack_from("<QI", payload)
        ids = struct.unpack_from(f"<{min(count, 55)}I", payload, 12)
        body: tuple = (op_name, count, ids)
    elif kind == 1:  # tensor info
        op_name, count = struct.unpack_from("<QI", payload)
        tensors = [struct.unpack_from("<11I", payload, 12 + 44 * t) for t in range(min(count, 5))]
        body = (op_name, count, tuple(tensors))
    else:
        body = (payload,)
    return (event.api, event.flags, len(d), magic, level, kind, thread, *body)


def observe(events: Sequence[Event], padding: Sequence[bytes] = ()) -> dict[str, Any]:
    """What the device and the profiler would have been told, in order per
    kind (allocations by kind and size: fastlaunch's allocators take no
    stream). ``padding``: per launch, the bytes to ignore (1 = ignore)."""
    launches, padding = [], list(padding)
    for i, e in enumerate(x for x in events if x.api in LAUNCH_APIS):
        data = e.data
        if i < len(padding) and len(padding[i]) == len(data):
            data = bytes(0 if m else b for b, m in zip(data, padding[i]))
        launches.append({"api": e.api, "handle": e.handle, "block_dim": e.block_dim,
                         "stream": e.stream, "size": len(e.data), "args": data.hex(),
                         "attr": (e.attr_id, e.attr_value, e.flags), "extra": e.value2})
    return {
        "launches": launches,
        "tasks": [e.name for e in events if e.api == "task"],
        "allocs": [(e.flags, e.value) for e in events if e.api == "alloc"],
        "copies": [(e.api, e.handle, e.value, e.value2, e.flags, e.data.hex())
                   for e in events if e.api in ("rtMemcpy", "aclrtMemcpy")],
        "syncs": [(e.api, e.stream) for e in events
                  if e.api in ("rtStreamSynchronize", "aclrtSynchronizeStream")],
        "ffts": sorted({e.api for e in events if e.api in FFTS_APIS}),
        "pointer_checks": [e.handle for e in events if e.api == "aclrtPointerGetAttributes"],
        "hashed": [e.name for e in events if e.api == "MsprofGetHashId"],
        "profile": [_profile_record(e) for e in events if e.api.startswith("MsprofReport")],
    }


def differences(ref: Mapping[str, Any], got: Mapping[str, Any]) -> list[str]:
    """Every compared field that differs, as 'field: reference != fastlaunch'."""
    out = []
    for key in ref:
        a, b = ref[key], got.get(key)
        if key == "launches" and len(a) == len(b):
            for i, (la, lb) in enumerate(zip(a, b)):
                out += [f"launch {i} {k}: {la[k]!r} != {lb[k]!r}" for k in la if la[k] != lb[k]]
        elif a != b:
            out.append(f"{key}: {a!r} != {b!r}")
    return out


# ---------------------------------------------------------------- both sides


class FakeTensor:
    """What the launcher reads from a tensor argument: its address, and its
    shape when msprof's level-1 switch asks for tensor info."""

    def __init__(self, address: int, shape: Sequence[int] = (4,)) -> None:
        self.address = address
        self.shape = tuple(shape)

    def data_ptr(self) -> int:
        return self.address

    def size(self) -> tuple[int, ...]:
        return self.shape

    def __repr__(self) -> str:
        return f"FakeTensor({self.address:#x}, {self.shape})"


@dataclasses.dataclass(frozen=True)
class Call:
    """One launch of one case: the launcher's Python inputs."""

    case: Case
    args: tuple
    grid: tuple[int, int, int] = (1, 1, 1)
    stream: int = 0x5151
    handle: int = 0xBEEF00
    profiling: int = 0  # 0 off, 1 msprof L0, 2 L0 + L1


@dataclasses.dataclass
class Outcome:
    observed: dict[str, Any]
    error: BaseException | None
    full_entry: bool = False  # fastlaunch would hand this call to the original launcher


class Differential:
    """Runs calls through the reference launcher and through fastlaunch's NPU
    backend on one recorder."""

    def __init__(self, recorder: Recorder, generators: Mapping[str, Generator],
                 directory: Path | None = None) -> None:
        self.recorder = recorder
        self.generators = dict(generators)  # family name ("rt", "acl") -> generator
        self.directory = directory

    def build(self, family: str, cases: Sequence[Case]) -> list[Any]:
        gen = self.generators[family]
        return build_launchers(gen, [gen.render(c) for c in cases], self.recorder.path,
                               self.directory)

    def _profiling(self, level: int) -> None:
        self.recorder.profiling(level > 0, level1=level > 1)

    def reference(self, family: str, launch: Launcher, call: Call) -> Outcome:
        """The original launcher's calls, its struct's padding bytes masked."""
        gen = self.generators[family]
        self.recorder.reset()
        self._profiling(call.profiling)
        error = None
        try:
            launch(*call.grid, call.stream, call.handle, gen.packed_metadata(call.case),
                   None, None, None, *call.args)
        except Exception as err:  # the original's own refusal, compared by the caller
            error = err
        events = self.recorder.events()
        self._profiling(0)
        return Outcome(observe(events, [launch.padding]), error)

    def spec(self, family: str, call: Call) -> Any:
        """fastlaunch's KernelSpec for the case, from production code."""
        from ..backends.base import KernelSpec
        from ..backends.npu import family as families
        from ..backends.npu import kernel_meta

        gen = self.generators[family]
        case = call.case
        detection = families.detect(gen.read)
        if detection.family is None:
            msg = f"fastlaunch cannot tell the launch family: {detection.reason} {detection.detail}"
            raise RuntimeError(msg)
        with environment(case.env()):
            ffts = gen.driver.is_ffts_supported(gen.driver.get_ascend_arch_from_env()) \
                and not gen.driver.force_disable_ffts()
            meta = kernel_meta.describe(dict(enumerate(case.signature)), dict(case.constants),
                                        case.metadata(), handle=call.handle,
                                        kernel_name=case.name, family=detection.family,
                                        ffts=ffts, packed_metadata=gen.packed_metadata(case),
                                        env=case.env())
        return KernelSpec(name=meta.name, handle=meta.handle, signature=meta.signature,
                          names=meta.names, positions=meta.indices, grid=None,
                          options=meta.options)

    def fastlaunch(self, family: str, call: Call) -> Outcome:
        """fastlaunch's calls; under msprof, whether its probe (the state the
        original launcher reads) sends the call to the original instead."""
        from .. import _core
        from ..backends.npu.backend import NpuBackend

        rec = self.recorder
        rec.reset()
        error, full_entry = None, False
        with environment(call.case.env()):
            try:
                backend = NpuBackend(
                    libraries=[str(rec.path)], queue="inline",
                    workspace=lambda size: (rec.alloc(KIND_WORKSPACE, size), None),
                    locks=lambda count, _init: (rec.alloc(KIND_LOCK, 8 * count), None))
                if call.case.taskqueue:
                    backend._submit = rec.submit_capsule()  # torch_npu's queue, recorded
                    backend.queue = "auto"
                plan = backend.make_plan(self.spec(family, call),
                                         input_count=len(call.args), fixed_args=())
                self._profiling(call.profiling)
                full_entry = _core.npu_msprof_collecting()
                if not full_entry:
                    backend.launch(plan, call.stream, call.grid, call.args)
            except Exception as err:
                error = err
        events = rec.events()
        self._profiling(0)
        return Outcome(observe(events), error, full_entry)
