# SPDX-License-Identifier: Apache-2.0
"""Each torch_npu release against its own torch's Python sources, statically.

The default env runs one torch (2.13), on which the wrapper codegen of
torch_npu 2.7.1 to 2.10 cannot load or write a call (their tests in
``test_torch_npu_releases.py`` skip there, naming ``tox -e releases``). Here,
for every release, the files of the torch it pins (``Requires-Dist``) are
read from that torch's wheel, never installed (``wheels.torch_sources``), and
``torch_contract`` checks every class, method and attribute fastlaunch
patches, wraps or reads there, plus the release's wrapper class over them:
which methods write the call line, that the class or a base has them, and
that the helper it resolves takes what torch's deferred call line passes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fastlaunch.integrations.torch_npu import contract, layouts, torch_contract
from helpers import npu_release, wheels

#: Which methods write the call line, per release on its own torch: torch 2.7's
#: generate_kernel_call writes it itself; later torches defer it to the helper,
#: and the runtime layout's releases write multi-stream lines in their own
#: generate_kernel_call.
WRITERS = {"2.7.1.post11": ("generate_kernel_call",),
           "2.8.0.post5": ("_generate_kernel_call_helper",),
           "2.9.1": ("_generate_kernel_call_helper",),
           "2.10.0.post7": ("generate_kernel_call", "_generate_kernel_call_helper"),
           "2.11.0.post3": ("_generate_kernel_call_helper",),
           "2.12.0.post3": ("_generate_kernel_call_helper",),
           "2.13.0": ("generate_kernel_call", "_generate_kernel_call_helper"),
           "2.14.0": ("generate_kernel_call", "_generate_kernel_call_helper")}


def _reader(npu_root: Path, torch_root: Path):
    def read(path: str) -> str | None:
        file = (npu_root if path.startswith("torch_npu/") else torch_root) / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    return read


def _pair(version: str) -> tuple[Path, Path]:
    """The release's extracted files and its own torch's."""
    npu_root = npu_release.extracted(version)  # skips, naming the wheel, without it
    torch_root = wheels.torch_sources(npu_release.own_torch(version), torch_contract.FILES)
    return npu_root, torch_root


def _check(read) -> list[str]:
    """``pair_check`` of the release and torch that ``read`` serves."""
    layout = layouts.detect(read)
    return torch_contract.pair_check(read, layouts.WRAPPER, contract.wrapper_class(layout, read),
                                     layout.direct_writer)


def test_every_release_has_its_writers_listed():
    assert set(WRITERS) == set(npu_release.RELEASES)


@pytest.mark.parametrize("version", sorted(npu_release.RELEASES))
def test_release_on_its_own_torch_has_what_fastlaunch_touches(version):
    read = _reader(*_pair(version))
    assert contract.check(read) == []
    assert _check(read) == []
    layout = layouts.detect(read)
    assert torch_contract.call_line_writers(read, layout.direct_writer) == WRITERS[version]


def test_torch_2_7_writes_the_call_line_in_generate_kernel_call():
    """The pair the issue found planning nothing: no helper on torch 2.7.1."""
    read = _reader(*_pair("2.7.1.post11"))
    assert torch_contract.upstream_call_line_writers(read) == ("generate_kernel_call",)


def _planted(version: str, tmp_path: Path, path: str, old: str, new: str):
    """A copy of the release's own torch sources with ``old`` replaced everywhere."""
    npu_root, torch_root = _pair(version)
    copy = tmp_path / "torch"
    shutil.copytree(torch_root, copy)
    text = (copy / path).read_text()
    assert old in text, old
    (copy / path).write_text(text.replace(old, new))
    return _reader(npu_root, copy)


def test_a_method_missing_in_one_releases_own_torch_is_named(tmp_path):
    read = _planted("2.8.0.post5", tmp_path, torch_contract.CODECACHE,
                    "def load_by_key_path(", "def load_by_key_path_renamed(")
    assert _check(read) == [
        "torch/_inductor/codecache.py: PyCodeCache.load_by_key_path missing (wrapped: the "
        "planned call plans each wrapper module it loads)"]


def test_a_call_line_writer_missing_in_one_releases_own_torch_is_named(tmp_path):
    read = _planted("2.7.1.post11", tmp_path, torch_contract.WRAPPER,
                    "    def generate_kernel_call(\n", "    def generate_kernel_call_renamed(\n")
    problems = _check(read)
    assert problems == ["torch/_inductor/codegen/wrapper.py: PythonWrapperCodegen."
                        "generate_kernel_call missing (patched: writes the call line (torch 2.7) "
                        "or the line deferred to the helper)"]


def test_an_attribute_fastlaunch_reads_missing_is_named(tmp_path):
    read = _planted("2.12.0.post3", tmp_path, torch_contract.HEURISTICS,
                    "self.compile_results", "self.compile_results_renamed")
    assert _check(read) == [
        "torch/_inductor/runtime/triton_heuristics.py: CachingAutotuner.compile_results missing "
        "(read at bind: the compiled kernels behind the launchers)"]


def test_a_release_on_a_newer_torch_is_told_apart_from_its_own():
    """torch_npu 2.10.0.post7's helper override on torch 2.13 (the default env's
    skip): the keywords torch 2.13's KernelCallLine passes that it lacks."""
    npu_root, _ = _pair("2.10.0.post7")
    read = _reader(npu_root, wheels.torch_sources("2.13.0", torch_contract.FILES))
    assert _check(read) == [
        "torch_npu/_inductor/codegen/wrapper.py: _generate_kernel_call_helper takes no "
        "['current_stream_idx', 'inductor_meta'], which torch's KernelCallLine passes"]
