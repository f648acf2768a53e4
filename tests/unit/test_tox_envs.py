# SPDX-License-Identifier: Apache-2.0
"""tox.ini: the hardware env tests the machine's own stack, and every env shares
the user's wheel cache with ``selfcheck``."""

from __future__ import annotations

import configparser
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fastlaunch import config

TOX_INI = Path(__file__).resolve().parents[2] / "tox.ini"


def _ini() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(TOX_INI)
    return parser


def _value(ini: configparser.ConfigParser, env: str, key: str) -> str:
    """What tox reads for ``key`` in ``env``: its own value, else [testenv]'s."""
    section = f"testenv:{env}"
    if ini.has_option(section, key):
        return ini.get(section, key)
    return ini.get("testenv", key, fallback="")


def test_hw_env_installs_no_torch_of_its_own():
    ini = _ini()
    assert ini.getboolean("testenv:hw", "sitepackages")
    deps = [line for line in _value(ini, "hw", "deps").splitlines() if line.strip()]
    assert deps == [], f"testenv:hw would install {deps} over the machine's own stack"
    assert "torch" in _value(ini, "py", "deps")  # the CPU env keeps its pin


@pytest.mark.skipif(importlib.util.find_spec("tox") is None, reason="tox is not installed")
def test_hw_env_as_tox_resolves_it():
    done = subprocess.run([sys.executable, "-m", "tox", "config", "-e", "hw", "-k", "deps",
                           "system_site_packages", "--root", str(TOX_INI.parent)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^deps =\s*$", done.stdout, re.M), done.stdout
    assert "system_site_packages = True" in done.stdout


@pytest.mark.parametrize("env", ["py", "asan", "hw"])
def test_envs_use_the_users_wheel_cache(env):
    """`selfcheck --backend fake-npu` after `tox` finds the triton-ascend wheel the tests
    downloaded: no env moves the wheel cache, and a moved one is passed through."""
    ini = _ini()
    assert "FASTLAUNCH_WHEEL_CACHE" not in _value(ini, env, "set_env")
    assert "FASTLAUNCH_WHEEL_CACHE" in _value(ini, env, "pass_env").split()


def test_tests_and_selfcheck_share_one_wheel_cache(monkeypatch, tmp_path):
    from fastlaunch.tools.selfcheck import fake_npu
    from helpers import wheels

    monkeypatch.delenv("FASTLAUNCH_WHEEL_CACHE", raising=False)
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", str(tmp_path))
    assert wheels.cache_dir() == config.wheel_cache() == tmp_path / "wheels"
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", "")
    assert config.wheel_cache() == tmp_path / "wheels"
    backend = tmp_path / "wheels" / "triton_ascend-3.2.0-backend"
    backend.mkdir()
    for name in fake_npu.BACKEND_FILES:
        (backend / name).write_text("")
    monkeypatch.setattr(fake_npu, "_installed_backend", lambda: None)
    assert fake_npu.find_backend(None)[0] == backend


def test_releases_env_is_not_in_the_default_list_and_installs_no_torch():
    """`tox -e releases` makes one environment per torch_npu release with the
    torch it pins (tests/releases/run.py); its own env must not pin one, and
    CI's `tox` must not run it (seven torches, about 4.6 GB each)."""
    ini = _ini()
    assert "releases" not in [e.strip() for e in ini.get("tox", "env_list").split(",")]
    deps = [line for line in _value(ini, "releases", "deps").splitlines() if line.strip()]
    assert deps == []
    assert _value(ini, "releases", "commands").split() == [
        "python", "tests/releases/run.py", "{posargs}"]


def test_asan_env_runs_torch_and_instrumented_shims():
    """The planned call and the ATen shim run under the sanitizers: the asan env
    installs [testenv]'s torch pin, builds the shims with the extension's
    sanitizer flags, checks they are instrumented, and preloads the runtime."""
    ini = _ini()
    torch_pin = [line.strip() for line in _value(ini, "py", "deps").splitlines()
                 if line.strip().startswith("torch")]
    assert torch_pin, "[testenv] lost its torch pin"
    deps = [line.strip() for line in _value(ini, "asan", "deps").splitlines()]
    assert set(torch_pin) <= set(deps), deps
    settings = dict(line.split("=", 1) for line in _value(ini, "asan", "set_env").splitlines()
                    if "=" in line)
    settings = {k.strip(): v.strip() for k, v in settings.items()}
    extension_flags = settings["SKBUILD_CMAKE_ARGS"].split("-DCMAKE_CXX_FLAGS=", 1)[1].split()
    shim_flags = settings["FASTLAUNCH_SHIM_FLAGS"].split()
    assert [f for f in extension_flags if f != "-O1"] == shim_flags
    commands = _value(ini, "asan", "commands")
    assert "torch_shims/*/*/*.so" in commands and "grep -q libasan" in commands
    assert commands.count("-print-file-name=libasan.so") == 2  # the install and the tests
