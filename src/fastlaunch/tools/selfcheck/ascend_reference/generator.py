# SPDX-License-Identifier: Apache-2.0
"""triton-ascend's launcher generator, loaded alone from a source tree.

``generator(backend_dir)`` imports ``driver.py`` and ``utils.py`` (and
``backend_register.py`` where the tree has one) with stand-ins for the rest
of ``triton`` they import, as each branch needs: ``triton.runtime.cache``
(``default_cache_dir`` on release/3.2.x and 3.5.x), ``triton.tools.
get_ascend_devices`` (3.5.x, main), ``triton.backends.driver`` and
``.compiler``. The backend policy of newer branches is set to torch_npu,
whose launcher the recorder's stub headers build. ``sys.modules`` is left as
it was.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib.util
import os
import re
import sys
import types
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .toolchain import Unavailable

# Core counts the generator reads (NPUUtils) for its optional blockDim clamp.
AICORE_NUM = 24
KIND_WORKSPACE, KIND_LOCK = 0, 1
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


def _stand_ins(backend_dir: Path) -> dict[str, types.ModuleType]:
    """The parts of ``triton`` the backend's modules import, standing in for a
    triton build (a triton-ascend tree has no compiled core here)."""

    def unavailable(*_args, **_kwargs):
        msg = "not available in the fastlaunch reference harness"
        raise RuntimeError(msg)

    stubs = {name: types.ModuleType(name) for name in (
        "triton", "triton.runtime", "triton.runtime.cache", "triton.backends",
        "triton.backends.driver", "triton.backends.compiler", "triton.backends.ascend",
        "triton.tools", "triton.tools.get_ascend_devices", "pybind11")}
    cache = stubs["triton.runtime.cache"]
    cache.get_cache_manager = cache.get_dump_manager = cache.default_cache_dir = unavailable
    stubs["triton.tools.get_ascend_devices"].is_compile_on_910_95 = False  # a 910B host
    stubs["triton.backends.driver"].DriverBase = object
    stubs["triton.backends.compiler"].GPUTarget = tuple
    stubs["triton.backends.ascend"].__path__ = [str(backend_dir)]
    return stubs


def generator(backend_dir: Path) -> types.ModuleType:
    """triton-ascend's ``driver`` module from ``backend_dir`` (holding driver.py
    and utils.py), imported alone: its ``triton`` parents are stand-ins, and
    ``sys.modules`` is left as it was."""
    backend_dir = Path(backend_dir)
    for needed in ("driver.py", "utils.py"):
        if not (backend_dir / needed).is_file():
            msg = f"{backend_dir} has no {needed}: not a triton-ascend backend"
            raise Unavailable(msg)
    saved = {name: module for name, module in sys.modules.items()
             if name.split(".")[0] in ("triton", "pybind11")}
    try:
        sys.modules.update(_stand_ins(backend_dir))
        utils = _exec_module("triton.backends.ascend.utils", backend_dir / "utils.py")
        driver = _exec_module("triton.backends.ascend.driver", backend_dir / "driver.py")
    except ImportError as err:
        msg = f"{backend_dir}: the generator imports what no stand-in provides: {err}"
        raise Unavailable(msg) from err
    finally:
        for name in [n for n in sys.modules if n.split(".")[0] in ("triton", "pybind11")]:
            if name not in saved:
                del sys.modules[name]
        sys.modules.update(saved)
    if hasattr(utils, "backend_policy"):
        utils.backend_policy = "torch_npu"  # get_backend_func renders torch_npu's code
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

    def metadata(self, name_sep: str = " ") -> types.SimpleNamespace:
        """The compiled kernel's metadata, as the generator reads it; ``name``
        is ``kernel_name`` + ``name_sep`` + ``mix_mode`` (``name_sep`` None:
        the kernel name alone), as the tree's compiler writes it."""
        name = self.name if name_sep is None else f"{self.name}{name_sep}{self.mix_mode}"
        fields = {"name": name, "kernel_name": self.name, "mix_mode": self.mix_mode,
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


def _name_separator(compiler: str) -> str | None:
    """How the tree's compiler builds ``metadata.name`` from the kernel name:
    + " " + mix_mode (3.2.x, 3.3.x), + "_" + mix_mode (3.5.x), or not at all
    (main: None)."""
    found = re.search(r'metadata\["name"\] = metadata\["kernel_name"\]( \+ "(.)" \+)?',
                      compiler)
    if found is None or found.group(1) is None:
        return None if found is not None else " "
    return found.group(2)


class Generator:
    """One triton-ascend tree's generator (``generate_npu_wrapper_src``, or
    ``make_launcher`` on newer branches) and metadata packer."""

    def __init__(self, backend_dir: Path) -> None:
        self.backend_dir = Path(backend_dir)
        self.driver = generator(self.backend_dir)
        self._pack = pack_metadata(self.backend_dir)
        self.name = next((n for n in ("generate_npu_wrapper_src", "make_launcher")
                          if callable(getattr(self.driver, n, None))), "")
        self.name_sep = _name_separator((self.backend_dir / "compiler.py").read_text())
        if not self.name:
            msg = f"{self.backend_dir}/driver.py has no generate_npu_wrapper_src or make_launcher"
            raise Unavailable(msg)

    def render(self, case: Case) -> str:
        signature = dict(enumerate(case.signature))
        with environment(case.env()):
            return getattr(self.driver, self.name)(dict(case.constants), signature,
                                                   self.metadata(case))

    def header(self) -> str:
        with environment({"TRITON_ENABLE_TASKQUEUE": "true"}):  # the superset of includes
            return self.driver.generate_npu_header_src()

    def metadata(self, case: Case) -> types.SimpleNamespace:
        """The case's metadata as this tree's compiler names the kernel."""
        return case.metadata(self.name_sep)

    def packed_metadata(self, case: Case) -> dict:
        return self._pack(None, self.metadata(case))

    def read(self, path: str) -> str | None:
        """A file under the ``triton`` package, for fastlaunch's family detection."""
        prefix = "backends/ascend/"
        file = self.backend_dir / path[len(prefix):] if path.startswith(prefix) else None
        return file.read_text() if file is not None and file.is_file() else None


