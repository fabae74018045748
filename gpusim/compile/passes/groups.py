"""Cooperative groups: ``hip.cg`` and numba's ``cuda.cg`` grid (part of ``resolve``).

A cooperative group is not a value at run time: in HIP a ``thread_block_tile<16>`` is its
size plus the thread's index, and every method is a few instructions on those. This pass
runs before names are resolved and rewrites each use into the kernel language, following
HIP's ``amd_hip_cooperative_groups.h`` (block rank ``r`` is the thread's flattened index
in its block, ``B`` the block's threads, ``N`` a tile's size):

===========================================  ===============================================
``g = hip.cg.this_grid()``                   removed; ``g`` is remembered (also ``cuda.cg``)
``g.sync()``                                 the grid barrier (``sync_grid``): the launch is
                                             cooperative (``codegen/cooperative.py``)
``g.thread_rank()``, ``g.size()``            block index * ``B`` + ``r``; all the threads
``b = hip.cg.this_thread_block()``           removed; ``b`` is remembered
``b.sync()``                                 ``hip.syncthreads()``
``b.thread_rank()``, ``b.size()``            ``r``; ``B``
``b.group_index().x`` (``thread_index``,     ``hip.blockIdx.x`` (``threadIdx``, ``blockDim``)
``group_dim``)
``t = hip.cg.tiled_partition(b, N)``         removed; ``N`` a power of two, at most the wave
                                             size, known at compile time
``t.thread_rank()``, ``t.size()``            ``r & (N - 1)``; ``N``
``t.meta_group_rank()``, ``meta_group_size`` parent rank ``// N``; parent size / ``N``,
                                             rounded up
``t.sync()``                                 ``hip.syncwarp()`` (a tile lies in one wavefront)
``t.shfl(v, k)`` (``_up``, ``_down``,        ``hip.shfl(v, k, N)``: the width-``N`` segment
``_xor``)                                    of the wavefront is the tile
``t.ballot(p)``                              the wave's ballot, the tile's ``N`` bits moved
                                             to bits 0..N-1 (HIP's ``adjust_mask``)
``t.any(p)``, ``t.all(p)``                   that ballot ``!= 0``; ``==`` the tile's active
                                             lanes (int32, as HIP's)
===========================================  ===============================================

Anything else a group is used for (passed to a device function, assigned again, a
method HIP's group does not have, a shuffle on a block) is a compile error naming the
line; so is a tile size that is not a power of two, above the wavefront, or not a
constant. A device function makes its own groups (``hip.cg.this_thread_block()`` names
the same block there).

>>> from gpusim.compile.passes.parse import parse_function
>>> from gpusim.compile.ir import unparse
>>> from gpusim import hip
>>> def k(x):
...     t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 16)
...     x[0] = t.shfl_down(x[0], 1)
...     t.sync()
>>> fn, _ = parse_function(k)
>>> rewrite_groups(fn, {"hip": hip}, wave_size=64)
True
>>> print(unparse(fn.body[1:]))
x[0] = hip.shfl_down(x[0], 1, 16)
hip.syncwarp()
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.compile import lang, lang_cg
from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import Cast, Intrinsic
from gpusim.errors import KernelCompileError

# Ranks and sizes as kernel-language text (HIP's internal::workgroup / internal::grid).
_BLOCK_RANK = ("(hip.threadIdx.x + hip.threadIdx.y * hip.blockDim.x"
               " + hip.threadIdx.z * (hip.blockDim.x * hip.blockDim.y))")
_BLOCK_SIZE = "(hip.blockDim.x * hip.blockDim.y * hip.blockDim.z)"
_BLOCK_INDEX = ("(hip.blockIdx.x + hip.blockIdx.y * hip.gridDim.x"
                " + hip.blockIdx.z * (hip.gridDim.x * hip.gridDim.y))")
_GRID_SIZE = f"(hip.gridDim.x * hip.gridDim.y * hip.gridDim.z * {_BLOCK_SIZE})"

_SHUFFLES = ("shfl", "shfl_up", "shfl_down", "shfl_xor")
_VOTES = ("ballot", "any", "all")
_DIM3 = {"group_index": "blockIdx", "thread_index": "threadIdx", "group_dim": "blockDim"}
# method -> number of arguments, per kind of group (HIP's grid_group, thread_block and
# thread_block_tile; num_threads is CUDA 12's and newer HIP's name for size)
_COMMON = {"thread_rank": 0, "size": 0, "num_threads": 0, "sync": 0, "is_valid": 0}
METHODS: dict[str, dict[str, int]] = {
    "grid": {**_COMMON, "group_dim": 0},
    "block": {**_COMMON, **{m: 0 for m in _DIM3}},
    "tile": {**_COMMON, "meta_group_rank": 0, "meta_group_size": 0,
             **{m: 2 for m in _SHUFFLES}, **{m: 1 for m in _VOTES}},
}
_WHAT = {"grid": "the grid group", "block": "a thread block", "tile": "a tile"}
_STATIC_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
               ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
               ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}


@dataclass(frozen=True)
class Group:
    """What a group variable denotes: ``kind`` "grid", "block" or "tile"; a tile's
    ``size`` and the group it was cut from (``parent``, for ``meta_group_*``).

    >>> tile = Group("tile", 16, Group("block"))
    >>> tile.rank()
    '(hip.threadIdx.x + hip.threadIdx.y * hip.blockDim.x + hip.threadIdx.z * \
(hip.blockDim.x * hip.blockDim.y)) & 15'
    """

    kind: str
    size: int = 0
    parent: Group | None = None

    def rank(self) -> str:
        """``thread_rank()`` as kernel-language text."""
        if self.kind == "grid":
            return f"{_BLOCK_INDEX} * {_BLOCK_SIZE} + {_BLOCK_RANK}"
        if self.kind == "block":
            return _BLOCK_RANK
        return f"{_BLOCK_RANK} & {self.size - 1}"

    def count(self) -> str:
        """``size()`` as kernel-language text."""
        return {"grid": _GRID_SIZE, "block": _BLOCK_SIZE}.get(self.kind, str(self.size))


def _vote_text(method: str, n: int) -> str:
    """A tile's ballot/any/all of ``PRED``: the wave's ballot, the tile's bits only."""
    def bits(mask: str) -> str:
        if n == 64:  # the whole (wave64) wavefront: nothing to move
            return mask
        return (f"(({mask} >> np.uint64(hip.laneid & {~(n - 1)})) & "
                f"np.uint64({(1 << n) - 1}))")
    ballot = bits("hip.ballot(PRED)")
    if method == "ballot":
        return ballot
    if method == "any":
        return f"np.int32({ballot} != np.uint64(0))"
    return f"np.int32({ballot} == {bits('hip.activemask()')})"


class _Lower(ast.NodeTransformer):
    """Template text -> IR: ``hip.x.y`` -> ``Intrinsic``, ``np.T(v)`` -> ``Cast``,
    upper-case names -> the parts given (copied: a part may appear twice)."""

    def __init__(self, parts: dict[str, ast.expr]):
        self.parts = parts

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy.deepcopy(self.parts[node.id]) if node.id in self.parts else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        dotted = ast.unparse(node)
        if dotted.startswith("hip."):
            return ast.copy_location(Intrinsic(name=dotted[4:]), node)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = ast.unparse(node.func)
        args = [self.visit(a) for a in node.args]
        if func.startswith("hip."):
            return ast.copy_location(Intrinsic(name=func[4:], args=args), node)
        if func.startswith("np."):
            return ast.copy_location(Cast(dtype=np.dtype(func[3:]), arg=args[0]), node)
        raise AssertionError(f"template call {func}")


def build(text: str, at: ast.AST, **parts: ast.expr) -> ast.expr:
    """The kernel-language expression ``text`` as IR placed at ``at``'s line (parts in
    upper case are the user's own expressions, which keep their places).

    >>> from gpusim.compile.ir import unparse
    >>> unparse(build("hip.shfl(V, 0, 8)", ast.Name("x"), V=ast.Name("v")))
    'hip.shfl(v, 0, 8)'
    """
    tree = ast.parse(text, mode="eval").body
    for node in ast.walk(tree):
        ast.copy_location(node, at)
    tree = _Lower(parts).visit(tree)
    for node in ast.walk(tree):  # the user's parts keep their own file (device functions)
        if getattr(node, "gsrc", None) is None:
            node.gsrc = getattr(at, "gsrc", None)
    return tree


class _Groups(ast.NodeTransformer):
    def __init__(self, fn: ast.FunctionDef, ns: dict[str, Any], wave_size: int):
        self.fn, self.ns, self.wave = fn, ns, wave_size
        self.local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                      and isinstance(n.ctx, ast.Store)} | {a.arg for a in fn.args.args}
        self.groups: dict[str, Group] = {}
        self.used = False

    def fail(self, node: ast.AST, msg: str, instead: str = "") -> KernelCompileError:
        return compile_error(getattr(node, "gsrc", None), node, msg, instead=instead,
                             construct="cooperative groups")

    # -- what a name or call denotes ------------------------------------------------
    def lookup(self, node: ast.expr) -> tuple[bool, Any]:
        """(True, value) if ``node`` is a chain of names (not a local) naming a value."""
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id in self.local or node.id not in self.ns:
            return False, None
        value = self.ns[node.id]
        for attr in reversed(chain):
            if not hasattr(value, attr):
                return False, None
            value = getattr(value, attr)
        return True, value

    def maker(self, node: ast.expr) -> Any:
        """The ``lang_cg`` stub ``node`` calls, if it is such a call."""
        if not isinstance(node, ast.Call):
            return None
        found, value = self.lookup(node.func)
        makers = (lang_cg.this_grid, lang_cg.this_thread_block, lang_cg.tiled_partition)
        return value if found and any(value is m for m in makers) else None

    def group_of(self, node: ast.expr) -> Group | None:
        """The group ``node`` denotes: a group variable or a call making one."""
        if isinstance(node, ast.Name):
            return self.groups.get(node.id)
        made = self.maker(node)
        if made is None:
            return None
        if made is lang_cg.tiled_partition:
            return self.partition(node)
        if node.args or node.keywords:
            raise self.fail(node, f"hip.{made.name}() takes no arguments")
        return Group("grid" if made is lang_cg.this_grid else "block")

    def partition(self, call: ast.Call) -> Group:
        if len(call.args) != 2 or call.keywords:
            raise self.fail(call, "hip.cg.tiled_partition takes (parent, tile size)",
                            instead="t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 16)")
        parent = self.group_of(call.args[0])
        if parent is None or parent.kind == "grid":
            what = "the grid" if parent else f"`{ast.unparse(call.args[0])}`"
            raise self.fail(call.args[0], f"hip.cg.tiled_partition cuts a thread block or a "
                            f"tile into tiles, not {what}",
                            instead="hip.cg.tiled_partition(hip.cg.this_thread_block(), 16)")
        n = self.static_int(call.args[1])
        if n is None:
            raise self.fail(call.args[1], "the tile size must be known when the kernel "
                            "compiles (in HIP it is the N of thread_block_tile<N>)",
                            instead="a number, a module-level constant or hip.warpsize")
        if n < 1 or n & (n - 1):
            raise self.fail(call.args[1], f"a tile of {n} threads: the size must be a power "
                            "of two", instead="1, 2, 4, 8, 16, 32 (64 on wave64 GPUs)")
        if n > self.wave:
            raise self.fail(call.args[1], f"a tile of {n} threads is larger than a wavefront "
                            f"of the device the kernel is compiled for ({self.wave} lanes): "
                            "a tile's threads must be in one wavefront",
                            instead="at most hip.warpsize: 32 fits every AMD GPU")
        if parent.kind == "tile" and n > parent.size:
            raise self.fail(call.args[1], f"a tile of {n} threads cut from a tile of "
                            f"{parent.size}", instead=f"at most {parent.size}")
        return Group("tile", n, parent)

    def static_int(self, node: ast.expr) -> int | None:
        """``node``'s value if it is an integer known at compile time, else None."""
        if isinstance(node, ast.Constant):
            ok = isinstance(node.value, int) and not isinstance(node.value, bool)
            return node.value if ok else None
        if isinstance(node, ast.BinOp) and type(node.op) in _STATIC_OPS:
            left, right = self.static_int(node.left), self.static_int(node.right)
            ok = left is not None and right is not None
            return _STATIC_OPS[type(node.op)](left, right) if ok else None
        if isinstance(node, ast.Name) and node.id in self.local:
            value = self.only_assignment(node.id)  # TILE = 16 in the kernel
            return None if value is None else self.static_int(value)
        found, value = self.lookup(node)
        if found and value is lang.warpsize:
            return self.wave
        ok = found and isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        return int(value) if ok else None

    def only_assignment(self, name: str) -> ast.expr | None:
        stores = [n for n in ast.walk(self.fn) if isinstance(n, ast.Name) and n.id == name
                  and isinstance(n.ctx, ast.Store)]
        assigns = [s for s in ast.walk(self.fn) if isinstance(s, ast.Assign)
                   and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                   and s.targets[0].id == name]
        params = {a.arg for a in self.fn.args.args}
        one = len(stores) == len(assigns) == 1 and name not in params
        return assigns[0].value if one else None

    # -- statements -----------------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        group = self.group_of(node.value)
        if group is None:
            return self.generic_visit(node)
        target = node.targets[0]
        if len(node.targets) != 1 or not isinstance(target, ast.Name):
            raise self.fail(node, "a cooperative group can only be given one name",
                            instead="b = hip.cg.this_thread_block()")
        if self.groups.get(target.id, group) != group:
            raise self.fail(target, f"`{target.id}` already names another group",
                            instead="give each group its own name")
        self.groups[target.id] = group
        self.used = True
        return ast.copy_location(ast.Pass(), node)

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        call = node.value
        if self.maker(call) is not None:
            self.group_of(call)  # checked, but a group made and dropped does nothing
            return ast.copy_location(ast.Pass(), node)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr == "sync":
            group = self.group_of(call.func.value)
            if group is not None:
                self.check_call(call, group, "sync")
                self.used = True
                name = {"grid": "sync_grid", "block": "syncthreads", "tile": "syncwarp"}
                barrier = ast.copy_location(Intrinsic(name=name[group.kind]), call)
                barrier.gsrc = getattr(call, "gsrc", None)
                return ast.copy_location(ast.Expr(value=barrier), node)
        return self.generic_visit(node)

    # -- expressions ----------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> ast.expr:
        if self.maker(node) is not None:
            self.group_of(node)
            raise self.fail(node, "a cooperative group is not a value: it can be given a "
                            "name or have a method called",
                            instead="b = hip.cg.this_thread_block(), then b.sync()")
        if isinstance(node.func, ast.Attribute):
            group = self.group_of(node.func.value)
            if group is not None:
                self.used = True
                return self.method(node, group)
        return self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr in _DIM3:
            group = self.group_of(call.func.value)
            if group is not None and node.attr in ("x", "y", "z"):
                self.check_call(call, group, call.func.attr)
                return build(f"hip.{_DIM3[call.func.attr]}.{node.attr}", node)
        group = self.group_of(node.value)
        if group is not None:
            instead = f".{node.attr}()" if node.attr in METHODS[group.kind] else \
                "one of " + ", ".join(f".{m}()" for m in METHODS[group.kind])
            raise self.fail(node, f"`{ast.unparse(node)}`: {_WHAT[group.kind]} has methods, "
                            "not fields", instead=instead)
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.groups:
            if isinstance(node.ctx, ast.Store):
                raise self.fail(node, f"`{node.id}` names a cooperative group and cannot be "
                                "assigned another value", instead="use another name")
            raise self.fail(node, f"the group `{node.id}` is used as a value: a group exists "
                            "only through its methods (it cannot be passed to a function, "
                            "stored or printed)", instead=f"call its methods ({node.id}."
                            "thread_rank(), ...); a device function makes its own group with "
                            "hip.cg.this_thread_block()")
        return node

    def check_call(self, call: ast.Call, group: Group, method: str) -> None:
        """``method`` exists for ``group`` and ``call`` passes it the right arguments."""
        methods = METHODS[group.kind]
        if method not in methods:
            if method in _SHUFFLES + _VOTES:
                raise self.fail(call, f"{method} on {_WHAT[group.kind]}: shuffles and votes "
                                "work within one wavefront, and a "
                                f"{'block' if group.kind == 'block' else 'grid'} spans many",
                                instead=f"a tile: t = hip.cg.tiled_partition(block, 32); "
                                f"t.{method}(...)")
            raise self.fail(call, f"{_WHAT[group.kind]} has no method `{method}`",
                            instead=", ".join(f"{m}()" for m in methods))
        if call.keywords or len(call.args) != methods[method]:
            raise self.fail(call, f"`{method}` of {_WHAT[group.kind]} takes "
                            f"{methods[method]} argument(s), given by position")

    def method(self, call: ast.Call, group: Group) -> ast.expr:
        name = call.func.attr
        self.check_call(call, group, name)
        if name == "sync":
            raise self.fail(call, f"`{ast.unparse(call)}` returns nothing: call it on a line "
                            "of its own", instead=f"{ast.unparse(call)}")
        if name in _DIM3:
            raise self.fail(call, f"{name}() is a dim3: use one coordinate",
                            instead=f"{ast.unparse(call)}.x")
        args = [self.visit(a) for a in call.args]
        if name == "thread_rank":
            return build(group.rank(), call)
        if name in ("size", "num_threads"):
            return build(group.count(), call)
        if name == "is_valid":
            return build("True", call)
        parent = group.parent
        if name == "meta_group_rank":
            return build(f"({parent.rank()}) // {group.size}", call)
        if name == "meta_group_size":
            return build(f"({parent.count()} + {group.size - 1}) // {group.size}", call)
        if name in _SHUFFLES:
            return build(f"hip.{name}(V, K, {group.size})", call, V=args[0], K=args[1])
        return build(_vote_text(name, group.size), call, PRED=args[0])


def rewrite_groups(fn: ast.FunctionDef, ns: dict[str, Any], wave_size: int = 64) -> bool:
    """Rewrite every cooperative group in ``fn`` (see the module docstring) for a device of
    ``wave_size`` lanes; True if it used any."""
    rewriter = _Groups(fn, ns, wave_size)
    fn.body = [rewriter.visit(s) for s in fn.body]
    return rewriter.used
