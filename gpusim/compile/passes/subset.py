"""Pass 2, subset: reject Python a kernel cannot use, with the line, column and a fix.

This pass looks at syntax only (``resolve`` checks what names refer to, ``infer`` checks
types). Supported statements: assignment (also to ``a[i, j]`` and tuples of names),
augmented assignment, expression statements (calls), ``if/elif/else``, ``for`` over
``range(...)``, ``while``, ``break``, ``continue``, ``return``, ``pass``, ``assert``.

>>> import ast
>>> from gpusim.compile.passes.parse import parse_function
>>> def k(a):
...     b = [x for x in a]
>>> fn, src = parse_function(k)
>>> try:
...     check_subset(fn, src)
... except Exception as e:
...     print(str(e).splitlines()[0])  # doctest: +ELLIPSIS
kernel 'k', line 2, column 9 (...): list comprehensions are not supported in kernels
"""

from __future__ import annotations

import ast

from gpusim.compile.diagnostics import SourceFile, compile_error

_ARRAY_HINT = "a fixed-size hip.local.array(n, dtype) filled by a for loop"

# node type -> (what it is, what to use instead)
_UNSUPPORTED: dict[type, tuple[str, str]] = {
    ast.Try: ("`try` statements", "kernels cannot catch errors; test the condition with `if`"),
    ast.With: ("`with` statements", "write the code without a context manager"),
    ast.Import: ("`import` inside a kernel", "import at module level, outside the kernel"),
    ast.ImportFrom: ("`import` inside a kernel", "import at module level, outside the kernel"),
    ast.Global: ("`global`", "write results into an array argument"),
    ast.Nonlocal: ("`nonlocal`", "write results into an array argument"),
    ast.Delete: ("`del`", "just stop using the variable"),
    ast.FunctionDef: ("functions defined inside a kernel",
                      "a module-level function decorated with @hip.jit(device=True)"),
    ast.AsyncFunctionDef: ("async functions", "a @hip.jit(device=True) function"),
    ast.ClassDef: ("classes defined inside a kernel", "plain variables and arrays"),
    ast.AsyncFor: ("`async for`", "`for i in range(...)`"),
    ast.AsyncWith: ("`async with`", "plain statements"),
    ast.Lambda: ("lambda", "a module-level function decorated with @hip.jit(device=True)"),
    ast.ListComp: ("list comprehensions", _ARRAY_HINT),
    ast.SetComp: ("set comprehensions", _ARRAY_HINT),
    ast.DictComp: ("dict comprehensions", _ARRAY_HINT),
    ast.GeneratorExp: ("generator expressions", "a for loop"),
    ast.List: ("lists", _ARRAY_HINT),
    ast.Set: ("sets", _ARRAY_HINT),
    ast.Dict: ("dicts", "separate variables or arrays"),
    ast.JoinedStr: ("f-strings", "print the values as separate arguments: print('x =', x)"),
    ast.Await: ("`await`", "plain calls"),
    ast.Yield: ("`yield`", "write results into an array argument"),
    ast.YieldFrom: ("`yield from`", "write results into an array argument"),
    ast.NamedExpr: ("the walrus operator `:=`", "a separate assignment statement"),
    ast.Starred: ("`*` unpacking", "pass the arguments one by one"),
}
if hasattr(ast, "Match"):
    _UNSUPPORTED[ast.Match] = ("`match` statements", "if/elif/else")
if hasattr(ast, "TryStar"):
    _UNSUPPORTED[ast.TryStar] = ("`try` statements", "test the condition with `if`")


def check_subset(fn: ast.FunctionDef, src: SourceFile, *, device: bool = False,
                   kernel: str | None = None) -> None:
    """Raise ``KernelCompileError`` at the first construct kernels do not support."""
    def fail(node: ast.AST, what: str, instead: str = "") -> None:
        raise compile_error(src, node, f"{what} not supported in kernels", construct=what,
                            instead=instead, kernel=kernel)

    args = fn.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
        fail(fn, "*args, **kwargs, keyword-only and default arguments are",
             "plain positional parameters")
    # f(*t): a tuple spread over a call's arguments, as numba allows; `a, *b = t` is not
    spread = {id(a) for n in ast.walk(fn) if isinstance(n, ast.Call) for a in n.args}
    for node in ast.walk(fn):
        if node is fn or isinstance(node, ast.Starred) and id(node) in spread:
            continue
        kind = type(node)
        if kind in _UNSUPPORTED:
            what, instead = _UNSUPPORTED[kind]
            fail(node, what + (" is" if not what.endswith("s") or what.startswith("`") else
                               " are"), instead)
        if isinstance(node, (ast.For, ast.While)) and node.orelse:
            fail(node, f"`{'for' if isinstance(node, ast.For) else 'while'} ... else` is",
                 "set a flag before `break` and test it after the loop")
        if isinstance(node, ast.For):
            _check_for(node, fail)
        if isinstance(node, ast.Return) and node.value is not None and not device:
            fail(node, "returning a value from a kernel is",
                 "write the result into an array argument, e.g. out[i] = value")
        if isinstance(node, ast.Compare):
            for op in node.ops:
                if isinstance(op, (ast.In, ast.NotIn)):  # (`is`: infer allows Enum members)
                    fail(node, "`in` comparisons are", "==, !=, <, <= ... on numbers")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            fail(node, "the `@` operator is", "a loop over k accumulating a[i, k] * b[k, j]")
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg is None:
                    fail(node, "`**` in calls is", "pass the arguments one by one")
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                _check_target(target, fail)


def _check_for(node: ast.For, fail) -> None:
    if not isinstance(node.target, ast.Name):
        fail(node.target, "loop targets other than a single name are",
             "`for i in range(n):` and index inside the loop")
    it = node.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
            and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 3):
        fail(it, "`for` loops over anything but range(...) are",
             "`for i in range(len(a)):` and index a[i] inside the loop")


def _check_target(target: ast.AST, fail) -> None:
    if isinstance(target, ast.Tuple):
        for elt in target.elts:
            if not isinstance(elt, (ast.Name, ast.Subscript)):
                fail(elt, "nested unpacking is", "unpack one level: a, b = t")
    elif not isinstance(target, (ast.Name, ast.Subscript, ast.Attribute)):  # r.x: a record
        fail(target, "this assignment target is", "a variable or an array element")
