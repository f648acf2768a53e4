# SPDX-License-Identifier: Apache-2.0
"""``fastlaunch selfcheck`` on the CPU.

* The interposition layer, preloaded into a child process over a fake
  ``libcuda.so.1``: it catches launches reached through ``dlsym`` (fastlaunch's
  own CUDA launcher) and through ``cuGetProcAddress`` (as torch's driver stubs
  and Triton do), rebuilds ``kernelParams`` into bytes, swallows or forwards.
* The comparison and the report.
* The fake-npu suite: triton-ascend's own rendered launcher against
  fastlaunch's NPU backend on the recording CANN; a planted packing bug must
  fail it, naming the kernel, field and offset.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fastlaunch import config
from fastlaunch.builds import core
from fastlaunch.engine import routing
from fastlaunch.runtime.fake import FakeBackend
from fastlaunch.testing import fakes, numpy_packer
from fastlaunch.tools import selfcheck
from fastlaunch.tools.selfcheck import compare, interpose, report, sites
from helpers.oracle import cc

needs_cc = pytest.mark.skipif(cc() is None, reason="no C compiler")

FAKE_LIBCUDA = r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
static int launches = 0;
static size_t n_params = 0, offsets[32], sizes[32];
void fake_set_layout(size_t n, const size_t* off, const size_t* size) {
  n_params = n; memcpy(offsets, off, n * sizeof *off); memcpy(sizes, size, n * sizeof *size);
}
int fake_launches(void) { return launches; }
int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  ++launches; return 0;
}
int cuLaunchKernelEx(const void* config, void* f, void** params, void** extra) {
  ++launches; return 0;
}
int cuFuncGetParamInfo(void* f, size_t i, size_t* offset, size_t* size) {
  if (i >= n_params) return 1;
  *offset = offsets[i]; *size = sizes[i]; return 0;
}
int cuCtxGetDevice(int* dev) { *dev = 0; return 0; }
int cuCtxGetCurrent(void** ctx) { *ctx = (void*)0x1; return 0; }
int cuCtxSetCurrent(void* ctx) { (void)ctx; return 0; }
int cuDeviceGet(int* dev, int ordinal) { *dev = ordinal; return 0; }
int cuDevicePrimaryCtxRetain(void** ctx, int dev) { (void)dev; *ctx = (void*)0x1; return 0; }
int cuGetErrorString(int rc, const char** text) { *text = "fake"; return 0; }
int cuGetProcAddress_v2(const char* name, void** fn, int version, uint64_t flags, int* status) {
  if (status) *status = 0;
  if (strcmp(name, "cuLaunchKernel") == 0) *fn = (void*)cuLaunchKernel;
  else if (strcmp(name, "cuLaunchKernelEx") == 0) *fn = (void*)cuLaunchKernelEx;
  else return 500;
  return 0;
}
"""

# Runs under the layer: fastlaunch's CudaLauncher (dlopen + dlsym) and a
# kernelParams launch through cuGetProcAddress_v2, with the same values.
CHILD = textwrap.dedent("""
    import ctypes, json
    from fastlaunch.runtime import _core
    from fastlaunch.tools.selfcheck import compare, interpose

    fake = ctypes.CDLL("libcuda.so.1")
    rec = interpose.InterposeRecorder()
    plan = _core.Plan("cuda", ["*fp32", "i32", "fp16", "i64"],
                      names=["in_ptr0", "xnumel", "h", "ks0"], n_scratch=2)
    layout = [(o, s) for _, o, s in plan.fields]
    n = len(layout)
    fake.fake_set_layout(ctypes.c_size_t(n), (ctypes.c_size_t * n)(*[o for o, _ in layout]),
                         (ctypes.c_size_t * n)(*[s for _, s in layout]))
    launcher = _core.CudaLauncher(plan, 0xF00D, 4, 128, 0)
    args = (0x7F0000001000, 4096, 1.5, -5)
    out = {"pack": plan.pack(args).hex(), "fields": plan.fields}
    with rec.capture() as ours:
        launcher.launch(0x5EED, (3, 2, 1), args)
    out["ours"] = [x.as_json() for x in ours]
    out["real_after_swallow"] = fake.fake_launches()

    gpa = fake.cuGetProcAddress_v2
    gpa.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                    ctypes.c_uint64, ctypes.c_void_p]
    fn = ctypes.c_void_p()
    assert gpa(b"cuLaunchKernel", ctypes.byref(fn), 12000, 0, None) == 0
    launch = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7,
                              ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                              ctypes.c_void_p)(fn.value)
    def params(xnumel):
        values = [ctypes.c_uint64(args[0]), ctypes.c_int32(xnumel), ctypes.c_uint16(0x3E00),
                  ctypes.c_int64(-5), ctypes.c_uint64(0), ctypes.c_uint64(0)]
        return values, (ctypes.c_void_p * 6)(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p)
                                               for v in values])
    keep, array = params(4096)
    with rec.capture() as theirs:
        launch(0xF00D, 3, 2, 1, 128, 1, 1, 128, 0x5EED, array, None)
    out["theirs"] = [x.as_json() for x in theirs]
    out["same"] = [str(d) for d in compare.compare(theirs, ours, plan.fields)]
    keep, array = params(4097)
    with rec.capture() as shifted:
        launch(0xF00D, 3, 2, 1, 128, 1, 1, 128, 0x5EED, array, None)
    out["shifted"] = [str(d) for d in compare.compare(shifted, ours, plan.fields)]
    with rec.capture(forward=True) as forwarded:
        launcher.launch(0x5EED, (3, 2, 1), args)
    out["real_after_forward"] = fake.fake_launches()
    out["forwarded_rc"] = forwarded[0].rc
    out["routes"] = rec.routes()
    print(json.dumps(out))
""")


@needs_cc
def test_layer_catches_dlsym_and_proc_address_launches(tmp_path):
    if interpose.library_path() is None:
        pytest.fail("libfastlaunch_interpose.so is not installed beside fastlaunch.tools.selfcheck")
    subprocess.run([cc(), "-shared", "-fPIC", "-x", "c", "-", "-o",
                    str(tmp_path / "libcuda.so.1")], input=FAKE_LIBCUDA, text=True, check=True)
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = interpose.preload_env()
    env["LD_LIBRARY_PATH"] = f"{tmp_path}:{env.get('LD_LIBRARY_PATH', '')}"
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, check=False, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    (ours,) = out["ours"]
    assert ours["api"] == "cuLaunchKernel" and ours["handle"] == 0xF00D
    assert (ours["grid"], ours["block"], ours["shared"], ours["stream"]) == (
        [3, 2, 1], [128, 1, 1], 128, 0x5EED)
    assert ours["args"] == out["pack"]  # the extra buffer, byte for byte
    assert out["real_after_swallow"] == 0  # swallowed: nothing reached the driver
    (theirs,) = out["theirs"]
    assert theirs["args"] == out["pack"]  # kernelParams rebuilt with cuFuncGetParamInfo
    assert theirs["params"] == [[o, s] for _, o, s in out["fields"]]
    assert out["same"] == []
    assert out["shifted"] == ["args xnumel at offset 8: original 01100000, planned 00100000"]
    assert out["real_after_forward"] == 1 and out["forwarded_rc"] == 0
    assert out["routes"] == ["dlsym", "cuGetProcAddress"]


def _launch(**changes) -> interpose.Launch:
    base = interpose.Launch(api="cuLaunchKernel", handle=1, stream=7, grid=(2, 1, 1),
                            block=(128, 1, 1), shared=0, block_dim=0, flags=0, attrs=(),
                            extra=0, args=bytes(range(16)), params=((0, 8), (8, 4), (12, 4)),
                            problem="", rc=0)
    return dataclasses.replace(base, **changes)


def test_compare_equivalent_apis_and_named_offsets():
    same = compare.compare([_launch(api="cuLaunchKernelEx")], [_launch()])
    assert same == []
    with_attr = _launch(api="cuLaunchKernelEx", attrs=((4, "01" + "00" * 15),))
    assert [d.field for d in compare.compare([with_attr], [_launch()])] == ["api", "attrs"]
    legacy = _launch(api="cuLaunchKernel_ptsz", stream=0)
    assert [d.field for d in compare.compare([legacy], [_launch(stream=0)])] == ["api"]
    assert compare.compare([_launch(api="rtKernelLaunch")],
                           [_launch(api="rtKernelLaunchWithFlagV2")])[0].field == "api"
    changed = bytearray(range(16))
    changed[9] = 0xFF
    (diff,) = compare.compare([_launch()], [_launch(args=bytes(changed))],
                              [("in_ptr0", 0, 8), ("xnumel", 8, 4), ("ks0", 12, 4)])
    assert (diff.field, diff.param, diff.offset) == ("args", "xnumel", 8)
    assert str(diff) == "args xnumel at offset 8: original 08090a0b, planned 08ff0a0b"
    (unnamed,) = compare.compare([_launch()], [_launch(args=bytes(changed))])
    assert (unnamed.param, unnamed.offset) == ("param 1", 8)
    assert compare.compare([_launch()], [])[0].field == "launches"
    assert compare.compare([_launch(args=b"12")], [_launch(args=b"123")])[0].field == "args_size"
    assert compare.compare([_launch(problem="argument bytes truncated")],
                           [_launch()])[0].field == "record"
    assert [d.field for d in compare.compare([_launch()], [_launch(grid=(3, 1, 1), stream=8)])
            ] == ["stream", "grid"]


class _FakeRuntimeRecorder:
    """``interpose.InterposeRecorder``'s capture over the fake runtime: planned launches
    come from the FakeBackend's records, original ones from the launchers'
    calls, packed by the reference packer as an original launcher would."""

    def __init__(self, backend, launchers, signature):
        self.backend, self.launchers, self.signature = backend, launchers, signature

    @contextlib.contextmanager
    def capture(self, forward=False):
        got = []
        planned, calls = len(self.backend.launches), [len(x.calls) for x in self.launchers]
        yield got
        layout = ((0, 8), (8, 8), (16, 8), (24, 8))  # two pointers, two scratch pointers
        for r in self.backend.launches[planned:]:
            got.append(_launch(handle=0xBEEF, stream=r.stream, args=r.data, params=layout))
        for launcher, before in zip(self.launchers, calls):
            for args, stream in launcher.calls[before:]:
                data = numpy_packer.pack("cuda", self.signature, args, (1, 1, 1), n_scratch=2)
                got.append(_launch(handle=0xBEEF, stream=stream, args=data, params=()))


@pytest.mark.parametrize("planted", [False, True])
def test_differential_runs_each_call_site_both_ways(planted, monkeypatch):
    backend = FakeBackend("cuda")
    if planted:  # the plan packs its first field from the second one's input
        original = FakeBackend.make_plan

        def shifted(self, spec, **kwargs):
            positions = (spec.positions[1], *spec.positions[1:])
            return original(self, dataclasses.replace(spec, positions=positions), **kwargs)

        monkeypatch.setattr(FakeBackend, "make_plan", shifted)
    signature = ("*fp32", "*fp32")
    good = fakes.FakeLauncher(fakes.spec("k_good", signature))
    refused = fakes.FakeLauncher(None, refusal="signature_type_unsupported")
    tuners = [fakes.FakeAutotuner([good], npu_shaped=False),
              fakes.FakeAutotuner([refused], npu_shaped=False)]
    slots = [[None], [None]]
    outcomes = []
    with config.override(enabled=True, strict=False), sites.CallSites() as found:
        for i, tuner in enumerate(tuners):
            routing.bind({"kernel_name": f"k{i}", "abi": "cuda", "arg_count": 2}, tuner,
                         call_slot=slots[i], backend_for=lambda: backend)

        def program():
            for slot in slots:
                slot[0](0x1000, 0x2000, stream=5)

        program()  # warm-up: the full entry, then promotion
        promoted = [slot[0] for slot in slots]
        recorder = _FakeRuntimeRecorder(backend, [good, refused], signature)
        with sites.differential(found.sites, recorder, outcomes):
            program()
    assert [slot[0] for slot in slots] == promoted  # the call slots are given back
    assert len(found.sites) == 2 and found.sites[0].autotuner is tuners[0]
    assert [len(good.calls), len(refused.calls), len(backend.launches)] == [2, 3, 1]
    verdicts = [o.verdict for o in outcomes]
    assert verdicts == ["MISMATCH" if planted else "equal", "not planned"]
    assert outcomes[1].note == "refused: signature_type_unsupported"
    assert outcomes[1].differences == []
    if planted:
        (diff,) = outcomes[0].differences
        assert (diff.field, diff.param, diff.offset) == ("args", "param 0", 0)
        assert (diff.original, diff.planned) == ("0010000000000000", "0020000000000000")


def _outcome(kernel, diffs=(), used=True, error=""):
    return report.Outcome(kernel=kernel, launcher="static", original=[_launch()],
                          planned=[_launch()], differences=list(diffs), planned_used=used,
                          error=error)


def test_report_verdicts_exit_codes_and_json(tmp_path):
    rep = report.Report(backend="cuda", stack={"torch": "x"}, forwarded=False,
                        outcomes=[_outcome("k1"), _outcome("k2", used=False)],
                        checked=["a"], not_checked=["b: why"])
    assert [o.verdict for o in rep.outcomes] == ["equal", "not planned"]
    assert rep.exit_code == report.EXIT_OK
    rep.outcomes.append(_outcome("k3", [compare.Difference("grid", "(1, 1, 1)", "(2, 1, 1)")]))
    assert rep.exit_code == report.EXIT_MISMATCH
    text = rep.text()
    assert "k3: MISMATCH" in text and "grid: original (1, 1, 1), planned (2, 1, 1)" in text
    assert "b: why" in text and "exit 1" in text
    rep.write_json(tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["exit_code"] == 1 and data["outcomes"][2]["differences"][0]["field"] == "grid"
    assert data["outcomes"][0]["original"][0]["args"] == bytes(range(16)).hex()
    assert report.Report("cuda", {}, False, [_outcome("k", used=False)]).exit_code == 3
    assert report.Report("cuda", {}, False, [_outcome("k", error="boom")]).exit_code == 1
    assert report.unchecked("npu", ["no device"]).exit_code == report.EXIT_UNCHECKED


def test_cli_help_usage_and_unknown_program(capsys):
    assert selfcheck.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "exit status" in out and "nothing could be compared" in out
    assert selfcheck.main(["--bogus"]) == report.EXIT_USAGE
    assert selfcheck.main(["--backend", "fake-npu", "--program", "nope"]) == report.EXIT_USAGE
    assert "got nope, expected one of pointwise" in capsys.readouterr().err


def test_fake_npu_without_reference_says_why(tmp_path, capsys):
    code = selfcheck.main(["--backend", "fake-npu", "--ascend-backend", str(tmp_path),
                           "--json", str(tmp_path / "r.json")])
    assert code == report.EXIT_UNCHECKED
    assert f"--ascend-backend {tmp_path} lacks driver.py" in capsys.readouterr().out
    assert json.loads((tmp_path / "r.json").read_text())["outcomes"] == []


@pytest.mark.parametrize("where", ["missing", "unwritable", "folder"])
def test_json_to_a_path_it_cannot_write_is_a_usage_error_before_the_check(where, tmp_path,
                                                                          capsys, monkeypatch):
    if where == "unwritable" and not Path("/sys").is_dir():
        pytest.skip("needs /sys, where nobody (root included) may create files")
    path = {"missing": tmp_path / "nope" / "r.json", "unwritable": Path("/sys/fastlaunch.json"),
            "folder": tmp_path}[where]
    from fastlaunch.tools.selfcheck import fake_npu

    monkeypatch.setattr(fake_npu, "run", lambda *a: pytest.fail("the check ran"))
    assert selfcheck.main(["--backend", "fake-npu", "--json", str(path)]) == report.EXIT_USAGE
    err = capsys.readouterr().err
    assert f"--json: cannot write {path}: " in err, err
    assert "does not exist" in err if where == "missing" else "Traceback" not in err
    assert not (tmp_path / "nope").exists()

@pytest.fixture(scope="module")
def ascend_backend():
    if cc() is None:
        pytest.skip("no C compiler for the reference launcher")
    from helpers import wheels

    return str(wheels.triton_ascend_backend())


def _run_fake_npu(backend_dir, tmp_path, capsys):
    code = selfcheck.main(["--backend", "fake-npu", "--ascend-backend", backend_dir,
                           "--json", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert code == report.EXIT_OK, out
    return json.loads((tmp_path / "r.json").read_text()), out


def test_fake_npu_suite_passes(ascend_backend, tmp_path, capsys):
    data, out = _run_fake_npu(ascend_backend, tmp_path, capsys)
    verdicts = {o["kernel"]: o["verdict"] for o in data["outcomes"]}
    from fastlaunch.tools.selfcheck.fake_npu import CASE_NAMES

    # 3.2.0's generator renders no i8/i16/u1/u8/u16: that case is reported, not compared
    assert verdicts == {f"{n} [rt]": "equal" for n in CASE_NAMES if n != "narrow-scalar-kinds"}
    assert "narrow-scalar-kinds: this generator does not render its scalar kinds" in out
    apis = {o["kernel"]: o["api"] for o in data["outcomes"]}
    assert apis["simt-910_95 [rt]"] == "rtKernelLaunchWithFlagV2"
    assert apis["pointwise [rt]"] == "rtKernelLaunch"
    sizes = {o["kernel"]: len(o["planned"][0]["args"]) // 2 for o in data["outcomes"]}
    assert sizes["reduction-size-1 [rt]"] == 56  # xnumel=1 left out of the struct


def _trees():
    from helpers import wheels

    trees = wheels.triton_ascend_trees()
    if not trees:
        pytest.skip(f"{wheels.TREES_ENV} is not set: no newer triton-ascend tree to load")
    return trees


def test_fake_npu_suite_passes_on_every_named_tree(ascend_backend, tmp_path, capsys):
    """selfcheck loads each branch's generator (release/3.2.x's default_cache_dir,
    main's and 3.5.x's triton.tools imports have stand-ins) and matches it."""
    from fastlaunch.tools.selfcheck.fake_npu import CASE_NAMES

    for label, path in _trees().items():
        data, out = _run_fake_npu(path, tmp_path, capsys)
        verdicts = {o["kernel"]: o["verdict"] for o in data["outcomes"]}
        assert set(verdicts.values()) == {"equal"}, (label, out)
        skipped = set(CASE_NAMES) - {k.removesuffix(" [rt]") for k in verdicts}
        assert skipped <= {"narrow-scalar-kinds"}, (label, skipped)


def test_generator_loader_gives_newer_branches_their_stand_ins(tmp_path):
    """What release/3.2.x, 3.5.x and main import from a triton build (the cache's
    default_cache_dir, triton.tools, their own backend_register) loads without
    one, and sys.modules is left as it was (the real trees: the test above)."""
    from fastlaunch.tools.selfcheck import ascend_reference as ar

    (tmp_path / "backend_register.py").write_text("registry = {'torch_npu': 'header'}\n")
    (tmp_path / "utils.py").write_text(textwrap.dedent("""
        from triton.tools.get_ascend_devices import is_compile_on_910_95
        from triton.backends.ascend.backend_register import registry
        backend_policy = None
    """))
    (tmp_path / "driver.py").write_text(textwrap.dedent("""
        from triton.runtime.cache import get_cache_manager, get_dump_manager, default_cache_dir
        from triton.backends.driver import DriverBase
        from triton.backends.ascend.utils import is_compile_on_910_95, registry
        def make_launcher(constants, signature, metadata):
            return f"{registry['torch_npu']} {is_compile_on_910_95} {metadata.kernel_name}"
    """))
    (tmp_path / "compiler.py").write_text(textwrap.dedent("""
        class AscendBackend:
            def pack_metadata(self, metadata):
                return {"kernel_name": metadata.kernel_name}
    """))
    before = {n for n in sys.modules if n.split(".")[0] in ("triton", "pybind11")}
    gen = ar.Generator(tmp_path)
    assert {n for n in sys.modules if n.split(".")[0] in ("triton", "pybind11")} == before
    assert gen.name == "make_launcher"
    assert gen.render(ar.Case(("*fp32",), name="k")) == "header False k"
    (tmp_path / "utils.py").write_text("from triton.language import core\n")
    with pytest.raises(ar.Unavailable, match="no stand-in provides"):
        ar.Generator(tmp_path)


def test_planted_packing_bug_fails_naming_kernel_field_and_offset(ascend_backend, tmp_path,
                                                                  capsys, monkeypatch):
    from fastlaunch.runtime.npu.backend import NpuBackend

    original = NpuBackend.make_plan

    def shifted(self, spec, **kwargs):  # the first field packed from the second's input
        positions = (spec.positions[1], *spec.positions[1:])
        return original(self, dataclasses.replace(spec, positions=positions), **kwargs)

    monkeypatch.setattr(NpuBackend, "make_plan", shifted)
    code = selfcheck.main(["--backend", "fake-npu", "--ascend-backend", ascend_backend,
                           "--program", "pointwise", "--json", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert code == report.EXIT_MISMATCH, out
    data = json.loads((tmp_path / "r.json").read_text())
    assert [o["verdict"] for o in data["outcomes"]] == ["MISMATCH"]
    for o in data["outcomes"]:
        (diff,) = o["differences"]  # only the first pointer's bytes differ
        assert diff["field"] == "args" and diff["param"] and diff["offset"] == 24  # after ffts,
        assert diff["original"] == (0x10000000).to_bytes(8, "little").hex()  # lock, workspace
        assert diff["planned"] == (0x10001000).to_bytes(8, "little").hex()
        assert f"{o['kernel']}: MISMATCH" in out
        assert f"args {diff['param']} at offset {diff['offset']}" in out


@pytest.mark.parametrize("backend", ["cuda", "npu"])
def test_device_backend_without_device_is_unchecked(backend, monkeypatch, capsys, tmp_path):
    from fastlaunch.tools.selfcheck import cuda, npu

    module = cuda if backend == "cuda" else npu
    monkeypatch.setattr(module, "available", lambda: (False, "no device here"))
    code = selfcheck.main(["--backend", backend, "--json", str(tmp_path / "r.json")])
    assert code == report.EXIT_UNCHECKED
    assert f"{backend}: no device here" in capsys.readouterr().out
    assert json.loads((tmp_path / "r.json").read_text())["exit_code"] == report.EXIT_UNCHECKED


def test_preload_keeps_what_is_preloaded_first():
    """A sanitizer runtime must stay first in LD_PRELOAD; the loader splits on
    colons and whitespace alike."""
    if interpose.library_path() is None:
        pytest.skip("the interposition layer is not built in this install")
    layer = str(interpose.library_path())
    env = interpose.preload_env({"LD_PRELOAD": f"/x/libasan.so /x/libstdc++.so:{layer}"})
    assert env["LD_PRELOAD"].split(":") == ["/x/libasan.so", "/x/libstdc++.so", layer]
    assert interpose.preload_env({})["LD_PRELOAD"] == layer


def test_fake_npu_rebuilds_a_corrupt_recorder_and_leaves_no_temporary_folders(
        ascend_backend, tmp_path):
    """As a user runs it (one process per run): FASTLAUNCH_CACHE_DIR empty counts as
    unset (the cache is not the current directory); a cached recorder that does not
    load is rebuilt once; the run's temporary folders are removed."""
    from fastlaunch.tools.selfcheck import ascend_reference

    cwd, tmp, xdg = tmp_path / "cwd", tmp_path / "tmp", tmp_path / "xdg"
    cwd.mkdir()
    tmp.mkdir()
    env = {**os.environ, "FASTLAUNCH_CACHE_DIR": "", "XDG_CACHE_HOME": str(xdg),
           "TMPDIR": str(tmp)}
    recorder = ascend_reference.build_recorder(xdg / "fastlaunch" / "ascend_reference")
    recorder.write_bytes(b"not a shared library")

    def selfcheck_run():
        return subprocess.run([sys.executable, "-m", "fastlaunch", "selfcheck", "--backend",
                               "fake-npu", "--ascend-backend", ascend_backend, "--program",
                               "pointwise"], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=600, check=False)

    first = selfcheck_run()
    assert first.returncode == report.EXIT_OK, first.stdout + first.stderr
    assert f"rebuilt: the cached {recorder} did not load" in first.stdout
    assert "selfcheck: compiling triton-ascend's launcher for 1 kernels" in first.stderr
    assert recorder.stat().st_size > 1000
    assert list(cwd.iterdir()) == [] and list(tmp.iterdir()) == []
    second = selfcheck_run()
    assert second.returncode == report.EXIT_OK and "rebuilt" not in second.stdout


def test_fake_npu_extracts_the_generator_from_a_cached_wheel_into_the_cache(tmp_path,
                                                                          monkeypatch):
    import zipfile

    from fastlaunch.tools.selfcheck import fake_npu

    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(tmp_path))
    monkeypatch.setattr(fake_npu, "_installed_backend", lambda: None)
    wheel = tmp_path / "triton_ascend-3.2.0-cp311-cp311-manylinux_2_28_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name in fake_npu.BACKEND_FILES:
            zf.writestr(f"triton/backends/ascend/{name}", f"# {name}\n")
    folder, source = fake_npu.find_backend(None)
    assert folder == tmp_path / "triton_ascend-3.2.0-backend"
    assert source == f"wheel cache ({folder})"
    assert (folder / "driver.py").read_text() == "# driver.py\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [core.MANIFEST, folder.name,
                                                          wheel.name]
    assert folder.name in core.owned(tmp_path)  # fastlaunch's: `cache clear` removes it
    assert fake_npu.find_backend(None)[0] == folder  # found extracted the next time


# ---- user mistakes: one sentence, no traceback, the documented exit status -----------------

def _selfcheck_cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastlaunch", "selfcheck", *args],
                          capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, **env})


@pytest.mark.parametrize("what", ["a file", "unwritable", "damaged"])
def test_fake_npu_with_an_unusable_cache_folder_compares_nothing_and_says_why(
        ascend_backend, tmp_path, what):
    from fastlaunch.tools.selfcheck.ascend_reference import build

    cache = tmp_path / "cache"
    if what == "a file":
        cache.write_text("")
        named = cache / "ascend_reference"
    elif what == "unwritable":
        if not Path("/sys").is_dir():
            pytest.skip("needs /sys, where nobody (root included) may create folders")
        cache = named = Path("/sys/fastlaunch-cache")
    else:  # the recorder's build folder is a file
        named = cache / "ascend_reference" / f"recorder-{build.headers_digest()}"
        named.parent.mkdir(parents=True)
        named.write_text("")
    proc = _selfcheck_cli("--backend", "fake-npu", "--ascend-backend", ascend_backend,
                          "--program", "pointwise", FASTLAUNCH_CACHE_DIR=str(cache),
                          FASTLAUNCH_WHEEL_CACHE=str(tmp_path / "wheels"))
    assert proc.returncode == report.EXIT_UNCHECKED, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(f"selfcheck: nothing compared: fastlaunch cannot use {named} ("), last
    assert last.endswith(f"it keeps its builds in {cache} (FASTLAUNCH_CACHE_DIR) and its wheels "
                         f"in {tmp_path / 'wheels'} (FASTLAUNCH_WHEEL_CACHE): point them at a "
                         "writable folder or remove what is damaged there"), last


def test_fake_npu_with_a_truncated_cached_wheel_names_it(tmp_path, monkeypatch, capsys):
    import zipfile

    from fastlaunch.tools.selfcheck import fake_npu

    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(tmp_path))
    monkeypatch.setattr(fake_npu, "_installed_backend", lambda: None)
    wheel = tmp_path / "triton_ascend-3.2.0-cp311-cp311-manylinux_2_28_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name in fake_npu.BACKEND_FILES:
            zf.writestr(f"triton/backends/ascend/{name}", "x" * 4000)
    wheel.write_bytes(wheel.read_bytes()[:3000])  # a download cut short
    assert selfcheck.main(["--backend", "fake-npu"]) == report.EXIT_UNCHECKED
    out = capsys.readouterr().out
    assert (f"  - triton-ascend's launcher generator is not available: the cached wheel {wheel} "
            "(File is not a zip file) is not a complete wheel: delete it and download it again "
            "with `pip download --no-deps --only-binary=:all: triton-ascend==3.2.0 "
            f"-d {tmp_path}` on a machine with network access\n") in out, out
    assert sorted(p.name for p in tmp_path.iterdir()) == [wheel.name]  # nothing half-made


def test_json_to_a_full_disk_is_a_usage_error_after_the_report(tmp_path, capsys):
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full (a device whose writes fail: disk full)")
    code = selfcheck.main(["--backend", "fake-npu", "--ascend-backend", str(tmp_path),
                           "--json", "/dev/full"])
    assert code == report.EXIT_USAGE
    captured = capsys.readouterr()
    assert "-> exit 3" in captured.out  # the report itself was printed
    assert captured.err == ("selfcheck: --json: could not write the report to /dev/full: "
                            "No space left on device\n")


_NO_GET_ARGS = """\
def call(args):
    a, = args
    args.clear()
    return (a,)
"""


@pytest.mark.parametrize("what", ["missing", "folder", "no get_args", "cuda on a cpu host"])
def test_planned_call_user_mistakes(what, tmp_path, capsys):
    path = {"missing": tmp_path / "nope.py", "folder": tmp_path,
            "no get_args": tmp_path / "w.py",
            "cuda on a cpu host": Path(__file__).parents[2] / "data" / "wrappers" / "h200"
            / "gpt2_12.py"}[what]
    if what == "no get_args":
        path.write_text(_NO_GET_ARGS)
    if what == "cuda on a cpu host":
        torch = pytest.importorskip("torch")
        if torch.cuda.is_available():
            pytest.skip("this host has CUDA: the wrapper can run here")
    code = selfcheck.main(["--planned-call", str(path), "--json", str(tmp_path / "r.json")])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    if what in ("missing", "folder"):
        assert code == report.EXIT_USAGE
        why = f"no such file: {path}" if what == "missing" else (
            f"{path} is a folder, expected a wrapper module file (.py)")
        assert captured.err.endswith(f"error: --planned-call: {why}\n"), captured.err
        assert not (tmp_path / "r.json").exists()
        return
    assert code == report.EXIT_UNCHECKED
    why = ("the module has no get_args() to make the inputs (Inductor writes one into each "
           "wrapper module it saves; add one returning call()'s argument list)"
           if what == "no get_args" else
           "it runs on cuda, which this host does not have: run selfcheck where the wrapper "
           "was generated")
    assert captured.out == f"planned call {path}: not compared: {why}\n"
    assert json.loads((tmp_path / "r.json").read_text()) == {
        "mode": "planned-call", "exit_code": 3,
        "wrappers": [{"path": str(path), "verdict": "not compared", "detail": why}]}
