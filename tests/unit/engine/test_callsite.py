# SPDX-License-Identifier: Apache-2.0
"""``engine.callsite`` owns the call-site text: what it emits it recognises,
and the router takes the slot by its keyword."""

from __future__ import annotations

import ast

import pytest

from fastlaunch.engine import callsite, routing
from fastlaunch.testing import fakes


def _site(call_args: str = "buf0, 4", index: int = 2) -> callsite.CallSite:
    meta = callsite.metadata(kernel_name="k", arg_count=2, graph_id="g", index=index, abi="npu")
    return callsite.emit(kernel_name="k", call_args=call_args, stream="stream0", meta=meta,
                         index=index)


def _statements(site: callsite.CallSite) -> list[ast.stmt]:
    return ast.parse("\n".join(site.body)).body


@pytest.mark.parametrize("call_args", ["buf0, 4", ""])
def test_what_is_emitted_is_recognised(call_args):
    found = callsite.recognise(_statements(_site(call_args)), local_names={"buf0": 0})
    assert found is not None
    assert [ast.unparse(e) for e in (found.slot, found.meta, found.kernel, found.bind)] == [
        callsite.slot_name(2), callsite.meta_name(2), "k", callsite.BIND]
    assert ast.unparse(found.launch) == f"{callsite.FN}({call_args + ', ' if call_args else ''}"\
                                        "stream=stream0)"


def test_each_site_names_its_local_as_often_as_the_translator_counts():
    names = [n for n in ast.walk(ast.Module(body=_statements(_site()), type_ignores=[]))
             if isinstance(n, ast.Name) and n.id == callsite.FN]
    assert len(names) == callsite.FN_NAMES_PER_SITE


@pytest.mark.parametrize(("old", "new"), [
    (f"{callsite.SLOT_KEYWORD}=", "slot="),             # another keyword
    (f"{callsite.FN} is None", f"{callsite.FN} == None"),
    ("_fastlaunch_call_2)", "_fastlaunch_call_3)"),    # bound into another slot
])
def test_other_text_is_not_a_site(old, new):
    text = "\n".join(_site().body)
    assert old in text
    assert callsite.recognise(ast.parse(text.replace(old, new)).body, local_names={}) is None


def test_a_bind_argument_that_is_a_local_is_not_a_site():
    assert callsite.recognise(_statements(_site()), local_names={"k": 0}) is None


def test_the_router_takes_the_slot_by_the_sites_keyword():
    slot = [None]
    tuner = fakes.FakeAutotuner([fakes.FakeLauncher(fakes.spec("k", ("*fp32",)))])
    bound = routing.bind({"kernel_name": "k", "abi": "npu"}, tuner,
                         **{callsite.SLOT_KEYWORD: slot})
    assert slot[0] is bound
    assert bound.call_slot is slot
