# SPDX-License-Identifier: Apache-2.0
import pytest

from fastlaunch.runtime.fake import FakeBackend
from helpers import fake_runtime, wheels


def pytest_configure(config):
    wheels._pytest_config.append(config)  # download progress lines bypass output capture


@pytest.fixture
def npu_fake():
    """Fast launch on, every plan on a fresh fake runtime with the npu ABI."""
    yield from _fake("npu")


@pytest.fixture
def cuda_fake():
    yield from _fake("cuda")


def _fake(abi):
    with fake_runtime.installed(FakeBackend(abi)) as backend:
        yield backend
