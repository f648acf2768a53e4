# SPDX-License-Identifier: Apache-2.0
"""fastlaunch.builds, the compile core of every build made after install and its
one registry:
where sources are found (checkout, then the installed copy), the one cache
folder rule, one log line per build, atomic placement, failures with the
compiler's output, and the rows doctor and ``cache`` show."""

from __future__ import annotations

import dataclasses
import logging
import re
import sys
from pathlib import Path

import pytest

from fastlaunch import config
from fastlaunch.builds import core, registry, shims
from fastlaunch.builds.__main__ import main as builds_main
from fastlaunch.tools import caches

ROOT = Path(__file__).resolve().parents[3]


def test_sources_come_from_the_checkout_else_the_installed_copy():
    """Run from the checkout (editable install), its csrc/; from an installed wheel
    (tox), the copy the wheel ships, the same bytes as the checkout's."""
    expected = ROOT / "csrc" if core.CHECKOUT == ROOT else core.PACKAGE / "csrc"
    for relative in ("shims/torch_accessor.cpp", "shims/tensor_geometry.cpp",
                     "shims/queue_shim.cpp", "testing/cann_recorder/recorder.c",
                     "testing/cann_recorder/include/recorder.h"):
        path = core.source(relative)
        assert path == expected / relative
        assert path.read_bytes() == (ROOT / "csrc" / relative).read_bytes()


def test_an_installed_package_finds_the_copy_it_ships(monkeypatch, tmp_path):
    """A wheel install has no checkout around it: the copy under fastlaunch/csrc."""
    package = tmp_path / "site-packages" / "fastlaunch"
    (package / "csrc" / "shims").mkdir(parents=True)
    (package / "csrc" / "shims" / "x.cpp").write_text("// shipped")
    monkeypatch.setattr(core, "PACKAGE", package)
    monkeypatch.setattr(core, "CHECKOUT", tmp_path)  # no CMakeLists.txt here
    assert core.source_roots() == [package / "csrc"]
    assert core.source("shims/x.cpp") == package / "csrc" / "shims" / "x.cpp"
    with pytest.raises(FileNotFoundError, match=re.escape(
            f"native source shims/y.cpp is missing (looked in {package / 'csrc/shims/y.cpp'})")):
        core.source("shims/y.cpp")


def test_the_cmake_rules_ship_what_is_compiled_after_install():
    text = (ROOT / "CMakeLists.txt").read_text()
    assert "install(DIRECTORY csrc/shims csrc/testing csrc/bench DESTINATION fastlaunch/csrc)" \
        in text
    assert "${CMAKE_CURRENT_SOURCE_DIR}/csrc/shims/*.cpp" in text  # the shims step's inputs


def test_every_shim_source_is_registered():
    """Adding a shim is one ``Shim`` in builds.registry, with one runtime module
    that activates it; the task-queue shim is built by its own module
    (runtime/npu/queue.py) on first use."""
    from fastlaunch.tools import build

    on_disk = {p.name for p in (ROOT / "csrc" / "shims").glob("*.cpp")}
    registered = {shim.source for shim in registry.SHIMS.values()}
    assert on_disk == registered | {"queue_shim.cpp"}
    for shim in registry.SHIMS.values():
        assert shims.source_of(shim).is_file() and isinstance(shim.enabled(config.get()), bool)
        assert shim.enabled(config.from_environ({shim.switch: "0"})) is False, shim
    assert {name: owner.shim for name, owner in build.owners().items()} == registry.SHIMS


def test_one_cache_folder_rule(monkeypatch, tmp_path):
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path))
    assert list(registry.AREAS)[:len(registry.SHIMS)] == list(registry.SHIMS)
    for name in registry.AREAS:
        assert core.folder(name) == tmp_path / name
        assert caches.folders()[name] == tmp_path / name
    for name, shim in registry.SHIMS.items():
        assert shims.cached_path(shim, "k").parent == tmp_path / name / "k"
    with pytest.raises(ValueError, match=r"build: got 'nope', expected one of \["):
        core.folder("nope")


def test_the_cache_folder_row_names_an_unusable_folder(monkeypatch, tmp_path):
    """doctor's row: where the cache is, from which setting, and why it cannot be used."""
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path / "c"))
    assert core.cache_row() == f"{tmp_path / 'c'} (FASTLAUNCH_CACHE_DIR): usable"
    assert not (tmp_path / "c").exists()  # looking creates nothing
    (tmp_path / "c").write_text("")
    assert core.cache_row() == (
        f"{tmp_path / 'c'} (FASTLAUNCH_CACHE_DIR): NOT USABLE: {tmp_path / 'c'} is not a "
        "folder; nothing is built or cached until FASTLAUNCH_CACHE_DIR names a writable folder")
    assert core.cache_problem(tmp_path / "c" / "aten_ops" / "k") == f"{tmp_path / 'c'} is not " \
                                                                     "a folder"
    with pytest.raises(NotADirectoryError):
        core.make_dirs(tmp_path / "c" / "aten_ops" / "k")


def test_what_fastlaunch_creates_is_named_in_its_area(monkeypatch, tmp_path):
    """make_dirs names each folder it creates in the area's manifest, once, and
    nothing outside the areas (the cache root, a stranger's folder)."""
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(tmp_path / "w"))
    (tmp_path / "c" / "bench").mkdir(parents=True)  # the user's folder first
    core.make_dirs(tmp_path / "c" / "bench" / "k" / "deeper")
    core.make_dirs(tmp_path / "c" / "bench" / "k" / "deeper")
    core.own(tmp_path / "c" / "bench" / "k" / "deeper" / "x.so")  # under a named folder
    core.make_dirs(tmp_path / "c" / "not-an-area" / "k")
    core.own(tmp_path / "elsewhere.so")
    assert (tmp_path / "c" / "bench" / core.MANIFEST).read_text() == "k\n"
    assert core.owned(tmp_path / "c" / "bench") == {"k"}
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["bench", "not-an-area"]
    assert not (tmp_path / "c" / "not-an-area" / core.MANIFEST).exists()
    (tmp_path / "c" / "bench" / core.MANIFEST).write_text("k\n../../escape\n/abs\n\n")
    assert core.owned(tmp_path / "c" / "bench") == {"k"}  # nothing outside the area


def _cc():
    return core.c_compiler() or pytest.skip("no C compiler")


def test_a_build_is_logged_once_and_placed_whole(monkeypatch, tmp_path, caplog):
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path))
    cc = _cc()
    src = tmp_path / "x.c"
    src.write_text("int fl_x(void) { return 7; }\n")
    out = core.folder("bench") / "k" / "x.so"
    seen = []

    def command(tmp):
        seen.append(tmp)
        return [cc, "-shared", "-fPIC", src, "-o", tmp]

    with caplog.at_level(logging.INFO, logger="fastlaunch"):
        assert core.build("bench", out, command) == out
        assert core.build("bench", out, command) == out  # there: not built again
    assert len(seen) == 1 and seen[0].parent == out.parent and seen[0] != out
    assert not seen[0].exists() and out.is_file()
    (line,) = [r.getMessage() for r in caplog.records if r.name.startswith("fastlaunch")]
    assert re.fullmatch(rf"fastlaunch: bench built {re.escape(str(out))} in \d+\.\d s", line)
    assert core.row("bench") == f"1 build cached in {tmp_path / 'bench'}; this process: " \
                                  f"found {out}"


def test_a_failed_build_raises_with_the_compiler_output(monkeypatch, tmp_path, caplog):
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path))
    cc = _cc()
    src = tmp_path / "bad.c"
    src.write_text("this is not C\n")
    out = core.folder("bench") / "bad.so"
    with caplog.at_level(logging.WARNING, logger="fastlaunch"), \
            pytest.raises(core.BuildFailed, match=r"failed:\n.*bad\.c"):
        core.build("bench", out, lambda tmp: [cc, "-shared", src, "-o", tmp])
    assert not out.exists() and list(out.parent.glob("tmp*")) == []
    assert core.row("bench").endswith("this process: build failed (exit 1)")
    assert [r.getMessage() for r in caplog.records if r.name.startswith("fastlaunch")] == [
        "fastlaunch: bench build of bad.so failed (exit 1)"]


def test_verbose_build_shows_the_compiler_output(monkeypatch, tmp_path, capfd):
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path))
    cc = _cc()
    src = tmp_path / "w.c"
    src.write_text('#warning "fastlaunch-visible"\nint fl_w(void) { return 1; }\n')
    with config.override(verbose_build=True):
        core.build("bench", core.folder("bench") / "w.so",
                     lambda tmp: [cc, "-shared", "-fPIC", src, "-o", tmp])
    assert "fastlaunch-visible" in capfd.readouterr().err
    with config.override(verbose_build=False):
        core.build("bench", core.folder("bench") / "w2.so",
                     lambda tmp: [cc, "-shared", "-fPIC", src, "-o", tmp])
    assert "fastlaunch-visible" not in capfd.readouterr().err


def test_install_time_shims_are_looked_for_where_cmake_installs_them():
    """CMake installs _core into fastlaunch/runtime and the shims built at install
    into fastlaunch/torch_shims: the helper must look there (it looked in
    fastlaunch/runtime/torch_shims, so an install-time build was never used)."""
    from fastlaunch.runtime import _core

    text = (ROOT / "CMakeLists.txt").read_text()
    into = re.search(r"install\(TARGETS _core DESTINATION (\S+)\)", text).group(1)
    shipped = re.search(r"install\(DIRECTORY \$\{FASTLAUNCH_SHIM_DIR\}/ DESTINATION (\S+)",
                        text).group(1)
    package = Path(_core.__file__).resolve().parents[len(Path(into).parts)]
    assert shims.installed_root() == package / shipped


def test_the_cuda_flags_follow_the_installed_torch(monkeypatch, tmp_path):
    """One rule for every build place: a ``cuda`` shim is compiled with the define
    and linked against libtorch_cuda only where torch has CUDA; the flags are in
    the key, and the child gets them from its command line."""
    pytest.importorskip("torch")
    monkeypatch.delenv(shims.SHIM_FLAGS_VAR, raising=False)  # tox -e asan sets it
    monkeypatch.setattr(shims, "cuda_include_dirs", lambda: ())  # CUDA's headers: below
    aten, accessor = registry.ATEN_OPS, registry.TORCH_ACCESSOR
    keys = {}
    for has_cuda in (False, True):
        monkeypatch.setattr(shims, "torch_has_cuda", lambda has_cuda=has_cuda: has_cuda)
        assert shims.flags(accessor) == (accessor.cflags, ())
        keys[has_cuda] = shims.key(aten), shims.key(accessor)
    assert shims.flags(aten) == ((*aten.cflags, "-DFASTLAUNCH_TORCH_CUDA"),
                                       ("-ltorch_cuda",))
    assert keys[False][0] != keys[True][0] and keys[False][1] == keys[True][1]

    commands, compiled = [], []

    class Child:
        pid = 1

        def __init__(self, command, **_):
            commands.append(command)

        def wait(self, timeout=None):
            return 1

    monkeypatch.setattr(shims.subprocess, "Popen", Child)
    why = shims.run_build(aten, tmp_path / "k" / "x.so", idle=False, progress=print)
    assert why.startswith("build failed (exit 1)")
    monkeypatch.setattr(shims, "compile_into",
                        lambda *args, **kwargs: compiled.append((args, kwargs)))
    assert builds_main([str(part) for part in commands[0][3:]]) == 0
    (args, kwargs), = compiled
    assert list(args[2]) == [*aten.cflags, "-DFASTLAUNCH_TORCH_CUDA"]
    assert kwargs == {"ldflags": ["-ltorch_cuda"], "verbose": False, "lock_fd": None}


def _headers(root, names, version=13000):
    """Empty headers named ``names`` under ``root``, cuda_runtime_api.h defining
    CUDART_VERSION ``version`` as CUDA's does."""
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        text = f"#define CUDART_VERSION  {version}\n" if name == "cuda_runtime_api.h" else ""
        (root / name).write_text(text)
    return root


def test_the_cublaslt_tier_is_built_where_cudas_headers_are(monkeypatch, tmp_path):
    """A CUDA torch's ATen shim gets the cuBLASLt tier's define and CUDA's include
    folders when every header the tier includes is found: in the nvidia wheels torch
    depends on (their own CUDA), else in the toolkit; with one missing, none (the
    shim builds without the tier), and the flags are in the key."""
    torch = pytest.importorskip("torch")
    monkeypatch.delenv(shims.SHIM_FLAGS_VAR, raising=False)
    monkeypatch.setattr(shims, "torch_has_cuda", lambda: True)
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    wheels = tmp_path / "site" / "nvidia"
    _headers(wheels / "cu13" / "include", shims.CUDA_HEADERS[:-1])
    (wheels / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "nvidia", raising=False)
    toolkit = _headers(tmp_path / "cuda" / "include", shims.CUDA_HEADERS)
    monkeypatch.setenv("CUDA_HOME", str(toolkit.parent))
    monkeypatch.delenv("CUDA_PATH", raising=False)
    aten = registry.ATEN_OPS
    base = (*aten.cflags, "-DFASTLAUNCH_TORCH_CUDA")
    assert shims.cuda_include_dirs() == (str(toolkit),)  # the wheels lack cusolverDn.h
    assert shims.flags(aten)[0] == (*base, "-DFASTLAUNCH_CUBLASLT", f"-I{toolkit}")
    toolkit_key = shims.key(aten)
    _headers(wheels / "cu13" / "include", shims.CUDA_HEADERS[-1:])
    assert shims.cuda_include_dirs() == (str(wheels / "cu13" / "include"),)
    assert shims.key(aten) != toolkit_key
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "nowhere"))
    (wheels / "cu13" / "include" / "cublasLt.h").unlink()
    assert shims.cuda_include_dirs() == ()
    assert shims.flags(aten) == (base, ("-ltorch_cuda",))


def test_the_cublaslt_tier_needs_headers_of_torchs_cuda_major(monkeypatch, tmp_path):
    """The headers' CUDA_VERSION (cuda.h's, else cuda_runtime_api.h's
    CUDART_VERSION) against torch.version.cuda: another major version, or none
    written, leaves the tier out (the shim still builds, the key changes) and says
    why; the same major with another minor keeps it."""
    torch = pytest.importorskip("torch")
    monkeypatch.delenv(shims.SHIM_FLAGS_VAR, raising=False)
    monkeypatch.setattr(shims, "torch_has_cuda", lambda: True)
    toolkit = _headers(tmp_path / "cuda" / "include", shims.CUDA_HEADERS, version=12060)
    monkeypatch.setattr(shims, "cuda_include_dirs", lambda: (str(toolkit),))
    aten = registry.ATEN_OPS
    base = (*aten.cflags, "-DFASTLAUNCH_TORCH_CUDA")
    with_tier = (*base, "-DFASTLAUNCH_CUBLASLT", f"-I{toolkit}")

    monkeypatch.setattr(torch.version, "cuda", "12.8")
    assert shims.cuda_headers_version([str(toolkit)]) == 12060
    assert shims.cublaslt_headers() == ((str(toolkit),), "")
    assert shims.flags(aten)[0] == with_tier
    same_major = shims.key(aten)

    monkeypatch.setattr(torch.version, "cuda", "13.0")
    assert shims.cublaslt_headers() == ((), f"the CUDA headers in {toolkit} are CUDA 12.6, "
                                        "torch was built with CUDA 13.0")
    assert shims.flags(aten) == (base, ("-ltorch_cuda",))
    assert shims.key(aten) != same_major

    (toolkit / "cuda.h").write_text("#pragma once\n#define CUDA_VERSION 13020\n")
    assert shims.cuda_headers_version([str(toolkit)]) == 13020  # cuda.h's first
    assert shims.flags(aten)[0] == with_tier

    (toolkit / "cuda.h").unlink()
    (toolkit / "cuda_runtime_api.h").write_text("")
    assert shims.cuda_headers_version([str(toolkit)]) is None
    assert shims.cublaslt_headers() == ((), f"the CUDA headers in {toolkit} name no "
                                        "CUDA_VERSION")
    assert shims.flags(aten) == (base, ("-ltorch_cuda",))
    monkeypatch.setattr(shims, "cuda_include_dirs", lambda: ())
    assert shims.cublaslt_headers()[1].startswith("CUDA's headers not found")


def test_missing_cuda_headers_are_named_with_the_wheels_that_add_them(monkeypatch, tmp_path):
    """A torch from pip has CUDA's runtime and library headers in its nvidia
    wheels, but not crt/ and nv/target, which ATen's CUDA headers include: the
    reason names them and the wheels of torch's CUDA version that hold them."""
    torch = pytest.importorskip("torch")
    wheel = tmp_path / "nvidia" / "cu13" / "include"
    for header in shims.CUDA_HEADERS:
        if header not in ("crt/host_defines.h", "nv/target"):
            (wheel / header).parent.mkdir(parents=True, exist_ok=True)
            (wheel / header).write_text("")
    monkeypatch.setattr(shims, "_wheel_include_dirs", lambda: [wheel])
    monkeypatch.setattr(shims, "cuda_include_dirs", lambda: ())
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    assert shims.cublaslt_headers() == ((), (
        "CUDA's headers not found (crt/host_defines.h, nv/target missing from the nvidia "
        "wheels, and no toolkit at CUDA_HOME, CUDA_PATH or /usr/local/cuda holds them all); "
        "`pip install 'nvidia-cuda-crt==13.0.*' 'nvidia-cuda-cccl==13.0.*'` adds them"))
    assert shims.header_wheels("12.8") == ("nvidia-cuda-nvcc-cu12==12.8.*",
                                           "nvidia-cuda-cccl-cu12==12.8.*")
    assert shims.header_wheels("11.8") == ()


def test_doctors_aten_ops_row_says_why_the_cublaslt_tier_is_left_out(monkeypatch, tmp_path):
    """A loaded ATen shim of a CUDA torch built without the tier: its row (doctor's,
    ``aten_ops.status()``) adds why; with the tier, the row adds nothing."""
    torch = pytest.importorskip("torch")
    from fastlaunch.runtime import aten_ops

    class Loaded:
        built = False

        def cublaslt(self):
            return self.built, {}, {}

    loaded = Loaded()
    monkeypatch.setattr(aten_ops, "_module", [loaded])
    monkeypatch.setattr(shims, "torch_has_cuda", lambda: True)
    toolkit = _headers(tmp_path / "cuda" / "include", shims.CUDA_HEADERS, version=12080)
    monkeypatch.setattr(shims, "cuda_include_dirs", lambda: (str(toolkit),))
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    owner = dataclasses.replace(aten_ops.OWNER, loaded=lambda: True)
    row = owner.status()
    assert row.active
    assert row.endswith(f"; without the cuBLASLt tier: the CUDA headers in {toolkit} are "
                        "CUDA 12.8, torch was built with CUDA 13.0"), row
    loaded.built = True
    assert "cuBLASLt" not in owner.status()


def test_shim_flags_from_the_environment_reach_compiler_linker_and_key(monkeypatch, tmp_path):
    """tox -e asan builds the torch shims instrumented: FASTLAUNCH_SHIM_FLAGS is split
    as a shell would, goes to the compiler and the linker (the child gets both on its
    command line), and changes the key, so such a build never stands in for a plain one."""
    pytest.importorskip("torch")
    monkeypatch.setattr(shims, "torch_has_cuda", lambda: False)
    accessor = registry.TORCH_ACCESSOR
    monkeypatch.delenv(shims.SHIM_FLAGS_VAR, raising=False)
    plain = shims.key(accessor)
    monkeypatch.setenv(shims.SHIM_FLAGS_VAR, "-fsanitize=address,undefined '-DNAME=a b'")
    extra = ("-fsanitize=address,undefined", "-DNAME=a b")
    assert shims.flags(accessor) == ((*accessor.cflags, *extra), extra)
    assert shims.key(accessor) != plain
    commands, compiled = [], []

    class Child:
        pid = 1

        def __init__(self, command, **_):
            commands.append(command)

        def wait(self, timeout=None):
            return 1

    monkeypatch.setattr(shims.subprocess, "Popen", Child)
    shims.run_build(accessor, tmp_path / "k" / "x.so", idle=False, progress=print)
    monkeypatch.setattr(shims, "compile_into",
                        lambda *args, **kwargs: compiled.append((args, kwargs)))
    monkeypatch.delenv(shims.SHIM_FLAGS_VAR)  # the child reads its command line only
    assert builds_main([str(part) for part in commands[0][3:]]) == 0
    (args, kwargs), = compiled
    assert list(args[2]) == [*accessor.cflags, *extra]
    assert kwargs == {"ldflags": list(extra), "verbose": False, "lock_fd": None}


def test_a_shims_key_covers_the_csrc_headers_it_includes(monkeypatch, tmp_path):
    """A shim including ``core/...`` (csrc/ is on its include path) is rebuilt when
    that header changes; a source including none keeps the digest of its bytes (the
    key of builds made before headers counted)."""
    import hashlib

    (tmp_path / "core").mkdir()
    (tmp_path / "shims").mkdir()
    (tmp_path / "core" / "a.h").write_text('#pragma once\n#include "core/b.h"\n')
    (tmp_path / "core" / "b.h").write_text("#pragma once\nint b = 1;\n")
    plain = tmp_path / "shims" / "plain.cpp"
    plain.write_text('#include <torch/extension.h>\n#include "torch_npu/x.h"\n')
    assert core.digest(plain) == hashlib.sha256(plain.read_bytes()).hexdigest()
    shim = tmp_path / "shims" / "s.cpp"
    shim.write_text('#include "core/a.h"\n')
    before = core.digest(shim)
    (tmp_path / "core" / "b.h").write_text("#pragma once\nint b = 2;\n")  # included by a.h
    assert core.digest(shim) != before


def test_one_key_formula_keeps_the_shims_key_folders():
    """core.key is the formula the torch shims' keys had (NUL-joined parts, no
    trailing NUL): a warm cache of the previous version is found as it is."""
    import hashlib

    assert core.key("2.13.0", b"\x00raw", "x") == hashlib.sha256(
        b"2.13.0\0\x00raw\0x").hexdigest()[:16]
