# SPDX-License-Identifier: Apache-2.0
"""What runs a compiled graph's host side: today the planned call (``planned_call``)."""
