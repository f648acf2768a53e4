# SPDX-License-Identifier: Apache-2.0
"""A numpy launch runtime that records every launch; how the engine is tested."""

from .backend import FAIL_STAGES, FakeBackend, FakeLaunchFailure, FakePlan

__all__ = ["FAIL_STAGES", "FakeBackend", "FakeLaunchFailure", "FakePlan"]
