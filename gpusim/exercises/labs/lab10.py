"""Lab 10 (several GPUs): all-reduce by parts, bus factors, the LL / Simple protocol
crossover, data parallelism."""

from __future__ import annotations

import os
from types import SimpleNamespace

import numpy as np

import gpusim
from gpusim import hip, rccl, rocblas
from gpusim.exercises.expect import expect_array, expect_true
from gpusim.exercises.registry import NotYet, exercise
from gpusim.runtime.system import get_system


def _ngpus() -> int:
    n = len(get_system().devices)
    expect_true(n >= 2, f"This system has {n} GPU; the exercise needs the lab's 8 "
                "(gpusim.set_system('mi300x', ngpus=8)).")
    return n


def _on_each(n: int, make) -> list:
    out = []
    for r in range(n):
        hip.hipSetDevice(r)
        out.append(make(r))
    hip.hipSetDevice(0)
    return out


def _sync(n: int) -> None:
    for r in range(n):
        hip.hipSetDevice(r)
        hip.hipDeviceSynchronize()
    hip.hipSetDevice(0)


@exercise("10.1", "all-reduce from two collectives", hints=[
    "After a reduce-scatter, rank r holds the sum of block r only; after an all-gather, "
    "every rank holds every rank's block.",
    "Call each collective once per rank, all 8 calls between ncclGroupStart() and "
    "ncclGroupEnd() (on_all_ranks does that).",
    "Reduce-scatter from d_x[r] into d_blk[r] (count // n elements), then all-gather from "
    "d_blk[r] into d_mine[r].",
])
def allreduce_parts(d_mine: list, xs: list) -> str:
    """Compares every rank's ``d_mine`` with the NumPy sum of the inputs ``xs``."""
    x = np.asarray(xs, np.float64)
    want = x.sum(axis=0)
    got = [np.asarray(d.copy_to_host(), np.float64) for d in d_mine]
    n, block = len(xs), want.size // len(xs)
    unreduced = np.concatenate([x[k, :block] for k in range(n)])
    mistakes = [
        (want / n, "the mean of the inputs, not their sum: reduce with ncclSum and no "
                   "scaling"),
        (x.max(axis=0), "the element-wise maximum: reduce with ncclSum"),
        (unreduced, "rank k's own first block, unreduced: the all-gather must gather the "
                    "reduce-scatter's sums (d_blk), not the inputs"),
        (x[0], "rank 0's input: nothing was reduced"),
    ]
    for r, g in enumerate(got):
        if g.shape == want.shape and not np.allclose(g, want, rtol=1e-5, atol=1e-5):
            if not g.any():
                raise NotYet(f"d_mine[{r}] holds only zeros: nothing was gathered into it "
                             "(after the reduce-scatter, an all-gather from d_blk fills it).")
            for wrong, what in mistakes:
                if np.allclose(g, wrong, rtol=1e-5, atol=1e-5):
                    raise NotYet(f"d_mine[{r}] holds {what}.")
            mine = slice(r * block, (r + 1) * block)
            if np.allclose(g[mine], want[mine], rtol=1e-5, atol=1e-5):
                raise NotYet(f"d_mine[{r}] holds the sum of its own block {r} only: the "
                             "all-gather must bring every rank's block.")
        expect_array(f"d_mine[{r}]", g, want, rtol=1e-5, atol=1e-5)
    return f"All {len(got)} ranks hold the element-wise sum of the {len(xs)} inputs."


_FACTORS = {"AllReduce": lambda n: 2 * (n - 1) / n, "AllGather": lambda n: (n - 1) / n,
            "ReduceScatter": lambda n: (n - 1) / n, "Broadcast": lambda n: 1.0}


@exercise("10.2", "bus bandwidth factors", hints=[
    "busbw = algbw x factor, where the factor counts the bytes each rank's link carries "
    "per byte of the buffer.",
    "In an all-gather each rank receives every block except its own: n - 1 of n blocks.",
    "A broadcast sends the whole buffer over every link of the chain exactly once.",
])
def bus_factors(bus_factor) -> str:
    """Calls ``bus_factor(collective, n)`` for 2-16 ranks; nccl-tests' PERFORMANCE.md."""
    for name, factor in _FACTORS.items():
        for n in (2, 4, 8, 16):
            got, want = bus_factor(name, n), factor(n)
            number = isinstance(got, (int, float, np.integer, np.floating)) \
                and not isinstance(got, bool)  # NumPy scalars are numbers too
            if not number or not np.isclose(float(got), want):
                shown = f"{float(got):.4g}" if number else repr(got)
                extra = ""
                if number and np.isclose(float(got), 2 * (n - 1) / n):
                    extra = (" That is the all-reduce's factor: an all-gather moves each "
                             "block once, not twice.")
                elif number and np.isclose(float(got), (n - 1) / n) and name == "Broadcast":
                    extra = (" A broadcast has no block that stays home: the whole buffer "
                             "crosses every link of the chain once.")
                elif number and want != 1 and np.isclose(float(got) * want, 1.0):
                    extra = " That is the factor upside down: busbw = algbw x factor."
                elif number and np.isclose(float(got), (n - 1)):
                    extra = (" Each rank receives n - 1 blocks of size/n, not of the whole "
                             "size.")
                raise NotYet(f"bus_factor({name!r}, {n}) is {shown}, which is not right."
                             + extra)
    return "All four factors match nccl-tests' for 2 to 16 ranks."


def _allreduce_us(nbytes: int, n: int, proto: str) -> float:
    """The modeled time (us) of an ``nbytes`` float all-reduce on ``n`` ranks with
    NCCL_PROTO=``proto`` and RCCL's own algorithm (NCCL_ALGO unset); the student's
    NCCL_ALGO / NCCL_PROTO are put back afterwards."""
    comms = rccl.ncclCommInitAll(n)
    bufs = _on_each(n, lambda r: hip.device_array(nbytes // 4, np.float32))
    saved = {name: os.environ.pop(name, None) for name in ("NCCL_ALGO", "NCCL_PROTO")}
    os.environ["NCCL_PROTO"] = proto
    try:
        with gpusim.profile() as prof:
            rccl.ncclGroupStart()
            for r in range(n):
                rccl.ncclAllReduce(bufs[r], bufs[r], nbytes // 4, rccl.ncclFloat,
                                   rccl.ncclSum, comms[r], 0)
            rccl.ncclGroupEnd()
            _sync(n)
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
    return next(k.duration_ns for k in prof.kernels if k.name.startswith("ncclAllReduce")) / 1e3


_SMALLEST = 4096  # the sweep's first size (4 KiB)


def _as_size(size) -> int | None:
    """``size`` as a whole number of bytes (int, NumPy int, or a float without a
    fraction), None if it is not one."""
    if isinstance(size, (bool, np.bool_)):
        return None
    if isinstance(size, (int, np.integer)):
        return int(size)
    if isinstance(size, (float, np.floating)) and float(size).is_integer():
        return int(size)
    return None


@exercise("10.3", "LL or Simple", hints=[
    "Time the same all-reduce with NCCL_PROTO=LL and NCCL_PROTO=Simple at each size: "
    "allreduce_record(b, proto='LL')[1] is LL's modeled time in microseconds.",
    "Walk the powers of two upwards from 4 KiB, one at a time, and stop at the first size "
    "where Simple's time is below LL's.",
    "Leave NCCL_ALGO alone: on one node RCCL runs the ring at every size, so ring against "
    "tree never crosses over.",
])
def crossover(size) -> str:
    """Simple must be faster than LL at ``size`` and not at ``size / 2`` (modeled, all
    ranks, RCCL's own algorithm)."""
    n = _ngpus()
    nbytes = _as_size(size)
    if nbytes is None or nbytes < _SMALLEST or nbytes & (nbytes - 1):
        extra = ""
        if isinstance(size, (float, np.floating)) and nbytes is None:
            extra = (" That looks like a time in microseconds: the answer is the message "
                     "size in bytes where Simple takes over.")
        elif nbytes is not None and 0 < nbytes < _SMALLEST and not nbytes & (nbytes - 1) \
                and nbytes * 1024 >= _SMALLEST:
            extra = (f" If that is in KiB, give it in bytes: {nbytes} KiB is "
                     f"{nbytes * 1024:,} bytes.")
        elif isinstance(size, tuple):
            extra = (" allreduce_record returns (record, microseconds): the answer is the "
                     "size b you passed to it.")
        shown = repr(size) if len(repr(size)) <= 60 else f"a {type(size).__name__}"
        raise NotYet(f"crossover should be a power of two of at least {_SMALLEST:,} bytes, "
                     f"but it is {shown}." + extra)
    ll, simple = _allreduce_us(nbytes, n, "LL"), _allreduce_us(nbytes, n, "Simple")

    def simple_wins(b: int) -> bool:
        return _allreduce_us(b, n, "Simple") < _allreduce_us(b, n, "LL")

    if simple >= ll:
        said = (f"At {nbytes:,} bytes LL is still faster ({ll:.1f} us against Simple's "
                f"{simple:.1f} us)")
        if simple_wins(4 * nbytes) and not simple_wins(2 * nbytes):
            raise NotYet(f"{said}. {nbytes:,} is the float count (elements) at the "
                         "crossover, not its size: the size is in bytes, 4 per float.")
        if simple_wins(2 * nbytes):
            raise NotYet(f"{said}: {nbytes:,} is the last size where LL wins, one step "
                         "short. The crossover is the first size where Simple is faster, "
                         "the next power of two.")
        if nbytes == _SMALLEST:
            raise NotYet(f"{said}. {nbytes:,} is the sweep's first size, so your test held "
                         "from the start: compare Simple's time with LL's (not the ring "
                         "with the tree: on one node the ring wins at every size; not "
                         "LL < Simple, which is where LL wins; with busbw, the larger "
                         "busbw is the faster) and take the first size where Simple's time "
                         "is smaller.")
        raise NotYet(f"{said}: look at bigger sizes.")
    tail = ""
    if nbytes > _SMALLEST:
        half = nbytes // 2
        l2, s2 = _allreduce_us(half, n, "LL"), _allreduce_us(half, n, "Simple")
        if s2 < l2:
            past = nbytes // 4 < _SMALLEST or not simple_wins(nbytes // 4)
            advice = (f" {nbytes:,} is one step past the crossover: did your sweep skip "
                      "sizes (step by a factor of 2), or take the size after the first one "
                      "where Simple wins?" if past else " Look at smaller sizes.")
            raise NotYet(f"Simple already wins at {half:,} bytes ({s2:.1f} us against LL's "
                         f"{l2:.1f} us).{advice}")
        tail = f"; at {half:,} bytes LL still wins ({l2:.1f} us against {s2:.1f} us)"
    return (f"Simple is faster from {nbytes:,} bytes on {n} GPUs ({simple:.1f} us against "
            f"LL's {ll:.1f} us){tail}.")


@exercise("10.4", "average the gradients", hints=[
    "Every replica must end with the mean of all replicas' gradients.",
    "ncclAllReduce with ncclSum, in place (the same buffer as send and receive), one call "
    "per rank and gradient, all inside one ncclGroupStart() / ncclGroupEnd().",
    "A sum over 8 ranks is 8 times the mean: rocblas_sscal(handle, size, 1 / 8, g, 1).",
])
def average(average_gradients) -> str:
    """Runs ``average_gradients(replicas)`` on replicas with known gradients."""
    n = _ngpus()
    rng = np.random.default_rng(10)
    g1 = rng.standard_normal((n, 64, 32)).astype(np.float32)
    g2 = rng.standard_normal((n, 32, 4)).astype(np.float32)
    reps = _on_each(n, lambda r: SimpleNamespace(
        dev=r, handle=rocblas.rocblas_create_handle(),
        dw1=hip.to_device(g1[r]), dw2=hip.to_device(g2[r])))
    average_gradients(reps)
    _sync(n)
    for name, grads in (("dw1", g1), ("dw2", g2)):
        want = grads.astype(np.float64).mean(axis=0)
        first = getattr(reps[0], name).copy_to_host()
        for r, rep in enumerate(reps):
            mine = getattr(rep, name).copy_to_host()
            if np.allclose(mine, grads[r]):
                raise NotYet(f"Replica {r}'s {name} is still its own gradient: nothing was "
                             "all-reduced" + (" on it." if r else "."))
            own = float(np.vdot(mine, grads[r]) / np.vdot(grads[r], grads[r]))
            if np.allclose(mine, own * grads[r], rtol=1e-4, atol=1e-5):
                raise NotYet(f"Replica {r}'s {name} is its own gradient times {own:.4g}: it "
                             "was scaled but never all-reduced with the other replicas'.")
            if np.allclose(mine, want * n, rtol=1e-4, atol=1e-5):
                raise NotYet(f"Replica {r}'s {name} is the sum over the {n} replicas, not "
                             "their mean" + (": scale every replica's." if r else "."))
            c = float(np.vdot(mine, want) / np.vdot(want, want))
            if not np.isclose(c, 1.0, rtol=1e-4) and np.allclose(mine, c * want, rtol=1e-4,
                                                                 atol=1e-5):
                raise NotYet(f"Replica {r}'s {name} is {c:.4g} times the mean: a sum over "
                             f"{n} ranks is {n} times the mean, so scale it by 1 / {n}.")
        for r, rep in enumerate(reps):
            expect_array(f"replicas[{r}].{name}", getattr(rep, name).copy_to_host(), want,
                         rtol=1e-5, atol=1e-6)
            expect_true(np.array_equal(getattr(rep, name).copy_to_host(), first),
                        f"replicas[{r}].{name} differs from replica 0's in the last bits: "
                        "every replica must take exactly the same step.")
    return f"All {n} replicas hold the mean gradients, bit for bit the same."
