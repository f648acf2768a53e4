# SPDX-License-Identifier: Apache-2.0
import pytest


@pytest.fixture(scope="module")
def aten_shim():
    """The torch-built ATen shim (built once per torch build, then cached), its
    switches back on their defaults afterwards."""
    from fastlaunch.runtime import aten_ops

    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
    yield aten_ops
    aten_ops.use(True)
    aten_ops.prepare(True)
