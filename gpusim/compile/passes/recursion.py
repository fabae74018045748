"""Recursive device functions: functions of their own in the generated module (part of
``normalize``, ``infer`` and ``generate``).

Device functions are inlined (``inline.py``), which a function that calls itself, directly
or through others, cannot be. numba compiles self- and mutual recursion when a path
through the function returns without recursing (its return type comes from there), as
numba.cuda does; so such a function, and every device function it calls, is written into
the generated module as an ordinary ``@_jit`` function, and the kernel calls it::

    @_jit
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

A module with such functions is compiled in each process, not cached on disk: numba's
cache loses the calls of a recursive function (a cached kernel calling ``gcd(x, 48)``
fails to load with "Symbol not found: .numba.unresolved$...gcd...").

This is only exact for code that does not depend on the thread schedule: a function
compiled on its own runs for one thread, so it may take and return numbers and tuples
of numbers, but may not use barriers, wave collectives, thread indices, arrays (they would
escape the bounds checks), ``assert`` or ``raise``; each is a ``KernelCompileError``
naming the line.

>>> from gpusim.compile.lang import DeviceFunction
>>> def fact(n):
...     return 1 if n <= 1 else n * fact(n - 1)
>>> fact = DeviceFunction(fact)
>>> from gpusim.compile.passes.inline import load_device_function
>>> load = lambda f, static=None: load_device_function(f, wave_size=64, kernel="k",
...                                                    static=static)
>>> sorted(f.__name__ for f in reachable(load(fact), load))
['fact']
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

import numba
from numba.core import types
from numba.core.errors import NumbaError

from gpusim.compile.diagnostics import compile_error, source_label
from gpusim.compile.ir import Intrinsic, KernelIR, is_array_decl, is_sync
from gpusim.compile.passes.static_args import OBJECT
from gpusim.errors import KernelCompileError

PURE_INTRINSICS = ("popc", "ffs", "clz", "brev", "fma")  # machine ops: no thread state


def _device_calls(unit: Any) -> list[ast.Call]:
    return [n for n in ast.walk(unit.fn) if isinstance(n, ast.Call) and hasattr(n, "devfn")]


def reachable(unit: Any, load: Callable[..., Any]) -> set[Any]:
    """The device functions that resolved function ``unit`` calls, directly or not; a
    device function is among those of its own unit exactly when it is recursive. Each is
    loaded as its call binds it (``load(fn, static)``, so a shape passed as a constant is
    known); one that does not load so is left out (inlining it will say why)."""
    found: set[Any] = set()
    todo = _device_calls(unit)
    while todo:
        call = todo.pop()
        if call.devfn in found:
            continue
        found.add(call.devfn)
        try:
            todo += _device_calls(load(call.devfn, getattr(call, "static", None)))
        except KernelCompileError:
            continue
    return found


def _static_objects(call: ast.AST) -> bool:
    """A device call passing a type, intrinsic or function (bound when inlined)."""
    return any(kind == OBJECT for kind, _ in (getattr(call, "static", None) or {}).values())


def _check(unit: Any, fail: Callable[..., Exception]) -> None:
    """What a separately compiled function cannot do (see the module docstring)."""
    why = "a recursive device function (and what it calls) runs as a function of its own"
    for n in ast.walk(unit.fn):
        if _static_objects(n):
            raise fail(unit.src, n, f"{why}; it cannot take types or functions as arguments",
                       "pass numbers")
        if is_array_decl(n) or (isinstance(n, ast.Name) and n.id in unit.const_arrays):
            raise fail(unit.src, n, f"{why}; it cannot use arrays", "pass the numbers it needs")
        if is_sync(n) or (isinstance(n, Intrinsic) and n.name not in PURE_INTRINSICS):
            raise fail(unit.src, n, f"{why}, one thread at a time, so it cannot use "
                       f"hip.{n.name} (barriers, wave collectives, thread indices)",
                       "a loop with an explicit stack in a local array, in the kernel")
        if isinstance(n, ast.Assert):  # `raise` too (raises.py): both stop the thread
            what = "raise" if getattr(n, "raises", None) else "assert"
            raise fail(unit.src, n, f"{why}; `{what}` is not supported there",
                       f"return a status value and {what} in the kernel")


class SeparateFunctions:
    """The device functions a kernel calls that are compiled on their own (``kir.functions``:
    emitted name -> FunctionDef ready for code generation)."""

    def __init__(self, kir: KernelIR, merge_globals: Callable[[Any], dict[str, str]],
                 load: Callable[[Any], Any]):
        self.kir, self.merge_globals, self.load = kir, merge_globals, load
        self.names: dict[Any, str] = {}  # device function -> its name in the module
        self.recursive: dict[Any, bool] = {}

    def fail(self, src: Any, node: ast.AST, msg: str, instead: str = "") -> Exception:
        return compile_error(src, node, msg, instead=instead, kernel=self.kir.name)

    def call(self, devfn: Any, args: list[ast.expr], node: ast.Call,
             unit: Any) -> ast.expr | None:
        """The call ``devfn(args)`` (``unit``: ``devfn`` resolved for this call) of a
        recursive device function; None when ``devfn`` is not recursive (it is inlined)."""
        if devfn not in self.recursive:
            self.recursive[devfn] = devfn in reachable(unit, self.load)
        if not self.recursive[devfn]:
            return None  # inlined (even where a recursive function calls it too)
        if _static_objects(node):
            raise self.fail(self.kir.src, node, f"'{devfn.__name__}' is recursive and runs "
                            "as a function of its own, which cannot take types or functions "
                            "as arguments", "pass numbers")
        self.add(devfn, self.load(devfn))
        call = ast.Call(func=ast.Name(self.names[devfn], ast.Load()), args=args, keywords=[])
        call.separate = self.names[devfn]
        return ast.copy_location(call, node)

    def add(self, fn: Any, unit: Any) -> None:
        if fn in self.names:
            return
        _check(unit, self.fail)
        taken = (set(self.kir.functions) | set(self.kir.constants) | set(self.kir.params)
                 | {"np", "math", f"{self.kir.name}__run", f"{self.kir.name}__workspace"}
                 | {n.id for n in ast.walk(self.kir.func)  # the kernel's variables
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})
        name = fn.__name__.lstrip("_") or "device_function"
        while name in taken:
            name += "_dev"
        self.names[fn] = name
        self.kir.functions[name] = None  # reserved: a callee may be processed first
        body = copy.deepcopy(unit.fn)
        rename = self.merge_globals(unit)
        for n in ast.walk(body):
            if isinstance(n, ast.Name) and n.id in rename:
                n.id = rename[n.id]
        for n in ast.walk(body):
            if isinstance(n, ast.Call) and hasattr(n, "devfn"):
                self.add(n.devfn, self.load(n.devfn))
                n.func, n.separate = ast.Name(self.names[n.devfn], ast.Load()), True
                del n.devfn
        body.name, body.decorator_list = name, []
        body.label = f"{source_label(unit.src.filename)}, line {unit.fn.lineno}"
        self.kir.functions[name] = body


def function_source(kir: KernelIR, gen: Any, name: str) -> str:
    """The text of separately compiled function ``name`` (``gen``: the kernel's ExprGen,
    which rewrites casts, math and machine ops and notes the helpers they use)."""
    fn = gen.visit(copy.deepcopy(kir.functions[name]))
    return (f"# device function '{name}' ({kir.functions[name].label}): compiled on its own, "
            f"as recursion cannot be inlined\n@_jit\n{ast.unparse(fn)}\n")


def _dispatcher(kir: KernelIR, name: str) -> Any:
    """A numba-compiled copy of the functions, to type calls of ``name`` (the generated
    module compiles its own)."""
    from gpusim.compile.codegen.expr import ExprGen, alias
    from gpusim.compile.device import devicelib

    made = getattr(kir, "function_dispatchers", None)
    if made is None:
        gen = ExprGen(None, kir.wave_size)
        text = "\n".join(function_source(kir, gen, n) for n in kir.functions)
        ns: dict[str, Any] = {"_jit": numba.njit(error_model="numpy"), **kir.constants}
        ns.update({alias(h): getattr(devicelib, h) for h in gen.used})
        exec("import math\nimport numpy as np\n" + text, ns)  # noqa: S102 - our own code
        kir.function_dispatchers = made = {n: ns[n] for n in kir.functions}
    return made[name]


def separate_call_type(typer: Any, node: ast.Call) -> Any:
    """The numba type of a call of a separately compiled function: numba's answer."""
    args = tuple(types.unliteral(typer.expr(a)) for a in node.args)
    for a, ty in zip(node.args, args, strict=True):
        if isinstance(ty, types.Array):
            raise typer.fail(a, f"'{node.func.id}' is recursive and runs as a function of "
                             "its own, which cannot take arrays",
                             instead="pass the numbers it needs")
    disp = _dispatcher(typer.kir, node.func.id)
    try:
        disp.compile(args)
    except NumbaError as exc:
        said = [ln.strip() for ln in str(exc).splitlines() if ln.strip() and not
                ln.startswith(("Failed in", "During:", "- Resolution failure"))]
        raise typer.fail(node, f"numba cannot compile the recursive device function "
                         f"'{node.func.id}' for ({', '.join(map(str, args))}): "
                         f"{said[0] if said else exc}",
                         instead="a base case that returns without recursing") from None
    return types.unliteral(disp.overloads[args].signature.return_type)
