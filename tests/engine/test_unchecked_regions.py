"""Regions run unchecked when the ``ranges`` pass proves every index in bounds: results and
faults must be exactly those of a plain per-thread Python run of the same kernel.

Hypothesis writes random kernels whose indices are affine in the thread (strides, offsets,
loops), clamped (``min``, ``%``, ``&``, ``//``), guarded (``if i < n``, ``if i >= n:
return``) or read from memory, over arrays that are sometimes too small. The oracle runs
the kernel's own statements thread by thread in Python (``hip`` answered per thread,
arrays that raise on any index outside ``0..n-1``), block by block, phase by phase at
the barrier: with no fault, gpusim's output must equal it; with one, gpusim must report
the first faulting access of one of the faulting blocks (array, index, thread, block).
"""

from __future__ import annotations

import re
import textwrap
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim import hip
from gpusim.compile.ir import Region, walk_schedule
from gpusim.compile.pipeline import front_end
from gpusim.config import config
from gpusim.devices import get_spec
from gpusim.engine import launch, launcher
from gpusim.errors import HipError

OFFSETS = st.integers(-3, 3)
STEPS = st.sampled_from(["hip.gridsize(1)", "(m if m > 0 else 1)", "1", "hip.warpsize"])
TILE = 4  # a module constant kernels use (`i % TILE`)


@pytest.fixture(autouse=True)
def every_launch_versioned():
    """These tests are about the unchecked copies: every launch gets them (by default a
    small first launch keeps the one checked copy, see the last test)."""
    saved, config.unchecked_from_groups = config.unchecked_from_groups, 0
    yield
    config.unchecked_from_groups = saved


class Fault(Exception):
    """The oracle's out-of-bounds access: (array, index, thread, block)."""


class Checked:
    """An array that faults on an index outside ``0..n-1``, as gpusim's ``_ix`` does."""

    def __init__(self, name: str, data: np.ndarray, where: list):
        self.name, self.data, self.where = name, data, where
        self.shape, self.size = data.shape, data.size

    def _check(self, index):
        for k, v in enumerate(index if isinstance(index, tuple) else (index,)):
            if not 0 <= v < self.shape[k]:
                raise Fault(self.name, int(v), *self.where)
        return index

    def __getitem__(self, index):
        return self.data[self._check(index)]

    def __setitem__(self, index, value):
        self.data[self._check(index)] = value


class _Hip:
    """What ``hip`` answers to one thread of the oracle."""

    def __init__(self, t: tuple, b: tuple, block: tuple, grid: tuple, lds):
        self.threadIdx = types.SimpleNamespace(x=t[0], y=t[1], z=0)
        self.blockIdx = types.SimpleNamespace(x=b[0], y=b[1], z=0)
        self.blockDim = types.SimpleNamespace(x=block[0], y=block[1], z=1)
        self.gridDim = types.SimpleNamespace(x=grid[0], y=grid[1], z=1)
        self.shared = types.SimpleNamespace(array=lambda shape, dtype: lds)

    warpsize = 64  # the MI300X's wave

    def grid(self, n):
        return self.blockIdx.x * self.blockDim.x + self.threadIdx.x

    def gridsize(self, n):
        return self.gridDim.x * self.blockDim.x


class _Returned(Exception):
    pass


@st.composite
def kernels(draw, edges: bool = False):
    """(source lines before the barrier, after it, LDS size or 0). ``edges``: only the
    forms whose bounds are off by one when a rule is (offsets -1..1, run-time divisors,
    grid-stride counters), so that a wrong bound shows within a few examples."""
    thread = draw(st.sampled_from([
        "i = hip.grid(1)",
        "i = (hip.blockIdx.x * hip.blockDim.y + hip.threadIdx.y) * hip.blockDim.x"
        " + hip.threadIdx.x"]))

    def index(var: str, one_to_one: bool = False) -> str:
        """An index built from ``var``; ``one_to_one``: no two threads share it (a store to
        global memory: blocks run in parallel, so a shared slot would be a race)."""
        c = draw(st.integers(-1, 1) if edges else OFFSETS)
        forms = [f"{var} + {c}", f"{draw(st.sampled_from([2, -1, 3]))} * {var} + {c}",
                 f"{c} - {var}"]
        if edges and not one_to_one:
            return draw(st.sampled_from(forms[:1] + [f"{var} % m + {c}", f"{var} // m + {c}"]))
        if not one_to_one:
            forms += [f"{var} // 2 + {c}", f"{var} % 5 + {c}", f"min({var}, n - 1) + {c}",
                      f"({var} + {c}) & 15", f"x[{var} % 4] + {c}",
                      f"{var} if {var} < n else {c}", f"max({var} - 2, 0)",
                      f"{var} % m + {c}", f"{var} // m + {c}", f"{var} % TILE + {c}",
                      f"{var} // hip.warpsize + {c}"]
        return draw(st.sampled_from(forms))

    head = ["t = hip.threadIdx.y * hip.blockDim.x + hip.threadIdx.x", thread]
    if draw(st.booleans()):
        head.append("if i >= n:\n        return")
    loop = draw(st.sampled_from(["while"] if edges else ["none", "for", "while"]))
    if loop == "for":
        head += ["v = 0", f"for k in range({draw(st.integers(0, 3))}):\n"
                 f"        v += x[{index('i')} + k]"]
    elif loop == "while":  # a grid-stride loop: j counts up from i by a run-time step
        head += ["v = 0", "j = i", f"while j < {draw(st.sampled_from(['n', 'x.size']))}:\n"
                 f"        v += x[{index('j')}]\n        j += {draw(STEPS)}"]
    else:
        head.append(f"v = x[{index('i')}]")
    if draw(st.booleans()):
        head.append(f"i = i + {draw(OFFSETS)}")  # a name assigned twice
    lds = draw(st.sampled_from([0, 0, 64, 130]))
    tail = []
    if lds:
        slot = index("t")  # read where this thread wrote: LDS is not cleared between blocks
        shape = draw(st.sampled_from([lds, 0]))  # 0: dynamic LDS, sized by the launch
        head = [f"s = hip.shared.array({shape}, np.int64)", *head, f"s[{slot}] = v"]
        tail.append(f"v = s[{slot}] + v")
    store = f"out[{index('i', one_to_one=True)}] {draw(st.sampled_from(['=', '+=']))} v"
    tail.append(draw(st.sampled_from([
        store, f"if i < out.size:\n        {store}",
        # every thread's i, then i + all threads, ...: no two threads share a slot
        "j = i\n    while j < out.size:\n        out[j] = v\n        j += hip.gridDim.x"
        " * hip.blockDim.x * hip.blockDim.y"])))
    return head, tail, lds


def _source(head, tail, barrier: bool) -> str:
    body = head + (["hip.syncthreads()"] if barrier else []) + tail
    return "def k(x, out, n, m):\n" + "".join(f"    {line}\n" for line in body)


def _oracle(head, tail, lds, grid, block, x, out, n, m):
    """Run the kernel thread by thread in Python: the first fault of each block (a block
    stops at its first), and ``out`` as the blocks left it."""
    phases = [compile(textwrap.dedent("".join(f"    {line}\n" for line in part)).replace(
        "return", "raise _R"), "<oracle>", "exec")
        for part in ((head, tail) if lds else (head + tail,))]  # a barrier: two phases
    firsts = []
    threads = [(tx, ty) for ty in range(block[1]) for tx in range(block[0])]
    for by in range(grid[1]):
        for bx in range(grid[0]):
            shared = np.zeros(lds, np.int64)
            spaces = {}
            for t in threads:
                where = [t, (bx, by)]
                spaces[t] = {"hip": _Hip(t, (bx, by), block, grid, Checked("s", shared, where)),
                             "n": int(n), "m": m, "TILE": TILE, "_R": _Returned, "np": np,
                             "x": Checked("x", x, where), "out": Checked("out", out, where)}
            try:
                for phase in phases:
                    for t in threads:
                        if spaces[t].get("_done"):
                            continue
                        try:
                            exec(phase, {"min": min, "max": max}, spaces[t])  # noqa: S102
                        except _Returned:
                            spaces[t]["_done"] = True
            except Fault as f:
                firsts.append(f.args)
    return firsts


def _fault_of(msg: str):
    m = re.search(r"array '(\w+)'.*?index (-?\d+).*?threadIdx=\((\d+), (\d+), 0\) of "
                  r"blockIdx=\((\d+), (\d+), 0\)", msg, re.S)
    assert m, msg
    a, i, tx, ty, bx, by = m.groups()
    return (a, int(i), (int(tx), int(ty)), (int(bx), int(by)))


@st.composite
def sizes(draw, grid, block):
    """An array length at an edge of the launch (where a range off by one shows) or any."""
    edges = [grid[0] * block[0], grid[0] * block[0] * block[1], 2 * grid[0] * block[0], 64]
    near = st.builds(lambda e, d: max(1, e + d), st.sampled_from(edges), st.integers(-2, 2))
    return draw(st.one_of(near, st.integers(1, 300), st.integers(1, 8)))  # 1..8: x % m


LAUNCH = {"data": st.data(), "seed": st.integers(0, 3),
          "block": st.sampled_from([(64, 1), (32, 2), (70, 1), (8, 4), (1, 1)]),
          "grid": st.sampled_from([(1, 1), (3, 1), (4, 1)])}  # i ignores blockIdx.y: gy = 1
SLOW = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


@settings(max_examples=100, **SLOW)
@given(kernel=kernels(), **LAUNCH)
def test_unchecked_regions_match_a_per_thread_python_run(kernel, data, seed, block, grid):
    _drawn(kernel, data, seed, block, grid)


def _drawn(kernel, data, seed, block, grid):
    """Array sizes and arguments for ``kernel`` (near the launch's edges), then ``_agree``."""
    nx, nout = data.draw(sizes(grid, block)), data.draw(sizes(grid, block))
    n = data.draw(st.one_of(sizes(grid, block), st.just(0)))
    n = data.draw(st.sampled_from([np.int64, np.uint32]))(n)  # an `unsigned int n` too
    m = data.draw(st.sampled_from([-3, -1, 1, 2, 3, 5]))
    _agree(kernel, grid, block, nx, nout, n, m, seed)


def _agree(kernel, grid, block, nx, nout, n, m, seed=0) -> bool:
    """gpusim and the per-thread Python run agree: the same output, or a fault that is
    one of the blocks' first faulting accesses. True if it faulted."""
    head, tail, lds = kernel
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 9, nx).astype(np.int64)
    out0 = rng.integers(0, 9, nout).astype(np.int64)
    ns = {"hip": hip, "np": np, "TILE": TILE}
    exec(compile(_source(head, tail, bool(lds)), f"<ranges kernel {abs(hash(str(kernel)))}>",  # noqa: S102
                 "exec"), ns)
    want = out0.copy()
    firsts = _oracle(head, tail, lds, grid, block, x.copy(), want, n, m)
    got = out0.copy()
    dynamic = 8 * lds if any("array(0," in line for line in head) else 0
    try:
        launch(ns["k"], grid=grid, block=block, args=(x, got, n, m), device=get_spec("mi300x"),
               dynamic_lds_bytes=dynamic)
    except HipError as err:
        assert firsts, f"gpusim faulted where Python did not: {err}"
        assert _fault_of(str(err)) in {(a, i, t, b) for a, i, t, b in firsts}, (str(err), firsts)
        return True
    assert not firsts, f"Python faulted ({firsts[0]}) where gpusim did not"
    np.testing.assert_array_equal(got, want)
    return False


GRID = "i = hip.grid(1)"
COUNT = ("v = 0\n    j = i + 1\n    while j < n:\n        v += x[j - 1]\n"
         "        j += hip.gridsize(1)")
EDGES = {  # rule: (head, tail, lds, (nx, n, m) where the last index is in bounds, one past)
    "grid-stride counter": ([GRID, COUNT], ["out[i] = v"], 0, (128, 129, 1), (128, 130, 1)),
    "counter stepped as j = j + step": (
        [GRID, "v = 0\n    j = i\n    while j < n:\n        v += x[j]\n        j = j + m"],
        ["out[i] = v"], 0, (200, 200, 3), (199, 200, 3)),
    "counter stepped first": (
        [GRID, "v = 0\n    j = i\n    while j < n:\n        j += hip.gridsize(1)\n"
         "        if j < n:\n            v += x[j]"], ["out[i] = v"], 0, (200, 200, 1),
        (199, 200, 1)),
    "% by an argument": ([GRID, "v = x[i % m]"], ["out[i] = v"], 0, (3, 0, 3), (2, 0, 3)),
    "// by an argument": ([GRID, "v = x[i // m]"], ["out[i] = v"], 0, (64, 0, 2), (63, 0, 2)),
    "% a module constant": ([GRID, "v = x[i % TILE]"], ["out[i] = v"], 0, (4, 0, 1),
                            (3, 0, 1)),
    "// warpsize": ([GRID, "v = x[i // hip.warpsize]"], ["out[i] = v"], 0, (2, 0, 1),
                    (1, 0, 1)),
    "guard by an unsigned n": ([GRID, "if i >= n:\n        return", "v = x[i]"],
                               ["out[i] = v"], 0, (100, np.uint32(100), 1),
                               (99, np.uint32(100), 1)),
    "dynamic LDS": (["s = hip.shared.array(0, np.int64)", GRID, "t = hip.threadIdx.x",
                     "v = x[i]", "s[t] = v"], ["out[i] = s[t]"], 64, (128, 0, 1), None),
    "a name assigned twice": ([GRID, "i = i + 1", "v = x[i - 1]"], ["out[i - 1] = v"], 0,
                              (128, 0, 1), (127, 0, 1)),
}


@pytest.mark.parametrize("rule", list(EDGES))
def test_each_rule_is_exact_at_the_edge(rule):
    """At the edge the region is proved and runs unchecked with the oracle's result; one
    element less and the same kernel faults where the oracle does (checked copy)."""
    head, tail, lds, fits, past = EDGES[rule]
    kernel = (head, tail, lds)
    ns = {"hip": hip, "np": np, "TILE": TILE}
    exec(compile(_source(head, tail, bool(lds)), f"<edge {rule}>", "exec"), ns)  # noqa: S102
    from numba import typeof

    i64 = typeof(np.zeros(2, np.int64))
    regions = _regions(ns["k"], i64, i64, typeof(fits[1]), typeof(fits[2]))
    assert all(r.in_bounds is not None for r in regions), rule
    nx, n, m = fits
    assert not _agree(kernel, (2, 1), (64, 1), nx, 128, n, m)
    if past is not None:
        nx, n, m = past
        assert _agree(kernel, (2, 1), (64, 1), nx, 128, n, m)


def _regions(kernel, *arg_types):
    kir = front_end(kernel, wave_size=64, arg_types=arg_types)
    return [r for r in walk_schedule(kir.schedule) if isinstance(r, Region) and not r.scalar]


@pytest.mark.parametrize("name", ["vadd", "saxpy", "stencil2d", "matmul_tiled", "block_sum",
                                  "transpose_tiled", "wave_sum"])
def test_the_benchmark_kernels_run_unchecked_in_every_region(name):
    """The common forms (grid(1), grid(2), tiles through LDS, `tid < stride`, `if i >= n:
    return`) are all proved; a kernel that loses that would silently get slower."""
    import kernels as K
    from numba import typeof

    arrays = {"vadd": 3, "saxpy": 3, "stencil2d": 2, "matmul_tiled": 3, "block_sum": 2,
              "transpose_tiled": 2, "wave_sum": 2}[name]
    two_d = name in ("stencil2d", "matmul_tiled", "transpose_tiled")
    arr = typeof(np.zeros((4, 4) if two_d else 4, np.float32))
    args = ((typeof(np.float32(1)),) if name == "saxpy" else ()) + (arr,) * arrays
    regions = _regions(getattr(K, name), *args)
    unproved = [r.index for r in regions if r.in_bounds is None]  # [] = no index at all
    assert regions and not unproved, unproved


def test_an_index_read_from_memory_keeps_its_region_checked():
    def gather(x, idx, out):
        i = hip.grid(1)
        out[i] = x[idx[i]]

    from numba import typeof
    f, n = typeof(np.zeros(4, np.float32)), typeof(np.zeros(4, np.int64))
    assert [r.in_bounds for r in _regions(gather, f, n, f)] == [None]


def test_small_launches_keep_one_checked_copy_until_the_kernel_has_run_enough():
    """config.unchecked_from_groups: a few small launches are not worth a second compile;
    once a kernel has launched that many work-groups in all, it is; negative: never."""
    def fill(out):
        i = hip.grid(1)
        if i < out.size:
            out[i] = i

    config.unchecked_from_groups = 64
    assert [launcher.worth_versioning(fill, (g, 1, 1)) for g in (4, 30, 29, 1)] == [
        False, False, False, True]  # 4 + 30 + 29 + 1 = 64
    assert launcher.worth_versioning(lambda out: None, (8, 8, 1))
    config.unchecked_from_groups = -1
    assert not launcher.worth_versioning(fill, (1000, 1, 1))
    config.unchecked_from_groups = 64
    ns = {"hip": hip}
    exec(compile("def fill2(out):\n    i = hip.grid(1)\n    if i < out.size:\n"  # noqa: S102
                 "        out[i] = i\n", "<fill2>", "exec"), ns)
    sources = [launcher.prepare(ns["fill2"], grid=g, block=256, args=(np.zeros(300),),
                                device=get_spec("mi300x")).kernel.source for g in (2, 62)]
    assert ["every index below" in text for text in sources] == [False, True]
