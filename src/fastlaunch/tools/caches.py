# SPDX-License-Identifier: Apache-2.0
"""``python -m fastlaunch cache {list,clear}``: what fastlaunch keeps on disk.

Each area (a build folder of ``builds.registry.AREAS``, and the wheel cache)
has a manifest naming what fastlaunch created in it (``core.own``). Only
those entries are counted as fastlaunch's and removed; anything else in an
area (a user's file, a build made before manifests existed) is listed as
"not fastlaunch's, kept". The ``FASTLAUNCH_CACHE_DIR`` folder itself, and
whatever lies in it outside the areas, is never touched. Everything removed
is rebuilt or downloaded again when next needed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from .. import config
from ..builds import core, registry, shims

#: One entry per build folder (``registry.AREAS``), and the wheel cache.
WHAT = (*registry.AREAS, "wheels")
#: The names ``--what`` took before each build had its own entry.
ALIASES = {"accessor": ("torch_accessor",), "selfcheck": ("ascend_reference",)}
_WHEELS = "torch-npu / triton-ascend wheels the tests read (and selfcheck fake-npu)"


@dataclasses.dataclass(frozen=True)
class Entry:
    """A file or folder in an area, with its size (files under it, links not followed)."""

    path: Path
    size: int
    files: int


@dataclasses.dataclass(frozen=True)
class Area:
    """One area: what fastlaunch made there (``owned``, its manifest included) and
    what it did not (``foreign``, kept)."""

    name: str
    path: Path
    owned: tuple[Entry, ...]
    foreign: tuple[Entry, ...]

    @property
    def size(self) -> int:
        return sum(e.size for e in self.owned)

    @property
    def files(self) -> int:
        return sum(e.files for e in self.owned)


def folders() -> dict[str, Path]:
    return {**{name: core.folder(name) for name in registry.AREAS},
            "wheels": config.wheel_cache()}


def _meaning(name: str) -> str:
    return _WHEELS if name == "wheels" else registry.AREAS[name].holds


def _entry(path: Path) -> Entry:
    """``path``'s bytes and files; a link counts as nothing and is not followed."""
    if path.is_symlink():
        return Entry(path, 0, 0)
    if not path.is_dir():
        return Entry(path, path.stat().st_size, 1)
    size = files = 0
    for root, _, names in os.walk(path):
        for name in names:
            file = Path(root) / name
            if not file.is_symlink():
                size += file.stat().st_size
                files += 1
    return Entry(path, size, files)


def _inside_links(area: Path, path: Path) -> bool:
    """Whether a folder between ``area`` and ``path`` is a link (never followed)."""
    return any(parent.is_symlink() for parent in path.parents
               if parent != area and area in parent.parents)


def survey_area(name: str, path: Path) -> Area:
    """What is fastlaunch's in one area and what is not."""
    if not path.is_dir():
        return Area(name, path, (), ())
    names = core.owned(path)
    owned = [path / n for n in sorted(names)]
    owned = [p for p in owned if os.path.lexists(p) and not _inside_links(path, p)]
    manifest = path / core.MANIFEST
    if manifest.is_file() and not manifest.is_symlink():
        owned.append(manifest)
    foreign: list[Path] = []

    def walk(folder: Path, prefix: str) -> None:
        for child in sorted(folder.iterdir()):
            relative = prefix + child.name
            if relative in names or child == manifest:
                continue
            if child.is_dir() and not child.is_symlink() and any(
                    n.startswith(relative + "/") for n in names):
                walk(child, relative + "/")
            else:
                foreign.append(child)

    walk(path, "")
    return Area(name, path, tuple(_entry(p) for p in owned),
                tuple(_entry(p) for p in foreign))


def select(what: list[str] | None) -> list[str]:
    """The area names ``what`` means (all when None); old names allowed."""
    what = list(WHAT) if what is None else list(what)
    unknown = sorted(set(what) - set(WHAT) - set(ALIASES))
    if unknown:
        msg = f"what: got {unknown}, expected some of {list(WHAT)}"
        raise ValueError(msg)
    return [n for name in what for n in ALIASES.get(name, (name,))]


def survey(what: list[str] | None = None) -> list[Area]:
    """Each selected area, in the order of ``WHAT``."""
    chosen = select(what)
    return [survey_area(name, path) for name, path in folders().items() if name in chosen]


def _mb(size: int) -> str:
    """A size as people read it: bytes below 1 kB, else kB, MB or GB to one decimal."""
    if size < 1000:
        return f"{size} B"
    for unit, scale in (("kB", 1e3), ("MB", 1e6)):
        if size < scale * 1000:
            return f"{size / scale:.1f} {unit}"
    return f"{size / 1e9:.1f} GB"


def list_lines() -> list[str]:
    lines = []
    total = 0
    for area in survey():
        total += area.size
        lines.append(f"  {area.name:<18}{_mb(area.size):>10}  {area.files:>4} files  "
                     f"{area.path}")
        lines.append(f"  {'':<18}{_meaning(area.name)}")
        if area.foreign:
            kept = sum(e.size for e in area.foreign)
            lines.append(f"  {'':<18}and {len(area.foreign)} not fastlaunch's "
                         f"({_mb(kept)}), which `cache clear` keeps")
    lines.append(f"  {'total':<18}{_mb(total):>10}  ({total} bytes)")
    return lines


def plan_lines(areas: list[Area]) -> list[str]:
    """What ``clear`` would remove, and what it keeps."""
    lines = ["will remove (made by fastlaunch):"]
    lines += [f"  {a.name:<18}{_mb(e.size):>10}  {e.path}" for a in areas for e in a.owned]
    if len(lines) == 1:
        lines.append("  nothing")
    kept = [f"  {a.name:<18}{_mb(e.size):>10}  {e.path}" for a in areas for e in a.foreign]
    if kept:
        lines += ["not fastlaunch's, kept:", *kept]
    size = sum(a.size for a in areas)
    lines.append(f"  {'total':<18}{_mb(size):>10}  ({size} bytes, "
                 f"{sum(len(a.owned) for a in areas)} entries)")
    return lines


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _prune(area: Path, path: Path, keep_area: bool) -> None:
    """Remove the folders above ``path`` that its removal left empty (up to the
    area, and the area too unless ``keep_area``)."""
    for parent in path.parents:
        if parent == area.parent or (parent == area and keep_area):
            return
        try:
            parent.rmdir()  # only an empty folder
        except OSError:
            return


def remove(areas: list[Area]) -> tuple[list[str], int]:
    """Remove what fastlaunch owns in ``areas``; one line per area and one per
    entry that could not be removed, and how many could not."""
    lines, failed = [], 0
    custom_wheels = os.environ.get("FASTLAUNCH_WHEEL_CACHE", "").strip()
    for area in areas:
        keep_area = area.name == "wheels" and bool(custom_wheels)  # the user's folder
        manifest = area.path / core.MANIFEST
        left = []
        for entry in area.owned:
            if entry.path == manifest:
                continue
            try:
                _remove(entry.path)
            except OSError as err:
                lines.append(f"  could not remove {entry.path}: {err}")
                left.append(entry.path.relative_to(area.path).as_posix())
                continue
            _prune(area.path, entry.path, keep_area)
        failed += len(left)
        if left:  # still fastlaunch's: named for the next clear
            manifest.write_text("".join(f"{name}\n" for name in left), encoding="utf-8")
        elif os.path.lexists(manifest):
            manifest.unlink()
            _prune(area.path, manifest, keep_area)
        lines.append(f"  {area.name:<18}removed {_mb(area.size)} ({area.files} files)  "
                     f"{area.path}")
    return lines, failed


def clear(what: list[str] | None = None) -> list[str]:
    """Remove what fastlaunch made in the named caches, without asking (the API:
    the command asks first); one line per cache."""
    return remove(survey(what))[0]


def add_clear_options(parser: argparse.ArgumentParser) -> None:
    """``cache clear``'s own options, for the command line's parser."""
    parser.add_argument("--yes", action="store_true",
                        help="remove without asking (needed where stdin is not a terminal)")
    parser.add_argument("--dry-run", action="store_true",
                        help="only show what would be removed and what is kept")


def _confirm(ask: Callable[[str], str]) -> bool:
    try:
        return ask("remove these? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def main(command: str | None, what: list[str] | None, *, yes: bool = False,
         dry_run: bool = False, ask: Callable[[str], str] = input) -> int:
    """``cache`` (list) or ``cache clear``: shows what it will remove, then asks
    on a terminal, or needs ``yes``; ``dry_run`` only shows. 0 done (or nothing
    to do), 1 declined or not all removed, 2 neither a terminal nor ``yes``."""
    with shims.foreground_only():
        if command != "clear":
            print("\n".join(list_lines()))
            return 0
        areas = survey(what)
        print("\n".join(plan_lines(areas)))
        if dry_run or not any(a.owned for a in areas):
            return 0
        if not yes:
            if not sys.stdin.isatty():
                print("nothing removed: stdin is not a terminal, so `cache clear` needs "
                      "--yes to remove without asking", file=sys.stderr)
                return 2
            if not _confirm(ask):
                print("nothing removed")
                return 1
        lines, failed = remove(areas)
        print("\n".join(lines))
        return 1 if failed else 0
