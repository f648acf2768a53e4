# SPDX-License-Identifier: Apache-2.0
"""What the NPU integration needs from torch_npu, checked on its source.

The same check runs in the tests (on the wheels of each supported release,
without importing them) and before the integration patches an installed
torch_npu: a release that fails is reported unsupported and never patched.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from .layouts import CONFIG, MATRIX, WRAPPER, Layout, detect, installed_reader, line, release

OPCOMMAND = "torch_npu/include/torch_npu/csrc/framework/OpCommand.h"
OPPARAM = "torch_npu/include/torch_npu/csrc/framework/OpParamMaker.h"
IN_TREE = "torch_npu/_inductor/experimental/python_wrapper_fast_launch/patch.py"
RUN_LINE = r"\{kernel_name\}\.run\(\{call_args_str\}, stream=\{stream_name\}\)"

# Parameters the patched generate_kernel_call forwards by keyword.
KERNEL_CALL_PARAMS = ("self", "kernel_name", "call_args")


def _class(tree: ast.Module, name: str) -> ast.ClassDef | None:
    return next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)


def _method(cls: ast.ClassDef | None, name: str) -> ast.FunctionDef | None:
    if cls is None:
        return None
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _params(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]


def check(read: Callable[[str], str | None]) -> list[str]:
    """Problems found (empty when the release is supported). ``read(path)``
    returns a file of the release, or None when it is absent."""
    version = release(read)
    expected = MATRIX.get(line(version))
    if expected is None:
        return [f"torch_npu {version or '(no version.py)'} is outside the tested releases "
                f"({', '.join(MATRIX)})"]
    layout = detect(read)
    if layout is None:
        return ["no Triton NPU autotuner (neither "
                "torch_npu/_inductor/runtime/triton_heuristics.py nor "
                "torch_npu/_inductor/npu_triton_heuristics.py)"]
    if layout is not expected:
        return [f"torch_npu {version} has the {layout.name} layout, its release line has "
                f"the {expected.name} layout"]
    problems: list[str] = []

    def need(path: str) -> str:
        text = read(path)
        if text is None:
            problems.append(f"{path}: missing")
        return (text or "").lstrip("\ufeff")  # some torch_npu files start with a BOM

    wrapper_src = need(WRAPPER)
    if wrapper_src:
        problems += _check_wrapper(layout, wrapper_src)
    heur_src = need(layout.heuristics_file)
    if heur_src:
        problems += _check_heuristics(layout, heur_src)
    config_src = need(CONFIG)
    for flag in layout.debug_flags:
        name = flag.rsplit(".", 1)[-1]
        if config_src and not re.search(rf"^\s*{name}\s*=", config_src, re.M):
            problems.append(f"{CONFIG}: {name} missing")

    opcommand = need(OPCOMMAND)
    if opcommand:
        for decl in (r"OpCommand\s*&\s*Name\(const string\s*&\s*\w+\)",
                     r"OpCommand\s*&\s*SetCustomHandler\(PROC_FUNC \w+\)", r"void Run\(\)"):
            if not re.search(decl, opcommand):
                problems.append(f"{OPCOMMAND}: no {decl}")
    opparam = need(OPPARAM)
    if opparam and not re.search(r"using PROC_FUNC = std::function<int\(\)>;", opparam):
        problems.append(f"{OPPARAM}: PROC_FUNC is not std::function<int()>")
    return problems


def wrapper_class(layout: Layout, read: Callable[[str], str | None]) -> str | None:
    """The name of the release's NPU wrapper codegen class."""
    tree = ast.parse((read(WRAPPER) or "").lstrip("\ufeff"))
    return next((n for n in layout.wrapper_classes if _class(tree, n) is not None), None)


def _check_wrapper(layout: Layout, src: str) -> list[str]:
    tree = ast.parse(src)
    name = wrapper_class(layout, lambda _path: src)
    if name is None:
        return [f"{WRAPPER}: none of the classes {list(layout.wrapper_classes)}"]
    if not layout.direct_writer:
        # every call line comes from upstream's _generate_kernel_call_helper
        if ".run(" in src:
            return [f"{WRAPPER}: writes a '.run(' call line itself"]
        return []
    gkc = _method(_class(tree, name), "generate_kernel_call")
    if gkc is None:
        return [f"{WRAPPER}: {name}.generate_kernel_call missing"]
    params = _params(gkc)
    if tuple(params[:3]) != KERNEL_CALL_PARAMS or "triton" not in params:
        return [f"{WRAPPER}: generate_kernel_call{tuple(params)} lacks "
                f"{KERNEL_CALL_PARAMS} or 'triton'"]
    if not re.search(RUN_LINE, ast.get_source_segment(src, gkc) or ""):
        return [f"{WRAPPER}: generate_kernel_call no longer writes "
                "'{kernel_name}.run({call_args_str}, stream={stream_name})'"]
    return []


def _debug_flags_read(tuner: ast.ClassDef | None) -> set[str]:
    """``npu_config.<flag>`` chains read by the autotuner's debug path."""
    flags = set()
    for name in ("maybe_run_debug", "is_run_debug"):
        for node in ast.walk(_method(tuner, name) or ast.Module(body=[], type_ignores=[])):
            if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
                chain = ast.unparse(node)
                if chain.startswith("npu_config."):
                    flags.add(chain.removeprefix("npu_config."))
    # keep only the longest chains (npu_config.a.b, not also npu_config.a)
    return {f for f in flags if not any(g.startswith(f + ".") for g in flags)}


def _check_heuristics(layout: Layout, src: str) -> list[str]:
    path = layout.heuristics_file
    problems = []
    tree = ast.parse(src)
    make = _method(_class(tree, "TritonCompileResultNpu"), "make_launcher")
    if make is None:
        problems.append(f"{path}: TritonCompileResultNpu.make_launcher missing")
    else:
        body = ast.get_source_segment(src, make) or ""
        for key in ("function", "bin", "launch_enter_hook", "launch_exit_hook"):
            if f'"{key}"' not in body:
                problems.append(f"{path}: make_launcher scope lacks {key!r}")
        if "def launcher(" not in body:
            problems.append(f"{path}: make_launcher no longer generates 'launcher'")
    tuner = _class(tree, "NPUCachingAutotuner")
    if _method(tuner, "run") is None:
        problems.append(f"{path}: NPUCachingAutotuner.run missing")
    if layout.name == "runtime":
        if _method(tuner, "_build_runtime_launch_args") is None:
            problems.append(f"{path}: NPUCachingAutotuner._build_runtime_launch_args missing")
        for attr in ("best_launcher", "best_runtime_blocks"):
            if f"self.{attr} =" not in src:
                problems.append(f"{path}: NPUCachingAutotuner.{attr} never assigned")
    unknown = sorted(_debug_flags_read(tuner) - set(layout.debug_flags))
    if unknown:
        problems.append(f"{path}: NPUCachingAutotuner's debug path reads torch_npu config "
                        f"flags fastlaunch does not follow: {unknown}")
    if _method(_class(tree, "GridExprNpu"), "from_meta_and_set_numel") is None:
        problems.append(f"{path}: GridExprNpu.from_meta_and_set_numel missing")
    return problems


INDUCTOR_INIT = "torch_npu/_inductor/__init__.py"
_INLINE_BACKEND = re.compile(
    r"getenv\(\s*['\"]TORCHINDUCTOR_NPU_BACKEND['\"]\s*,\s*['\"]default['\"]\s*\)"
    r"\s*==\s*['\"](\w+)['\"]")


def backend_variants(read: Callable[[str], str | None]) -> tuple[str, ...]:
    """The values of ``TORCHINDUCTOR_NPU_BACKEND`` the release loads another
    backend for (its own autotuner and wrapper codegen): the keys of
    ``_BACKEND_LOADERS`` in ``torch_npu/_inductor/__init__.py`` (2.7.1, 2.10+)
    and the values it tests inline (2.8, 2.9), "default" left out. Any other
    value loads the Triton backend (``_BACKEND_LOADERS.get(backend,
    _load_triton_backend)``)."""
    src = (read(INDUCTOR_INIT) or "").lstrip("\ufeff")
    found = list(_INLINE_BACKEND.findall(src))
    for node in ast.parse(src).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and any(
                isinstance(t, ast.Name) and t.id == "_BACKEND_LOADERS" for t in node.targets):
            found += [k.value for k in node.value.keys
                      if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return tuple(dict.fromkeys(v for v in found if v != "default"))


def has_in_tree_fast_launch(read: Callable[[str], str | None]) -> bool:
    """torch_npu 2.10.0.post7+ ships its own experimental planned launch."""
    return read(IN_TREE) is not None


__all__ = ["backend_variants", "check", "has_in_tree_fast_launch", "installed_reader",
           "wrapper_class"]
