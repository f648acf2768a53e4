# SPDX-License-Identifier: Apache-2.0
import pytest

import fastlaunch
from fastlaunch import backends, config
from fastlaunch.backends.fake import FakeBackend


@pytest.fixture
def npu_fake():
    """Fast launch on, every plan on a fresh fake runtime with the npu ABI."""
    yield from _fake("npu")


@pytest.fixture
def cuda_fake():
    yield from _fake("cuda")


def _fake(abi):
    backend = FakeBackend(abi)
    previous = backends.set_backend("fake", backend)
    fastlaunch.reset_stats()
    with config.override(enabled=True, backend="fake", strict=False):
        yield backend
    backends.set_backend("fake", previous)
    fastlaunch.reset_stats()
