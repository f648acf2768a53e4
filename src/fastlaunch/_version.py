# SPDX-License-Identifier: Apache-2.0
"""The package version: read by the build (pyproject.toml) and the cache key."""

__version__ = "0.1.0"
