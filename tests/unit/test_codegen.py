# SPDX-License-Identifier: Apache-2.0
"""Wrapper lines for fastlaunch call sites, compiled and run on the fake runtime."""

import fastlaunch
from fastlaunch import codegen, fakes


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
        codegen.IMPORT_LINE,
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
    assert root.imports.lines.count(codegen.IMPORT_LINE) == 1
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
