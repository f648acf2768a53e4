# SPDX-License-Identifier: Apache-2.0
"""A native reader of torch.Tensor data pointers, built against the installed torch.

The core reads every tensor argument's address; through Python's
``data_ptr()`` that is a method call per tensor per launch. This shim reads
it from the tensor object in C++. It is compiled once per torch version on
first use (cached by torch's extension builder); if that fails the core keeps
the Python method, and ``doctor`` says why. ``FASTLAUNCH_TORCH_ACCESSOR=0``
turns it off.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .. import _core, config

log = logging.getLogger(__name__)
_status = "not built yet"


def status() -> str:
    return _status


def ensure() -> bool:
    """Install the accessor once; True when it is active."""
    global _status
    if _core.has_tensor_accessor():
        return True
    if _status != "not built yet":
        return False
    if not config.parse_bool("FASTLAUNCH_TORCH_ACCESSOR",
                             os.environ.get("FASTLAUNCH_TORCH_ACCESSOR", "1")):
        _status = "off (FASTLAUNCH_TORCH_ACCESSOR=0)"
        return False
    try:
        from torch.utils import cpp_extension

        module = cpp_extension.load(
            name="fastlaunch_torch_accessor",
            sources=[str(Path(__file__).with_name("torch_accessor.cpp"))],
            extra_cflags=["-O2"],
            verbose=os.environ.get("FASTLAUNCH_VERBOSE_BUILD") == "1")
        _core.set_tensor_accessor(module.capsule())
    except Exception as err:  # the Python data_ptr() path stays correct
        _status = f"unavailable ({type(err).__name__}: {err}); using tensor.data_ptr()"
        log.warning("fastlaunch: tensor accessor %s", _status)
        return False
    _status = "active"
    return True
