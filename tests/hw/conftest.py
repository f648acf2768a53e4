# SPDX-License-Identifier: Apache-2.0
"""Hardware tests: each module skips, with its reason, where its device is absent.

Inductor's compile caches stay on, as users have them: fastlaunch's state is
part of their keys. A test that needs fresh codegen asks for ``fresh_codegen``.
"""

import pytest


@pytest.fixture
def fresh_codegen(monkeypatch):
    """Inductor's caches off for one test (fresh codegen, fresh autotuning)."""
    from torch._inductor import config

    monkeypatch.setenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
    with config.patch(force_disable_caches=True):
        yield
