# SPDX-License-Identifier: Apache-2.0
"""fastlaunch's NPU backend against triton-ascend's own generated launcher.

For each case, a triton-ascend generator (``generate_npu_wrapper_src``, or
``make_launcher`` on newer branches) renders the launcher, g++ builds it
against stub CANN/torch headers and the recording runtime, and its
``launch(...)`` runs with Python values; fastlaunch's ``NpuBackend`` then
runs the same case on the same recorder, planned from what ``family.detect``
read in that tree. Everything either side tells the runtime, the task queue,
the allocator, the pointer queries and the profiler is compared.

The generators: the released 3.2.0 wheel's, always, and every further
triton-ascend tree (its ``backend`` folder: release/3.2.x to 3.6.x, main) in
``FASTLAUNCH_TRITON_ASCEND_TREES`` (``label=path`` or ``path`` entries,
separated by ``:``); without it the tests that need a newer generator skip,
saying so.
"""

from __future__ import annotations

import itertools
import math
import struct
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastlaunch import CallRefused  # noqa: E402
from fastlaunch.runtime.npu import family as families  # noqa: E402
from fastlaunch.runtime.npu import kernel_meta  # noqa: E402
from fastlaunch.tools.selfcheck import ascend_reference as ar  # noqa: E402
from helpers import wheels  # noqa: E402
from helpers.oracle import cc  # noqa: E402

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler for the reference launcher")

RENDERED = ("i1", "i32", "i64", "u32", "u64", "fp16", "bf16", "fp32", "f32", "fp64")
NARROW = ("i8", "i16", "u1", "u8", "u16")  # 3.2.0's generator has no C type for them
POINTEES = ("fp32", "fp16", "bf16", "i32", "i64", "i8", "u8", "i1", "fp64")
FFTS = 0xFF75000000
TREES_ENV = wheels.TREES_ENV
EXTRA_TREES = wheels.triton_ascend_trees()
TREES = ("3.2.0", *EXTRA_TREES)


@pytest.fixture(scope="module")
def diff():
    try:
        generators = {"3.2.0": ar.Generator(wheels.triton_ascend_backend())}
        recorder = ar.CannRecorder(ar.build_recorder())
    except ar.Unavailable as err:
        pytest.skip(str(err))
    # A named tree that does not load is a failure, not a skip: selfcheck must load it.
    generators.update({label: ar.Generator(Path(path)) for label, path in EXTRA_TREES.items()})
    return ar.Differential(recorder, generators)


def detected(diff, which):
    found = families.detect(diff.generators[which].read)
    assert found.family is not None, found
    return found.family


def ptr(i: int) -> int:
    return 0x10000000 + 0x1000 * i


def value_for(ty: str, i: int):
    """A distinctive in-range value of type ``ty`` for argument ``i``."""
    if ty.startswith("*"):
        return ptr(i)
    return {"i1": i % 2, "i32": -1000 - i, "i64": -(2**40) - i, "u32": 3_000_000_000 + i,
            "u64": 2**63 + i, "fp16": 0.5 + i, "bf16": -1.5 - i, "fp32": 1.25 * i,
            "f32": 2.5 + i, "fp64": 1e300 / (i + 1), "i8": 200 - i, "i16": -30000 + i,
            "u1": 1, "u8": 200 + i % 50, "u16": 60000 + i}[ty]


def call(signature, args=None, grid=(2, 3, 1), **case):
    signature = tuple(signature)
    if args is None:
        args = tuple(value_for(t, i) for i, t in enumerate(signature))
    keys = ("stream", "handle", "profiling", "host_below")
    for key in keys:
        case.setdefault(key, ar.LauncherCall.__dataclass_fields__[key].default)
    extra = {k: case.pop(k) for k in keys}
    return ar.LauncherCall(ar.Case(signature, **case), tuple(args), grid, **extra)


ALL_KINDS = ("*fp32", *RENDERED, "*i8", *RENDERED[::-1])
TENSORS = tuple(ar.FakeTensor(ptr(i), (2, 3 + i)) for i in range(4))

TARGETED = {
    "all_scalar_kinds": call(ALL_KINDS),
    "narrow_scalar_kinds": call(("*fp32", *NARROW, "i32", *NARROW[::-1])),
    "narrow_scalar_edges": call(("i8", "i8", "i16", "u8", "u16", "u1"),
                                (0, 255, -32768, -1, 2**20 + 7, 2**33 + 1)),
    "constexpr_entries": call(("*fp32", "constexpr", "i32", "constexpr"),
                              (ptr(0), 128, 7, None), constants={1: 128, 3: None}),
    "host_memory_tensor": call(("*fp32", "*fp32", "i32"), (ar.FakeTensor(0x1000), ptr(1), 3),
                               host_below=0x2000),
    "pointers_int_none_tensor": call(("*fp32", "*fp16", "*i8", "i32"),
                                     (ptr(1), None, ar.FakeTensor(ptr(3)), 7)),
    "null_tensor_pointer": call(("*fp32", "*fp32"), (ar.FakeTensor(0), ptr(1))),
    "ffts_off_by_env": call(("*fp32", "i32"), disable_ffts=True),
    "ffts_off_by_arch": call(("*fp32", "i32"), arch="Ascend310B4"),
    "ffts_on_named_arch": call(("*fp32", "i32"), arch="Ascend910B2"),
    "workspace": call(("*fp32", "i64"), workspace_size=256, grid=(3, 2, 1)),
    "workspace_zero": call(("*fp32", "i64"), workspace_size=0),
    "locks": call(("*fp32", "i32"), lock_num=4, lock_init_value=0),
    "locks_init_value": call(("*fp32", "i32"), lock_num=3, lock_init_value=-7),
    "workspace_and_locks": call(("*fp32", "fp32"), workspace_size=64, lock_num=2,
                                lock_init_value=1),
    "metadata_without_memory_fields": call(("*fp32",), workspace_size=None, lock_num=None,
                                           lock_init_value=None),
    "pure_simt": call(("*fp32", "i32", "*fp32"), force_simt_only=True, parallel_mode="simt",
                      shared_mem_dynamic_size=122880),
    "pure_simt_910_95": call(("*fp32", "i32", "*fp32"), force_simt_only=True,
                             parallel_mode="simt", compile_on_910_95=True,
                             shared_mem_dynamic_size=122880),
    "pure_simt_with_workspace": call(("*fp32", "i32"), force_simt_only=True,
                                     parallel_mode="simt", workspace_size=64),
    "pure_simt_with_locks": call(("*fp32", "i32"), force_simt_only=True, parallel_mode="simt",
                                 lock_num=2, lock_init_value=3),
    "simt_on_910_95": call(("*fp32", "i64"), parallel_mode="mix_simd_simt",
                           compile_on_910_95=True),
    "simt_not_910_95": call(("*fp32", "i64"), parallel_mode="mix_simd_simt"),
    "simt_uppercase_mode": call(("*fp32",), parallel_mode="SIMT", compile_on_910_95=True),
    "mix_mode_aic": call(("*fp32",), mix_mode="aic"),
    "mix_mode_mix": call(("*fp32",), mix_mode="mix"),
    "constants_size_one": call(("*fp32", "*fp32", "i32", "i32"), (ptr(0), ptr(1), 1, 1024),
                               constants={2: 1}),
    "constants_size_one_each": call(("i32", "*fp32", "i64", "i32", "fp32"),
                                    (1, ptr(1), 1, 1, 0.5), constants={0: 1, 2: 1, 3: 1}),
    "no_args": call(()),
    "hundred_args": call(tuple(itertools.islice(itertools.cycle(
        ("*fp32", "i32", "fp64", "u32", "i64", "*bf16", "fp16", "i1")), 100))),
    "long_kernel_name": call(("*fp32",), name="triton_red_fused__native_layer_norm_"
                                              "native_layer_norm_backward_sum_123"),
    "taskqueue_off": call(("*fp32", "i32"), taskqueue=False),
    "taskqueue_off_locks": call(("*fp32", "i32"), taskqueue=False, lock_num=2),
    "grid_3d": call(("*fp32",), grid=(7, 5, 3)),
    "profiling_l0": call(("*fp32", "*fp32", "i32"), (*TENSORS[:2], 5), profiling=1,
                         tensor_kinds=(0, 1)),
    "profiling_l1": call(("*fp32", "*fp16", "i32"), (*TENSORS[:2], 5), profiling=2,
                         tensor_kinds=(0, 2)),
    "profiling_l1_mix_task": call(("*fp32", "*fp32"), TENSORS[:2], profiling=2,
                                  tensor_kinds=(0, 1), bs_task_type=41, mix_mode="mix"),
    "profiling_l1_task_types": call(("*fp32",), TENSORS[:1], profiling=2, tensor_kinds=(1,),
                                    bs_task_type=32),
}
# Values and streams the original launcher accepts although they are out of
# range for their slot (PyArg_ParseTuple "I"/"K" wrap, "i" keeps i1's 2, "f"
# overflows to inf) and a null stream it passes on unchecked.
EDGES = {
    "u32_wraps": call(("u32", "u32"), (-1, 2**32 + 5)),
    "u64_wraps": call(("u64", "u64"), (-1, 2**64 + 3)),
    "i1_given_2": call(("i1", "i1"), (2, -3)),
    "fp32_overflows_to_inf": call(("fp32", "fp16", "bf16"), (1e39, -1e39, 3.5e38)),
    "int_for_float": call(("fp32", "fp64"), (3, 2**70)),
    "bool_for_int": call(("i32", "i64", "u32"), (True, False, True)),
    "bool_for_pointer": call(("*fp32", "*fp16", "i32"), (True, False, 3)),
    "stream_0": call(("*fp32", "i32"), stream=0),
}


def renders(diff, which, c: ar.LauncherCall) -> bool:
    """Whether the tree's generator renders the case (it raises KeyError on a
    type it has no C type or parse format for: no such launcher exists)."""
    try:
        diff.generators[which].render(c.case)
    except KeyError:
        return False
    return True


@pytest.fixture(scope="module")
def launchers(diff):
    """Every targeted and edge case the tree's generator renders, built once per tree."""
    calls = {**TARGETED, **EDGES}
    out = {}
    for which in diff.generators:
        keys = [k for k, c in calls.items() if renders(diff, which, c)]
        built = diff.build(which, [calls[k].case for k in keys])
        out.update({(which, key): fn for key, fn in zip(keys, built)})
    return out


def launcher_for(diff, launchers, which, key):
    if which not in diff.generators:
        pytest.skip(f"{TREES_ENV} names no tree {which!r}")
    if (which, key) not in launchers:
        pytest.skip(f"the {which} generator does not render {key}'s types")
    return launchers[which, key]


def compare(diff, launch, which: str, c: ar.LauncherCall):
    ref = diff.reference(which, launch, c)
    got = diff.fastlaunch(which, c)
    return ref, got


def assert_same(ref, got, c):
    """Same calls; under msprof, the call goes to the original launcher (so
    its records are the original's) and never while msprof is off."""
    assert ref.error is None, f"the reference launcher refused {c}: {ref.error!r}"
    assert got.error is None, f"fastlaunch raised where the original launched: {got.error!r}"
    assert got.full_entry == bool(c.profiling), "msprof state misread"
    if not got.full_entry:
        assert ar.differences(ref.observed, got.observed) == []


def assert_refused_like_the_original(ref, got, c):
    """The original raised before launching: fastlaunch launched nothing
    either and handed the call back (the original path then raises)."""
    assert ref.observed["launches"] == [] and ref.observed["tasks"] == []
    assert isinstance(got.error, CallRefused), f"{c}: {got.error!r}"
    assert got.observed["launches"] == [] and got.observed["tasks"] == []


@pytest.mark.parametrize("which", TREES)
@pytest.mark.parametrize("key", list(TARGETED))
def test_targeted(diff, launchers, which, key):
    c = TARGETED[key]
    ref, got = compare(diff, launcher_for(diff, launchers, which, key), which, c)
    if ref.error is not None:  # only main's and 3.5.x's host-memory check raises here
        assert key == "host_memory_tensor" and detected(diff, which).checks_pointers
        assert "cannot be accessed from Triton" in str(ref.error)
        assert_refused_like_the_original(ref, got, c)
        assert got.error.reason == "host_pointer"
        assert got.observed["pointer_checks"] == ref.observed["pointer_checks"] == [0x1000]
        return
    assert ref.observed["launches"], "the reference launched nothing"
    assert_same(ref, got, c)


@pytest.mark.parametrize("which", TREES)
@pytest.mark.parametrize("key", list(EDGES))
def test_values_the_original_accepts(diff, launchers, which, key):
    """Same bytes, or the call handed back (CallRefused) before anything was
    submitted: never a hard error where the original launched."""
    c = EDGES[key]
    ref, got = compare(diff, launcher_for(diff, launchers, which, key), which, c)
    assert ref.error is None and ref.observed["launches"]
    if isinstance(got.error, CallRefused):
        assert key != "bool_for_pointer", "bools for pointers launch, as in the original"
        assert got.observed["launches"] == [] and got.observed["tasks"] == []
        return
    assert_same(ref, got, c)


def test_reference_launcher_is_the_released_one(diff, launchers):
    """The 3.2.0 wheel's generator untouched: rtKernelLaunch, the FFTS address
    asked for on every launch, 56 bytes for the size-1 reduction."""
    c = TARGETED["constants_size_one"]
    ref = diff.reference("3.2.0", launchers["3.2.0", "constants_size_one"], c)
    (launch,) = ref.observed["launches"]
    assert launch["api"] == "rtKernelLaunch" and launch["size"] == 56
    assert struct.unpack_from("<Q", bytes.fromhex(launch["args"]))[0] == FFTS
    assert ref.observed["ffts"] == ["rtGetC2cCtrlAddr"]
    assert ref.observed["pointer_checks"] == []  # 3.2.0 does not query addresses
    fam = detected(diff, "3.2.0")  # what family.detect reads in the wheel: its defaults
    assert (fam.scalar_kinds, fam.switches, fam.simt_local_memory, fam.checks_pointers,
            fam.generator) == (kernel_meta.KINDS_3_2, set(kernel_meta.SWITCHES), 216 * 1024,
                               False, "generate_npu_wrapper_src")


@pytest.mark.parametrize("which", TREES)
def test_original_refusals_launch_nothing_in_fastlaunch(diff, which):
    """Where the original raises before launching (an i32 out of range, a
    string for a float), fastlaunch must not launch either."""
    cases = [call(("i32", "fp32"), args) for args in ((2**31, 0), (0, "x"))]
    if renders(diff, which, call(("i8", "i16"))):  # 'b' takes 0..255, 'h' -32768..32767
        cases += [call(("i8", "i16"), args) for args in ((-1, 0), (256, 0), (0, 2**15))]
    for c, launch in zip(cases, diff.build(which, [c.case for c in cases])):
        ref, got = compare(diff, launch, which, c)
        assert ref.error is not None, c
        assert_refused_like_the_original(ref, got, c)


# ------------------------------------------------------------ what each generator renders


@pytest.mark.parametrize("which", TREES)
def test_scalar_kinds_are_planned_exactly_where_the_generator_renders_them(diff, which):
    """Each narrow kind: the real generator renders it (then fastlaunch plans
    it) or raises KeyError (then fastlaunch refuses it), as read from its source."""
    if which not in diff.generators:
        pytest.skip(f"{TREES_ENV} names no tree {which!r}")
    gen = diff.generators[which]
    outcome = {}
    for ty in NARROW:
        try:
            gen.render(ar.Case(("*fp32", ty)))
            rendered = True
        except KeyError:
            rendered = False
        try:
            diff.spec(which, call(("*fp32", ty)))
            planned = ""
        except kernel_meta.KernelMetaError as err:
            planned = err.reason
        outcome[ty] = (rendered, planned)
    assert all(p == ("" if r else "signature_type_unrenderable")
               for r, p in outcome.values()), outcome
    if which == "3.2.0":
        assert not any(r for r, _ in outcome.values())


def test_further_trees_are_named():
    """The run over triton-ascend's branches needs their sources (see the module docstring)."""
    if not EXTRA_TREES:
        pytest.skip(f"{TREES_ENV} is not set: only the 3.2.0 wheel's generator is compared")
    assert all(Path(path, "driver.py").is_file() for path in EXTRA_TREES.values()), EXTRA_TREES


# ------------------------------------------------------------ random mixes

POINTER = st.sampled_from(POINTEES).map(lambda t: "*" + t)


def _scalar_value(ty: str):
    """In-range values, and now and then what the original's parse formats
    also accept: any int for u32/u64 and the masked narrow kinds ("I"/"K"/"B"/"H"
    keep the low bits), any int32 for i1 ("i"), any double for the 4-byte
    floats ("f" overflows to inf); i8 is "b", an unsigned char (0..255)."""
    normal = {
        "i1": st.sampled_from([0, 1, True, False]),
        "i32": st.integers(-(2**31), 2**31 - 1), "i64": st.integers(-(2**63), 2**63 - 1),
        "u32": st.integers(0, 2**32 - 1), "u64": st.integers(0, 2**64 - 1),
        "fp64": st.floats(allow_nan=False, width=64),
        "i8": st.integers(0, 255), "i16": st.integers(-(2**15), 2**15 - 1),
        "u8": st.integers(0, 255), "u16": st.integers(0, 2**16 - 1), "u1": st.integers(0, 1),
    }.get(ty, st.floats(allow_nan=False, width=32))
    edge = {
        "i1": st.integers(-(2**31), 2**31 - 1), "u32": st.integers(-(2**70), 2**70),
        "u64": st.integers(-(2**70), 2**70), "u8": st.integers(-(2**70), 2**70),
        "u16": st.integers(-(2**70), 2**70), "u1": st.integers(-(2**70), 2**70),
    }.get(ty, st.floats(allow_nan=False) if ty in ("fp16", "bf16", "fp32", "f32") else None)
    if edge is None:
        return normal
    return st.one_of(normal, normal, normal, edge)


@st.composite
def random_call(draw, kinds: tuple[str, ...], checks_pointers: bool) -> ar.LauncherCall:
    profiling = draw(st.sampled_from([0, 0, 0, 1, 2]))
    n_ptr = draw(st.integers(0, 5))
    scalars = draw(st.lists(st.sampled_from(kinds), max_size=10))
    pointers = draw(st.lists(POINTER, min_size=n_ptr, max_size=n_ptr))
    # Pointers first: the original's msprof tensor info indexes its dtype table
    # by signature position, which is only initialised for leading pointers.
    signature = tuple(pointers + scalars) if profiling else tuple(
        draw(st.permutations(pointers + scalars)))
    args, constants = [], {}
    for i, ty in enumerate(signature):
        if ty.startswith("*"):
            if profiling:
                shape = tuple(draw(st.lists(st.integers(1, 64), min_size=1, max_size=9)))
                args.append(ar.FakeTensor(draw(st.integers(1, 2**64 - 1)), shape))
            else:
                args.append(draw(st.one_of(st.integers(0, 2**64 - 1), st.none(), st.booleans(),
                                           st.builds(ar.FakeTensor, st.integers(0, 2**64 - 1)))))
        elif ty in ("i32", "i64") and draw(st.integers(0, 5)) == 0:
            constants[i] = 1  # a size argument torch_npu specialised to 1
            args.append(1)
        else:
            args.append(draw(_scalar_value(ty)))
    if constants and len(constants) == len(signature):
        # The generator's struct initialiser is then a lone ',' (no C++ compiles).
        del constants[max(constants)]
    simt_mode = draw(st.sampled_from(["simd", "simt", "mix_simd_simt"]))
    pure = draw(st.booleans()) and simt_mode == "simt"
    arch = draw(st.sampled_from(["", "Ascend910B1", "Ascend310B4"]))
    disable_ffts = draw(st.booleans())
    lock_num = draw(st.sampled_from([-1, 0, 1, 5]))
    workspace = draw(st.sampled_from([-1, 0, 32, 1024]))
    if workspace > 0 and lock_num <= 0 and (disable_ffts or arch == "Ascend310B4"):
        # Then the generated launcher tests an uninitialised `ret` before
        # launching (undefined behaviour in the original): not comparable.
        workspace = 0
    grid = draw(st.tuples(*[st.integers(1, 40)] * 3).filter(lambda g: math.prod(g) <= 65535))
    case = ar.Case(
        signature, constants, name=draw(st.sampled_from(
            ["triton_poi_fused_0", "triton_red_fused_" + "x" * 60, "k"])),
        mix_mode=draw(st.sampled_from(["aiv", "aic", "mix"])), parallel_mode=simt_mode,
        force_simt_only=pure, compile_on_910_95=draw(st.booleans()),
        shared_mem_dynamic_size=draw(st.sampled_from([122880, 221184, 65536])),
        workspace_size=workspace, lock_num=lock_num,
        lock_init_value=draw(st.sampled_from([0, 1, -1])),
        bs_task_type=draw(st.sampled_from([0, 10, 21, 32, 41, 52])),
        tensor_kinds=tuple(draw(st.lists(st.integers(0, 2), min_size=n_ptr, max_size=n_ptr))),
        arch=arch, disable_ffts=disable_ffts, taskqueue=draw(st.booleans()))
    # Where the generator checks tensor addresses, some read as host memory.
    host_below = draw(st.sampled_from([0, 0, 0, 2**63])) if checks_pointers else 0
    return ar.LauncherCall(case, tuple(args), grid, stream=draw(st.one_of(
        *[st.integers(1, 2**64 - 1)] * 3, st.just(0))),
                           handle=draw(st.integers(1, 2**64 - 1)), profiling=profiling,
                           host_below=host_below)


BATCH = 40  # cases per compiled reference module (hypothesis' buffer bounds a draw)
# 50 x 40 = 2,000 random mixes per run with the wheel alone; with further trees
# at least 10 x 40 = 400 per tree, in about the same time.
EXAMPLES = max(10, 50 // len(TREES))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """Random cases are built here, not in the shared cache."""
    return tmp_path_factory.mktemp("random")


def _host_refusal(ref, got) -> bool:
    """The original refused a tensor in host memory; fastlaunch refused it first."""
    return (ref.error is not None and "cannot be accessed from Triton" in str(ref.error)
            and isinstance(got.error, CallRefused) and got.error.reason == "host_pointer"
            and got.observed["launches"] == [] == ref.observed["launches"])


@pytest.mark.parametrize("which", TREES)
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_mixes(diff, scratch, which, data):
    fam = detected(diff, which)
    kinds = tuple(k for k in (*RENDERED, *NARROW) if k in fam.scalar_kinds)
    calls = data.draw(st.lists(random_call(kinds, fam.checks_pointers), min_size=BATCH,
                               max_size=BATCH))
    failures = []
    gen = diff.generators[which]
    built = ar.build_launchers(gen, [gen.render(c.case) for c in calls], diff.recorder.path,
                               scratch)
    for c, launch in zip(calls, built):
        ref, got = compare(diff, launch, which, c)
        if got.full_entry != bool(c.profiling):
            failures.append(f"{which} {c}: msprof state read as {got.full_entry}")
        elif got.full_entry or _host_refusal(ref, got):
            continue
        elif ref.error is not None:
            failures.append(f"{which} {c}: reference raised {ref.error!r}")
        elif got.error is not None:
            failures.append(f"{which} {c}: fastlaunch raised {got.error!r}")
        else:
            found = ar.differences(ref.observed, got.observed)
            if found:
                failures.append(f"{which} {c}: {found}")
    assert failures == [], f"{len(failures)} of {len(calls)} differ; first: {failures[:3]}"
