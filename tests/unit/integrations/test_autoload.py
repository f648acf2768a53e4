# SPDX-License-Identifier: Apache-2.0
"""Activation: the torch.backends entry point and installs after import."""

from __future__ import annotations

import os
import subprocess
import sys
import types

import pytest

from fastlaunch import config
from fastlaunch.integrations import autoload


def test_importing_fastlaunch_does_not_import_torch():
    code = ("import sys, fastlaunch, fastlaunch.integrations.autoload, fastlaunch.engine.routing, "
            "fastlaunch.integrations.torch_npu.integration, "
            "fastlaunch.integrations.inductor.integration; sys.exit('torch' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_entry_point_is_registered():
    from importlib.metadata import entry_points

    eps = entry_points()
    group = eps.select(group="torch.backends") if hasattr(eps, "select") else eps.get(
        "torch.backends", ())  # Python 3.9: a dict of groups
    found = [e for e in group if e.name == "fastlaunch"]
    assert [e.value for e in found] == ["fastlaunch.integrations.autoload:autoload"]


@pytest.fixture
def fake_integration(monkeypatch, tmp_path):
    """A package ``flfake`` with two modules and an integration that patches them."""
    pkg = tmp_path / "flfake"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "wrapper.py").write_text("class Codegen:\n    pass\n")
    (pkg / "heuristics.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    installs = []
    integration = types.ModuleType("fastlaunch.integrations.flfake.integration")
    integration.install = lambda: installs.append(sorted(m for m in sys.modules
                                                         if m.startswith("flfake")))
    integration.installed = lambda: bool(installs)
    monkeypatch.setitem(sys.modules, "fastlaunch.integrations.flfake.integration", integration)
    monkeypatch.setitem(autoload.TARGETS, "flfake", ("flfake.wrapper", "flfake.heuristics"))
    yield installs
    autoload._pending.pop("flfake", None)
    autoload._results.pop("flfake", None)
    for name in [m for m in sys.modules if m.startswith("flfake")]:
        del sys.modules[name]


def test_install_waits_for_every_target_module(fake_integration):
    autoload.watch(("flfake",))
    assert fake_integration == [] and "waiting" in autoload.status()["flfake"]
    import flfake.wrapper

    assert fake_integration == []
    import flfake.heuristics  # noqa: F401

    assert fake_integration == [["flfake", "flfake.heuristics", "flfake.wrapper"]]
    assert autoload.status()["flfake"] == "installed"


def test_target_importing_the_other_target_midway(fake_integration, tmp_path, monkeypatch):
    """The wrapper imports the heuristics before it defines what the integration needs
    (as Inductor's wrapper does): install waits until the wrapper has finished."""
    (tmp_path / "flfake" / "wrapper.py").write_text("import flfake.heuristics\n"
                                                    "class Codegen:\n    pass\n")
    integration = sys.modules["fastlaunch.integrations.flfake.integration"]

    def install():
        from flfake.wrapper import Codegen  # fails on a partially initialised module

        fake_integration.append(Codegen.__name__)

    monkeypatch.setattr(integration, "install", install)
    autoload.watch(("flfake",))
    import flfake.wrapper  # noqa: F401

    assert fake_integration == ["Codegen"] and autoload.status()["flfake"] == "installed"


def test_watch_armed_while_a_target_executes_retries(fake_integration, tmp_path, monkeypatch):
    """The hook runs while the wrapper is executing (imported before fastlaunch armed):
    the install waits, then happens on the next import."""
    (tmp_path / "flfake" / "wrapper.py").write_text(
        "import flfake.heuristics\n"
        "from fastlaunch.integrations import autoload\n"
        "autoload.watch(('flfake',))\n"
        "class Codegen:\n    pass\n")
    (tmp_path / "flfake" / "later.py").write_text("")
    integration = sys.modules["fastlaunch.integrations.flfake.integration"]

    def install():
        from flfake.wrapper import Codegen

        fake_integration.append(Codegen.__name__)

    monkeypatch.setattr(integration, "install", install)
    import flfake.wrapper

    assert fake_integration == [] and "waiting" in autoload.status()["flfake"]
    import flfake.later  # noqa: F401

    assert fake_integration == ["Codegen"] and autoload.status()["flfake"] == "installed"


def test_inductor_wrapper_imported_first_still_installs():
    pytest.importorskip("torch", reason="needs torch to import Inductor's wrapper first")
    code = ("from torch._inductor.codegen.wrapper import PythonWrapperCodegen\n"
            "import torch._inductor.config\n"
            "from fastlaunch.integrations import autoload\n"
            "print(autoload.status()['cuda'])\n")
    env = {**os.environ, "FASTLAUNCH": "1", "FASTLAUNCH_BACKEND": "cuda"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    assert out.stdout.strip() == "installed", out.stderr


def test_install_at_once_when_already_imported(fake_integration):
    import flfake.heuristics
    import flfake.wrapper  # noqa: F401

    autoload.watch(("flfake",))
    assert len(fake_integration) == 1


def test_failed_install_is_reported_not_raised(fake_integration, monkeypatch):
    def broken():
        msg = "unsupported torch_npu: x missing"
        raise RuntimeError(msg)

    module = sys.modules["fastlaunch.integrations.flfake.integration"]
    monkeypatch.setattr(module, "install", broken)
    import flfake.heuristics
    import flfake.wrapper  # noqa: F401

    autoload.watch(("flfake",))
    assert autoload.status()["flfake"].startswith("not installed: RuntimeError: unsupported")


def test_after_import_callback(tmp_path, monkeypatch):
    (tmp_path / "flcfg.py").write_text("enable_fast_launch = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    autoload.after_import("flcfg", lambda m: seen.append(m.enable_fast_launch))
    import flcfg  # noqa: F401

    assert seen == [True]
    del sys.modules["flcfg"]


def test_autoload_does_nothing_when_disabled(monkeypatch):
    calls = []
    monkeypatch.setattr(autoload, "watch", lambda names: calls.append(names))
    monkeypatch.setattr(autoload, "_results", {})  # no integration an earlier test installed
    with config.override(enabled=False):
        autoload.autoload()
    assert calls == []
    with config.override(enabled=True, backend="cuda"):
        autoload.autoload()
    assert calls == [("cuda",)]


def test_explicit_off_also_turns_torch_npu_in_tree_fast_launch_off(tmp_path):
    """FASTLAUNCH=0 wins over TORCHINDUCTOR_NPU_FAST_LAUNCH=1, which torch_npu reads itself."""
    config_dir = tmp_path / "torch_npu" / "_inductor"
    config_dir.mkdir(parents=True)
    (tmp_path / "torch_npu" / "__init__.py").write_text("")
    (config_dir / "__init__.py").write_text("")
    (config_dir / "config.py").write_text(
        "import os\nenable_fast_launch = os.environ.get('TORCHINDUCTOR_NPU_FAST_LAUNCH') == '1'\n")
    code = ("from fastlaunch.integrations import autoload\n"
            "autoload.autoload()\n"
            "import torch_npu._inductor.config as c\n"
            "print(c.enable_fast_launch)\n")
    for fastlaunch_value, expected in (("0", "False"), ("", "True")):
        env = {**os.environ, "PYTHONPATH": str(tmp_path), "TORCHINDUCTOR_NPU_FAST_LAUNCH": "1",
               "FASTLAUNCH": fastlaunch_value, "FASTLAUNCH_NPU_IMPL": "torch_npu"}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True)
        assert out.stdout.strip() == expected, (fastlaunch_value, out.stderr)


def test_fastlaunch_on_turns_torch_npu_in_tree_fast_launch_off_and_says_which_is_used(tmp_path):
    """One implementation: with FASTLAUNCH=1 fastlaunch's; FASTLAUNCH_NPU_IMPL=torch_npu keeps
    the in-tree one (and fastlaunch's NPU integration is not installed)."""
    config_dir = tmp_path / "torch_npu" / "_inductor"
    config_dir.mkdir(parents=True)
    (tmp_path / "torch_npu" / "__init__.py").write_text("")
    (config_dir / "__init__.py").write_text("")
    (config_dir / "config.py").write_text("enable_fast_launch = True\n")
    code = ("from fastlaunch.integrations import autoload\n"
            "from fastlaunch.integrations.torch_npu import in_tree\n"
            "autoload.autoload()\n"
            "import torch_npu._inductor.config as c\n"
            "print(c.enable_fast_launch, in_tree.choice() or '-', autoload.status().get('npu'))\n")
    for impl, expected in (("fastlaunch", "False"),
                           ("torch_npu", "True torch_npu in-tree fast launch "
                                         "(FASTLAUNCH_NPU_IMPL=torch_npu) not installed: "
                                         "FASTLAUNCH_NPU_IMPL=torch_npu")):
        env = {**os.environ, "PYTHONPATH": str(tmp_path), "FASTLAUNCH": "1",
               "FASTLAUNCH_BACKEND": "npu", "FASTLAUNCH_NPU_IMPL": impl}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True)
        assert out.stdout.strip().startswith(expected), (impl, out.stdout, out.stderr)
