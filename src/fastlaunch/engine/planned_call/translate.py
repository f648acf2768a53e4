# SPDX-License-Identifier: Apache-2.0
"""Translate an Inductor wrapper's ``call(args)`` (its ``ast``) into a Program.

Native ops cover the statement shapes Inductor's Python wrapper writes:
assignments of calls, views, allocations, sizes and size arithmetic, tuple
items and unpacking, expression statements, ``del``, ``with`` (device guards),
``global`` declarations (torch_npu's static-kernel prefix), fastlaunch call
sites and the return. Every other statement becomes a Python
island (compiled once, run with the live values moved in and out), so one
unknown line never sends the whole call back to Python. Nothing here changes
what runs: each op calls what the Python statement calls, in its order.
"""

from __future__ import annotations

import ast
import builtins
import copy
import sys
import types
from collections.abc import Iterator

from .. import callsite
from . import program as P

# Values whose attributes never change once the wrapper module has loaded:
# an attribute chain rooted at one of these is resolved once, at translation.
_NAMESPACE_TYPES = frozenset({
    "builtins.module", "torch._ops._Ops", "torch._ops._OpNamespace", "torch._ops._PyOpNamespace",
    "torch._inductor.select_algorithm.KernelNamespace",
})

_BINARY = {ast.Add: P.ADD, ast.Sub: P.SUB, ast.Mult: P.MUL, ast.FloorDiv: P.FLOORDIV,
           ast.Mod: P.MOD, ast.Div: P.TRUEDIV, ast.Pow: P.POW, ast.LShift: P.LSHIFT,
           ast.RShift: P.RSHIFT, ast.BitAnd: P.AND, ast.BitOr: P.OR, ast.BitXor: P.XOR,
           ast.MatMult: P.MATMUL}
_COMPARE = {ast.Lt: P.LT, ast.LtE: P.LE, ast.Eq: P.EQ, ast.NotEq: P.NE, ast.Gt: P.GT,
            ast.GtE: P.GE, ast.Is: P.IS, ast.IsNot: P.IS_NOT, ast.In: P.IN, ast.NotIn: P.NOT_IN}
_UNARY = {ast.USub: P.NEG, ast.UAdd: P.POS, ast.Invert: P.INVERT, ast.Not: P.NOT}
_NESTED_SCOPES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ListComp,
                  ast.SetComp, ast.DictComp, ast.GeneratorExp)


class Untranslatable(Exception):
    """The function as a whole cannot be a program (``reason`` is a slug)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


class _NotNative(Exception):
    """This statement is not native: it becomes an island."""


def find_function(tree: ast.Module, func: types.FunctionType) -> ast.FunctionDef:
    """The ``def`` of ``func`` in the parsed source of its file."""
    code = func.__code__
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == code.co_name and (
                node.lineno == code.co_firstlineno):
            return node
    raise Untranslatable("source_not_found", f"{code.co_name} at {code.co_filename}:"
                                             f"{code.co_firstlineno}")


class _Translator:
    def __init__(self, func: types.FunctionType, node: ast.FunctionDef, sites: bool) -> None:
        code = func.__code__
        if code.co_cellvars or code.co_freevars:
            raise Untranslatable("closure", "call() shares a variable with a nested scope")
        if code.co_flags & (0x04 | 0x08 | 0x20 | 0x80 | 0x100 | 0x200):
            raise Untranslatable("signature", "varargs, a generator or a coroutine")
        params = [a.arg for a in node.args.args]
        if node.args.kwonlyargs or node.args.posonlyargs or node.decorator_list or not (
                1 <= len(params) <= 2):
            raise Untranslatable("signature", f"def {node.name}({', '.join(params)})")
        self.func = func
        self.node = node
        self.globals = func.__globals__
        scope_builtins = self.globals.get("__builtins__", builtins)
        self.builtins = scope_builtins if isinstance(scope_builtins, dict) else vars(
            scope_builtins)
        self.locals = {name: i for i, name in enumerate(code.co_varnames)}
        # Names of ``global`` statements (torch_npu's static-kernel prefix,
        # ``global has_initialized``): call() rebinds them, so each is read per call.
        self.declared = {name for n in ast.walk(node) if isinstance(n, ast.Global)
                         for name in n.names}
        self.program = P.Program(local_names=list(code.co_varnames),
                                 args_slot=self.locals[params[-1]],
                                 self_slot=self.locals[params[0]] if len(params) == 2 else -1)
        self._free_temps: list[int] = []
        self._temps: set[int] = set()
        self._const_index: dict[tuple, int] = {}
        self.sites = sites

    # ---- operands -------------------------------------------------------------

    def const(self, value: object) -> int:
        # literals by type and repr (0.0 and -0.0 stay two constants), the rest by identity
        literal = isinstance(value, (int, float, str, bytes, type(None), bool)) or (
            type(value) is tuple and all(isinstance(v, (int, float, str, bool, type(None)))
                                         for v in value))
        key = (type(value), repr(value)) if literal else (id(value),)
        index = self._const_index.get(key)
        if index is None:
            index = len(self.program.consts)
            self.program.consts.append(value)
            self._const_index[key] = index
        return P.const_operand(index)

    def _global(self, name: str) -> int:
        """A module global as the constant it is bound to now (the wrapper module
        has finished loading and Inductor has set its attributes), or, when
        unbound, a lookup per call (which raises NameError as Python would)."""
        if name in self.declared:
            return self.global_name(name)
        for scope in (self.globals, self.builtins):
            if name in scope:
                return self.const(scope[name])
        return self.global_name(name)

    def global_name(self, name: str) -> int:
        names = self.program.names
        if name not in names:
            names.append(name)
        return P.global_operand(names.index(name))

    def temp(self) -> int:
        if self._free_temps:
            slot = self._free_temps.pop()
        else:
            slot = len(self.program.local_names)
            self.program.local_names.append("")
        self._temps.add(slot)
        return slot

    def release(self, operands: Iterator[int] | list[int]) -> None:
        """Temporaries end when the op that consumed them returned (as CPython pops them)."""
        for v in operands:
            if v in self._temps:
                self._temps.discard(v)
                self.emit(P.FREE, dst=v)
                self._free_temps.append(v)

    def emit(self, code: int, dst: int = -1, a: int = 0, b: int = 0, sub: int = 0,
             operands: tuple = (), extra: object = None, extra2: object = None) -> int:
        self.program.ops.append(P.Op(code, dst, a, b, sub, tuple(operands), extra, extra2))
        return len(self.program.ops) - 1

    # ---- expressions ------------------------------------------------------------

    def _chain(self, node: ast.expr) -> int | None:
        """A constant operand for ``ns.a.b`` rooted at a namespace global, else None."""
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not attrs or not isinstance(node, ast.Name) or node.id in self.locals:
            return None
        value = self.globals.get(node.id)
        if value is None or f"{type(value).__module__}.{type(value).__qualname__}" \
                not in _NAMESPACE_TYPES:
            return None
        for attr in reversed(attrs):
            try:
                value = getattr(value, attr)
            except AttributeError:
                return None  # raised per call, by the per-call lookup, as Python would
        return self.const(value)

    def _const_value(self, node: ast.expr) -> tuple[bool, object]:
        if isinstance(node, ast.Constant):
            return True, node.value
        if isinstance(node, ast.Tuple):
            items = [self._const_value(e) for e in node.elts]
            if all(ok for ok, _ in items):
                return True, tuple(v for _, v in items)
        return False, None

    def value(self, node: ast.expr, dst: int | None = None) -> int:
        """The operand holding ``node``'s value; ops computing it go into ``dst``
        (a new temporary when None)."""
        ok, constant = self._const_value(node)
        if ok:
            return self._move(self.const(constant), dst)
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                raise _NotNative
            operand = self.locals.get(node.id)
            return self._move(operand if operand is not None else self._global(node.id), dst)
        if isinstance(node, ast.Attribute):
            chained = self._chain(node)
            if chained is not None:
                return self._move(chained, dst)
            obj = self.value(node.value)
            out = self.temp() if dst is None else dst
            self.emit(P.ATTR, dst=out, a=obj, extra2=node.attr)
            self.release([obj])
            return out
        if isinstance(node, ast.Call):
            return self._call(node, dst)
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.value(e) for e in node.elts]
            out = self.temp() if dst is None else dst
            self.emit(P.TUPLE if isinstance(node, ast.Tuple) else P.LIST, dst=out,
                      operands=tuple(items))
            self.release(items)
            return out
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            return self._binary(P.ITEM, 0, node.value, node.slice, dst)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return self._binary(P.BINARY, _BINARY[type(node.op)], node.left, node.right, dst)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            return self._binary(P.BINARY, _COMPARE[type(node.ops[0])], node.left,
                                node.comparators[0], dst)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            operand = self.value(node.operand)
            out = self.temp() if dst is None else dst
            self.emit(P.UNARY, dst=out, a=operand, sub=_UNARY[type(node.op)])
            self.release([operand])
            return out
        raise _NotNative

    def _is_size_assert(self, operand: int) -> bool:
        is_const, value = self.program.constant(operand)
        guards = getattr(getattr(sys.modules.get("torch"), "_C", None), "_dynamo", None)
        target = getattr(getattr(guards, "guards", None), "assert_size_stride", None)
        return is_const and target is not None and value is target

    def _move(self, operand: int, dst: int | None) -> int:
        if dst is None:
            return operand
        self.emit(P.MOVE, dst=dst, a=operand)
        return dst

    def _binary(self, code: int, sub: int, left: ast.expr, right: ast.expr, dst: int | None) -> int:
        x = self.value(left)
        y = self.value(right)
        out = self.temp() if dst is None else dst
        self.emit(code, dst=out, a=x, b=y, sub=sub)
        self.release([x, y])
        return out

    def _arguments(self, node: ast.Call) -> tuple[list[int], tuple[str, ...] | None]:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            raise _NotNative
        operands = [self.value(a) for a in node.args]
        operands += [self.value(k.value) for k in node.keywords]
        kwnames = tuple(k.arg for k in node.keywords) or None
        return operands, kwnames

    def _call(self, node: ast.Call, dst: int | None, discard: bool = False) -> int:
        func = node.func
        chained = self._chain(func) if isinstance(func, ast.Attribute) else None
        if isinstance(func, ast.Attribute) and chained is None:
            obj = self.value(func.value)
            operands, kwnames = self._arguments(node)
            out = -1 if discard else (self.temp() if dst is None else dst)
            self.emit(P.METHOD, dst=out, a=obj, operands=operands, extra=kwnames,
                      extra2=func.attr)
            self.release([obj, *operands])
            return out
        callee = chained if chained is not None else self.value(func)
        operands, kwnames = self._arguments(node)
        out = -1 if discard else (self.temp() if dst is None else dst)
        code = P.CALL
        if discard and kwnames is None and len(operands) >= 3 and self._is_size_assert(callee):
            code = P.ASSERT  # checked natively; the original runs when it does not match
        self.emit(code, dst=out, a=callee, operands=operands, extra=kwnames)
        self.release([callee, *operands])
        return out

    # ---- statements ---------------------------------------------------------------

    def body(self, statements: list[ast.stmt]) -> None:
        i = 0
        while i < len(statements):
            if self._site(statements[i:i + 3]):
                i += 3
                continue
            self.statement(statements[i])
            i += 1

    def statement(self, stmt: ast.stmt) -> None:
        mark = len(self.program.ops), set(self._temps), list(self._free_temps)
        try:
            self._native(stmt)
        except _NotNative:
            del self.program.ops[mark[0]:]
            self._temps, self._free_temps = mark[1], mark[2]
            self._island(stmt)

    def _native(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name) and target.id in self.locals:
                self.value(stmt.value, dst=self.locals[target.id])
                return
            if isinstance(target, ast.Tuple) and target.elts and all(
                    isinstance(e, ast.Name) and e.id in self.locals for e in target.elts):
                src = self.value(stmt.value)
                self.emit(P.UNPACK, a=src, operands=tuple(self.locals[e.id] for e in target.elts),
                          extra=P.unpacker(len(target.elts)))
                self.release([src])
                return
            raise _NotNative
        if isinstance(stmt, ast.Expr):
            if isinstance(stmt.value, ast.Call):
                self._call(stmt.value, None, discard=True)
            elif not isinstance(stmt.value, ast.Constant):  # a docstring does nothing
                self.release([self.value(stmt.value)])
            return
        if isinstance(stmt, ast.Delete) and all(isinstance(t, ast.Name) and t.id in self.locals
                                                for t in stmt.targets):
            for t in stmt.targets:
                self.emit(P.DEL, dst=self.locals[t.id])
            return
        if isinstance(stmt, ast.Return):
            value = self.value(stmt.value) if stmt.value is not None else self.const(None)
            self.emit(P.RETURN, a=value)
            return
        if isinstance(stmt, (ast.Pass, ast.Global)):
            return  # a declaration: its names are read per call, bound in islands
        if isinstance(stmt, ast.With) and stmt.items:
            self._with(stmt.items, stmt.body)
            return
        raise _NotNative

    def _with(self, items: list[ast.withitem], body: list[ast.stmt]) -> None:
        item = items[0]
        target = item.optional_vars
        if target is not None and not (isinstance(target, ast.Name) and target.id in self.locals):
            raise _NotNative
        ctx = self.value(item.context_expr)
        holder = self.temp()
        enter = self.emit(P.ENTER, dst=holder, a=ctx,
                          operands=(self.locals[target.id],) if target is not None else ())
        self.release([ctx])
        # The body's statements are translated (islands where needed) one by one.
        if len(items) > 1:
            self._with(items[1:], body)
        else:
            self.body(body)
        exit_pc = self.emit(P.EXIT, dst=holder)
        self.program.ops[enter] = self.program.ops[enter]._replace(b=exit_pc)
        self._temps.discard(holder)
        self._free_temps.append(holder)

    def _site(self, stmts: list[ast.stmt]) -> bool:
        """fastlaunch's call site (``callsite.emit``) as a SITE op and a CALL:
        ``fn = slot[0]; if fn is None: fn = bind(meta, kernel, call_slot=slot); fn(...)``."""
        if len(stmts) != 3 or not self.sites:
            return False
        site = callsite.recognise(stmts, self.locals)
        if site is None:
            return False
        mark = len(self.program.ops), set(self._temps), list(self._free_temps)
        try:
            head = [self.value(site.slot), self.value(site.meta), self.value(site.kernel),
                    self.value(site.bind)]
            fn = self.temp()
            self.emit(P.SITE, dst=fn, operands=head)
            self.release(head)
            operands, kwnames = self._arguments(site.launch)
        except _NotNative:
            del self.program.ops[mark[0]:]
            self._temps, self._free_temps = mark[1], mark[2]
            return False
        self.emit(P.CALL, a=fn, operands=operands, extra=kwnames)
        self.release([fn, *operands])
        return True

    def _island(self, stmt: ast.stmt) -> None:
        for node in ast.walk(stmt):
            if isinstance(node, _NESTED_SCOPES):
                raise Untranslatable("nested_scope", f"line {stmt.lineno}: "
                                                     f"{type(node).__name__}")
            if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Nonlocal)):
                raise Untranslatable("island_control_flow", f"line {stmt.lineno}: "
                                                            f"{type(node).__name__}")
        named = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id in self.locals}
        read = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)} | {
            n.target.id for n in ast.walk(stmt)
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
        names = sorted(named & read) + sorted(named - read)  # those it reads first
        body: list[ast.stmt] = [_ReadBeforeDel(self.locals).visit(copy.deepcopy(stmt))]
        declared = sorted(self.declared & {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)})
        if declared:  # binds them in the module, as call() does
            body.insert(0, ast.copy_location(ast.Global(names=declared), stmt))
        module = ast.Module(body=body, type_ignores=[])
        code = compile(module, self.func.__code__.co_filename, "exec")
        # The guarding IslandNamespace is used when a local the island reads (the
        # first b operands) is unbound as it starts, and always (ISLAND_UNBINDS)
        # when the island can unbind one itself (`del`, the end of an `except ... as`).
        unbinds = any((isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del)
                       and n.id in self.locals)
                      or (isinstance(n, ast.ExceptHandler) and n.name in self.locals)
                      for n in ast.walk(stmt))
        self.emit(P.ISLAND, a=self.const(P.island_namespace(tuple(names))),
                  b=len(named & read), sub=P.ISLAND_UNBINDS if unbinds else 0,
                  operands=tuple(self.locals[n] for n in names), extra=code, extra2=tuple(names))
        self.program.islands.append(ast.unparse(stmt))


class _ReadBeforeDel(ast.NodeTransformer):
    """``del a, x[0], b`` of call()'s locals as ``a; del a; del x[0]; b; del b``:
    under ``exec`` a DELETE_NAME of an unbound name raises NameError whatever
    the namespace says; the read before it raises UnboundLocalError there
    (program.IslandNamespace), as ``del`` of an unbound local does in call()."""

    def __init__(self, local_names: dict) -> None:
        self.local_names = local_names

    def visit_Delete(self, node: ast.Delete) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for target in _flat(node.targets):
            if isinstance(target, ast.Name) and target.id in self.local_names:
                read = ast.Expr(value=ast.Name(id=target.id, ctx=ast.Load()))
                out.append(ast.copy_location(read, target))
            out.append(ast.copy_location(ast.Delete(targets=[target]), node))
        for stmt in out:
            ast.fix_missing_locations(stmt)
        return out


def _flat(targets: list[ast.expr]) -> Iterator[ast.expr]:
    """``del`` targets in the order they are deleted (``del (a, b)`` is ``del a, b``)."""
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from _flat(target.elts)
        else:
            yield target


def translate(func: types.FunctionType, node: ast.FunctionDef) -> P.Program:
    """The program of ``func`` (whose ``def`` is ``node``); Untranslatable when it cannot be.

    A SITE op does not keep the call site's local (``callsite.FN``); that
    holds only when no other statement names it, else the sites are
    translated statement by statement.
    """
    translator = _Translator(func, node, sites=True)
    translator.body(node.body)
    uses = sum(1 for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == callsite.FN)
    sites = sum(1 for op in translator.program.ops if op.code == P.SITE)
    if uses == callsite.FN_NAMES_PER_SITE * sites:
        return translator.program
    translator = _Translator(func, node, sites=False)
    translator.body(node.body)
    return translator.program
