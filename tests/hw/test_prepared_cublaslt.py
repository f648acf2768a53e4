# SPDX-License-Identifier: Apache-2.0
"""The cached cuBLASLt tier of the planned call's CUDA GEMMs (shims/cublaslt_plans.h)
on a real GPU.

A GEMM the tier takes is planned at its problem's first call, and checked there
bit for bit against ATen's own kernel. From then on it runs through the plan.
The tier takes ``addmm`` with a bias, and ``mm`` and ``bmm`` where cuBLASLt is
ATen's preferred BLAS backend (on the default backend ATen calls cuBLAS for them
and they keep static dispatch: ``cublas``); tests that plan ``mm`` prefer it.
Each test compares the planned call's bits with ATen's own call (``torch.mm(out=)``
and so on) on identical inputs, and counts how each GEMM ran."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: these tests run on an NVIDIA GPU", allow_module_level=True)

from fastlaunch.runtime import aten_ops  # noqa: E402
from helpers import call_trace  # noqa: E402
from helpers.gemm_oracle import cublaslt_counts, global_flags  # noqa: E402

pytestmark = pytest.mark.cuda

_WRAPPER = """import torch
from torch._inductor.select_algorithm import extern_kernels
def call(args):
    {names}, out = args
    args.clear()
    extern_kernels.{op}({names}, {extra}out=out)
    return (out,)
"""
_OPS = {"mm": ("a, b", ""), "bmm": ("a, b", ""), "addmm": ("x, a, b", "alpha=1, beta=1, ")}


@pytest.fixture(autouse=True)
def _enabled():
    """fastlaunch on for the test (the planned call runs its program only then)."""
    from fastlaunch import config

    with config.override(enabled=True, strict=False):
        yield


@pytest.fixture(scope="module")
def shim():
    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
    built, _, _ = aten_ops.cublaslt()
    assert built, "the ATen shim was built without the cuBLASLt tier (CUDA headers not found)"
    return aten_ops


@pytest.fixture
def prefer_cublaslt():
    """cuBLASLt as ATen's preferred BLAS backend for the test: where the tier takes
    ``mm`` and ``bmm`` (ATen builds their cuBLASLt state per call then)."""
    with global_flags(blas_library="cublaslt"):
        yield


def _planned(tmp_path, op):
    names, extra = _OPS[op]
    path = tmp_path / f"{op}.py"
    path.write_text(_WRAPPER.format(names=names, op=op, extra=extra))
    return call_trace.plan_file(path, native=1)[1]


def _capture(call, args):
    """A CUDA graph of ``call(args)``, captured on a side stream as torch.cuda.graph
    wants."""
    graph = torch.cuda.CUDAGraph()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream), torch.cuda.graph(graph, stream=stream):
        call(args)
    torch.cuda.current_stream().wait_stream(stream)
    return graph


def _aten(op, inputs, out):
    if op == "addmm":
        return torch.addmm(*inputs, alpha=1, beta=1, out=out)
    return getattr(torch, op)(*inputs, out=out)


def _release():
    """(major, minor) of the installed torch: ATen's workspace maps differ by release."""
    return tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])


def _bits(t):
    return t.view(torch.int16 if t.element_size() == 2 else torch.int32)


# (op, input shapes, {operand index: form}): the 12-layer GPT-2's GEMMs, a
# transposed weight (nn.Linear's), a bias, batches, and the layouts where the
# mapping to cuBLASLt's column-major operands could go wrong: a sliced leading
# dimension, storage offsets (alignments below 256 bytes), an expanded batch
# (batch stride 0), n = 1, k = 1.
PROBLEMS = [
    ("mm", [(16, 256), (256, 768)], {}),
    ("mm", [(16, 256), (256, 1024)], {}),
    ("mm", [(16, 1024), (1024, 256)], {}),
    ("mm", [(16, 256), (768, 256)], {1: "t"}),
    ("mm", [(33, 70), (96, 70)], {1: "t"}),
    ("mm", [(40, 24), (24, 56)], {0: "ld", 1: "ld"}),
    ("mm", [(40, 24), (24, 56)], {0: "off1", 1: "off2"}),
    ("mm", [(40, 24), (56, 24)], {0: "off4", 1: "t"}),
    ("mm", [(40, 24), (24, 1)], {}),
    ("mm", [(40, 1), (1, 56)], {}),
    ("addmm", [(768,), (16, 256), (256, 768)], {}),
    ("addmm", [(256,), (16, 1024), (256, 1024)], {2: "t"}),
    ("addmm", [(56,), (40, 24), (24, 56)], {0: "off1", 1: "ld"}),
    ("bmm", [(4, 16, 64), (4, 64, 16)], {}),
    ("bmm", [(4, 16, 64), (4, 16, 64)], {1: "t"}),
    ("bmm", [(4, 16, 64), (1, 64, 16)], {1: "bexp"}),
    ("bmm", [(3, 20, 12), (3, 12, 8)], {0: "ld", 1: "off2"}),
]


def _operand(shape, form, dtype, generator):
    """A tensor of `shape` stored as `form` says: "t" the transpose of a tensor
    of that shape (`shape` is its storage's), "ld" a slice of a wider tensor
    (leading dimension + 5), "offN" at a storage offset of N elements, "bexp" a
    batch of 1 expanded."""
    def randn(*size):
        return torch.randn(size, device="cuda", dtype=dtype, generator=generator)

    if form == "t":
        return randn(*shape).transpose(-1, -2)
    if form == "ld":
        return randn(*shape[:-1], shape[-1] + 5)[..., :shape[-1]]
    if form.startswith("off"):
        offset = int(form[3:])
        numel = 1
        for size in shape:
            numel *= size
        return randn(numel + offset)[offset:].view(shape)
    if form == "bexp":
        return randn(*shape)  # expanded to the batch by _inputs
    return randn(*shape)


def _inputs(shapes, forms, dtype, seed):
    generator = torch.Generator(device="cuda").manual_seed(seed)
    inputs = [_operand(shape, forms.get(i, ""), dtype, generator)
              for i, shape in enumerate(shapes)]
    for i, form in forms.items():
        if form == "bexp":
            inputs[i] = inputs[i].expand(inputs[0].shape[0], *inputs[i].shape[1:])
    return inputs


@pytest.mark.parametrize("backend", ["default", "cublaslt"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16],
                         ids=["fp32", "fp16", "bf16"])
@pytest.mark.parametrize("tf32", [False, True], ids=["tf32_off", "tf32_on"])
def test_planned_gemms_are_atens_bits(shim, tmp_path, dtype, tf32, backend):
    """Every problem, three calls each with new inputs. The first plans and checks
    (ATen's kernel runs); the others run the plan, or ATen's kernel where the check
    refused it (counted by reason). fp16 and bf16 keep ATen's kernel, and so do
    ``mm`` and ``bmm`` on ATen's default BLAS backend. Every result is ATen's, bit
    for bit."""
    if tf32 and dtype != torch.float32:
        pytest.skip("TF32 applies to fp32 only")
    calls = {op: _planned(tmp_path, op) for op in _OPS}
    with global_flags(cuda_tf32=tf32, blas_library=backend):
        aten_ops.reset_cublaslt()
        for op, shapes, forms in PROBLEMS:
            for seed in range(3):
                inputs = _inputs(shapes, forms, dtype, seed)
                rows = inputs[-2].shape[:-1] if op != "bmm" else inputs[0].shape[:-1]
                out_shape = (*rows, inputs[-1].shape[-1])
                expected = _aten(op, inputs, torch.empty(out_shape, device="cuda", dtype=dtype))
                out = torch.empty(out_shape, device="cuda", dtype=dtype)
                (actual,) = calls[op]([*inputs, out])
                assert actual is out
                assert torch.equal(_bits(actual), _bits(expected)), (op, shapes, forms)
        planned, declined = cublaslt_counts(aten_ops)
    assert planned + sum(declined.values()) == 3 * len(PROBLEMS)  # each GEMM counted once
    if dtype != torch.float32:  # the accumulator's bits are rounded away: no check can tell
        assert declined == {"reduced_precision": 3 * len(PROBLEMS)}
        return
    # each problem planned and checked, but the broadcast batch (a form the tier
    # leaves) and, on the default backend, the other mm and bmm problems (cuBLAS's)
    kept = {"form": 3}
    if backend == "default":
        kept["cublas"] = 3 * sum(op != "addmm" and "bexp" not in forms.values()
                                 for op, _, forms in PROBLEMS)
    assert set(declined) - set(kept) <= {"first_call", "mismatch"}, declined
    assert {reason: declined.get(reason, 0) for reason in kept} == kept, declined
    assert planned > 0, declined  # the tier ran: a supported setup that plans nothing fails


def test_planning_leaves_the_random_state(shim, prefer_cublaslt, tmp_path):
    """The check draws its inputs from a private generator: torch's CPU and CUDA
    random states are the same after a problem was planned."""
    mm = _planned(tmp_path, "mm")
    a, b = _inputs([(24, 40), (40, 56)], {}, torch.float32, 7)
    cpu, cuda = torch.get_rng_state(), torch.cuda.get_rng_state()
    aten_ops.reset_cublaslt()
    mm([a, b, torch.empty(24, 56, device="cuda")])
    assert aten_ops.cublaslt()[2] in ({"first_call": 1}, {"mismatch": 1})  # planned, checked
    assert torch.equal(torch.get_rng_state(), cpu)
    assert torch.equal(torch.cuda.get_rng_state(), cuda)


#: The caching allocator's counts that any allocation of its memory changes.
_ALLOCATOR = ("allocation.all.allocated", "allocated_bytes.all.peak",
              "reserved_bytes.all.current", "segment.all.allocated", "num_alloc_retries",
              "num_ooms")


def _allocator_state():
    stats = torch.cuda.memory_stats()
    return {key: stats.get(key, 0) for key in _ALLOCATOR}


def test_the_check_leaves_the_caching_allocator_alone(shim, tmp_path):
    """The check's samples take memory of their own from CUDA: planning an ``addmm``
    with a bias makes no allocation in the caching allocator, so its peak, its
    reserved memory and its counts are what the call itself leaves (the
    allocator's peak over a step stays stock's even where a problem is first seen
    at it; the device's own use rises by the check's block while it runs)."""
    addmm = _planned(tmp_path, "addmm")
    x, a, b = _inputs([(1024,), (512, 768), (768, 1024)], {}, torch.float32, 11)
    out = torch.empty(512, 1024, device="cuda")
    torch.addmm(x, a, b)  # ATen's cuBLASLt workspace made, as a stock step makes it
    torch.cuda.synchronize()
    aten_ops.reset_cublaslt()
    torch.cuda.reset_peak_memory_stats()
    before = _allocator_state()
    addmm([x, a, b, out])
    torch.cuda.synchronize()
    if aten_ops.cublaslt()[1:] == ({}, {"mismatch": 1}):
        pytest.skip("the plan differed from ATen's on the first input set: the check "
                    "stopped there, before its other two sets")
    assert aten_ops.cublaslt()[1:] == ({}, {"first_call": 1})
    assert _allocator_state() == before


def test_the_checks_memory_goes_back_to_cuda(shim, tmp_path):
    """Each check's block is freed on its stream and its pool destroyed: eight
    problems checked in turn (about 20 MiB of block each) leave the device's free
    memory where it was, give or take kernels CUDA loads on first use (a block
    kept would be 160 MiB)."""
    addmm = _planned(tmp_path, "addmm")
    widths = [1024 + 64 * i for i in range(8)]
    problems = [_inputs([(n,), (1024, 768), (768, n)], {}, torch.float32, 20 + i)
                for i, n in enumerate(widths)]
    outs = [torch.empty(1024, n, device="cuda") for n in widths]
    for (x, a, b), out in zip(problems, outs):
        torch.addmm(x, a, b, out=out)  # ATen's kernels loaded and its workspace made first
    torch.cuda.synchronize()
    aten_ops.reset_cublaslt()
    free = torch.cuda.mem_get_info()[0]
    for (x, a, b), out in zip(problems, outs):
        addmm([x, a, b, out])
    torch.cuda.synchronize()
    declined = aten_ops.cublaslt()[2]
    assert sum(declined.values()) == 8 and set(declined) <= {"first_call", "mismatch"}, declined
    assert free - torch.cuda.mem_get_info()[0] < 16 << 20


def test_without_memory_free_for_the_check_the_gemm_keeps_atens_kernel(shim, tmp_path):
    """Where CUDA has too little memory free for the check's samples (the caching
    allocator holds nearly all of it here), the problem keeps ATen's kernel
    (``memory``, kept for later calls). The allocator's out-of-memory path never
    runs (no cache emptied, no retry or OOM counted), and the failed allocation
    leaves no CUDA error behind for torch's next check to read."""
    addmm = _planned(tmp_path, "addmm")
    # the check's block is about 68 MiB here: samples 8 + 8 + 16 + 16 MiB, scratch 16, flags 4
    x, a, b = _inputs([(2048,), (2048, 1024), (1024, 2048)], {}, torch.float32, 13)
    out = torch.empty(2048, 2048, device="cuda")
    expected = torch.addmm(x, a, b)
    torch.cuda.synchronize()
    aten_ops.reset_cublaslt()
    torch.cuda.empty_cache()  # all the free memory CUDA's: the next allocation takes it
    free, _ = torch.cuda.mem_get_info()
    held = torch.empty(free - (32 << 20), dtype=torch.uint8, device="cuda")
    try:
        before = _allocator_state()
        left = torch.cuda.mem_get_info()[0]
        assert left < 48 << 20, f"{left} bytes still free: the check would fit"
        for _ in range(2):
            addmm([x, a, b, out])
        torch.cuda.synchronize()
        after = _allocator_state()
    finally:
        del held
        torch.cuda.empty_cache()  # the memory back to CUDA, for the next tests' checks
    assert aten_ops.cublaslt()[1:] == ({}, {"memory": 2})
    assert after == before
    assert torch.equal(_bits(out), _bits(expected))
    assert torch.equal(_bits(torch.addmm(x, a, b)), _bits(expected))  # no error left behind


def test_the_devices_kernels_keep_subnormals():
    """A check of the machine, not of the shim: the tier's check makes its edge
    inputs on the GEMM's device, multiplying samples into fp32's subnormal range
    with torch's kernel, and a device whose kernels flushed them to zero would
    leave it comparing zeros where it means subnormals."""
    generator = torch.Generator("cuda").manual_seed(0)
    values = torch.randn(4096, device="cuda", generator=generator) * 2.0**-130
    subnormal = (values != 0) & (values.abs() < torch.finfo(torch.float32).tiny)
    assert subnormal.sum().item() > 4000


def test_deterministic_mode_keeps_atens_kernel(shim, prefer_cublaslt, tmp_path):
    mm = _planned(tmp_path, "mm")
    a, b = _inputs([(16, 256), (256, 768)], {}, torch.float32, 0)
    aten_ops.reset_cublaslt()
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        for _ in range(2):
            mm([a, b, torch.empty(16, 768, device="cuda")])
    finally:
        torch.use_deterministic_algorithms(False)
    assert aten_ops.cublaslt()[1:] == ({}, {"deterministic": 2})


def test_first_call_in_a_graph_capture_plans_nothing(shim, prefer_cublaslt, tmp_path):
    """A problem first seen while a CUDA graph is captured cannot be checked (the
    check synchronizes): the call keeps ATen's kernel in the graph, and the replay
    gives ATen's bits."""
    mm = _planned(tmp_path, "mm")
    a, b = _inputs([(40, 72), (72, 24)], {}, torch.float32, 3)
    out = torch.empty(40, 24, device="cuda")
    expected = torch.mm(a, b)
    aten_ops.reset_cublaslt()
    graph = _capture(mm, [a, b, out])
    assert aten_ops.cublaslt()[1:] == ({}, {"capture": 1})
    out.zero_()
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(_bits(out), _bits(expected))


def test_a_planned_problem_runs_in_a_graph_capture(shim, prefer_cublaslt, tmp_path):
    """Once planned, the GEMM is captured through its plan (ATen's workspace, the
    capture's stream) and the replay gives ATen's bits."""
    mm = _planned(tmp_path, "mm")
    a, b = _inputs([(16, 320), (320, 640)], {}, torch.float32, 5)
    out = torch.empty(16, 640, device="cuda")
    aten_ops.reset_cublaslt()
    for _ in range(2):
        mm([a, b, out])  # plan and check, then run the plan
    planned, declined = cublaslt_counts(aten_ops)
    if declined.get("mismatch"):
        pytest.skip(f"this GPU's cuBLASLt choice differs from ATen's for the problem: {declined}")
    assert planned == 1, declined
    expected = torch.mm(a, b)
    graph = _capture(mm, [a, b, out])
    assert cublaslt_counts(aten_ops)[0] == 2
    out.zero_()
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(_bits(out), _bits(expected))


@pytest.mark.parametrize("setting", ["tunable", "sync_debug", "switch_off"])
def test_settings_that_keep_atens_kernel(shim, prefer_cublaslt, tmp_path, setting):
    """TunableOp on, sync-debug mode (the check would synchronize) and
    ``prepare(True, cublaslt=False)``: the GEMM keeps static dispatch, ATen's bits,
    and no plan is made (the same problem plans once the setting is gone)."""
    mm = _planned(tmp_path, "mm")
    rows = {"tunable": 48, "sync_debug": 49, "switch_off": 50}[setting]  # a new problem each
    a, b = _inputs([(rows, 88), (88, 24)], {}, torch.float32, 11)
    expected = torch.mm(a, b)
    aten_ops.reset_cublaslt()
    aten_ops.reset_static_ops()
    if setting == "tunable":  # ATen's TunableOp on, tuning off: nothing tuned or written
        torch.cuda.tunable.set_filename(str(tmp_path / "tunableop.csv"))
        torch.cuda.tunable.tuning_enable(False)
        torch.cuda.tunable.enable(True)
    elif setting == "sync_debug":
        torch.cuda.set_sync_debug_mode("warn")
    else:
        aten_ops.prepare(True, cublaslt=False)
    try:
        out = torch.empty(rows, 24, device="cuda")
        mm([a, b, out])
    finally:
        torch.cuda.tunable.enable(False)
        torch.cuda.tunable.tuning_enable(True)
        torch.cuda.set_sync_debug_mode(0)
        aten_ops.prepare(True)
    torch.cuda.synchronize()
    assert torch.equal(_bits(out), _bits(expected))
    kept = {} if setting == "switch_off" else {setting: 1}
    assert aten_ops.cublaslt()[1:] == ({}, kept)
    assert sum(aten_ops.static_ops().values()) == 1
    mm([a, b, torch.empty(rows, 24, device="cuda")])  # now planned and checked
    assert set(aten_ops.cublaslt()[2]) - set(kept) <= {"first_call", "mismatch"}
    aten_ops.reset_cublaslt()
    assert aten_ops.cublaslt()[1:] == ({}, {})


def test_two_threads_run_one_bias_plan_at_once(shim, tmp_path):
    """Two Python threads run planned ``addmm`` with a bias on one problem at the
    same time, each on its own stream. They share the problem's plan, whose one
    descriptor holds the bias pointer of the call running it (set under the plan's
    mutex, the GIL released): every result is ATen's bits for its own bias."""
    import threading

    addmm = _planned(tmp_path, "addmm")
    # problems no other test plans (plans live as long as the process): the
    # first whose check passed on this GPU, after its first call planned it
    for rows, k, n in [(16, 128, 384), (24, 96, 320), (8, 160, 192)]:
        shapes = [(n,), (rows, k), (k, n)]
        for seed in range(2):
            aten_ops.reset_cublaslt()
            addmm([*_inputs(shapes, {}, torch.float32, seed), torch.empty(rows, n, device="cuda")])
        if cublaslt_counts(aten_ops) == (1, {}):
            break
    else:
        pytest.skip("no plan passed its check for the three problems on this GPU")
    calls = 200
    _, a, b = _inputs(shapes, {}, torch.float32, 1)
    generator = torch.Generator(device="cuda").manual_seed(2)
    biases = [[torch.randn(n, device="cuda", generator=generator) for _ in range(calls)]
              for _ in range(2)]  # each call its own bias: a pointer another call set shows
    outs = [[torch.empty(rows, n, device="cuda") for _ in range(calls)] for _ in range(2)]
    torch.cuda.synchronize()
    start, errors = threading.Barrier(2), []

    def run(thread):
        try:
            with torch.cuda.stream(torch.cuda.Stream()):
                start.wait()
                for bias, out in zip(biases[thread], outs[thread]):
                    (actual,) = addmm([bias, a, b, out])
                    assert actual is out
                torch.cuda.current_stream().synchronize()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    aten_ops.reset_cublaslt()
    threads = [threading.Thread(target=run, args=(thread,)) for thread in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert cublaslt_counts(aten_ops) == (2 * calls, {})  # every call ran the one plan
    for thread in range(2):
        for bias, out in zip(biases[thread], outs[thread]):
            expected = _aten("addmm", [bias, a, b], torch.empty(rows, n, device="cuda"))
            assert torch.equal(_bits(out), _bits(expected)), thread


def test_plans_run_on_atens_cublas_workspace(shim, tmp_path):
    """A plan allocates nothing stock's own call of its op did not: it runs on
    the workspace ATen's cuBLAS calls use on its handle and stream. First with
    `addmm` problems of one row, which ATen's `addmm` sends to cuBLAS: a plan
    there must not make ATen's cuBLASLt workspace, which stock never makes (the
    training rows once peaked 1 MiB above stock's that way, through `mm`); then,
    should none of those plan on this GPU, with `addmm` on ATen's own cuBLASLt
    path, where plans pass their check on every GPU so far: nothing more than
    ATen's. Each problem on a fresh stream: no workspace exists for it yet,
    whatever the tests before this one ran."""
    if _release() < (2, 10):
        pytest.skip(f"torch {torch.__version__}: plans run on ATen's cuBLASLt workspace "
                    "(its workspace maps have no lock before 2.10)")
    # problems no other test plans (plans live as long as the process), cuBLAS's first
    problems = [((1, 176, 352), {}), ((1, 112, 416), {}), ((1, 768, 2304), {}),
                ((16, 176, 352), {}), ((24, 112, 416), {}), ((768, 16, 2304), {0: "t"})]
    addmm, declines = _planned(tmp_path, "addmm"), {}
    for (rows, k, n), forms in problems:
        a_shape = (k, rows) if forms.get(0) == "t" else (rows, k)
        inputs = [torch.randn(n, device="cuda"),
                  *_inputs([a_shape, (k, n)], forms, torch.float32, 13)]
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            outs = [torch.empty(rows, n, device="cuda") for _ in range(2)]
            expected = _aten("addmm", inputs, torch.empty(rows, n, device="cuda"))  # stock's
            torch.cuda.synchronize()
            before = torch.cuda.memory_allocated()
            aten_ops.reset_cublaslt()
            addmm([*inputs, outs[0]])  # planned and checked (its temporaries are freed)
            addmm([*inputs, outs[1]])
            torch.cuda.synchronize()
            allocated = torch.cuda.memory_allocated()
        planned, declines[rows, k, n] = cublaslt_counts(aten_ops)
        if planned == 1:
            break
    else:
        pytest.skip(f"no plan passed its check on this GPU: {declines}")
    assert allocated == before, (rows, k, n)
    assert torch.equal(_bits(outs[1]), _bits(expected))


_NO_SHARED_WORKSPACE = """
import pathlib, sys
import torch
sys.path.insert(0, {tests!r})
from fastlaunch import config
from fastlaunch.runtime import aten_ops
from helpers import call_trace
from helpers.gemm_oracle import cublaslt_counts

path = pathlib.Path({wrapper!r})
with config.override(enabled=True, strict=False):
    assert aten_ops.ensure(build=True, wait=True), aten_ops.status()
    addmm = call_trace.plan_file(path, native=1)[1]
    x, a, b = (torch.randn(24, device="cuda"), torch.randn(40, 88, device="cuda"),
               torch.randn(88, 24, device="cuda"))
    out = torch.empty(40, 24, device="cuda")
    aten_ops.reset_cublaslt()
    addmm([x, a, b, out])  # static dispatch: ATen's cuBLASLt path makes its workspace
    print("before", cublaslt_counts(aten_ops))
    addmm([x, a, b, out])
    print("after", cublaslt_counts(aten_ops))
    torch.cuda.synchronize()
    assert torch.equal(out, torch.addmm(x, a, b))
"""


def test_without_a_workspace_to_share_the_gemm_keeps_atens_kernel(tmp_path):
    """ATen's cuBLAS calls without a workspace (``CUBLAS_WORKSPACE_CONFIG=:0:0``),
    its cuBLASLt path on a workspace of its own (``CUBLASLT_WORKSPACE_SIZE=1024``
    KiB, ``TORCH_CUBLASLT_UNIFIED_WORKSPACE=0``) that no ATen call has made yet: a
    plan would have to allocate memory stock does not, so the first ``addmm`` with
    a bias keeps ATen's kernel (`workspace`), unplanned; that call, ATen's own
    cuBLASLt path, makes ATen's workspace, and the next call plans and checks the
    problem on it."""
    import ast
    import os
    import pathlib
    import subprocess
    import sys

    if _release() < (2, 10):
        pytest.skip(f"torch {torch.__version__}: plans run on ATen's cuBLASLt workspace "
                    "(its workspace maps have no lock before 2.10)")
    wrapper = tmp_path / "addmm.py"
    names, extra = _OPS["addmm"]
    wrapper.write_text(_WRAPPER.format(names=names, op="addmm", extra=extra))
    tests = str(pathlib.Path(__file__).resolve().parents[1])
    env = dict(os.environ, CUBLAS_WORKSPACE_CONFIG=":0:0", CUBLASLT_WORKSPACE_SIZE="1024",
               TORCH_CUBLASLT_UNIFIED_WORKSPACE="0")
    done = subprocess.run([sys.executable, "-c", _NO_SHARED_WORKSPACE.format(
        tests=tests, wrapper=str(wrapper))], env=env, capture_output=True, text=True,
        timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    counts = {label: ast.literal_eval(value) for label, value in (
        line.split(" ", 1) for line in done.stdout.splitlines()
        if line.startswith(("before", "after")))}
    assert counts["before"] == (0, {"workspace": 1}), done.stdout
    assert counts["after"] in ((0, {"workspace": 1, "first_call": 1}),
                               (0, {"workspace": 1, "mismatch": 1})), done.stdout
