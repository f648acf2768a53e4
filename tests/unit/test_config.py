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
    ({}, "prepared_ops", True),
    ({"FASTLAUNCH_PREPARED_OPS": "0"}, "prepared_ops", False),
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
        assert config.from_environ({"FASTLAUNCH_TORCH_ACCESSOR": "maybe"}).torch_accessor is True


BOOLEANS = "['1', 'on', 'true', 'y', 'yes'] or ['0', 'false', 'n', 'no', 'off']"


@pytest.mark.parametrize(("name", "field", "default", "accepted"), [
    ("FASTLAUNCH", "enabled", "off", BOOLEANS),
    ("TORCHINDUCTOR_NPU_FAST_LAUNCH", "enabled", "off", BOOLEANS),
    ("FASTLAUNCH_STRICT", "strict", "off", BOOLEANS),
    ("FASTLAUNCH_VERBOSE_BUILD", "verbose_build", "off", BOOLEANS),
    ("FASTLAUNCH_PLANNED_CALL", "planned_call", "on", BOOLEANS),
    ("FASTLAUNCH_PREPARED_OPS", "prepared_ops", "on", BOOLEANS),
    ("FASTLAUNCH_TORCH_ACCESSOR", "torch_accessor", "on", BOOLEANS),
    ("FASTLAUNCH_BACKEND", "backend", "'auto'", "['auto', 'npu', 'cuda', 'fake']"),
    ("FASTLAUNCH_NPU_IMPL", "npu_impl", "'fastlaunch'", "['fastlaunch', 'torch_npu']"),
])
def test_a_junk_value_keeps_the_default_and_says_so(name, field, default, accepted):
    """One rule for every switch: a value it does not know means what unset means,
    with a warning naming the variable, the value, what it accepts and the default."""
    unset = getattr(config.from_environ({}), field)
    with pytest.warns(RuntimeWarning) as record:
        junk = config.from_environ({name: "perhaps"})
    assert getattr(junk, field) == unset
    assert [str(w.message) for w in record] == [
        f"{name}='perhaps' is not "
        f"{'a boolean (expected one of' if accepted == BOOLEANS else 'one of'} {accepted}"
        f"{')' if accepted == BOOLEANS else ''}; keeping the default, {default}"]


def test_a_junk_fastlaunch_leaves_the_decision_to_torch_npus_switch():
    """FASTLAUNCH='perhaps' counts as unset: TORCHINDUCTOR_NPU_FAST_LAUNCH decides."""
    with pytest.warns(RuntimeWarning, match="FASTLAUNCH='perhaps' is not a boolean"):
        cfg = config.from_environ({"FASTLAUNCH": "perhaps", "TORCHINDUCTOR_NPU_FAST_LAUNCH": "1"})
    assert (cfg.enabled, cfg.enabled_by) == (True, "TORCHINDUCTOR_NPU_FAST_LAUNCH")
    assert dict((n, m) for n, _, m in cfg.parsed)["FASTLAUNCH"] == "not a boolean: as if unset"


def _read_config_here():
    return config.from_environ({"FASTLAUNCH_PLANNED_CALL": "perhaps"})  # the warning's line


def test_a_switch_warning_points_at_the_callers_line():
    with pytest.warns(RuntimeWarning, match="FASTLAUNCH_PLANNED_CALL") as record:
        _read_config_here()
    line = _read_config_here.__code__.co_firstlineno + 1
    assert [(w.filename, w.lineno) for w in record] == [(__file__, line)]


USER_PROGRAM = """\
import importlib.util, json, os, sys, warnings
spec = importlib.util.spec_from_file_location("fastlaunch_config", sys.argv[1])
config = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = config
spec.loader.exec_module(config)
os.environ["FASTLAUNCH_BACKEND"] = "tpu"
with warnings.catch_warnings(record=True) as record:
    warnings.simplefilter("always")
    config.get()
print(json.dumps([[w.filename, w.lineno] for w in record]))
"""


def _interpreters():
    """This Python, and the others of the machine across 3.12 (skip_file_prefixes)."""
    import sys

    return [pytest.param(sys.executable, id="this"),
            *(pytest.param(f"python{version}", id=version)
              for version in ("3.9", "3.10", "3.11", "3.12", "3.13"))]


@pytest.mark.parametrize("python", _interpreters())
def test_a_switch_warning_points_at_the_user_line_on_each_python(tmp_path, python):
    """Through config.get() (three of fastlaunch's frames) the warning names the
    user's line, on Pythons before 3.12 (stacklevel counted) and after (skip_file_prefixes)."""
    import json
    import shutil
    import subprocess

    path = shutil.which(python)
    runs = path is not None and subprocess.run([path, "-c", "pass"], capture_output=True,
                                               timeout=60, check=False).returncode == 0
    if not runs:
        pytest.skip(f"{python} is not installed here (or does not run)")
    program = tmp_path / "program.py"
    program.write_text(USER_PROGRAM)
    done = subprocess.run([path, str(program), config.__file__], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[str(program), 9]]


def test_a_switch_warning_during_import_torch_names_the_import_line(tmp_path):
    """The variables are first read by the torch.backends entry point, inside
    ``import torch``: the warning names that line, not torch's or fastlaunch's."""
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: its entry point cannot read the variables")
    program = tmp_path / "program.py"
    program.write_text("import warnings\nwarnings.simplefilter('always')\nimport torch\n")
    env = {**os.environ, "FASTLAUNCH_PLANNED_CALL": "perhaps"}
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{program}:3: RuntimeWarning: FASTLAUNCH_PLANNED_CALL='perhaps'" in done.stderr, \
        done.stderr


def test_the_readme_names_the_cache_folder_rule_config_applies():
    """README's default cache folder is the one cache_dir() computes (the test above):
    FASTLAUNCH_CACHE_DIR, else $XDG_CACHE_HOME/fastlaunch, else ~/.cache/fastlaunch."""
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())
    assert ("the cache folder is `FASTLAUNCH_CACHE_DIR`, else `$XDG_CACHE_HOME/fastlaunch`, "
            "else `~/.cache/fastlaunch`") in readme
    assert "`~/.cache/fastlaunch/wheels`" not in readme  # the wheels follow the cache folder
