# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch cache {list,clear}``: what fastlaunch keeps on disk.

Only the folders fastlaunch itself writes are listed or removed, never the
whole ``FASTLAUNCH_CACHE_DIR`` (it may be a folder shared with other tools).
Everything here is rebuilt or downloaded again when next needed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .. import config
from ..runtime import builds

#: One entry per build folder (``runtime.builds.areas()``), and the wheel cache.
WHAT = (*builds.areas(), "wheels")
#: The names ``--what`` took before each build had its own entry.
ALIASES = {"accessor": ("torch_accessor",), "selfcheck": ("ascend_reference",)}
WHEEL_PATTERNS = ("torch_npu-*.whl", "triton_ascend-*.whl", "triton_ascend-*-backend")
_WHEELS = "torch-npu / triton-ascend wheels the tests read (and selfcheck fake-npu)"


def folders() -> dict[str, Path]:
    return {**{name: builds.folder(name) for name in builds.areas()},
            "wheels": config.wheel_cache()}


def _meaning(name: str) -> str:
    return _WHEELS if name == "wheels" else builds.areas()[name]


def _entries(name: str, path: Path) -> list[Path]:
    """What fastlaunch put there: the whole folder, or in the wheel cache (which
    ``FASTLAUNCH_WHEEL_CACHE`` may point at a shared folder) only its wheels and
    the generator folders extracted from them."""
    if not path.is_dir():
        return []
    if name != "wheels":
        return [path]
    return sorted(p for pattern in WHEEL_PATTERNS for p in path.glob(pattern))


def _size(entries: list[Path]) -> tuple[int, int]:
    """Bytes and files in ``entries``."""
    files = [f for e in entries for f in ([e] if e.is_file() else e.rglob("*"))
             if f.is_file() and not f.is_symlink()]
    return sum(f.stat().st_size for f in files), len(files)


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def list_lines() -> list[str]:
    lines = []
    total = 0
    for name, path in folders().items():
        size, count = _size(_entries(name, path))
        total += size
        lines.append(f"  {name:<18}{_mb(size):>10}  {count:>4} files  {path}")
        lines.append(f"  {'':<18}{_meaning(name)}")
    lines.append(f"  {'total':<18}{_mb(total):>10}")
    return lines


def clear(what: list[str]) -> list[str]:
    """Remove what fastlaunch keeps in the named caches; one line per cache."""
    unknown = sorted(set(what) - set(WHAT) - set(ALIASES))
    if unknown:
        msg = f"what: got {unknown}, expected some of {list(WHAT)}"
        raise ValueError(msg)
    what = [n for name in what for n in ALIASES.get(name, (name,))]
    lines = []
    for name, path in folders().items():
        if name not in what:
            continue
        entries = _entries(name, path)
        size, count = _size(entries)
        for entry in entries:
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        lines.append(f"  {name:<18}removed {_mb(size)} ({count} files)  {path}")
    return lines


def main(command: str | None, what: list[str] | None) -> int:
    lines = clear(list(what or WHAT)) if command == "clear" else list_lines()
    print("\n".join(lines))
    return 0
