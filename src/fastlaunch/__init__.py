# SPDX-License-Identifier: Apache-2.0
"""fastlaunch: planned launches of Inductor's Triton kernels.

Importing this package does not import torch; integrations install
themselves when the matching Inductor backend loads (see ``autoload``).
"""

from .counters import reset_stats, stats
from .errors import CallRefused, FastLaunchError, PlanUnavailable

__version__ = "0.1.0"
__all__ = ["CallRefused", "FastLaunchError", "PlanUnavailable", "__version__", "reset_stats",
           "stats"]
