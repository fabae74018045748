"""RCCL's FP8 types (ncclFloat8e4m3, ncclFloat8e5m2) on MI300X (gfx942: FNUZ formats).

Reductions are checked bit for bit against an independent ml_dtypes reference that
follows the algorithm's order (ring: chunk c starts at rank c+1 and ends at c; tree:
each node adds its children's partial sums to its own) and rounds every step to FP8
after a float32 operation, saturating finite overflow, as RCCL's rccl_float8.h does.
"""

import ml_dtypes
import numpy as np
import pytest
from rccl_helpers import device_buffers, host, on_every_rank

from gpusim import rccl
from gpusim.libs.rccl.enums import storage_of
from gpusim.libs.rccl.reduce import Reducer

E4M3, E5M2 = np.dtype(ml_dtypes.float8_e4m3fnuz), np.dtype(ml_dtypes.float8_e5m2fnuz)
FP8 = [(rccl.ncclFloat8e4m3, E4M3), (rccl.ncclFloat8e5m2, E5M2)]
ALIGN = 1536  # NCCL's chunk alignment for 1-byte elements: (256 - 64) * 8


def step(op, a, b, dtype):
    """One reduction step as RCCL does it for FP8: float32 op, clamp, round to FP8."""
    f = {rccl.ncclSum: np.add, rccl.ncclAvg: np.add, rccl.ncclProd: np.multiply,
         rccl.ncclMax: np.fmax, rccl.ncclMin: np.fmin}[op]
    with np.errstate(invalid="ignore"):  # Inf - Inf
        r = f(a.astype(np.float32), b.astype(np.float32))
    top = float(ml_dtypes.finfo(dtype).max)
    return np.where(np.isfinite(r), np.clip(r, -top, top), r).astype(dtype)


def prescale(op, x, n, dtype):
    if op != rccl.ncclAvg:
        return x
    scale = np.float32(np.array(1.0 / n, np.float32).astype(dtype))
    return step(rccl.ncclProd, x, np.full_like(x, scale), dtype)


def chain(op, xs, order, dtype, n):
    acc = prescale(op, xs[order[0]], n, dtype)
    for r in order[1:]:
        acc = step(op, acc, prescale(op, xs[r], n, dtype), dtype)
    return acc


def random_fp8(dtype, count, seed):
    """Every finite FP8 value of moderate size, both signs, drawn at random."""
    rng = np.random.default_rng(seed)
    return (rng.choice([-1, 1], count) * rng.uniform(0.1, 20, count)).astype(dtype)


def test_enum_values_and_formats():
    assert (rccl.ncclFloat8e4m3, rccl.ncclFloat8e5m2) == (10, 11)
    assert rccl.ncclFp8E4M3 == 10 and rccl.ncclNumTypes == 12  # RCCL <= 6.3 spelling
    assert storage_of(rccl.ncclFloat8e4m3, "gfx942") == E4M3
    assert storage_of(rccl.ncclFloat8e5m2, "gfx950") == ml_dtypes.float8_e5m2
    assert storage_of(rccl.ncclFloat8e4m3, "gfx90a") == E4M3  # RCCL's software fallback


@pytest.mark.parametrize("dtype_name", ["e4m3", "e5m2"])
def test_known_answers_saturation_ties_nan(dtype_name):
    datatype, dtype = FP8[dtype_name == "e5m2"]
    top = float(ml_dtypes.finfo(dtype).max)  # 240 (e4m3 FNUZ), 57344 (e5m2 FNUZ)
    a = np.array([top, 16, -top, 1, np.nan, 3], np.float32).astype(dtype)
    b = np.array([top / 2, 1, -top, 0, 2, np.nan], np.float32).astype(dtype)
    d = device_buffers([a, b])
    comms = rccl.ncclCommInitAll(2)
    out = device_buffers([np.zeros(6, dtype)] * 2)
    on_every_rank(lambda r, c: rccl.ncclAllReduce(d[r], out[r], 6, datatype, rccl.ncclSum,
                                                  c, 0), comms)
    got = host(out[0]).astype(np.float32)
    # overflow saturates (no NaN from finite inputs); 16 + 1 = 17 is a tie in e4m3
    # (spacing 2) and rounds to even 16, in e5m2 (spacing 4) it rounds to 16 too
    np.testing.assert_array_equal(got[:4], [top, 16, -top, 1])
    assert np.isnan(got[4:]).all()
    on_every_rank(lambda r, c: rccl.ncclAllReduce(d[r], out[r], 6, datatype, rccl.ncclMax,
                                                  c, 0), comms)
    np.testing.assert_array_equal(host(out[1]).astype(np.float32),
                                  [top, 16, -top, 1, 2, 3])  # fmaxf: a NaN loses


@pytest.mark.parametrize("datatype,dtype,big", [
    (rccl.ncclFloat8e4m3, E4M3, 16), (rccl.ncclBfloat16, np.dtype(ml_dtypes.bfloat16), 256)])
def test_ring_order_of_narrow_sums(datatype, dtype, big):
    """big + 1 rounds back to big (a tie, to even): the result of each chunk shows the
    order of its additions, one rounding per ring step."""
    n, align = 3, ALIGN // dtype.itemsize
    xs = [np.full(n * align, v, np.float32).astype(dtype) for v in (big, 1, -big)]
    d = device_buffers(xs)
    comms = rccl.ncclCommInitAll(n)
    on_every_rank(lambda r, c: rccl.ncclAllReduce(d[r], d[r], n * align, datatype,
                                                  rccl.ncclSum, c, 0), comms)
    got = host(d[1]).astype(np.float32)
    # chunk 0: (1 - big) + big = 1; chunk 1: (-big + big) + 1 = 1; chunk 2: (big + 1) - big = 0
    np.testing.assert_array_equal(got.reshape(3, align)[:, 0], [1, 1, 0])


@pytest.mark.parametrize("dtype", [E4M3, E5M2, np.dtype(ml_dtypes.float8_e4m3fn),
                                   np.dtype(ml_dtypes.float8_e5m2)], ids=lambda d: d.name)
@pytest.mark.parametrize("op", [rccl.ncclSum, rccl.ncclProd, rccl.ncclMax, rccl.ncclMin,
                                rccl.ncclAvg], ids=lambda o: o.name)
def test_every_pair_of_fp8_values(dtype, op):
    """All 65536 operand pairs (and all 256 pre-multiplied values) of each FP8 format,
    FNUZ and OCP, against the float32-then-round reference."""
    a, b = (x.ravel().astype(np.uint8).view(dtype)
            for x in np.meshgrid(np.arange(256), np.arange(256), indexing="ij"))
    reducer = Reducer(op, dtype, nranks=3)
    assert reducer.combine(a, b).tobytes() == step(op, a, b, dtype).tobytes()
    x = np.arange(256, dtype=np.uint8).view(dtype)
    assert reducer.load(x).tobytes() == prescale(op, x, 3, dtype).tobytes()


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8])
@pytest.mark.parametrize("datatype,dtype", FP8, ids=["e4m3", "e5m2"])
@pytest.mark.parametrize("op", [rccl.ncclSum, rccl.ncclProd, rccl.ncclMax, rccl.ncclMin,
                                rccl.ncclAvg], ids=lambda o: o.name)
def test_ring_collectives_bit_for_bit(n, datatype, dtype, op, monkeypatch):
    monkeypatch.setenv("NCCL_ALGO", "Ring")
    count = 2 * ALIGN + 5  # chunks of ALIGN elements per rank block (one channel)
    xs = [random_fp8(dtype, count * n, seed=r) for r in range(n)]
    sends = device_buffers(xs)
    allred = device_buffers([np.zeros(count, dtype)] * n)
    red = device_buffers([np.zeros(count, dtype)] * n)
    scat = device_buffers([np.zeros(count, dtype)] * n)
    root = n - 1
    comms = rccl.ncclCommInitAll(n)

    def calls(r, c):
        rccl.ncclAllReduce(sends[r], allred[r], count, datatype, op, c, 0)
        rccl.ncclReduce(sends[r], red[r], count, datatype, op, root, c, 0)
        rccl.ncclReduceScatter(sends[r], scat[r], count, datatype, op, c, 0)

    on_every_rank(calls, comms)
    real = int(np.ceil(np.ceil(count / n) / ALIGN)) * ALIGN  # ring chunk, aligned
    want = np.empty(count, dtype)
    for c in range(-(-count // real)):
        lo, hi = c * real, min(count, (c + 1) * real)
        want[lo:hi] = chain(op, [x[lo:hi] for x in xs], [(c + 1 + j) % n for j in range(n)],
                            dtype, n)
    for r in range(n):
        assert host(allred[r]).tobytes() == want.tobytes()
    reduced = chain(op, [x[:count] for x in xs], [(root + 1 + j) % n for j in range(n)],
                    dtype, n)
    assert host(red[root]).tobytes() == reduced.tobytes()
    for b in range(n):
        block = [x[b * count:(b + 1) * count] for x in xs]
        assert host(scat[b]).tobytes() == chain(op, block, [(b + 1 + j) % n for j in range(n)],
                                                dtype, n).tobytes()


def test_tree_allreduce_order_on_four_ranks(monkeypatch):
    """RCCL's tree inside one node is a chain in the ring's order: 0 <- 1 <- 2 <- 3;
    each rank adds its child's partial sum to its own input."""
    monkeypatch.setenv("NCCL_ALGO", "Tree")
    count = 1000
    xs = [random_fp8(E5M2, count, seed=40 + r) for r in range(4)]
    d = device_buffers(xs)
    comms = rccl.ncclCommInitAll(4)
    on_every_rank(lambda r, c: rccl.ncclAllReduce(d[r], d[r], count, rccl.ncclFloat8e5m2,
                                                  rccl.ncclSum, c, 0), comms)
    want = xs[3]
    for rank in (2, 1, 0):
        want = step(rccl.ncclSum, xs[rank], want, E5M2)
    assert host(d[3]).tobytes() == want.tobytes()


@pytest.mark.parametrize("n", [2, 3, 8])
def test_data_movement_keeps_fp8_bytes(n):
    count = 101
    xs = [np.arange(256, dtype=np.uint8)[(np.arange(count * n) + 7 * r) % 256].view(E4M3)
          for r in range(n)]
    sends = device_buffers(xs)
    gathered = device_buffers([np.zeros(count * n, E4M3)] * n)
    swapped = device_buffers([np.zeros(count * n, E4M3)] * n)
    comms = rccl.ncclCommInitAll(n)

    def calls(r, c):
        rccl.ncclAllGather(sends[r], gathered[r], count, rccl.ncclFloat8e4m3, c, 0)
        rccl.ncclAllToAll(sends[r], swapped[r], count, rccl.ncclFloat8e4m3, c, 0)

    on_every_rank(calls, comms)
    for r in range(n):
        assert host(gathered[r]).tobytes() == b"".join(x[:count].tobytes() for x in xs)
        want = b"".join(x[r * count:(r + 1) * count].tobytes() for x in xs)
        assert host(swapped[r]).tobytes() == want
