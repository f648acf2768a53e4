# SPDX-License-Identifier: Apache-2.0
"""The code-cache hook: which loaded modules get a PlannedCall, and what is counted."""

from __future__ import annotations

import re
import types

import pytest

torch = pytest.importorskip("torch")

import fastlaunch  # noqa: E402
from fastlaunch import config  # noqa: E402
from fastlaunch.errors import FastLaunchError  # noqa: E402
from fastlaunch.integrations import planned_call_hook  # noqa: E402
from fastlaunch.runtime import _core  # noqa: E402
from helpers import call_trace  # noqa: E402


@pytest.fixture(autouse=True)
def _counters():
    fastlaunch.reset_stats()
    yield
    fastlaunch.reset_stats()


def test_wrapper_module_gets_its_planned_call_once():
    module = call_trace.load("inductor/views.py")
    original = module.call
    assert planned_call_hook.plan_module(module)
    assert isinstance(module.call, _core.PlannedCall) and module.call.original is original
    planned = module.call
    assert planned_call_hook.plan_module(module)  # the cache hands the module out again
    assert module.call is planned
    site = planned_call_hook.site_name(module)
    assert fastlaunch.stats(per_site=True)[site] == {"call.translated": 1}


def test_modules_without_a_python_call_are_left_alone():
    kernel_module = types.ModuleType("kernel")
    assert not planned_call_hook.plan_module(kernel_module)
    cpp_wrapper = types.ModuleType("cpp_wrapper")
    cpp_wrapper.call = len  # a compiled entry point
    assert not planned_call_hook.plan_module(cpp_wrapper)
    assert cpp_wrapper.call is len
    assert fastlaunch.stats() == {"call.not_python": 1}


def _compiled_entry_stand_in(input_handles):
    """What the compiled ``inductor_entry_impl`` of the saved cpp_wrapper module
    computes (relu(x) * 2 + 1), through the same handle conversions, so the
    module loads without a C++ compile (about 90 s on this 2-core host)."""
    (x,) = torch._C._aoti.alloc_tensors_by_stealing_from_void_ptrs(input_handles)
    return torch._C._aoti.unsafe_alloc_void_ptrs_from_tensors([torch.relu(x) * 2 + 1])


@pytest.mark.parametrize("strict", [False, True])
def test_cpp_wrapper_entry_is_not_planned_by_design(monkeypatch, strict):
    """torch 2.13's cpp_wrapper writes ``call`` as a Python closure over its
    compiled entry: counted as call.not_python, no fallback, strict does not raise."""
    from torch._inductor.codecache import CppWrapperCodeCache

    asked = []
    monkeypatch.setattr(CppWrapperCodeCache, "load_pybinding",
                        lambda **kwargs: asked.append(kwargs) or _compiled_entry_stand_in)
    module = call_trace.load("cpp_wrapper/relu_scale.py")
    assert "void inductor_entry_impl(" in asked[0]["main_code"]
    call = module.call
    assert call.__qualname__ == "_wrap_func.<locals>.g"  # the closure torch writes
    with config.override(strict=strict):
        assert not planned_call_hook.plan_module(module)
    assert module.call is call
    assert fastlaunch.stats() == {"call.not_python": 1}
    x = torch.randn(8)
    (out,) = module.call([x])
    assert torch.equal(out, torch.relu(x) * 2 + 1)


def test_saved_cpp_wrapper_module_is_shaped_as_the_installed_torch_writes_it():
    """The saved module's entry is what this torch's cpp_wrapper codegen writes
    (a real compile takes about 90 s here, so the test above loads the saved one)."""
    import inspect

    from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu

    source = inspect.getsource(CppWrapperCpu._generate_end_jit)
    saved = (call_trace.WRAPPERS / "cpp_wrapper" / "relu_scale.py").read_text()
    for line in ("inductor_entry = CppWrapperCodeCache.load_pybinding(", "def _wrap_func(f):",
                 "def g(args):", "call = _wrap_func(inductor_entry)"):
        assert line in source and line in saved, line


def test_other_closures_stay_untranslatable_and_strict_raises(tmp_path):
    """A closure over anything but the module's compiled entry is code fastlaunch
    could plan and does not: a fallback, and strict mode raises."""
    path = tmp_path / "w.py"
    path.write_text("def _wrap_func(f):\n    def g(args):\n        return f(args)\n"
                    "    return g\n\n\ninductor_entry = len\ncall = _wrap_func(abs)\n")
    module = call_trace.load_file(path)
    assert not planned_call_hook.plan_module(module)
    assert fastlaunch.stats() == {"fallback.call_untranslatable": 1}
    with config.override(strict=True), pytest.raises(FastLaunchError, match="untranslatable"):
        planned_call_hook.plan_module(module)


def test_untranslatable_module_keeps_python_call_and_strict_raises(tmp_path):
    path = tmp_path / "w.py"
    path.write_text("def call(args):\n    return [i for i in args]\n")
    module = call_trace.load_file(path)
    original = module.call
    assert not planned_call_hook.plan_module(module)
    assert module.call is original
    assert fastlaunch.stats()["fallback.call_untranslatable"] == 1
    with config.override(strict=True), pytest.raises(FastLaunchError, match="untranslatable"):
        planned_call_hook.plan_module(module)


# A wrapper as torch_npu's graph-mode codegen writes it: the update plan hung on
# `call` at module level (torch_npu/_inductor/_aclgraph_update_plan/codegen.py),
# read back from the compiled callable on every replay (torch_npu/npu/_graph_tree.py).
_UPDATE_PLAN_WRAPPER = """\
\"\"\"A wrapper module.\"\"\"


def call(args):
    \"\"\"The graph.\"\"\"
    a, = args
    args.clear()
    return (a + 1,)


call._torch_npu_aclgraph_update_plan = [{"node": "fia", "inputs": [0]}]
"""


def test_planned_call_keeps_what_is_hung_on_call(tmp_path):
    path = tmp_path / "w.py"
    path.write_text(_UPDATE_PLAN_WRAPPER)
    module = call_trace.load_file(path)
    function = module.call
    update_plan = function._torch_npu_aclgraph_update_plan
    assert planned_call_hook.plan_module(module)
    planned = module.call
    assert isinstance(planned, _core.PlannedCall)
    assert planned._torch_npu_aclgraph_update_plan is update_plan
    for name in ("__name__", "__qualname__", "__module__", "__doc__", "__dict__"):
        assert getattr(planned, name) is getattr(function, name), name
    assert planned.__wrapped__ is function and planned.original is function
    assert "_torch_npu_aclgraph_update_plan" in dir(planned)
    # set later through either object, read back through both
    replaced = [{"node": "pa", "inputs": [1]}]
    planned._torch_npu_aclgraph_update_plan = replaced
    assert function._torch_npu_aclgraph_update_plan is replaced
    function.later = marker = object()
    assert planned.later is marker
    planned.__doc__ = "changed"
    assert function.__doc__ == "changed"
    del planned.later
    assert not hasattr(function, "later") and not hasattr(planned, "later")
    del function._torch_npu_aclgraph_update_plan
    assert getattr(planned, "_torch_npu_aclgraph_update_plan", None) is None
    # a missing one fails as on the function, with the function's message
    for op in (lambda f: f.missing, lambda f: delattr(f, "missing")):
        with pytest.raises(AttributeError) as python_info:
            op(function)
        with pytest.raises(AttributeError) as info:
            op(planned)
        assert str(info.value) == str(python_info.value)
    # the type's own stay its own
    with pytest.raises(AttributeError, match="not writable"):
        planned.original = None
    planned.bypass = True
    assert planned.bypass and not hasattr(function, "bypass")
    planned.bypass = False
    # and it still runs planned
    with config.override(enabled=True):
        assert planned([torch.ones(1)])[0].item() == 2
    assert fastlaunch.stats()["call.planned"] == 1


def test_bound_runner_call_reads_and_sets_its_function(tmp_path):
    path = tmp_path / "w.py"
    path.write_text("class Runner:\n    def call(self, args):\n        a, = args\n"
                    "        args.clear()\n        return (a + 1,)\n\n\n"
                    "Runner.call.tag = 'kept'\ncall = Runner().call\n")
    module = call_trace.load_file(path)
    bound = module.call
    assert planned_call_hook.plan_module(module)
    planned = module.call
    assert planned.tag == "kept" and planned.__self__ is bound.__self__
    assert planned.__func__ is bound.__func__
    planned.tag = "set"
    assert bound.__func__.tag == "set" and bound.tag == "set"
    with config.override(enabled=True):
        assert planned([torch.ones(1)])[0].item() == 2
    assert fastlaunch.stats()["call.planned"] == 1


def test_install_wraps_the_loader_and_uninstall_restores_it():
    from torch._inductor.codecache import PyCodeCache

    planned_call_hook.uninstall()  # an earlier test's set_enabled(True) may have installed it
    before = PyCodeCache.__dict__["load_by_key_path"]
    assert planned_call_hook.install()
    try:
        assert not planned_call_hook.install()
        assert PyCodeCache.__dict__["load_by_key_path"] is not before
        key, path = PyCodeCache.write("def call(args):\n    a, = args\n    args.clear()\n"
                                      "    return (a + 1,)\n")
        module = PyCodeCache.load_by_key_path(key, path, attrs={})
        assert isinstance(module.call, _core.PlannedCall)
        with config.override(enabled=True):
            assert module.call([torch.ones(1)])[0].item() == 2
        assert fastlaunch.stats()["call.planned"] == 1
    finally:
        assert planned_call_hook.uninstall()
    assert PyCodeCache.__dict__["load_by_key_path"] is before


@pytest.mark.parametrize(("raw", "on"), [(None, True), ("", True), ("1", True), ("0", False),
                                         ("off", False)])
def test_switch_is_on_unless_turned_off(raw, on):
    environ = {"FASTLAUNCH": "1"} if raw is None else {"FASTLAUNCH": "1",
                                                      "FASTLAUNCH_PLANNED_CALL": raw}
    cfg = config.from_environ(environ)
    assert cfg.planned_call is on
    assert ("FASTLAUNCH_PLANNED_CALL", raw or "", "on" if on else "off") in cfg.parsed


def test_unknown_switch_value_warns_and_keeps_the_default():
    with pytest.warns(RuntimeWarning, match="FASTLAUNCH_PLANNED_CALL='maybe'"):
        assert config.from_environ({"FASTLAUNCH_PLANNED_CALL": "maybe"}).planned_call


def test_selfcheck_planned_call_mode(capsys):
    from fastlaunch.tools import selfcheck

    paths = [call_trace.SAVED / f"{n}.py" for n in ("mlp", "views")]
    for path in paths:  # selfcheck pins the width itself; a host without one compares nothing
        call_trace.require_width(path)
    paths = [str(p) for p in paths]
    assert selfcheck.main(["--planned-call", paths[0], "--planned-call", paths[1]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all(": equal: " in line for line in out), out
    # the third run reached the ATen shim: every tagged op of each wrapper ran there
    ran = [re.search(r"native run equal: (\d+) ops ran in the ATen shim, 0 declined", line)
           for line in out]
    assert all(m and int(m.group(1)) > 0 for m in ran), out


_AUTOTUNING_WRAPPER = """\
import random
import torch

empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu


class Kernel:
    \"\"\"Picks its config at its first run, as an autotuning kernel does.\"\"\"

    def __init__(self):
        self.scale = None

    def run(self, x, out):
        if self.scale is None:
            self.scale = random.random()
        torch.mul(x, self.scale, out=out)


triton_poi_scale_0 = Kernel()


def call(args):
    arg0_1, = args
    args.clear()
    buf0 = empty_strided_cpu((8, ), (1, ), torch.float32)
    triton_poi_scale_0.run(arg0_1, buf0)
    del arg0_1
    return (buf0, )


def get_args():
    return [torch.ones(8)]
"""


def test_selfcheck_planned_call_shares_autotuned_kernels(tmp_path, monkeypatch):
    """Both runs use one load's kernels after their first call: the same choices.
    Each load choosing for itself differs, which the comparison does catch."""
    from fastlaunch.tools.selfcheck import planned_call

    path = tmp_path / "autotuning.py"
    path.write_text(_AUTOTUNING_WRAPPER)
    ok, line = planned_call.check(path)
    assert ok, line
    monkeypatch.setattr(planned_call, "shared_kernels",
                        lambda path, inputs: ({}, planned_call.load(path).get_args()))
    assert planned_call.check(path) == (False, "output[0]: values differ")


def test_selfcheck_planned_call_names_the_first_difference(capsys, monkeypatch):
    """A program that frees an input one op late is caught, at that event."""
    from fastlaunch.engine.planned_call import program as P
    from fastlaunch.engine.planned_call import translate
    from fastlaunch.tools import selfcheck

    emit = translate._Translator.emit

    def late_del(self, code, dst=-1, **kw):
        if code == P.DEL and self.program.local_names[dst] == "arg2_1":
            return len(self.program.ops)  # dropped: the input lives to the frame's end
        return emit(self, code, dst, **kw)

    monkeypatch.setattr(translate._Translator, "emit", late_del)
    path = call_trace.SAVED / "mlp.py"
    call_trace.require_width(path)
    assert selfcheck.main(["--planned-call", str(path)]) == 1
    out = capsys.readouterr().out
    assert "event " in out and "('dead', 'in2')" in out, out
