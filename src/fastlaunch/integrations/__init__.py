# SPDX-License-Identifier: Apache-2.0
"""Hooks into the frameworks that put fastlaunch's engine in place (they import the engine,
never the reverse)."""
