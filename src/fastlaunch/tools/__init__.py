# SPDX-License-Identifier: Apache-2.0
"""What users run: doctor, demo, cache, selfcheck."""
