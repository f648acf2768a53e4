# SPDX-License-Identifier: Apache-2.0
"""Hardware tests: each module skips, with its reason, where its device is absent."""

import os

# Compiled code must come from this process's codegen, with and without fastlaunch.
os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
