# SPDX-License-Identifier: Apache-2.0
"""The float vector width a saved CPU wrapper's C++ kernels were written for,
and Inductor's ISA choice pinned to it while those kernels compile.

Inductor writes a CPU kernel for the ISA it picks where it generates the
wrapper: the lane count is baked into the loop steps, loads, stores and tile
sizes. The wrapper's ``async_compile.cpp_pybinding`` calls compile that source
when the module loads, for the ISA Inductor picks on *this* host. Compiled for
more lanes than it was written for (8-lane AVX2 code on an AVX-512 host, where
``at::vec::Vectorized<float>`` holds 16), every full-vector load and store
reaches past its buffer and corrupts the heap.

Pinning relies on ``torch._inductor.cpu_vec_isa.pick_vec_isa``: with
``config.cpp.simdlen`` set it returns the first ISA of ``valid_vec_isa_list()``
(cached once per process: the CPU's flags and a probe build) of that bit width,
instead of the widest (or ``ATEN_CPU_CAPABILITY``'s). The compiled-kernel cache
is keyed by the compiler command line, which holds the ISA's flags and macros,
so kernels compiled for one ISA are never handed out for another.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

# The signal: a full-vector float load. Inductor's CPU codegen writes a vector
# load's element count with cexpr_index: a tail (a sympy number) prints as
# ``static_cast<int64_t>(6L)``, the tiling factor (a Python int) as
# ``static_cast<int64_t>(8)``, without the ``L``. A float kernel's tiling factor
# is ``pick_vec_isa().nelements(torch.float)``; a low-precision kernel's float
# values are ``VectorizedN<float, K>`` of that many elements in all, or plain
# ``Vectorized<float>`` when the factor was halved to the float lane count. So
# the count of an ``L``-less float load, divided by K, is the lane count.
_FULL_FLOAT_LOAD = re.compile(
    r"at::vec::Vectorized(?:N<float,\s*(\d+)>|<float>)::loadu\("
    r"[^;]*?,\s*static_cast<int64_t>\((\d+)\)\)")


class WidthUnavailable(RuntimeError):
    """This host's Inductor cannot compile for the lane count a wrapper was written for."""


def written_float_lanes(source: str) -> set[int]:
    """The float lane counts ``source``'s C++ kernels were generated for: one value
    for Inductor's output, none when no kernel loads a full float vector."""
    return {int(count) // int(vectors or 1)
            for vectors, count in _FULL_FLOAT_LOAD.findall(source)}


def host_float_lanes() -> int | None:
    """The float lanes Inductor compiles CPU kernels for here now (None: no vector ISA)."""
    import torch
    from torch._inductor import cpu_vec_isa

    isa = cpu_vec_isa.pick_vec_isa()
    return isa.nelements(torch.float) if isa else None


def isa_with(lanes: int):
    """The vector ISA of this host that holds ``lanes`` floats, or None."""
    import torch
    from torch._inductor import cpu_vec_isa

    for isa in cpu_vec_isa.valid_vec_isa_list():
        if isa.nelements(torch.float) == lanes:
            return isa
    return None


def unavailable(lanes: int) -> str:
    """Why this host cannot compile kernels written for ``lanes`` floats ("" when it can)."""
    if isa_with(lanes) is not None:
        return ""
    from torch._inductor import cpu_vec_isa

    offered = ", ".join(f"{isa} ({isa.nelements()} lanes)"
                        for isa in cpu_vec_isa.valid_vec_isa_list()) or "none"
    return (f"the kernels were written for {lanes} float lanes ({lanes * 32}-bit vectors) and "
            f"this host's Inductor offers no ISA with {lanes} (its vector ISAs: {offered})")


@contextlib.contextmanager
def pinned(lanes: int | None) -> Iterator[object | None]:
    """Inductor compiles CPU kernels for ``lanes`` floats inside the block; yields
    the ISA pinned, or None where nothing needed pinning (``lanes`` is None or what
    the host picks anyway). Raises WidthUnavailable when no ISA here has ``lanes``."""
    if lanes is None or lanes == host_float_lanes():
        yield None
        return
    isa = isa_with(lanes)
    if isa is None:
        raise WidthUnavailable(unavailable(lanes))
    from torch._inductor import config as inductor_config
    from torch._inductor import cpu_vec_isa

    with inductor_config.patch({"cpp.simdlen": isa.bit_width()}):
        picked = cpu_vec_isa.pick_vec_isa()
        if str(picked) != str(isa):  # another ISA of the same width comes first
            msg = f"pinning {lanes} float lanes picked {picked}, expected {isa}"
            raise WidthUnavailable(msg)
        yield isa
