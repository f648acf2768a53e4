# SPDX-License-Identifier: Apache-2.0
"""The ``npu`` test device: csrc/testing/npu_device, PrivateUse1 renamed ``npu``.

``install()`` builds it (once per machine: keyed by its source and the torch
build, kept in the tests' wheel cache beside what they extract from the
wheels), loads it, renames PrivateUse1 to ``npu`` and registers ``torch.npu``
with the device guard and ``set_device`` torch_npu's wrappers call. Renaming
cannot be undone, so only a child process installs it.

``npu_style(text)`` rewrites a saved CPU wrapper the way torch_npu's wrapper
writes the same graph: each ``empty_strided_cpu(size, stride, dtype)`` as the
generic ``empty_strided(size, stride, device='npu', dtype=dtype)`` that
Inductor's ``make_allocation`` writes for a device with no
``_empty_strided_<device>``, and the call's body inside the device guard
``with torch.npu.utils.device(0): torch.npu.set_device(0)``. Its C++ kernels
read and write through ``data_ptr()``, which is host memory on this device.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import types

from fastlaunch.builds import core

from . import wheels

SOURCE = "testing/npu_device/npu_device.cpp"
GUARD_LOG: list[tuple] = []


def build_folder() -> object:
    import torch

    source = core.source(SOURCE).read_bytes()
    key = hashlib.sha256(source + b"\0" + torch.__version__.encode() + b"\0" +
                         str(torch.version.git_version).encode()).hexdigest()[:16]
    return wheels.cache_dir() / "npu_device" / key


def unavailable() -> str | None:
    """Why the device cannot be built here (a reason for a skip), or None."""
    try:
        from torch.utils import cpp_extension
    except ImportError as err:
        return f"the npu test device is built against torch: {err}"
    compiler = cpp_extension.get_cxx_compiler()
    if shutil.which(compiler) is None:
        return f"no C++ compiler ({compiler}) to build the npu test device"
    if not cpp_extension.is_ninja_available():
        return "no ninja: torch.utils.cpp_extension.load needs it to build the npu test device"
    return None


class DeviceGuard:
    """``torch.npu.utils.device``: records entering and leaving."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __enter__(self) -> None:
        GUARD_LOG.append(("enter", self.index))

    def __exit__(self, *exc: object) -> bool:
        GUARD_LOG.append(("exit", getattr(exc[0], "__name__", None)))
        return False


def install(*, device_module: bool = True) -> None:
    """Build (or find) and load the device; PrivateUse1 is ``npu`` from here on.
    ``device_module``: register ``torch.npu`` (False: the caller's stand-in is it)."""
    import torch
    from torch.utils import cpp_extension

    folder = build_folder()
    if not folder.is_dir():
        folder.mkdir(parents=True)
        core.own(folder.parent)  # fastlaunch's: `python -m fastlaunch cache clear` removes it
    wheels.say(f"npu test device: building or finding {SOURCE} in {folder}")
    # cpp_extension's own lock is a file (its "baton") that a killed build leaves
    # in the folder, and every later load waits on it for ever. Loads here take
    # turns on fastlaunch's build lock (an flock: freed when its holder dies), so
    # a baton found while holding it belongs to no live build of this helper.
    lock = core.open_lock(folder)
    try:
        core.take_lock(lock, wait=True)
        (folder / "lock").unlink(missing_ok=True)
        cpp_extension.load(name="fastlaunch_npu_device", sources=[str(core.source(SOURCE))],
                           build_directory=str(folder), extra_cflags=["-O1"],
                           is_python_module=False, verbose=False)
    finally:
        os.close(lock)
    torch.utils.rename_privateuse1_backend("npu")
    if not device_module:
        return
    module = types.ModuleType("torch.npu")
    module.utils = types.SimpleNamespace(device=DeviceGuard)
    module.set_device = lambda index: GUARD_LOG.append(("set", index))
    # torch.manual_seed seeds every device module that has these; inputs are made on CPU
    module._is_in_bad_fork = lambda: False
    module.manual_seed_all = lambda seed: None
    torch._register_device_module("npu", module)


def allocations() -> list[tuple[str, int, int]]:
    """The device's allocations and frees since the last read: (event, arena offset, length)."""
    import torch

    flat = torch.ops.fastlaunch_npu_device.allocations()
    return [("alloc" if flat[i] else "free", flat[i + 1], flat[i + 2])
            for i in range(0, len(flat), 3)]


_ALLOC = re.compile(r"empty_strided_cpu\((\(.*?\)), (\(.*?\)), (torch\.\w+)\)")


def npu_style(text: str) -> str:
    """The CPU wrapper ``text`` as torch_npu writes it (see the module docstring)."""
    head, sep, rest = text.partition("    def call(self, args):\n")
    if not sep:
        msg = "npu_style: the wrapper has no Runner.call"
        raise ValueError(msg)
    lines = rest.split("\n")
    body_end = next(i for i, line in enumerate(lines) if line.startswith("        return "))
    start = next(i for i, line in enumerate(lines) if line.strip() == "args.clear()") + 1
    body = [f"    {line}" if line else line for line in lines[start:body_end]]
    guard = ["        with torch.npu.utils.device(0):", "            torch.npu.set_device(0)"]
    out = "\n".join([*lines[:start], *guard, *body, *lines[body_end:]])
    return head + sep + _ALLOC.sub(r"empty_strided(\1, \2, device='npu', dtype=\3)", out)


def tensor_bytes(tensor) -> str:
    """The tensor's values in order, as hex of their bytes (no numpy needed)."""
    import torch

    host = tensor.cpu().contiguous().reshape(-1)
    return bytes(host.view(torch.uint8).tolist()).hex()
