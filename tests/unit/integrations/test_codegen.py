# SPDX-License-Identifier: Apache-2.0
"""Wrapper lines for fastlaunch call sites, compiled and run on the fake runtime."""

import fastlaunch
from fastlaunch.engine import callsite
from fastlaunch.integrations import codegen
from fastlaunch.testing import fakes


class Buffer:
    def __init__(self):
        self.lines = []

    def writeline(self, line):
        self.lines.append(line)


class FakeWrapper:
    """The parts of Inductor's (NPU)PythonWrapperCodeGen that codegen touches."""

    def __init__(self, root=None):
        self.lines = []
        self.imports = Buffer()
        self.root = root

    def writeline(self, line):
        self.lines.append(line)

    def get_root_graph(self):
        return self.root or self

    def original_call(self, kernel_name, args, stream="stream0", indent=""):
        """What stock codegen writes for one Triton call."""
        self.writeline(f"{indent}{stream} = get_raw_stream(0)")
        self.writeline(f"{indent}{kernel_name}.run({', '.join(args)}, stream={stream})")


def generate(wrapper, kernel="triton_poi_fused_0", args=("buf0", "buf1", "1000"), index_abi="npu"):
    return codegen.rewrite_run_line(wrapper, kernel, len(args), index_abi, "g0",
                                    lambda: wrapper.original_call(kernel, list(args)))


def test_eligible_call_site_lines():
    wrapper = FakeWrapper()
    generate(wrapper)
    assert wrapper.lines == [
        "stream0 = get_raw_stream(0)",
        "_fastlaunch_fn = _fastlaunch_call_0[0]",
        "if _fastlaunch_fn is None:",
        "    _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_0, triton_poi_fused_0, "
        "call_slot=_fastlaunch_call_0)",
        "_fastlaunch_fn(buf0, buf1, 1000, stream=stream0)",
    ]
    assert wrapper.imports.lines == [
        callsite.IMPORT_LINE,
        "_fastlaunch_meta_0 = {'kernel_name': 'triton_poi_fused_0', 'callsite_id': 'g0:0', "
        "'arg_count': 3, 'abi': 'npu'}",
        "_fastlaunch_call_0 = [None]"]


def test_lines_not_matching_are_kept_in_order():
    wrapper = FakeWrapper()
    codegen.rewrite_run_line(wrapper, "k", 1, "npu", "g", lambda: [
        wrapper.writeline("print('before')"), wrapper.writeline("other.run(x, stream=s)"),
        wrapper.writeline("print('after')")])
    assert wrapper.lines == ["print('before')", "other.run(x, stream=s)", "print('after')"]
    assert wrapper.imports.lines == []


def test_subgraph_sites_share_the_root_imports_and_numbering():
    root = FakeWrapper()
    sub = FakeWrapper(root=root)
    generate(root)
    generate(sub, kernel="triton_per_fused_1")
    assert "_fastlaunch_call_1 = [None]" in root.imports.lines
    assert root.imports.lines.count(callsite.IMPORT_LINE) == 1
    assert sub.imports.lines == []
    assert sub.lines[-1] == "_fastlaunch_fn(buf0, buf1, 1000, stream=stream0)"


def test_existing_writeline_redirect_is_restored():
    wrapper = FakeWrapper()
    target = []
    wrapper.writeline = target.append  # Inductor's set_writeline
    generate(wrapper)
    assert wrapper.writeline == target.append
    assert target[-1].startswith("_fastlaunch_fn(")


def test_indent_and_no_args():
    wrapper = FakeWrapper()
    codegen.rewrite_run_line(wrapper, "k", 0, "npu", "g",
                             lambda: wrapper.writeline("    k.run(stream=stream1)"))
    assert wrapper.lines[0] == "    _fastlaunch_fn = _fastlaunch_call_0[0]"
    assert wrapper.lines[-1] == "    _fastlaunch_fn(stream=stream1)"


def test_generated_module_runs_on_fake_runtime(npu_fake):
    wrapper = FakeWrapper()
    generate(wrapper)
    source = "\n".join([*wrapper.imports.lines, "def call(buf0, buf1):",
                        *(f"    {line}" for line in wrapper.lines)])
    spec = fakes.spec("triton_poi_fused_0", ["*fp32", "*fp32", "i32"],
                      grid=fakes.ceil_grid(2, 256))
    launcher = fakes.FakeLauncher(spec)
    tuner = fakes.FakeAutotuner([launcher])
    scope = {"triton_poi_fused_0": tuner, "get_raw_stream": lambda index: 0x5000 + index}
    exec(compile(source, "<wrapper>", "exec"), scope)
    for _ in range(3):
        scope["call"](0x10, 0x20)
    assert tuner.full_entries == 1 and len(launcher.calls) == 1
    assert len(npu_fake.launches) == 2
    assert npu_fake.launches[0].stream == 0x5000 and npu_fake.launches[0].grid == (4, 1, 1)
    assert scope["_fastlaunch_call_0"][0] is not None
    assert fastlaunch.stats()["fast"] == 2


# Multi-stream call sites: torch_npu writes ``stream=<group stream>.npu_stream``.

MULTI_STREAM_LINES = [
    "    triton_poi_fused_add_0.run(buf0, arg0_1, 16, stream=stream_group_vector.npu_stream)",
    "triton_poi_fused_add_0.run(buf0, arg0_1, 16, stream=main_stream.npu_stream)",
]


def rewrite(line, kernel="triton_poi_fused_add_0"):
    wrapper = FakeWrapper()
    codegen.rewrite_run_line(wrapper, kernel, 3, "npu", "g", lambda: wrapper.writeline(line))
    return wrapper


def test_multi_stream_call_lines_are_rewritten():
    for line in MULTI_STREAM_LINES:
        indent = line[:len(line) - len(line.lstrip())]
        stream = line.split("stream=")[1][:-1]
        assert rewrite(line).lines[-1] == f"{indent}_fastlaunch_fn(buf0, arg0_1, 16, " \
                                          f"stream={stream})"


def _torch_npu_multi_stream_lines():
    """The call lines torch_npu 2.14.0's own multi-stream codegen writes, made by
    evaluating its f-strings (read from the released wheel) on example values."""
    import ast
    import subprocess

    import pytest

    from helpers import wheels

    try:
        source = wheels.WheelSource(wheels.fetch("2.14.0"))
    except (subprocess.CalledProcessError, OSError) as err:
        pytest.skip(f"torch-npu 2.14.0 wheel not downloadable (offline?): {err}")
    wrapper_src = source.read("torch_npu/_inductor/codegen/wrapper.py")
    pass_src = source.read("torch_npu/_inductor/fx_passes/parallel_scheduler_pass.py")
    levels = source.read("torch_npu/_inductor/fx_passes/utils/fx_pass_level.py")

    def fstrings(src, must_contain):
        found = []
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.JoinedStr):
                text = ast.unparse(node)
                if all(part in text for part in must_contain):
                    found.append(compile(ast.Expression(node), "<torch_npu>", "eval"))
        return found

    run_lines = fstrings(wrapper_src, ("multi_stream_intent", ".run(", "stream={stream_name}"))
    group_var = fstrings(pass_src, ("stream_group_",))
    stream_name = fstrings(pass_src, ("{target_stream}.npu_stream",))
    assert run_lines and group_var and stream_name
    groups = [t.targets[0].id for c in ast.parse(levels).body
              if isinstance(c, ast.ClassDef) and c.name == "GroupType"
              for t in c.body if isinstance(t, ast.Assign)]
    targets = ["main_stream"] + [eval(group_var[0], {"key": g}) for g in groups if g != "MAIN"]
    lines = []
    for target in targets:
        name = eval(stream_name[0], {"target_stream": target})
        for intent in ("", "    "):
            lines.append(eval(run_lines[-1], {
                "multi_stream_intent": intent, "kernel_name": "triton_poi_fused_add_0",
                "call_args_str": "buf0, arg0_1, 16", "stream_name": name}))
    return lines


def test_torch_npu_multi_stream_lines_run_on_the_fake_runtime(npu_fake):
    import types

    lines = _torch_npu_multi_stream_lines()
    assert len(lines) >= 4
    for line in lines:
        wrapper = rewrite(line)
        assert wrapper.lines[-1].lstrip().startswith("_fastlaunch_fn(buf0, arg0_1, 16, stream=")
        group = line.split("stream=")[1].split(".")[0]
        body = [ln[len(line) - len(line.lstrip()):] for ln in wrapper.lines]
        source = "\n".join([*wrapper.imports.lines, "def call(buf0, arg0_1):",
                            *(f"    {ln}" for ln in body)])
        spec = fakes.spec("triton_poi_fused_add_0", ["*fp32", "*fp32", "i32"],
                          grid=fakes.ceil_grid(2, 8))
        launcher = fakes.FakeLauncher(spec)
        tuner = fakes.FakeAutotuner([launcher])
        stream = types.SimpleNamespace(npu_stream=0x7000 + len(group))
        scope = {"triton_poi_fused_add_0": tuner, group: stream}
        exec(compile(source, "<wrapper>", "exec"), scope)
        before = len(npu_fake.launches)
        for _ in range(3):
            scope["call"](0x10, 0x20)
        assert tuner.full_entries == 1 and len(npu_fake.launches) == before + 2
        assert npu_fake.launches[-1].stream == stream.npu_stream
