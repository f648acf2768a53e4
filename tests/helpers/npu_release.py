# SPDX-License-Identifier: Apache-2.0
"""One torch_npu release's own Inductor code, loaded from its wheel.

The release's pure-Python modules (``torch_npu/_inductor/...``: the
autotuner, ``TritonCompileResultNpu.make_launcher``, the wrapper codegen)
run unmodified from the extracted wheel, against the torch of this
environment and triton-ascend's own Python package. Only the native parts
are stood in for:

* ``torch_npu._C`` and modules that need it (``torch_npu.npu._backends``),
  plus ``torch.npu``, the device module torch_npu registers from C++;
* triton's active driver (triton-ascend's asks the NPU compiler binary);
* package ``__init__`` files: torch_npu's register the whole backend with
  torch at import (operators, devices, patches of torch itself); each
  module is loaded on its own, and a name taken from a package that was
  not run is a stand-in, so only code that is really called must be real.

Loaded in a child process per release (``npu_release_driver``): releases
cannot share one interpreter.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import re
import sys
import types
import zipfile
from pathlib import Path

import pytest

from . import wheels

#: Every release the integration supports, with its layout (docs/npu_fast_launch.md).
RELEASES = {
    "2.7.1.post11": "runtime",
    "2.8.0.post5": "npu_triton_heuristics",
    "2.9.1": "npu_triton_heuristics",
    "2.10.0.post7": "runtime",
    "2.11.0.post3": "npu_triton_heuristics",
    "2.12.0.post3": "npu_triton_heuristics",
    "2.13.0": "runtime",
    "2.14.0": "runtime",
}


#: torch_npu's C++ headers the NPU contract reads (the task-queue API).
HEADERS = "torch_npu/include/torch_npu/csrc/framework/"


def extracted(version: str) -> Path:
    """``torch_npu``'s Python files of one release, extracted into the wheel cache."""
    target = wheels.cache_dir() / f"torch_npu-{version}-py"
    if (target / "torch_npu" / "_inductor").is_dir():
        return target
    partial = target.with_name(f"{target.name}.{os.getpid()}")
    with zipfile.ZipFile(wheels.fetch(version)) as wheel:
        for name in wheel.namelist():
            if name.startswith("torch_npu/") and (name.endswith(".py")
                                                  or name.startswith(HEADERS)):
                wheel.extract(name, partial)
    return wheels.publish(partial, target)


def wheel_metadata(version: str) -> str:
    """The METADATA of ``version``'s torch-npu wheel."""
    with zipfile.ZipFile(wheels.fetch(version)) as wheel:
        return wheel.read(f"torch_npu-{version}.dist-info/METADATA").decode()


def own_torch(version: str) -> str:
    """The torch release ``version`` is built for, from its wheel's
    ``Requires-Dist: torch==2.7.1+cpu`` (or ``==2.13.0.*``; the local "+cpu"
    dropped: the registry's build of that release)."""
    meta = wheel_metadata(version)
    found = re.search(r"^Requires-Dist: torch\s*==\s*(\d+(?:\.\d+)*)", meta, re.M)
    if found is None:
        msg = f"torch_npu {version}'s METADATA pins no torch release"
        raise LookupError(msg)
    return found.group(1)


#: How to run each release on its own torch (tests/releases/run.py).
OWN_TORCH_ENV = "tox -e releases"


def wrote_without_own_code(report: dict, out: str) -> bool:
    """In a release's child driver: when its wrapper codegen did not load on
    this torch, write ``report`` as it stands and say so (the parent test then
    skips through ``require_own_code``, naming the own-torch env)."""
    if report["codegen"] == "real":
        return False
    import json

    Path(out).write_text(json.dumps(report, indent=1))
    return True


def require_own_code(version: str, report: dict) -> None:
    """The release's own wrapper codegen must have loaded and written the
    call; where it could not on this env's torch (not the release's own), a
    skip naming the env that runs it on its own torch; on its own torch, a failure."""
    problem = (report["codegen"] if report["codegen"] != "real"
               else report.get("call_site_error"))
    if problem is None:
        return
    import torch

    here, own = torch.__version__.split("+")[0], own_torch(version)
    if here != own:
        pytest.skip(f"torch_npu {version}'s wrapper codegen does not run on torch {here} "
                    f"({problem}); `{OWN_TORCH_ENV}` runs it on its own torch {own}")
    pytest.fail(f"torch_npu {version} on its own torch {own}: {problem}")


def triton_ascend_package(version: str = wheels.TRITON_ASCEND) -> Path:
    """The folder holding triton-ascend's ``triton`` package (the whole wheel
    extracted: its Python code imports its compiled core)."""
    target = wheels.cache_dir() / f"triton_ascend-{version}-pkg"
    if (target / "triton" / "__init__.py").is_file():
        return target
    wheel = wheels._wheel(f"triton-ascend=={version}", f"triton_ascend-{version}")
    partial = target.with_name(f"{target.name}.{os.getpid()}")
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.filename.startswith("triton/"):
                path = Path(archive.extract(info, partial))
                if info.external_attr >> 16 & 0o111:
                    path.chmod(0o755)
    return wheels.publish(partial, target)


class _StandIn:
    """A name read from a package whose ``__init__`` was not run."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __call__(self, *args: object, **kwargs: object) -> _StandIn:
        return _StandIn(f"{self._name}()")

    def __getattr__(self, name: str) -> _StandIn:
        if name.startswith("__"):
            raise AttributeError(name)
        return _StandIn(f"{self._name}.{name}")

    def __mro_entries__(self, bases: tuple) -> tuple:
        return (object,)

    def __repr__(self) -> str:
        return f"<stand-in {self._name}>"


class _Package(types.ModuleType):
    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        for folder in getattr(self, "__path__", ()):
            if (Path(folder) / f"{name}.py").is_file() or (Path(folder) / name).is_dir():
                import importlib

                return importlib.import_module(f"{self.__name__}.{name}")  # a real submodule
        return _StandIn(f"{self.__name__}.{name}")


class _Loader(importlib.abc.Loader):
    def __init__(self, module: types.ModuleType | None = None) -> None:
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return self.module if self.module is not None else _Package(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        return None


class ReleaseFinder(importlib.abc.MetaPathFinder):
    """Finds ``torch_npu.*`` in one extracted release; modules in ``native``
    come from there instead."""

    def __init__(self, root: Path, native: dict[str, types.ModuleType]) -> None:
        self.root = Path(root)
        self.native = native

    def find_spec(self, name: str, path: object, target: object = None):
        if name in self.native:
            return importlib.util.spec_from_loader(name, _Loader(self.native[name]))
        if name != "torch_npu" and not name.startswith("torch_npu."):
            return None
        base = self.root.joinpath(*name.split("."))
        if base.is_dir():
            spec = importlib.machinery.ModuleSpec(name, _Loader(), is_package=True)
            spec.submodule_search_locations = [str(base)]
            return spec
        if base.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(name, base.with_suffix(".py"))
        return importlib.util.spec_from_loader(name, _Loader())


class _DeviceProps:
    name = "Ascend910B2"
    cube_core_num = 24
    vector_core_num = 48
    multi_processor_count = 24
    total_memory = 64 << 30


def _module(name: str, **attrs: object) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


class _Driver:
    """triton's active driver for an NPU that is not there."""

    def get_current_target(self):
        from triton.backends.compiler import GPUTarget

        return GPUTarget("npu", _DeviceProps.name, 0)

    def get_current_device(self) -> int:
        return 0

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    class utils:  # read as driver.active.utils
        @staticmethod
        def get_device_properties(device: int) -> dict:
            return {"num_aicore": _DeviceProps.cube_core_num,
                    "num_vectorcore": _DeviceProps.vector_core_num,
                    "max_shared_mem": 192 * 1024}


def install(version: str) -> Path:
    """Make ``import torch_npu._inductor...`` load ``version``'s own modules."""
    import torch

    root = extracted(version)
    device = _module("torch.npu", current_device=lambda: 0, device_count=lambda: 1,
                     is_available=lambda: True, set_device=lambda d: None,
                     synchronize=lambda d=None: None,
                     get_device_properties=lambda d=0: _DeviceProps(),
                     is_current_stream_capturing=lambda: False)
    torch.npu = device
    sys.modules["torch.npu"] = device
    native = {"torch_npu._C": _module("torch_npu._C", _npu_getCurrentRawStream=lambda d: 0),
              "torch_npu.npu._backends": _module("torch_npu.npu._backends",
                                                 get_soc_version=lambda: 220)}
    try:
        import psutil  # noqa: F401 - a real dependency of torch_npu when present
    except ImportError:
        native["psutil"] = _module("psutil", cpu_count=lambda logical=True: os.cpu_count())
    sys.meta_path.insert(0, ReleaseFinder(root, native))
    _register_device()
    from triton.runtime import driver

    driver.active._obj = _Driver()
    return root


def _register_device() -> None:
    """The ``npu`` device interface torch_npu registers with Dynamo at import."""
    from torch._dynamo import device_interface as di

    class NpuInterface(di.DeviceInterface):
        @staticmethod
        def current_device() -> int:
            return 0

        @staticmethod
        def set_device(device: int) -> None:
            return None

        @staticmethod
        def device_count() -> int:
            return 1

        @staticmethod
        def is_available() -> bool:
            return True

        @staticmethod
        def synchronize(device: object = None) -> None:
            return None

        @staticmethod
        def exchange_device(device: int) -> int:
            return 0

        @staticmethod
        def maybe_exchange_device(device: int) -> int:
            return 0

        @staticmethod
        def get_raw_stream(device: int) -> int:
            return 0

        @staticmethod
        def get_compute_capability(device: object = None) -> str:
            return _DeviceProps.name

    di.register_interface_for_device("npu", NpuInterface)


def heuristics_module(version: str) -> str:
    """Where ``version`` keeps NPUCachingAutotuner and TritonCompileResultNpu."""
    if RELEASES[version] == "runtime":
        return "torch_npu._inductor.runtime.triton_heuristics"
    return "torch_npu._inductor.npu_triton_heuristics"
