# SPDX-License-Identifier: Apache-2.0
"""One torch_npu release's aclgraph update plan through a planned call, in a child process.

``python -m helpers.npu_update_plan_driver VERSION WORK_DIR OUT.json``: with
``VERSION``'s own modules loaded (``npu_release``), the release's Inductor
codegen (``_aclgraph_update_plan/codegen.py``) builds the update-plan entries
and writes the module-level ``call._torch_npu_aclgraph_update_plan = [...]``
line of a wrapper module; the module is loaded twice, once planned by
fastlaunch's planned-call hook (``plan_module``) and once left Python. On each
replay, the update plan is read from the compiled callable with the
expressions of the release's own NPU graph tree (``npugraphify`` and
``NPUGraphNode.__init__`` in ``torch_npu/npu/_graph_tree.py``, taken from its
source and evaluated as written) and resolved against the replay's inputs by the release's own
``resolve_aclgraph_update_plan``. Writes both sides for the parent test.

The graph capture itself (``torch.npu.NPUGraph``) is torch_npu's C++ and
does not run here: what the planned call could lose is the plan's
attribute, and every read of it is the release's code.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import sys
import types
from pathlib import Path

from . import npu_release

# A wrapper as Inductor writes one for a graph whose extern NPU op takes a
# per-call length list (graph input 1, e.g. fused-infer-attention's
# ``actual_seq_lengths``); the op is an aten op here, so the module runs on CPU.
WRAPPER = '''\
import torch

assert_size_stride = torch._C._dynamo.guards.assert_size_stride


def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    assert_size_stride(arg0_1, (4, 8), (8, 1), 'input')
    buf0 = torch.ops.aten.mul.Tensor(arg0_1, 2.0)
    del arg0_1
    return (buf0, )
'''
GRAPH_INPUTS = ("arg0_1", "arg1_1")
UPDATED_KEY = "actual_seq_lengths"
OP = "npu_fused_infer_attention_score"


def _plan_line(version_root: Path) -> str:
    """The module-level line the release's codegen writes for one entry."""
    from torch._inductor import config
    from torch._inductor.utils import IndentedBuffer
    from torch._inductor.virtualized import V

    codegen = importlib.import_module("torch_npu._inductor._aclgraph_update_plan.codegen")
    graph_inputs = {name: types.SimpleNamespace(get_name=lambda n=name: n)
                    for name in GRAPH_INPUTS}
    entry = codegen._build_update_plan_entry_from_bound_args(
        OP, {UPDATED_KEY: graph_inputs["arg1_1"], "num_heads": 8},
        lambda value: codegen._inductor_value_to_source(value, list(GRAPH_INPUTS),
                                                        graph_inputs),
        {UPDATED_KEY})
    wrapper = types.SimpleNamespace(launcher_fn_name="call",
                                    torch_npu_aclgraph_update_plan=[entry])
    result = IndentedBuffer()
    graph = types.SimpleNamespace(disable_cudagraphs_reason=None)
    with config.patch({"triton.cudagraphs": True, "triton.cudagraph_trees": True,
                       "graph_partition": False}), V.set_graph_handler(graph):
        codegen.emit_inductor_aclgraph_update_plan_for_wrapper(
            wrapper, result, is_graph_partition_subgraph=False)
    return result.getvalue()


def _graph_tree_reads(version_root: Path) -> list[tuple[str, object]]:
    """Every read of the update plan in the release's NPU graph tree
    (``getattr(<callable>, ACLGRAPH_UPDATE_PLAN_GLOBAL, None) or []``: the
    int-input keys of ``npugraphify`` and ``NPUGraphNode.__init__`` in the
    releases read here), each as (its source, a function of the compiled
    callable evaluating that very expression)."""
    path = version_root / "torch_npu" / "npu" / "_graph_tree.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    resolver = importlib.import_module("torch_npu.npu._aclgraph_update_plan.resolver")
    reads = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BoolOp) and isinstance(node.values[0], ast.Call)
                and ast.unparse(node.values[0].func) == "getattr"
                and "ACLGRAPH_UPDATE_PLAN_GLOBAL" in ast.unparse(node.values[0])):
            continue
        source = ast.unparse(node)
        owner = ast.unparse(node.values[0].args[0])  # "model" or "wrapped_function.model"
        code = compile(source, str(path), "eval")

        def read(model, code=code, owner=owner):
            scope = {"ACLGRAPH_UPDATE_PLAN_GLOBAL": resolver.ACLGRAPH_UPDATE_PLAN_GLOBAL,
                     "model": model, "wrapped_function": types.SimpleNamespace(model=model)}
            assert eval(owner, scope) is model
            return eval(code, scope)

        reads.append((source, read))
    if not reads:
        msg = f"{path}: no read of the aclgraph update plan"
        raise LookupError(msg)
    return reads


def _load(path: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(version: str, work: str, out: str) -> int:
    root = npu_release.install(version)
    import torch

    import fastlaunch
    from fastlaunch.integrations import planned_call_hook
    from fastlaunch.runtime import _core

    report: dict = {"version": version}
    if not (root / "torch_npu" / "_inductor" / "_aclgraph_update_plan").is_dir():
        report["absent"] = "the release has no aclgraph update plan"
        Path(out).write_text(json.dumps(report))
        return 0
    line = _plan_line(root)
    reads = _graph_tree_reads(root)
    report["line"], report["reads"] = line.strip(), [source for source, _ in reads]
    path = Path(work) / "wrapper_update_plan.py"
    path.write_text(WRAPPER + "\n" + line)
    planned_module, python_module = _load(path, "planned_wrapper"), _load(path, "python_wrapper")
    report["planned"] = planned_call_hook.plan_module(planned_module)
    planned = planned_module.call
    report["type"] = type(planned).__name__
    resolver = importlib.import_module("torch_npu.npu._aclgraph_update_plan.resolver")
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    replays = []
    fastlaunch.reset_stats()
    runs = _core.planned_call_runs()
    for lengths in ([3, 5, 8, 8], [1, 2, 3, 4], [8, 8, 8, 8]):
        sides = {}
        for side, model in (("planned", planned), ("python", python_module.call)):
            plans = [read(model) for _, read in reads]
            plan = plans[0]
            inputs = [x.clone(), list(lengths)]
            updates = resolver.resolve_aclgraph_update_plan(plan, inputs)
            (result,) = model(list(inputs))
            sides[side] = {"plans": plans, "updates": updates, "out": result.tolist()}
        replays.append(sides)
    report["planned_runs"] = _core.planned_call_runs() - runs
    # set later, through either object: both read it back
    new_plan = [{"op": OP, "updates": {UPDATED_KEY: {"kind": "input", "index": 1}}}]
    planned._torch_npu_aclgraph_update_plan = new_plan
    report["set_later"] = all(read(planned) is new_plan for _, read in reads)
    report["replays"] = replays
    report["stats"] = fastlaunch.stats()
    Path(out).write_text(json.dumps(report, default=repr, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
