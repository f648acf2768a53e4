# SPDX-License-Identifier: Apache-2.0
"""Native code compiled after install: the compile core (``core``), the one
registry of build areas and torch shims (``registry``), and the shims' build
policy with its typed state (``shims``). Below the runtime: it imports no
room above it, so the install's CMake step runs it from the source tree."""
