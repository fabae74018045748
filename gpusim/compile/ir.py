"""The kernel IR: Python's own AST plus a few node kinds, and the block-level schedule.

Statements and expressions stay ``ast`` nodes all the way through the pipeline (so they
keep their line and column and can be printed with ``ast.unparse``). The passes add:

- expression nodes for what the kernel language means: ``Intrinsic`` (a stub call or
  value such as ``hip.threadIdx.x``), ``Cast`` (``np.float32(x)``), ``MathCall``
  (``math.sqrt``) -- see ``resolve.py``;
- the schedule built by ``split.py``: what runs once per work-group (barriers, wave
  collectives, uniform loops, masked divergent control flow) around ``Region`` s, the
  straight-line stretches that become one loop over the block's threads.

>>> import ast
>>> node = Intrinsic(name="threadIdx.x", args=[])
>>> isinstance(node, ast.expr), node.name
(True, 'threadIdx.x')
"""

from __future__ import annotations

import ast
import contextlib
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from gpusim.devices.mfma import builtin_names

# ---------------------------------------------------------------- expression nodes


class Intrinsic(ast.expr):
    """A kernel-language stub used in an expression: ``name`` is the stub's name."""

    _fields = ("args",)

    def __init__(self, name: str = "", args: list[ast.expr] | None = None, **kw: Any):
        super().__init__(**kw)
        self.name = name
        self.args = args or []
        self.const: Any = None  # resolved compile-time data (shape/dtype of an array decl)


class Cast(ast.expr):
    """A conversion to a NumPy scalar type: ``np.float32(x)``, ``int(x)``, ``numba.int32(x)``."""

    _fields = ("arg",)

    def __init__(self, dtype: Any = None, arg: ast.expr | None = None, **kw: Any):
        super().__init__(**kw)
        self.dtype = dtype  # a numpy dtype, or the Python builtins int / float / bool
        self.arg = arg


class MathCall(ast.expr):
    """A call of a math function: ``qualname`` is ``math.sqrt``, ``np.minimum``, ``min`` ..."""

    _fields = ("args",)

    def __init__(self, qualname: str = "", func: Any = None, args: list | None = None,
                 impl: str = "", **kw: Any):
        super().__init__(**kw)
        self.qualname = qualname
        self.func = func  # the Python object, for numba's typing context
        self.args = args or []
        self.impl = impl  # a device-library function (device/mathlib.py) computing it, if any


class _Plain(ast.NodeTransformer):
    """Kernel-language nodes -> ordinary Python nodes, for printing."""

    def visit_Intrinsic(self, node: Intrinsic) -> ast.expr:
        args = [self.visit(a) for a in node.args]
        if not args and node.const is None and node.name not in SYNC_POINTS and "." in node.name:
            return ast.parse(f"hip.{node.name}", mode="eval").body
        if node.name in ("warpsize", "laneid"):
            return ast.parse(f"hip.{node.name}", mode="eval").body
        if node.const is not None and not args:
            const = node.const if not isinstance(node.const, np.ndarray) else "array"
            args = [ast.Constant(c) for c in (const if isinstance(const, tuple) else (const,))]
        return ast.Call(ast.parse(f"hip.{node.name}", mode="eval").body, args, [])

    def visit_Cast(self, node: Cast) -> ast.expr:
        name = node.dtype.__name__ if isinstance(node.dtype, type) else f"np.{node.dtype}"
        return ast.Call(ast.parse(name, mode="eval").body, [self.visit(node.arg)], [])

    def visit_MathCall(self, node: MathCall) -> ast.expr:
        return ast.Call(ast.parse(node.qualname, mode="eval").body,
                        [self.visit(a) for a in node.args], [])


def unparse(node: ast.AST | list) -> str:
    """Python text of IR (statements or an expression), kernel-language nodes included.

    >>> unparse(Intrinsic(name="shfl_down", args=[ast.Name("v"), ast.Constant(1)]))
    'hip.shfl_down(v, 1)'
    """
    import copy

    if isinstance(node, list):
        node = ast.Module(body=node, type_ignores=[])
    return ast.unparse(_Plain().visit(copy.deepcopy(node)))


def is_array_decl(node: ast.AST) -> bool:
    """True for ``shared.array``, ``local.array`` and ``const.array_like`` calls."""
    return isinstance(node, Intrinsic) and node.name in ARRAY_DECLS


ARRAY_DECLS = ("shared.array", "local.array", "const.array_like")

# Stubs that make lanes of a wavefront (or threads of a block) wait for each other.
# "sync_grid" is numba.cuda's ``cuda.cg.this_grid().sync()`` (passes/grid_group.py): a
# barrier of the whole cooperative launch, which the schedule treats like a block barrier.
BLOCK_SYNC = ("syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or",
              "sync_grid")
WAVE_SYNC = (
    "shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "activemask",
    "syncwarp", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
    "ballot_sync", "any_sync", "all_sync",
)
# Matrix-core instructions (lang_mfma.py): the builtins' names without __builtin_amdgcn_.
# A wave-wide operation like a shuffle: the schedule is cut there.
MFMA_OPS = tuple(name.removeprefix("__builtin_amdgcn_") for name in builtin_names())
WAVE_SYNC += MFMA_OPS
SYNC_POINTS = BLOCK_SYNC + WAVE_SYNC


def is_sync(node: ast.AST) -> bool:
    """True if ``node`` is a barrier or wave-collective call."""
    return isinstance(node, Intrinsic) and node.name in SYNC_POINTS


def contains_sync(node: ast.AST | list) -> bool:
    """True if a barrier or collective appears anywhere under ``node`` (or the list)."""
    nodes = node if isinstance(node, list) else [node]
    return any(is_sync(sub) for n in nodes for sub in ast.walk(n))


def direct_exits(stmts: list[ast.stmt]) -> set[str]:
    """``break``/``continue`` not inside a loop of ``stmts`` (they leave an outer loop)."""
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, ast.Break):
            out.add("break")
        elif isinstance(s, ast.Continue):
            out.add("continue")
        elif isinstance(s, ast.If):
            out |= direct_exits(s.body) | direct_exits(s.orelse)
    return out


def has_return(stmts: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Return) for s in stmts for n in ast.walk(s))


# ---------------------------------------------------------------- declarations


@dataclass
class ArrayDecl:
    """A ``shared.array`` / ``local.array`` / ``const.array_like`` bound to a name."""

    name: str
    space: str  # "shared" | "local" | "const"
    shape: tuple[int, ...]
    dtype: np.dtype
    line: int
    value: Any = None  # the host array for const.array_like
    struct: str = ""  # the lang.LocalStruct that declared it (picks lang.Overload versions)

    @property
    def dynamic(self) -> bool:
        """Shape 0 means dynamic LDS sized by the launch's shared_bytes."""
        return self.space == "shared" and self.shape in ((0,), ())

    @property
    def nbytes(self) -> int:
        return 0 if self.dynamic else int(np.prod(self.shape)) * self.dtype.itemsize


# ---------------------------------------------------------------- the schedule


@dataclass
class Region:
    """Statements with no barrier or collective inside: one loop over the block's threads."""

    stmts: list[ast.stmt]
    masks: tuple[str, ...]  # mask stack, outermost first; threads run where the last is set
    index: int = 0
    loop: Any = None  # the block-level loop node this region sits in (for break/continue)
    sets_masks: Any = None  # the DivergentIf whose masks this region's end computes
    # Filled by liveness: values moved in and out of per-thread arrays.
    loads: list[str] = field(default_factory=list)
    stores: list[str] = field(default_factory=list)
    snapshots: list[str] = field(default_factory=list)  # uniform vars re-read by each thread
    remat: list[str] = field(default_factory=list)  # cheap values recomputed, not loaded
    scalar: bool = False  # the same work in every thread: run once for the block
    # Filled by ranges: tests that put every index of the region in bounds for every
    # thread (then it runs without checks), or None (always checked).
    in_bounds: list[Any] | None = None

    @property
    def lines(self) -> tuple[int, int]:
        nums = [n.lineno for s in self.stmts for n in ast.walk(s) if hasattr(n, "lineno")]
        return (min(nums), max(nums)) if nums else (0, 0)


@dataclass
class Barrier:
    """``syncthreads`` and friends. ``pred`` is a variable name (or None)."""

    kind: str
    masks: tuple[str, ...]
    line: int
    site: int
    pred: Any = None
    result: str | None = None


@dataclass
class Collective:
    """A wavefront collective: ``result = op(*operands)`` for the active lanes of each wave."""

    op: str
    result: str | None
    operands: list[Any]  # ast.expr: names of per-thread values, uniform names or constants
    masks: tuple[str, ...]
    line: int
    site: int


@dataclass
class UniformIf:
    """An ``if`` containing barriers whose condition is the same for the whole block."""

    test: ast.expr
    body: list[Node]
    orelse: list[Node]
    line: int


@dataclass
class UniformFor:
    """A ``for ... in range`` containing barriers with block-uniform bounds."""

    target: str
    args: list[ast.expr]
    body: list[Node]
    line: int
    flag: str  # name of the block-level break/continue flag variable prefix


@dataclass
class UniformWhile:
    """A ``while`` containing barriers with a block-uniform condition."""

    test: ast.expr
    body: list[Node]
    line: int
    flag: str


@dataclass
class DivergentIf:
    """An ``if`` containing barriers/collectives whose condition may differ per thread."""

    cond: str  # variable holding the per-thread condition (set at the end of the region before)
    then_mask: str
    else_mask: str
    body: list[Node]
    orelse: list[Node]
    masks: tuple[str, ...]  # the enclosing mask stack
    line: int


@dataclass
class DivergentLoop:
    """A loop containing barriers/collectives that threads may leave at different times."""

    loop_mask: str  # threads still in the loop
    iter_mask: str  # threads running this iteration (minus those that did `continue`)
    body: list[Node]
    masks: tuple[str, ...]  # the enclosing mask stack
    line: int


Node = Union[Region, Barrier, Collective, UniformIf, UniformFor, UniformWhile, DivergentIf,
             DivergentLoop]


def walk_schedule(nodes: list[Node]):
    """Yield every schedule node, depth first."""
    for node in nodes:
        yield node
        for attr in ("body", "orelse"):
            yield from walk_schedule(getattr(node, attr, []) or [])


# ---------------------------------------------------------------- the whole kernel


@dataclass
class Site:
    """A place in the user's code the generated code can fault at (for error messages)."""

    line: int
    col: int
    what: str  # "read", "write", "atomic", or the barrier/collective text
    array: str = ""  # the user's name of the array
    space: str = ""  # "global", "shared", "local", "const"
    filename: str = ""
    func: str = ""
    var: str = ""  # the array's name in the generated code (argument position lookup)
    raises: Any = None  # (exception class, args) of a `raise` (passes/raises.py)


@dataclass
class KernelIR:
    """Everything the passes know about one kernel specialization."""

    name: str
    pyfunc: Any  # the user's Python function
    arg_types: tuple = ()  # numba types of the launch arguments
    wave_size: int = 64
    target: str = ""  # LLVM processor (gfx942, gfx90a): which MFMAs exist, and their rules
    src: Any = None  # diagnostics.SourceFile
    func: ast.FunctionDef | None = None
    params: list[str] = field(default_factory=list)
    constants: dict[str, Any] = field(default_factory=dict)  # global scalars used
    const_arrays: dict[str, np.ndarray] = field(default_factory=dict)
    arrays: dict[str, ArrayDecl] = field(default_factory=dict)
    types: dict[str, Any] = field(default_factory=dict)  # variable -> numba type
    uniform: set[str] = field(default_factory=set)
    schedule: list[Node] = field(default_factory=list)
    spilled: dict[str, Any] = field(default_factory=dict)  # per-thread arrays: name -> type
    masks: list[str] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    reuse_sites: bool = False  # see reusing_sites()
    versioned: bool = True  # pass ranges may write regions unchecked behind a test
    has_return: bool = False
    renamed: dict[str, str] = field(default_factory=dict)  # generated name -> user's name
    source: str = ""  # generated Python source
    remat: dict[str, Any] = field(default_factory=dict)  # values recomputed, not spilled
    static_lds_bytes: int = 0
    const_params: list[str] = field(default_factory=list)
    functions: dict[str, Any] = field(default_factory=dict)  # recursive device functions
    temp_counter: int = 0
    # Generation mode: "fast", or an instrumented one ("check": the sanitizer; see
    # instrument.py). An instrumented mode may add run() arguments after ``_ctl``:
    # (name, numba type) pairs, passed by the engine in this order.
    mode: str = "fast"
    debug: bool = False  # @cuda.jit(debug=True): division by zero raises (zero_division.py)
    extra_args: list[tuple[str, Any]] = field(default_factory=list)

    def fresh(self, stem: str) -> str:
        """A new internal variable name (internal names start with an underscore)."""
        self.temp_counter += 1
        return f"_{stem}{self.temp_counter}"

    def add_site(self, node: ast.AST, what: str, array: str = "", space: str = "",
                 var: str = "") -> int:
        """Record a fault site and return its number."""
        src = getattr(node, "gsrc", None) or self.src
        site = Site(getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1,
                    what, array, space, src.filename, src.func, var,
                    getattr(node, "raises", None))
        if self.reuse_sites and site in self.sites:
            return self.sites.index(site)
        self.sites.append(site)
        return len(self.sites) - 1

    @contextlib.contextmanager
    def reusing_sites(self):
        """While writing a second copy of code: a site like one already recorded is that
        one (same place, same message), not a new entry."""
        self.reuse_sites = True
        try:
            yield
        finally:
            self.reuse_sites = False

    def array_params(self) -> set[str]:
        """Kernel arguments that are arrays (global memory)."""
        return {p for p, t in zip(self.params, self.arg_types, strict=False) if hasattr(t, "ndim")}

    def user_name(self, name: str) -> str:
        return self.renamed.get(name, name)
