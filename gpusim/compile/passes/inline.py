"""Device functions: parsed, checked and resolved like kernels, then inlined at each call.

Inlining (rather than compiling a separate function) keeps barriers and wave
collectives inside device functions exact: after inlining they are ordinary statements
of the kernel that the ``split`` pass sees. A device function's locals are renamed
``<function>_<n>_<name>`` so two calls never share variables (a parameter the function
never assigns is replaced by the caller's variable itself: arrays pass this way), and its
``return``
statements become assignments to ``<function>_<n>_ret`` (plus a ``done`` flag when a
``return`` is not the last statement).

>>> from gpusim.compile.lang import DeviceFunction
>>> def clamp(x, lo, hi):
...     if x < lo:
...         return lo
...     return min(x, hi)
>>> import ast
>>> body, result = inline_call(DeviceFunction(clamp), [ast.Name("v"), ast.Constant(0),
...                            ast.Constant(9)], wave_size=64, kernel="k", counter=[0],
...                            stack=())
>>> print(ast.unparse(ast.Module(body, [])))
clamp_1_lo = 0
clamp_1_hi = 9
clamp_1_done = False
if v < clamp_1_lo:
    clamp_1_ret = clamp_1_lo
    clamp_1_done = True
if not clamp_1_done:
    clamp_1_ret = min(v, clamp_1_hi)
    clamp_1_done = True
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from gpusim.compile.diagnostics import compile_error
from gpusim.compile.lang import DeviceFunction
from gpusim.compile.passes.parse import namespace, parse_function
from gpusim.compile.passes.resolve import FunctionUnit, local_names, resolve_function
from gpusim.compile.passes.static_args import bind_static
from gpusim.compile.passes.subset import check_subset


def load_device_function(devfn: DeviceFunction, *, wave_size: int, kernel: str,
                         static: dict | None = None) -> FunctionUnit:
    """Parse, check and resolve a device function in its own module's namespace, with the
    parameters in ``static`` (index -> (kind, value)) bound to their values."""
    fn, src = parse_function(devfn.py_func)
    check_subset(fn, src, device=True, kernel=kernel)
    ns = namespace(devfn.py_func)
    kept = list(range(len(fn.args.args)))
    if static:
        bound, kept = bind_static(fn, static)
        ns.update(bound)
    unit = resolve_function(fn, src, ns=ns, wave_size=wave_size, kernel=kernel)
    unit.kept = kept
    return unit


def inline_call(devfn: DeviceFunction, args: list[ast.expr], *, wave_size: int, kernel: str,
                counter: list[int], stack: tuple, node: ast.AST | None = None,
                unit: FunctionUnit | None = None, rename_globals: dict[str, str] | None = None,
                ) -> tuple[list[ast.stmt], ast.expr]:
    """Statements computing ``devfn(*args)`` and the expression holding its result."""
    unit = unit or load_device_function(devfn, wave_size=wave_size, kernel=kernel)
    if devfn in stack:
        raise compile_error(unit.src, node or unit.fn, f"device function '{unit.fn.name}' calls "
                            "itself; recursion is not supported in kernels",
                            instead="a loop", kernel=kernel)
    if len(args) != len(unit.params):
        raise compile_error(unit.src, node or unit.fn, f"device function '{unit.fn.name}' takes "
                            f"{len(unit.params)} arguments, got {len(args)}", kernel=kernel)
    counter[0] += 1
    prefix = f"{unit.fn.name}_{counter[0]}_"
    body = copy.deepcopy(unit.fn.body)
    assigned = {n.id for s in body for n in ast.walk(s)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    rename: dict[str, Any] = dict(rename_globals or {})
    rename.update({name: prefix + name for name in local_names(unit.fn)})
    stmts: list[ast.stmt] = []
    for param, arg in zip(unit.params, args, strict=True):
        if isinstance(arg, ast.Name) and param not in assigned:
            rename[param] = arg.id  # alias: arrays and unchanged scalars pass by name
        else:
            stmts.append(_at(ast.Assign(targets=[ast.Name(prefix + param, ast.Store())],
                                        value=arg, lineno=0), node))
    _Renamer(rename).visit(ast.Module(body=body, type_ignores=[]))
    ret, done = prefix + "ret", prefix + "done"
    returns = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Return)]
    has_value = any(r.value is not None for r in returns)
    if returns and not (len(returns) == 1 and body and body[-1] is returns[0]):
        stmts.append(_at(ast.Assign(targets=[ast.Name(done, ast.Store())],
                                    value=ast.Constant(False), lineno=0), node))
        body = _eliminate_returns(body, ret, done, in_loop=False)
    elif returns:
        last = body.pop()
        if last.value is not None:
            body.append(ast.copy_location(ast.Assign(
                targets=[ast.Name(ret, ast.Store())], value=last.value), last))
    stmts.extend(body)
    for s in stmts:
        s.inlined_from = unit.fn.name
    result = ast.Name(ret, ast.Load()) if has_value else ast.Constant(None)
    return stmts, result


class _Renamer(ast.NodeTransformer):
    def __init__(self, rename: dict[str, str]):
        self.rename = rename

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.rename:
            node.id = self.rename[node.id]
        return node


def _at(stmt: ast.stmt, node: ast.AST | None) -> ast.stmt:
    if node is not None:
        ast.copy_location(stmt, node)
        stmt.gsrc = getattr(node, "gsrc", None)
    for sub in ast.walk(stmt):
        if not hasattr(sub, "lineno") or sub.lineno == 0:
            ast.copy_location(sub, stmt)
    return stmt


def _contains_return(stmt: ast.stmt) -> bool:
    return any(isinstance(n, ast.Return) for n in ast.walk(stmt))


def _eliminate_returns(stmts: list[ast.stmt], ret: str, done: str, in_loop: bool) -> list:
    """Rewrite ``return`` into ``ret = value; done = True`` and guard what follows."""
    out: list[ast.stmt] = []
    for i, stmt in enumerate(stmts):
        if not _contains_return(stmt):
            out.append(stmt)
            continue
        out.extend(_rewrite(stmt, ret, done, in_loop))
        rest = stmts[i + 1:]
        if rest:
            guard = ast.If(test=ast.UnaryOp(ast.Not(), ast.Name(done, ast.Load())),
                           body=_eliminate_returns(rest, ret, done, in_loop), orelse=[])
            out.append(_at(guard, rest[0]))
        break
    return out


def _rewrite(stmt: ast.stmt, ret: str, done: str, in_loop: bool) -> list[ast.stmt]:
    if isinstance(stmt, ast.Return):
        new: list[ast.stmt] = []
        if stmt.value is not None:
            new.append(ast.Assign(targets=[ast.Name(ret, ast.Store())], value=stmt.value))
        new.append(ast.Assign(targets=[ast.Name(done, ast.Store())], value=ast.Constant(True)))
        if in_loop:
            new.append(ast.Break())
        return [_at(s, stmt) for s in new]
    if isinstance(stmt, ast.If):
        stmt.body = _eliminate_returns(stmt.body, ret, done, in_loop) or [ast.Pass()]
        stmt.orelse = _eliminate_returns(stmt.orelse, ret, done, in_loop)
        return [stmt]
    if isinstance(stmt, (ast.For, ast.While)):
        stmt.body = _eliminate_returns(stmt.body, ret, done, in_loop=True)
        out: list[ast.stmt] = [stmt]
        if in_loop:  # leave the enclosing loop too
            out.append(_at(ast.If(test=ast.Name(done, ast.Load()), body=[ast.Break()],
                                  orelse=[]), stmt))
        return out
    return [stmt]
