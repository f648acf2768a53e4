# SPDX-License-Identifier: Apache-2.0
"""Plan and launch, per backend; knows nothing of Inductor."""
