# SPDX-License-Identifier: Apache-2.0
"""The torch_npu task-queue submitter, built on first use.

``csrc/shims/queue_shim.cpp`` includes torch_npu's ``OpCommand.h`` and
workspace allocator, so it is compiled against the installed torch and
torch_npu rather than when fastlaunch is built; torch's extension builder
keeps it in the ``npu_queue`` build folder (``core.folder``), one
subfolder per torch, torch_npu, Python and source (``core.digest``, as
every build's key).
"""

from __future__ import annotations

import functools
import sys
import time
from pathlib import Path

from ... import config
from ...builds import core, registry

NAME = registry.NPU_QUEUE.name


@functools.cache
def _module() -> object:
    import torch
    import torch_npu
    from torch.utils import cpp_extension

    root = Path(torch_npu.__file__).parent
    source = core.source("shims/queue_shim.cpp")
    folder = core.folder(NAME) / core.key(
        torch.__version__, str(getattr(torch.version, "git_version", "")),
        str(getattr(torch_npu, "__version__", "")), sys.version, core.digest(source))
    core.make_dirs(folder)  # named in npu_queue's manifest: `cache clear` removes it
    start = time.monotonic()
    module = cpp_extension.load(
        name="fastlaunch_npu_queue",
        build_directory=str(folder),
        sources=[str(source)],
        extra_include_paths=[str(root / "include"), str(root / "include" / "third_party" /
                                                          "acl" / "inc")],
        extra_ldflags=[f"-L{root / 'lib'}", "-ltorch_npu"],
        extra_cflags=["-O2", "-D_GLIBCXX_USE_CXX11_ABI=" +
                      str(int(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", 1)))],
        verbose=config.get().verbose_build,
    )
    core.note(NAME, f"loaded {module.__file__} ({time.monotonic() - start:.1f} s)")
    return module


def submit_capsule() -> object:
    """A PyCapsule ("fastlaunch.npu_submit") holding the submit function."""
    return _module().submit_capsule()


def allocator_capsule() -> object:
    """A PyCapsule ("fastlaunch.npu_workspace"): torch_npu's workspace allocator."""
    return _module().allocator_capsule()
