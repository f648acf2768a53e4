# SPDX-License-Identifier: Apache-2.0
from pathlib import Path

import pytest

from fastlaunch import config


@pytest.mark.parametrize("raw", ["1", "true", "YES", " on ", "y", "True"])
def test_truthy(raw):
    cfg = config.from_environ({"FASTLAUNCH": raw})
    assert cfg.enabled and cfg.enabled_by == "FASTLAUNCH"


@pytest.mark.parametrize("raw", ["0", "false", "off", "", "no"])
def test_falsy(raw):
    assert not config.from_environ({"FASTLAUNCH": raw}).enabled


def test_unrecognised_value_warns_and_means_off():
    with pytest.warns(RuntimeWarning, match="FASTLAUNCH='maybe' is not a boolean"):
        assert not config.from_environ({"FASTLAUNCH": "maybe"}).enabled


def test_npu_switch_is_accepted():
    cfg = config.from_environ({"TORCHINDUCTOR_NPU_FAST_LAUNCH": "1"})
    assert cfg.enabled and cfg.enabled_by == "TORCHINDUCTOR_NPU_FAST_LAUNCH"
    assert not config.from_environ({}).enabled


def test_backend_strict_and_npu_impl():
    cfg = config.from_environ({"FASTLAUNCH_BACKEND": " CUDA ", "FASTLAUNCH_STRICT": "1",
                               "FASTLAUNCH_NPU_IMPL": "torch_npu",
                               "FASTLAUNCH_CANN_LIBRARIES": "/a/libx.so:/b/liby.so"})
    assert (cfg.backend, cfg.strict, cfg.npu_impl) == ("cuda", True, "torch_npu")
    assert cfg.cann_libraries == ("/a/libx.so", "/b/liby.so")
    with pytest.warns(RuntimeWarning, match="FASTLAUNCH_BACKEND"):
        assert config.from_environ({"FASTLAUNCH_BACKEND": "tpu"}).backend == "auto"


def test_read_once_and_override():
    first = config.get()
    assert config.get() is first
    with config.override(strict=True) as cfg:
        assert config.get() is cfg and cfg.strict
    assert config.get() is first


@pytest.mark.parametrize(("env", "on", "by"), [
    ({"FASTLAUNCH": "0", "TORCHINDUCTOR_NPU_FAST_LAUNCH": "1"}, False, ""),
    ({"FASTLAUNCH": "1", "TORCHINDUCTOR_NPU_FAST_LAUNCH": "0"}, True, "FASTLAUNCH"),
    ({"FASTLAUNCH": "", "TORCHINDUCTOR_NPU_FAST_LAUNCH": "1"}, True,
     "TORCHINDUCTOR_NPU_FAST_LAUNCH"),
    ({"TORCHINDUCTOR_NPU_FAST_LAUNCH": "0"}, False, ""),
])
def test_explicit_fastlaunch_value_wins(env, on, by):
    cfg = config.from_environ(env)
    assert (cfg.enabled, cfg.enabled_by) == (on, by)
    if env.get("FASTLAUNCH"):
        assert dict((n, m) for n, _, m in cfg.parsed)["TORCHINDUCTOR_NPU_FAST_LAUNCH"].endswith(
            "(ignored: FASTLAUNCH decides)")


def test_every_variable_read_is_listed():
    """doctor lists config.VARIABLES: every FASTLAUNCH_* name the sources read is there."""
    import re
    from pathlib import Path

    import fastlaunch

    root = Path(fastlaunch.__file__).parent
    read = set()
    for path in root.rglob("*.py"):
        read |= set(re.findall(r"['\"]((?:FASTLAUNCH|TORCHINDUCTOR_NPU_FAST_LAUNCH)\w*)['\"]",
                               path.read_text()))
    assert read <= {name for name, _ in config.VARIABLES}, read - {n for n, _ in config.VARIABLES}


@pytest.mark.parametrize(("env", "expected"), [
    ({"FASTLAUNCH_CACHE_DIR": "/c"}, "/c"),
    ({"FASTLAUNCH_CACHE_DIR": "", "XDG_CACHE_HOME": "/x"}, "/x/fastlaunch"),
    ({"FASTLAUNCH_CACHE_DIR": "  ", "XDG_CACHE_HOME": ""}, "~/.cache/fastlaunch"),
    ({}, "~/.cache/fastlaunch"),
])
def test_cache_dir_treats_empty_as_unset(monkeypatch, env, expected):
    for name in ("FASTLAUNCH_CACHE_DIR", "XDG_CACHE_HOME", "FASTLAUNCH_WHEEL_CACHE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert config.cache_dir() == Path(expected).expanduser()
    assert config.wheel_cache() == Path(expected).expanduser() / "wheels"
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", "/w")
    assert config.wheel_cache() == Path("/w")


def test_cache_folders_expand_home_and_read_a_relative_path_once(monkeypatch, tmp_path):
    """Issue 27 item 8: `~` and relative paths were used literally (a folder named
    `~` in the working directory, and one that moved with every chdir)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("FASTLAUNCH_WHEEL_CACHE", raising=False)
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", f"~/fl-{tmp_path.name}")
    assert config.cache_dir() == tmp_path / "home" / f"fl-{tmp_path.name}"
    assert config.from_environ().cache_dir == config.cache_dir()  # what doctor shows
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    relative = f"rel-{tmp_path.name}/cache"  # a value not read before in this process
    monkeypatch.setenv("FASTLAUNCH_CACHE_DIR", relative)
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", relative + "-wheels")
    assert config.cache_dir() == tmp_path / relative
    assert config.wheel_cache() == tmp_path / (relative + "-wheels")
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert config.cache_dir() == tmp_path / relative  # taken once, never moved by chdir
    assert config.wheel_cache() == tmp_path / (relative + "-wheels")
    monkeypatch.delenv("FASTLAUNCH_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative-xdg")  # invalid by the XDG rule: ignored
    assert config.cache_dir() == tmp_path / "home" / ".cache" / "fastlaunch"


def test_every_user_variable_is_a_parsed_config_field():
    """Each variable of VARIABLES is parsed into Config (doctor shows the meaning),
    except the test-only and child-protocol ones, which are named as such."""
    both = {"FASTLAUNCH": "1", "TORCHINDUCTOR_NPU_FAST_LAUNCH": "1"}  # listed only when set
    parsed = {name for name, _, _ in config.from_environ(both).parsed}
    listed = {name for name, _ in config.VARIABLES}
    assert listed - parsed == set(config.OUTSIDE_CONFIG)
    assert parsed <= listed


@pytest.mark.parametrize(("env", "field", "value"), [
    ({}, "torch_accessor", True),
    ({"FASTLAUNCH_TORCH_ACCESSOR": ""}, "torch_accessor", True),
    ({"FASTLAUNCH_TORCH_ACCESSOR": "0"}, "torch_accessor", False),
    ({}, "verbose_build", False),
    ({"FASTLAUNCH_VERBOSE_BUILD": "yes"}, "verbose_build", True),
    ({"FASTLAUNCH_CACHE_DIR": "/c"}, "cache_dir", Path("/c")),
    ({"FASTLAUNCH_CACHE_DIR": "/c"}, "wheel_cache", Path("/c/wheels")),
    ({"FASTLAUNCH_WHEEL_CACHE": "/w"}, "wheel_cache", Path("/w")),
    ({"FASTLAUNCH_CANN_LIBRARIES": "/a.so:/b.so"}, "cann_libraries", ("/a.so", "/b.so")),
])
def test_typed_fields(env, field, value):
    assert getattr(config.from_environ(env), field) == value


def test_a_bad_switch_value_names_the_variable():
    with pytest.warns(RuntimeWarning, match="FASTLAUNCH_TORCH_ACCESSOR='maybe' is not a boolean"):
        assert config.from_environ({"FASTLAUNCH_TORCH_ACCESSOR": "maybe"}).torch_accessor is False
