# SPDX-License-Identifier: Apache-2.0
"""What the NPU integration needs from the torch that torch_npu runs on,
checked on torch's Python source (parsed, never imported).

Each torch_npu release runs on its own torch (2.7.1.post11 on 2.7.1, ...),
and torch's Inductor moves code between releases: torch 2.7's
``generate_kernel_call`` writes the ``kernel.run(...)`` line itself, later
ones defer it to ``_generate_kernel_call_helper``. ``call_line_writers``
says which methods write the line in one torch + torch_npu pair, so the
integration patches exactly those; ``check`` lists every class, method and
attribute of torch that fastlaunch patches, wraps or reads (``NEEDS``) that
this torch lacks. The tests run both on each release's own torch sources.
Read only where present, with a fallback, so not needed:
``PyCodeCache.modules_no_attr`` (absent in torch 2.7), the wrapper's
``get_root_graph`` (2.10+) and ``custom_graph_pass.get_custom_graph_passes``
(2.13+).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable

from ...installed import source_reader

WRAPPER = "torch/_inductor/codegen/wrapper.py"
HEURISTICS = "torch/_inductor/runtime/triton_heuristics.py"
CODECACHE = "torch/_inductor/codecache.py"
CONFIG = "torch/_inductor/config.py"
GRAPH = "torch/_inductor/graph.py"
CUSTOM_PASS = "torch/_inductor/custom_graph_pass.py"
ASYNC_COMPILE = "torch/_inductor/async_compile.py"
UPSTREAM_WRAPPER = "PythonWrapperCodegen"
# The call line as Inductor writes it in an f-string.
_RUN_LINE = re.compile(r"\{kernel_name\}\.run\(")


@dataclasses.dataclass(frozen=True)
class Need:
    """One thing of torch fastlaunch touches: ``name`` on class ``owner`` of
    ``path`` (``owner`` "" for module level), a method taking at least the
    leading ``params``, or an attribute assigned there."""

    path: str
    owner: str
    name: str
    kind: str  # "method", "classmethod" or "attribute"
    why: str
    params: tuple[str, ...] = ()

    def label(self) -> str:
        return f"{self.path}: {'.'.join(filter(None, (self.owner, self.name)))}"


NEEDS = (
    Need(WRAPPER, UPSTREAM_WRAPPER, "generate_kernel_call", "method",
         "patched: writes the call line (torch 2.7) or the line deferred to the helper",
         ("self", "kernel_name", "call_args")),
    Need(WRAPPER, UPSTREAM_WRAPPER, "writeline", "method",
         "redirected on the instance while one call is written", ("self", "line")),
    Need(WRAPPER, UPSTREAM_WRAPPER, "imports", "attribute",
         "the call site's module-level lines are written there"),
    Need(GRAPH, "GraphLowering", "cpp_wrapper", "attribute",
         "read: a C++ wrapper's call lines are left to Inductor"),
    Need(CONFIG, "", "post_grad_custom_post_pass", "attribute",
         "set: the cache-key pass that keys Inductor's caches on fastlaunch's state"),
    Need(CONFIG, "triton", "autotune_at_compile_time", "attribute",
         "read: those call lines are left to Inductor"),
    Need(CUSTOM_PASS, "CustomGraphPass", "uuid", "method",
         "subclassed by the cache-key pass", ("self",)),
    Need(CODECACHE, "PyCodeCache", "load_by_key_path", "classmethod",
         "wrapped: the planned call plans each wrapper module it loads",
         ("cls", "key", "path")),
    Need(ASYNC_COMPILE, "CompiledTritonKernels", "cache_clear", "method",
         "called at install: kernels compiled before it are compiled again through "
         "the patched make_launcher"),
    Need(HEURISTICS, "CachingAutotuner", "run", "method",
         "the base of NPUCachingAutotuner; bound at each call site", ("self",)),
    Need(HEURISTICS, "CachingAutotuner", "launchers", "attribute",
         "read at bind: the launchers the plan is made from"),
    Need(HEURISTICS, "CachingAutotuner", "compile_results", "attribute",
         "read at bind: the compiled kernels behind the launchers"),
    Need(HEURISTICS, "CachingAutotuner", "inductor_meta", "attribute",
         "read at bind: the kernel's name and per-kernel switches"),
    Need(HEURISTICS, "CachingAutotuner", "device_props", "attribute",
         "read at bind: the kernel's device"),
)
FILES = tuple(dict.fromkeys(need.path for need in NEEDS))
#: What install checks on the installed torch (one file parsed: the wrapper
#: codegen it patches); the tests check all of ``NEEDS`` on each release's torch.
INSTALL_NEEDS = tuple(need for need in NEEDS if need.path == WRAPPER)


def installed_reader() -> Callable[[str], str | None] | None:
    """A reader over the installed torch's files (found, not imported)."""
    return source_reader("torch")


class Source:
    """Parsed files of one torch (and torch_npu) tree, with class lookup
    through the bases named in them."""

    def __init__(self, read: Callable[[str], str | None]) -> None:
        self._read = read
        self._parsed: dict[str, tuple[str, ast.Module] | None] = {}

    def tree(self, path: str) -> tuple[str, ast.Module] | None:
        """``(text, module)`` of ``path``, parsed once; None when absent."""
        if path not in self._parsed:
            text = self._read(path)
            text = None if text is None else text.lstrip("\ufeff")
            self._parsed[path] = None if text is None else (text, ast.parse(text))
        return self._parsed[path]

    def owner(self, path: str, dotted: str) -> ast.ClassDef | ast.Module | None:
        parsed = self.tree(path)
        node: ast.AST | None = parsed[1] if parsed else None
        for part in filter(None, dotted.split(".")):
            node = next((n for n in getattr(node, "body", ())
                         if isinstance(n, ast.ClassDef) and n.name == part), None)
        return node  # type: ignore[return-value]

    def lookup(self, path: str, cls: str, name: str, seen: frozenset = frozenset()):
        """``(path, node)`` defining ``name`` on ``cls`` or on a base found in
        the parsed files (a base imported from another file is looked up
        there), or None."""
        found = self.owner(path, cls)
        if not isinstance(found, ast.ClassDef) or (path, cls) in seen:
            return None
        node = _member(found, name)
        if node is not None:
            return path, node
        for base in found.bases:
            base_name = ast.unparse(base).rsplit(".", 1)[-1]
            for base_path in (path, *self._imported_from(path, base_name)):
                hit = self.lookup(base_path, base_name, name, seen | {(path, cls)})
                if hit is not None:
                    return hit
        return None

    def _imported_from(self, path: str, name: str) -> list[str]:
        parsed = self.tree(path)
        out = []
        for node in parsed[1].body if parsed else ():
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and any((a.asname or a.name) == name for a in node.names):
                out.append(node.module.replace(".", "/") + ".py")
        return out

    def segment(self, path: str, node: ast.AST) -> str:
        parsed = self.tree(path)
        return (ast.get_source_segment(parsed[0], node) or "") if parsed else ""


def _member(cls: ast.ClassDef | ast.Module, name: str) -> ast.AST | None:
    """A method, or an attribute assigned in the body or as ``self.name``."""
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            return node
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                for t in node.targets):
            return node
    if isinstance(cls, ast.ClassDef):
        for node in ast.walk(cls):
            target = node.target if isinstance(node, ast.AnnAssign) else None
            targets = node.targets if isinstance(node, ast.Assign) else [target]
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr == name and \
                        isinstance(t.value, ast.Name) and t.value.id == "self":
                    return node
    return None


def _params(fn: ast.FunctionDef) -> tuple[str, ...]:
    return tuple(a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs))


def _shape_problem(need: Need, node: ast.AST) -> str | None:
    if need.kind == "attribute":
        return None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"{need.label()} is not a method"
    decorators = {ast.unparse(d) for d in node.decorator_list}
    if (need.kind == "classmethod") != ("classmethod" in decorators):
        return f"{need.label()} is {'not ' if need.kind == 'classmethod' else ''}a classmethod"
    params = _params(node)
    if params[:len(need.params)] != need.params:
        return f"{need.label()}{params} does not start with {need.params}"
    return None


def check(read: Callable[[str], str | None], needs: tuple[Need, ...] = NEEDS) -> list[str]:
    """What this torch lacks of ``needs`` (empty when it has all), each
    problem naming the file, the class and the member."""
    source = Source(read)
    problems = []
    for need in needs:
        if source.tree(need.path) is None:
            problems.append(f"{need.path}: missing")
            continue
        hit = (source.lookup(need.path, need.owner, need.name) if need.owner else
               (need.path, _member(source.owner(need.path, ""), need.name)))
        if hit is None or hit[1] is None:
            problems.append(f"{need.label()} missing ({need.why})")
            continue
        shape = _shape_problem(need, hit[1])
        if shape:
            problems.append(shape)
    if not problems and not upstream_call_line_writers(read):
        problems.append(f"{WRAPPER}: neither {UPSTREAM_WRAPPER}._generate_kernel_call_helper "
                        "nor generate_kernel_call writes '{kernel_name}.run(...)'")
    return problems


def _writes_run_line(source: Source, cls: str, method: str) -> bool:
    hit = source.lookup(WRAPPER, cls, method)
    return hit is not None and bool(_RUN_LINE.search(source.segment(*hit)))


def upstream_call_line_writers(read: Callable[[str], str | None]) -> tuple[str, ...]:
    """The methods of torch's own wrapper codegen that write the call line:
    ``generate_kernel_call`` (torch 2.7) or ``_generate_kernel_call_helper``."""
    source = Source(read)
    return tuple(name for name in ("generate_kernel_call", "_generate_kernel_call_helper")
                 if _writes_run_line(source, UPSTREAM_WRAPPER, name))


def call_line_writers(read: Callable[[str], str | None], release_writes: bool) -> tuple[str, ...]:
    """The methods to patch on the release's NPU wrapper class so every call
    line it writes becomes a call site: ``generate_kernel_call`` where the
    release writes lines there itself (``release_writes``, its multi-stream
    lines) or inherits torch's that does; ``_generate_kernel_call_helper``
    where torch has it."""
    upstream = upstream_call_line_writers(read)
    return tuple(name for name in ("generate_kernel_call", "_generate_kernel_call_helper")
                 if name in upstream or (release_writes and name == "generate_kernel_call"))


def _keywords_passed(source: Source, cls: str, method: str, callee: str) -> set[str]:
    """Keywords ``cls.method`` of torch's wrapper passes to ``callee``."""
    hit = source.lookup(WRAPPER, cls, method)
    out: set[str] = set()
    for node in ast.walk(hit[1]) if hit else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == callee:
            out.update(k.arg for k in node.keywords if k.arg)
    return out


def pair_check(read: Callable[[str], str | None], release_wrapper: str, wrapper_class: str,
               release_writes: bool) -> list[str]:
    """Problems of one torch_npu release on one torch (``read`` serves both
    trees: ``torch_npu/...`` and ``torch/...``): what ``check`` finds in
    torch, then, for each call-line writer of the pair, that the release's
    wrapper class ``wrapper_class`` (in ``release_wrapper``) has it on itself
    or a base, and that the helper it resolves takes every keyword torch's
    deferred call line (``KernelCallLine.codegen``) passes."""
    problems = check(read)
    source = Source(read)
    for method in call_line_writers(read, release_writes):
        if source.lookup(release_wrapper, wrapper_class, method) is None:
            problems.append(f"{release_wrapper}: {wrapper_class}.{method} missing on the "
                            "class and its bases (it writes the call line on this torch)")
    helper = source.lookup(release_wrapper, wrapper_class, "_generate_kernel_call_helper")
    passed = _keywords_passed(source, "KernelCallLine", "codegen", "_generate_kernel_call_helper")
    if helper is not None and passed and helper[1].args.kwarg is None:
        missing = sorted(passed - set(_params(helper[1])))
        if missing:
            problems.append(f"{helper[0]}: _generate_kernel_call_helper takes no {missing}, "
                            f"which torch's KernelCallLine passes")
    return problems


__all__ = ["FILES", "INSTALL_NEEDS", "NEEDS", "Need", "call_line_writers", "check",
           "installed_reader", "pair_check",
           "upstream_call_line_writers"]
