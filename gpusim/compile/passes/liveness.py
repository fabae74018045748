"""Pass 9, liveness: which per-thread values must survive from one region to the next.

Each region is a separate loop over the threads, so a thread's local variables do not
survive a cut. A divergent variable that a region reads before writing it (it is
*upward-exposed* there) is kept in a per-thread array ``name__s[_t]``: loaded when the
thread enters a region that uses it and stored when it leaves a region that assigns it.
Operands and results of collectives always live in such arrays (other lanes read them).

A uniform variable stays a plain scalar. If a region both reads and assigns it, every
thread starts from the value before the region (``name__u``), otherwise ``n = n * 2`` would
compound once per thread.

>>> import ast
>>> stmts = ast.parse("a = b + 1\\nif a: c = 2\\nd = c").body
>>> sorted(upward_exposed(stmts, set()))
['b', 'c']
"""

from __future__ import annotations

import ast

from numba.core import types

from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import Barrier, Collective, KernelIR, Region, direct_exits, walk_schedule
from gpusim.compile.passes.remat import needed, rematerializable


def reads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}


def writes(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}


def upward_exposed(stmts: list[ast.stmt], defined: set[str]) -> set[str]:
    """Names read before a definite assignment (``defined`` grows with what is assigned)."""
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, ast.Assign):
            out |= reads(s) - defined
            defined |= {t.id for t in s.targets if isinstance(t, ast.Name)}
            for t in s.targets:
                if isinstance(t, ast.Tuple):
                    defined |= {e.id for e in t.elts if isinstance(e, ast.Name)}
        elif isinstance(s, ast.AugAssign):
            out |= (reads(s) | writes(s.target)) - defined
        elif isinstance(s, ast.If):
            out |= reads(s.test) - defined
            d1, d2 = set(defined), set(defined)
            out |= upward_exposed(s.body, d1) | upward_exposed(s.orelse, d2)
            defined |= d1 & d2
        elif isinstance(s, ast.For):
            out |= reads(s.iter) - defined
            out |= upward_exposed(s.body, defined | {s.target.id})
        elif isinstance(s, ast.While):
            out |= reads(s.test) - defined
            out |= upward_exposed(s.body, set(defined))
        else:
            out |= reads(s) - defined
    return out


def plan(kir: KernelIR) -> None:
    """Run the pass: fills ``kir.spilled`` and each region's loads/stores/snapshots."""
    variables = set(kir.types)  # assigned names (and reassigned scalar arguments)
    divergent = variables - kir.uniform
    regions = [n for n in walk_schedule(kir.schedule) if isinstance(n, Region)]
    spilled: set[str] = set()
    for node in walk_schedule(kir.schedule):
        if isinstance(node, (Barrier, Collective)):
            operands = node.operands if isinstance(node, Collective) else [node.pred]
            spilled |= {a.id for a in operands if isinstance(a, ast.Name)
                        and a.id not in kir.arrays} & divergent  # an MFMA's private arrays
            if node.result and node.result in divergent:
                spilled.add(node.result)
    kir.remat = _recomputable(kir, spilled)
    exposed = {id(r): upward_exposed(r.stmts, set()) for r in regions}
    for r in regions:
        spilled |= exposed[id(r)] & divergent - set(kir.remat)
    for name in sorted(spilled):
        ty = kir.types[name]
        if not hasattr(ty, "bitwidth") and str(ty) != "bool":
            node = next((n for r in regions for s in r.stmts for n in ast.walk(s)
                         if isinstance(n, ast.Name) and n.id == name), kir.func)
            raise compile_error(kir.src, node, f"'{kir.user_name(name)}' holds a {ty} and is "
                                "needed after a barrier or collective; only numbers can be "
                                "kept per thread across one", instead=(
                                    "make the view again after the barrier" if isinstance(
                                        ty, types.Array) else "unpack the tuple into separate "
                                    "number variables"), kernel=kir.name)
        kir.spilled[name] = ty
    for r in regions:
        definite: set[str] = set()
        upward_exposed(r.stmts, definite)
        written = set().union(*(writes(s) for s in r.stmts))
        # Load what the region reads first, and what it may leave unassigned (so the
        # store at its end writes back the old value, not garbage).
        if direct_exits(r.stmts):
            definite = set()  # a `break`/`continue` stores before everything is assigned
        r.loads = sorted((exposed[id(r)] | (written - definite)) & spilled)
        r.stores = sorted(written & spilled)
        r.snapshots = sorted(written & kir.uniform & exposed[id(r)])
        r.remat = needed(exposed[id(r)] & set(kir.remat), kir.remat)
        r.scalar = _is_scalar(r, kir)


def _recomputable(kir: KernelIR, spilled: set[str]) -> dict[str, ast.expr]:
    """Values to recompute per region; none that a collective reads from other lanes."""
    remat = rematerializable(kir)
    changed = True
    while changed:
        changed = False
        for name, expr in list(remat.items()):
            deps = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
            if name in spilled or any(d in kir.types and d not in remat for d in deps):
                del remat[name]
                changed = True
    return remat


def _is_scalar(region: Region, kir: KernelIR) -> bool:
    """True if every thread would do exactly the same: run it once for the block.

    Only assignments of uniform values to uniform variables qualify (no memory access,
    no printing), and only outside divergent masks. A block with no live thread left has
    already been ended by then, so "once" is never "once too many".
    """
    if region.masks not in ((), ("_m0",)):
        return False
    for s in region.stmts:
        if isinstance(s, ast.Pass):
            continue
        if not isinstance(s, (ast.Assign, ast.AugAssign)):
            return False
        targets = s.targets if isinstance(s, ast.Assign) else [s.target]
        if not all(isinstance(t, ast.Name) and t.id in kir.uniform for t in targets):
            return False
        if not uniform_value(s.value, kir):
            return False
    return True


def uniform_value(node: ast.AST, kir: KernelIR) -> bool:
    """True if ``node`` has the same value in every thread of a block."""
    from gpusim.compile.passes.uniform import Uniformity

    return Uniformity(kir, kir.uniform).is_uniform(node)
