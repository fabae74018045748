"""AllReduce, Reduce and ReduceScatter for 1, 2, 3, 4 and 8 ranks, every data type and
operator, against NumPy (exact for integers, max and min; to rounding for float sums,
products and averages, whose order of operations is the algorithm's)."""

import numpy as np
import pytest
from rccl_helpers import DTYPES, OPS, as_float, device_buffers, host, on_every_rank, values

from gpusim import rccl

NRANKS = [1, 2, 3, 4, 8]


def reference(datatype, op, arrays):
    """NumPy's reduction over ranks (exact for integers: wraparound like the GPU)."""
    stack = np.stack(arrays)
    floating = datatype in (rccl.ncclFloat16, rccl.ncclFloat32, rccl.ncclFloat64,
                            rccl.ncclBfloat16)
    if floating:
        stack = np.stack([as_float(datatype, a).astype(np.float64) for a in arrays])
    if op == rccl.ncclSum:
        return stack.sum(axis=0, dtype=stack.dtype)
    if op == rccl.ncclProd:
        return stack.prod(axis=0, dtype=stack.dtype)
    if op == rccl.ncclMax:
        return stack.max(axis=0)
    if op == rccl.ncclMin:
        return stack.min(axis=0)
    total = stack.sum(axis=0, dtype=stack.dtype)
    if floating:
        return total / len(arrays)
    q = np.abs(total) // len(arrays)
    return np.where(total < 0, -q, q).astype(total.dtype)


def check(datatype, op, got, want):
    if datatype in (rccl.ncclFloat16, rccl.ncclFloat32, rccl.ncclFloat64,
                    rccl.ncclBfloat16):
        rtol = {rccl.ncclFloat16: 1e-2, rccl.ncclBfloat16: 5e-2, rccl.ncclFloat32: 1e-5,
                rccl.ncclFloat64: 1e-12}[datatype]
        np.testing.assert_allclose(as_float(datatype, got).astype(np.float64), want, rtol=rtol)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", NRANKS)
@pytest.mark.parametrize("datatype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("op", OPS, ids=lambda o: o.name)
def test_allreduce(n, datatype, op):
    count = 1001  # not a multiple of any rank count or of the chunk alignment
    xs = [values(datatype, count, seed=r) for r in range(n)]
    sends, recvs = device_buffers(xs), device_buffers([np.zeros_like(x) for x in xs])
    comms = rccl.ncclCommInitAll(n)
    on_every_rank(lambda r, c: rccl.ncclAllReduce(sends[r], recvs[r], count, datatype, op,
                                                  c, 0), comms)
    want = reference(datatype, op, xs)
    results = [host(d) for d in recvs]
    for got in results:
        check(datatype, op, got, want)
        np.testing.assert_array_equal(got, results[0])  # every rank holds the same bits


@pytest.mark.parametrize("n", NRANKS)
@pytest.mark.parametrize("datatype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("op", OPS, ids=lambda o: o.name)
def test_reduce_and_reduce_scatter(n, datatype, op):
    count = 333
    root = n - 1
    xs = [values(datatype, count * n, seed=10 + r) for r in range(n)]
    sends = device_buffers(xs)
    reduced = device_buffers([np.zeros(count * n, x.dtype) for x in xs])
    scattered = device_buffers([np.zeros(count, x.dtype) for x in xs])
    comms = rccl.ncclCommInitAll(n)

    def both(r, c):
        rccl.ncclReduce(sends[r], reduced[r] if r == root else None, count * n, datatype,
                        op, root, c, 0)
        rccl.ncclReduceScatter(sends[r], scattered[r], count, datatype, op, c, 0)

    on_every_rank(both, comms)
    want = reference(datatype, op, xs)
    check(datatype, op, host(reduced[root]), want)
    for r in range(n):
        check(datatype, op, host(scattered[r]), want[r * count:(r + 1) * count])


@pytest.mark.parametrize("n", [2, 3, 8])
def test_in_place_allreduce_and_reduce_scatter(n):
    count = 517
    xs = [values(rccl.ncclFloat64, count * n, seed=r) for r in range(n)]
    bufs = device_buffers(xs)
    comms = rccl.ncclCommInitAll(n)
    on_every_rank(lambda r, c: rccl.ncclAllReduce(bufs[r], bufs[r], count * n,
                                                  rccl.ncclDouble, rccl.ncclSum, c, 0), comms)
    total = np.sum(xs, axis=0)
    for d in bufs:
        np.testing.assert_allclose(host(d), total, rtol=1e-13)
    # ReduceScatter in place: recvbuff = sendbuff + rank * recvcount
    on_every_rank(lambda r, c: rccl.ncclReduceScatter(
        bufs[r], bufs[r].ptr + r * count * 8, count, rccl.ncclDouble, rccl.ncclSum, c, 0),
        comms)
    for r, d in enumerate(bufs):
        np.testing.assert_allclose(host(d)[r * count:(r + 1) * count],
                                   n * total[r * count:(r + 1) * count], rtol=1e-13)


def test_ring_order_of_sums_is_rccls():
    """Three ranks, one channel: chunk c is sent by rank c+1, reduced at c+2, ends at c.
    Values where the order changes the float32 result show that order."""
    big, one = np.float32(1e8), np.float32(1)
    count = 3 * 384  # one aligned chunk per rank (384 float32 = NCCL's alignment)
    xs = [np.full(count, v, np.float32) for v in (big, one, -big)]
    d = device_buffers(xs)
    comms = rccl.ncclCommInitAll(3)
    on_every_rank(lambda r, c: rccl.ncclAllReduce(d[r], d[r], count, rccl.ncclFloat,
                                                  rccl.ncclSum, c, 0), comms)
    got = host(d[0])
    # chunk 0: (1 + -1e8) + 1e8 = 0; chunk 1: (-1e8 + 1e8) + 1 = 1; chunk 2: (1e8 + 1) - 1e8 = 0
    np.testing.assert_array_equal(got[:384], 0)
    np.testing.assert_array_equal(got[384:768], 1)
    np.testing.assert_array_equal(got[768:], 0)
