# SPDX-License-Identifier: Apache-2.0
"""The planned call: an Inductor wrapper's whole ``call(args)`` run as a native program.

``translate`` turns the function's source into a ``program.Program``;
``planner.plan`` makes the native ``PlannedCall`` (csrc/engine/planned_call.cpp) that
runs it, with the whole-call fallback to the original ``call``.
"""

from .planner import plan
from .translate import Untranslatable

__all__ = ["Untranslatable", "plan"]
