# SPDX-License-Identifier: Apache-2.0
"""selfcheck without a device: the NPU suite on a recording fake CANN.

The original is triton-ascend's own launcher, rendered by its generator and
built against the recorder (``ascend_reference``); the planned path is
fastlaunch's NPU backend on the same recorder. The generator comes from
``--ascend-backend`` (a triton-ascend source tree's backend folder: the 3.2.0
wheel's, release/3.2.x to 3.6.x, main), an installed triton-ascend or its
wheel in the wheel cache; selfcheck does not download it. A case with a
scalar kind the generator does not render is reported as not checked.
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from ... import config
from ...builds import core
from ...runtime.npu import family as families
from . import ascend_reference as ar
from .compare import Difference, compare
from .interpose import Launch
from .report import Outcome, Report

BACKEND_FILES = ("driver.py", "utils.py", "compiler.py", "npu_utils.cpp")
FFTS_ARCH = "Ascend910B2"


def _ptr(i: int) -> int:
    return 0x10000000 + 0x1000 * i


def _tensor(i: int) -> ar.FakeTensor:
    return ar.FakeTensor(_ptr(i), (4, 8 + i))


@dataclasses.dataclass(frozen=True)
class NpuCase:
    name: str
    what: str
    call: ar.LauncherCall


def _call(signature, args, grid=(8, 1, 1), **case) -> ar.LauncherCall:
    return ar.LauncherCall(ar.Case(tuple(signature), **case), tuple(args), grid)


SCALARS = ("i1", "i32", "i64", "u32", "u64", "fp16", "bf16", "fp32", "fp64")
SCALAR_VALUES = (1, -70000, -(2**40) - 3, 3_000_000_000, 2**63 + 5, 1.5, -2.25, 3.5, -0.125)
NARROW = ("i8", "i16", "u1", "u8", "u16")
NARROW_VALUES = (200, -30000, 1, 250, 65000)

CASES = (
    NpuCase("pointwise", "pointwise kernel, FFTS on",
            _call(("*fp32", "*fp32", "*fp32", "i32"),
                  (_tensor(0), _tensor(1), _tensor(2), 4096), arch=FFTS_ARCH)),
    NpuCase("reduction", "reduction with two size arguments",
            _call(("*fp32", "*fp32", "i32", "i32"), (_tensor(0), _tensor(1), 37, 3000),
                  grid=(37, 1, 1))),
    NpuCase("reduction-size-1", "full reduction: a size argument equal to 1 (a constant)",
            _call(("*fp32", "*fp32", "i32", "i32"), (_tensor(0), _tensor(1), 1, 1024),
                  grid=(1, 1, 1), constants={2: 1})),
    NpuCase("scalar-kinds", "every scalar kind 3.2.0's generator renders: " + ", ".join(SCALARS),
            _call(("*fp32", *SCALARS), (_tensor(0), *SCALAR_VALUES))),
    NpuCase("narrow-scalar-kinds", "i8, i16, u1, u8, u16 scalars (rendered by 3.3.x and later)",
            _call(("*fp32", *NARROW, "i32"), (_tensor(0), *NARROW_VALUES, 7))),
    NpuCase("workspace-locks", "workspace and sync-block locks",
            _call(("*fp32", "i64"), (_tensor(0), 1 << 33), grid=(3, 2, 1), workspace_size=256,
                  lock_num=4, lock_init_value=0)),
    NpuCase("mix-ffts", "mix kernel (cube + vector) with FFTS",
            _call(("*fp16", "*fp16", "*fp32", "i32"),
                  (_tensor(0), _tensor(1), _tensor(2), 512), mix_mode="mix", arch=FFTS_ARCH)),
    NpuCase("simt-910_95", "SIMT kernel compiled for 910_95 (task config, local memory)",
            _call(("*fp32", "i64"), (_tensor(0), 99), parallel_mode="mix_simd_simt",
                  compile_on_910_95=True)),
    NpuCase("pure-simt", "pure-SIMT kernel (no hidden lock/workspace slots)",
            _call(("*fp32", "i32", "*fp32"), (_tensor(0), 5, _tensor(1)), force_simt_only=True,
                  parallel_mode="simt", shared_mem_dynamic_size=122880)),
    NpuCase("user-kernel", "user-defined kernel: int, None and tensor pointers, floats",
            _call(("*fp32", "*fp16", "*i8", "fp32", "i64"),
                  (_ptr(7), None, _tensor(3), 0.5, -9))),
    NpuCase("taskqueue-off", "TRITON_ENABLE_TASKQUEUE=false: inline launch, then synchronise",
            _call(("*fp32", "i32"), (_tensor(0), 64), taskqueue=False)),
)
CASE_NAMES = tuple(c.name for c in CASES)


def _installed_backend() -> Path | None:
    """``triton/backends/ascend`` of an installed triton-ascend (not imported)."""
    for entry in sys.path:
        folder = Path(entry or ".") / "triton" / "backends" / "ascend"
        if all((folder / name).is_file() for name in BACKEND_FILES):
            return folder
    return None


def _cached_backend() -> tuple[Path | None, list[str]]:
    """The backend folder from the wheel cache: extracted already, or extracted now
    from a wheel into the cache, next to it (as the tests do); and the damaged
    wheels passed over on the way, each with why."""
    cache = config.wheel_cache()
    for folder in sorted(cache.glob("triton_ascend-*-backend"), reverse=True):
        if all((folder / name).is_file() for name in BACKEND_FILES):
            return folder, []
    damaged = []
    for wheel in sorted(cache.glob("triton_ascend-*.whl"), reverse=True):
        try:
            with zipfile.ZipFile(wheel) as zf:
                names = set(zf.namelist())
                wanted = [f"triton/backends/ascend/{n}" for n in BACKEND_FILES]
                if not all(w in names for w in wanted):
                    continue
                members = [zf.read(member) for member in wanted]
        except (zipfile.BadZipFile, EOFError) as err:  # a download cut short
            damaged.append(f"{wheel} ({err})")
            continue
        target = cache / f"triton_ascend-{wheel.name.split('-')[1]}-backend"
        partial = Path(tempfile.mkdtemp(prefix=f"{target.name}.", dir=cache))
        for data, name in zip(members, BACKEND_FILES):
            (partial / name).write_bytes(data)
        if target.exists():  # another process finished first
            shutil.rmtree(partial)
        else:
            partial.replace(target)
            core.own(target)  # fastlaunch's: `cache clear` may remove it
        return target, damaged
    return None, damaged


def find_backend(explicit: str | None) -> tuple[Path | None, str]:
    """The triton-ascend backend folder to render launchers with, or why there is none."""
    if explicit:
        folder = Path(explicit)
        missing = [n for n in BACKEND_FILES if not (folder / n).is_file()]
        if missing:
            return None, f"--ascend-backend {folder} lacks {', '.join(missing)}"
        return folder, f"--ascend-backend {folder}"
    folder = _installed_backend()
    if folder is not None:
        return folder, f"installed triton-ascend ({folder})"
    folder, damaged = _cached_backend()
    if folder is not None:
        return folder, f"wheel cache ({folder})"
    cache = config.wheel_cache()
    download = (f"`pip download --no-deps --only-binary=:all: triton-ascend==3.2.0 -d {cache}` "
                "on a machine with network access")
    if damaged:
        return None, (f"triton-ascend's launcher generator is not available: the cached wheel "
                      f"{'; '.join(damaged)} is not a complete wheel: delete it and download it "
                      f"again with {download}")
    return None, ("triton-ascend's launcher generator is not available: no installed "
                  f"triton-ascend and no triton_ascend wheel in {cache} (get one with "
                  f"{download})")


def _launches(observed: dict) -> list[Launch]:
    return [Launch(api=x["api"], handle=x["handle"], stream=x["stream"], grid=(0, 0, 0),
                   block=(0, 0, 0), shared=0, block_dim=x["block_dim"], flags=x["attr"][2],
                   attrs=((x["attr"][0], f"{x['attr'][1]:x}"),), extra=x["extra"],
                   args=bytes.fromhex(x["args"]), params=(), problem="", rc=0)
                for x in observed["launches"]]


def _field_names(diff: ar.Differential, which: str,
                 call: ar.LauncherCall) -> list[tuple[str, int, int]]:
    """The planned layout's fields, to name differing bytes."""
    from ...runtime.npu.backend import NpuBackend

    rec = diff.recorder
    try:
        with ar.environment(call.case.env()):
            backend = NpuBackend(libraries=[str(rec.path)], queue="inline",
                                 workspace=lambda size: (0, None),
                                 locks=lambda count, init: (0, None))
            plan = backend.make_plan(diff.spec(which, call), input_count=len(call.args),
                                     fixed_args=())
    except Exception:  # the comparison already reports the failing side
        return []
    return [tuple(f) for f in plan.packer.fields]


def check(diff: ar.Differential, case: NpuCase, which: str, launcher: ar.Launcher) -> Outcome:
    outcome = Outcome(kernel=f"{case.name} [{which}]",
                      launcher=f"triton-ascend {diff.generators[which].name}",
                      original=[], planned=[], differences=[], planned_used=False)
    ref = diff.reference(which, launcher, case.call)
    got = diff.fastlaunch(which, case.call)
    if ref.error is not None or got.error is not None:
        outcome.error = (f"original: {ref.error!r}; planned: {got.error!r}"
                         if got.error is None or ref.error is None
                         or type(ref.error) is not type(got.error) else "")
        if not outcome.error:  # both refused the same way: what the original does
            outcome.note = f"both refuse: {type(ref.error).__name__}"
            return outcome
    outcome.original, outcome.planned = _launches(ref.observed), _launches(got.observed)
    outcome.planned_used = got.error is None
    names = _field_names(diff, which, case.call)
    outcome.differences = compare(outcome.original, outcome.planned, names)
    outcome.differences += [
        Difference(key, repr(ref.observed[key]), repr(got.observed.get(key)))
        for key in ref.observed if key != "launches" and ref.observed[key] != got.observed.get(key)]
    return outcome


def run(ascend_backend: str | None, programs: list[str] | None = None) -> Report:
    report = Report(backend="fake-npu", stack={}, forwarded=False)
    folder, source = find_backend(ascend_backend)
    if folder is None:
        report.not_checked.append(source)
        return report
    with tempfile.TemporaryDirectory(prefix="fastlaunch-selfcheck-") as work:
        _check(report, folder, source, programs, Path(work))
    return report


def _recorder() -> tuple[ar.CannRecorder, str]:
    """The recording runtime from the cache, rebuilt once when the cached build does
    not load (a truncated or corrupt file); with what was done, for the report."""
    folder = ar.cache_root()
    path = ar.build_recorder(folder)
    try:
        return ar.CannRecorder(path), "recording fake CANN"
    except OSError as err:
        path.unlink(missing_ok=True)
        return (ar.CannRecorder(ar.build_recorder(folder)),
                f"recording fake CANN (rebuilt: the cached {path} did not load: {err})")


def _check(report: Report, folder: Path, source: str, programs: list[str] | None,
           work: Path) -> None:
    cases = tuple(c for c in CASES if not programs or c.name in programs)
    try:
        recorder, runtime = _recorder()
        gen = ar.Generator(folder)
    except ar.Unavailable as err:
        report.not_checked.append(f"the reference launcher cannot be built here: {err}")
        return
    detection = families.detect(gen.read)
    if detection.family is None:
        report.not_checked.append(f"fastlaunch refuses this triton-ascend: {detection.reason}: "
                                  f"{detection.detail}")
        return
    report.stack = {"triton-ascend generator": f"{source}, {gen.name}", "runtime": runtime}
    kinds = detection.family.scalar_kinds
    rendered = [c for c in cases if all(t.startswith("*") or t in kinds
                                        for t in c.call.case.signature)]
    report.not_checked += [f"{c.name}: this generator does not render its scalar kinds"
                           for c in cases if c not in rendered]
    cases = tuple(rendered)
    diff = ar.Differential(recorder, {"rt": gen}, work)
    sys.stderr.write(f"selfcheck: compiling triton-ascend's launcher for {len(cases)} kernels "
                     "(a C++ build, some seconds)\n")
    sys.stderr.flush()
    launchers = diff.build("rt", [c.call.case for c in cases])
    report.outcomes += [check(diff, c, "rt", launch) for c, launch in zip(cases, launchers)]
    report.checked = [f"{c.name}: {c.what}" for c in cases]
    report.checked.append("per launch: API, handle, blockDim, stream, flags and task config, "
                          "argument bytes (the original's struct padding excluded) and size; "
                          "task-queue tasks, workspace and lock allocations and their "
                          "initialisation copies, synchronisations, FFTS queries, tensor "
                          "address queries (aclrtPointerGetAttributes)")
    report.not_checked += [
        "msprof: while it collects, every call takes the original launcher (routing), so no "
        "planned launch exists to compare",
        "the real CANN runtime and device: run selfcheck on an Ascend machine (backend npu)"]
