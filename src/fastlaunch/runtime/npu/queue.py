# SPDX-License-Identifier: Apache-2.0
"""The torch_npu task-queue submitter, built on first use.

``queue_shim.cpp`` includes torch_npu's ``OpCommand.h`` and workspace
allocator, so it is compiled against the installed torch and torch_npu
(cached by torch's extension builder under ``TORCH_EXTENSIONS_DIR``) rather
than when fastlaunch is built.
"""

from __future__ import annotations

import functools
from pathlib import Path

from ... import config


@functools.cache
def _module() -> object:
    import torch_npu
    from torch.utils import cpp_extension

    root = Path(torch_npu.__file__).parent
    module = cpp_extension.load(
        name="fastlaunch_npu_queue",
        sources=[str(Path(__file__).with_name("queue_shim.cpp"))],
        extra_include_paths=[str(root / "include"), str(root / "include" / "third_party" /
                                                          "acl" / "inc")],
        extra_ldflags=[f"-L{root / 'lib'}", "-ltorch_npu"],
        extra_cflags=["-O2", "-D_GLIBCXX_USE_CXX11_ABI=" +
                      str(int(getattr(__import__("torch")._C, "_GLIBCXX_USE_CXX11_ABI", 1)))],
        verbose=config.verbose_build(),
    )
    return module


def submit_capsule() -> object:
    """A PyCapsule ("fastlaunch.npu_submit") holding the submit function."""
    return _module().submit_capsule()


def allocator_capsule() -> object:
    """A PyCapsule ("fastlaunch.npu_workspace"): torch_npu's workspace allocator."""
    return _module().allocator_capsule()
