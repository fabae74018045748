"""The one catalogue of test kernels: every suite (engine, sanitizer, tracing, AMDGPU,
golden files) and the benchmarks launch kernels from here, written as the course writes
them (``hip`` is the kernel language; the numba.cuda spelling names the same stubs).

Plain functions: a test launches them through the engine (``run`` fixtures), wraps them
with ``hip.jit`` (``jitted``), or compiles them for the AMDGPU back end. Statements that
tests point at carry a ``# LINE: tag`` comment (``line_of``).

>>> line_of(oob_write, "oob") == oob_write.__code__.co_firstlineno + 3
True
"""

import inspect
import math
from types import SimpleNamespace

import numba
import numpy as np

from gpusim.compile import lang as cuda  # the numba.cuda spelling names the same stubs
from gpusim.compile import lang as hip
from gpusim.compile.lang import DeviceFunction

TILE = 16
BLOCK = 256
F32 = np.float32


def line_of(kernel, tag: str) -> int:
    """The file line of the statement marked ``# LINE: tag`` in ``kernel``."""
    lines, first = inspect.getsourcelines(kernel)
    return first + next(i for i, ln in enumerate(lines) if f"# LINE: {tag}" in ln)


def jitted(*names: str) -> SimpleNamespace:
    """``hip.jit`` kernels of the named catalogue functions (for runtime launches)."""
    from gpusim import hip as public

    return SimpleNamespace(**{n: public.jit(globals()[n]) for n in names})


# -- canonical (golden files, benchmarks, reductions) ----------------------------------------------
def saxpy(a, x, y, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def block_sum(x, out):
    s = hip.shared.array(256, np.float32)
    tid = hip.threadIdx.x
    i = hip.blockIdx.x * hip.blockDim.x + tid
    s[tid] = x[i] if i < x.size else 0.0
    hip.syncthreads()
    stride = hip.blockDim.x // 2
    while stride > 0:
        if tid < stride:
            s[tid] += s[tid + stride]
        hip.syncthreads()
        stride //= 2
    if tid == 0:
        out[hip.blockIdx.x] = s[0]


def wave_sum(x, out):
    i = hip.grid(1)
    if i >= x.size:
        return
    v = x[i]
    off = hip.warpsize // 2
    while off > 0:
        v += hip.shfl_down(v, off)
        off //= 2
    if hip.laneid == 0:
        hip.atomic.add(out, 0, v)


def mfma_tile(A, B, C):
    """One wave: C[32x32] = A[32xK] @ B[Kx32] on the matrix core (bf16 in, f32 out)."""
    t = hip.threadIdx.x
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for kk in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = hip.bf16(A[t % 32, kk + 4 * (t // 32) + e])
            b[e] = hip.bf16(B[kk + 4 * (t // 32) + e, t % 32])
        if kk == 0:
            hip.mfma_f32_32x32x8bf16_1k(a, b, 0.0, acc)
        else:
            hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[8 * (e // 4) + 4 * (t // 32) + e % 4, t % 32] = acc[e]


# -- engine: language, barriers, wavefronts, atomics, control flow ---------------------------------
# -- barrier-free ------------------------------------------------------------------------
def vadd(a, b, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


def saxpy_stride(a, x, y, out):
    start = hip.grid(1)
    stride = hip.gridsize(1)
    for i in range(start, out.shape[0], stride):
        out[i] = a * x[i] + y[i]


def index2d(out):
    x, y = hip.grid(2)
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = y * 1000 + x


def index3d(out):
    x, y, z = hip.grid(3)
    if z < out.shape[0] and y < out.shape[1] and x < out.shape[2]:
        out[z, y, x] = (z * 100 + y) * 100 + x


def ids(out):
    """Every thread writes its own ids: checks the x-fastest numbering."""
    t = (hip.threadIdx.z * hip.blockDim.y + hip.threadIdx.y) * hip.blockDim.x + hip.threadIdx.x
    b = (hip.blockIdx.z * hip.gridDim.y + hip.blockIdx.y) * hip.gridDim.x + hip.blockIdx.x
    g = b * hip.blockDim.x * hip.blockDim.y * hip.blockDim.z + t
    out[g, 0] = t
    out[g, 1] = b
    out[g, 2] = hip.laneid
    out[g, 3] = hip.warpsize


def math_ops(x, out):
    i = hip.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = math.sqrt(v) + math.exp(-v)
        out[i, 1] = np.float32(math.floor(v * 3.0)) + abs(-v)
        out[i, 2] = hip.fma(v, v, np.float32(1.0))
        out[i, 3] = max(v, np.float32(0.5)) - min(v, 0.25) + (v if v > 0.5 else -v)


def bits(x, out):
    i = hip.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = hip.popc(v)
        out[i, 1] = hip.ffs(v)
        out[i, 2] = hip.clz(v)
        out[i, 3] = hip.brev(v)


# -- LDS + barriers ----------------------------------------------------------------------
def matmul_tiled(A, B, C):
    sA = hip.shared.array((TILE, TILE), np.float32)
    sB = hip.shared.array((TILE, TILE), np.float32)
    tx = hip.threadIdx.x
    ty = hip.threadIdx.y
    row = hip.blockIdx.y * TILE + ty
    col = hip.blockIdx.x * TILE + tx
    acc = np.float32(0.0)
    for k0 in range(0, A.shape[1], TILE):
        sA[ty, tx] = A[row, k0 + tx] if row < A.shape[0] and k0 + tx < A.shape[1] else 0.0
        sB[ty, tx] = B[k0 + ty, col] if col < B.shape[1] and k0 + ty < B.shape[0] else 0.0
        hip.syncthreads()
        for k in range(TILE):
            acc += sA[ty, k] * sB[k, tx]
        hip.syncthreads()
    if row < C.shape[0] and col < C.shape[1]:
        C[row, col] = acc


def transpose_padded(a, out):
    tile = hip.shared.array((TILE, TILE + 1), np.float32)  # +1: no LDS bank conflicts
    x = hip.blockIdx.x * TILE + hip.threadIdx.x
    y = hip.blockIdx.y * TILE + hip.threadIdx.y
    if y < a.shape[0] and x < a.shape[1]:
        tile[hip.threadIdx.y, hip.threadIdx.x] = a[y, x]
    hip.syncthreads()
    x = hip.blockIdx.y * TILE + hip.threadIdx.x
    y = hip.blockIdx.x * TILE + hip.threadIdx.y
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = tile[hip.threadIdx.x, hip.threadIdx.y]


def inclusive_scan(x, out):
    """Hillis-Steele scan of one block (the temp value crosses a barrier)."""
    s = hip.shared.array(BLOCK, np.int64)
    tid = hip.threadIdx.x
    s[tid] = x[tid] if tid < x.size else 0
    hip.syncthreads()
    offset = 1
    while offset < hip.blockDim.x:
        v = s[tid - offset] if tid >= offset else 0
        hip.syncthreads()
        s[tid] += v
        hip.syncthreads()
        offset *= 2
    if tid < out.size:
        out[tid] = s[tid]


def bitonic_sort(x):
    s = hip.shared.array(BLOCK, np.float32)
    tid = hip.threadIdx.x
    s[tid] = x[tid]
    hip.syncthreads()
    k = 2
    while k <= BLOCK:
        j = k // 2
        while j > 0:
            partner = tid ^ j
            if partner > tid:
                up = (tid & k) == 0
                if (s[tid] > s[partner]) == up:
                    tmp = s[tid]
                    s[tid] = s[partner]
                    s[partner] = tmp
            hip.syncthreads()
            j //= 2
        k *= 2
    x[tid] = s[tid]


def dynamic_reverse(x, out):
    buf = hip.shared.array(0, np.float32)  # sized by the launch's shared_bytes
    t = hip.threadIdx.x
    n = hip.blockDim.x
    buf[t] = x[hip.blockIdx.x * n + t]
    hip.syncthreads()
    out[hip.blockIdx.x * n + t] = buf[n - 1 - t]


def histogram_lds(data, bins):
    local = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        local[t] = 0
    hip.syncthreads()
    i = hip.grid(1)
    stride = hip.gridsize(1)
    while i < data.size:
        hip.atomic.add(local, data[i] % 16, 1)
        i += stride
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, local[t])


def sync_votes(x, out):
    p = x[hip.threadIdx.x] > 0
    out[0] = hip.syncthreads_count(p)
    out[1] = hip.syncthreads_and(p)
    out[2] = hip.syncthreads_or(p)


# -- wavefront collectives --------------------------------------------------------------
def shfl_down_sum(x, out):
    i = hip.grid(1)
    v = x[i] if i < x.size else 0.0
    off = hip.warpsize // 2
    while off > 0:
        v += hip.shfl_down(v, off)
        off //= 2
    if hip.laneid == 0:
        hip.atomic.add(out, 0, v)


def shfl_xor_allreduce(x, out):
    i = hip.grid(1)
    v = x[i]
    mask = 1
    while mask < hip.warpsize:
        v += cuda.shfl_xor_sync(0xFFFFFFFF, v, mask)
        mask *= 2
    out[i] = v  # every lane holds its wave's sum


def shfl_variants(x, out):
    i = hip.grid(1)
    v = x[i]
    out[i, 0] = hip.shfl(v, 3)
    out[i, 1] = hip.shfl_up(v, 1)
    out[i, 2] = hip.shfl_down(v, 2, 16)
    out[i, 3] = hip.shfl_xor(v, 5)
    out[i, 4] = hip.shfl(v, hip.laneid + 1, 8)


def ballot_compact(x, out, count):
    """Stream compaction: keep x > 0, in order, with ballot + popc (one wave per block)."""
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    mask = hip.ballot(keep)
    lane = hip.laneid
    below = mask & ((np.uint64(1) << np.uint64(lane)) - np.uint64(1))
    base = 0
    if lane == 0:
        base = hip.atomic.add(count, 0, hip.popc(mask))
    base = hip.shfl(base, 0)
    if keep:
        out[base + hip.popc(below)] = x[i]


def ballot_in_if(out):
    """A ballot inside an `if` sees only the lanes that took it."""
    lane = hip.laneid
    m = np.uint64(0)
    if lane % 3 == 0:
        m = hip.ballot(True)
        n = hip.popc(hip.activemask())
        out[hip.grid(1), 1] = n
    out[hip.grid(1), 0] = m


def vote_any_all(x, out):
    i = hip.grid(1)
    p = x[i] > 0
    out[i, 0] = hip.any(p)
    out[i, 1] = hip.all(p)


def divergent_loop_shfl(out):
    """Lanes leave a loop at different trip counts; shfl reads 0 from departed lanes."""
    lane = hip.laneid
    n = lane % 4
    k = 0
    acc = 0
    while k < n:
        acc += hip.shfl_down(lane + 100 * k, 1)
        k += 1
    out[hip.grid(1)] = acc


# -- control flow ------------------------------------------------------------------------
def early_return(x, out):
    i = hip.grid(1)
    if i >= x.size:
        return
    s = hip.shared.array(BLOCK, np.float32)
    s[hip.threadIdx.x] = x[i]
    hip.syncthreads()  # waits only for the threads still alive
    out[i] = s[hip.threadIdx.x] * 2


def all_return_then_loop(x, out):
    """Whole blocks return before a barrier loop; the loop must not run forever."""
    i = hip.grid(1)
    if hip.blockIdx.x > 0:
        return
    n = hip.blockDim.x
    while n > 1:
        hip.syncthreads()
        n //= 2
    out[i] = n


def barrier_in_uniform_branch(flag, out):
    s = hip.shared.array(64, np.int32)
    t = hip.threadIdx.x
    s[t] = t
    if flag > 0:  # the same in every thread: allowed
        hip.syncthreads()
        out[t] = s[63 - t]
    else:
        out[t] = -1


def divergent_if_with_barrier_all_true(x, out):
    t = hip.threadIdx.x
    if x[0] > 0:  # read from memory: the compiler cannot prove it uniform; it is
        hip.syncthreads()
    out[t] = t


def loop_break_continue(x, out):
    """Uniform break/continue in a barrier loop and a thread-level loop."""
    s = hip.shared.array(64, np.int32)
    t = hip.threadIdx.x
    total = 0
    for k in range(10):
        if k == 2:
            continue
        if k == 6:
            break
        s[t] = k * t
        hip.syncthreads()
        total += s[(t + 1) % 64]
        hip.syncthreads()
    for j in range(100):
        if j > t:
            break
        total += 1
    out[t] = total


def divergent_break_collective(out):
    """A per-lane `break` out of a loop with a collective inside."""
    lane = hip.laneid
    total = 0
    for k in range(8):
        if k > lane % 5:
            break
        total += hip.popc(hip.ballot(True))
    out[hip.grid(1)] = total


@DeviceFunction
def clamp(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


@DeviceFunction
def warp_reduce(v):
    off = hip.warpsize // 2
    while off > 0:
        v += hip.shfl_down(v, off)
        off //= 2
    return v


@DeviceFunction
def store(arr, i, v):
    arr[i] = v


def uses_device_functions(x, out, total):
    i = hip.grid(1)
    v = clamp(x[i], 0.0, 1.0) if i < x.size else 0.0
    s = warp_reduce(v)
    if hip.laneid == 0:
        hip.atomic.add(total, 0, s)
    if i < out.size:
        store(out, i, v)


def local_array_kernel(out):
    tmp = hip.local.array(4, np.int32)
    t = hip.threadIdx.x
    for k in range(4):
        tmp[k] = t * k
    hip.syncthreads()
    acc = 0
    for k in range(4):
        acc += tmp[k]
    out[t] = acc


def const_kernel(out):
    weights = hip.const.array_like(WEIGHTS)
    i = hip.grid(1)
    if i < out.size:
        out[i] = weights[i % 4]


WEIGHTS = np.array([1.0, 2.0, 3.0, 4.0])


# -- atomics ----------------------------------------------------------------------------
def atomic_float_add_cas(x, total):
    """Atomic float add built from a compare-and-swap loop (the classic lab)."""
    i = hip.grid(1)
    if i < x.size:
        old = total[0]
        while True:
            seen = hip.atomic.cas(total, 0, old, old + x[i])
            if seen == old:
                break
            old = seen


def lockfree_max(x, best):
    i = hip.grid(1)
    if i < x.size:
        v = x[i]
        old = best[0]
        while v > old:
            seen = hip.atomic.cas(best, 0, old, v)
            if seen == old:
                break
            old = seen


def atomic_all(out, n):
    i = hip.grid(1)
    if i < n:
        hip.atomic.add(out, 0, 1)
        hip.atomic.sub(out, 1, 1)
        hip.atomic.max(out, 2, i)
        hip.atomic.min(out, 3, i)
        hip.atomic.exch(out, 4, 7)
        hip.atomic.inc(out, 5, 9)
        hip.atomic.dec(out, 6, 9)
        hip.atomic.and_(out, 7, ~(1 << (i % 8)))
        hip.atomic.or_(out, 8, 1 << (i % 8))
        hip.atomic.xor(out, 9, 1 << (i % 8))


def oob_read(x, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = x[i + 1]


def negative_index(out):
    i = hip.grid(1)
    out[i - 1] = 1.0


def lds_oob(out):
    s = hip.shared.array(32, np.float32)
    s[hip.threadIdx.x] = 1.0  # blocks of 64 threads: half write past the end
    hip.syncthreads()
    out[hip.threadIdx.x] = s[0]


def asserts(x):
    i = hip.grid(1)
    assert x[i] >= 0


def spin_forever(flag):
    while flag[0] == 0:
        pass


def prints(x):
    if hip.grid(1) == 1:
        print("value", x[1], 7)


def prints_per_block(x):
    if hip.threadIdx.x == 0:
        print("block", hip.blockIdx.x, "of the grid reads", x[hip.blockIdx.x])


# -- more control flow --------------------------------------------------------------------
def converge(x, out):
    """Repeat until no thread changes (`while syncthreads_or(...)`): a uniform barrier loop."""
    s = hip.shared.array(64, np.int32)
    t = hip.threadIdx.x
    s[t] = x[t]
    changed = 1
    rounds = 0
    while hip.syncthreads_or(changed):
        changed = 0
        left = s[t - 1] if t > 0 else s[t]
        hip.syncthreads()
        if left > s[t]:
            s[t] = left  # a running maximum spreads to the right
            changed = 1
        rounds += 1
    out[t] = s[t] * 1000 + rounds


def nested_divergent(out):
    """Nested loops with per-lane trip counts and a collective in the inner one."""
    lane = hip.laneid
    acc = 0
    for i in range(lane % 3):
        j = 0
        while j < i + (lane % 2):
            acc += hip.popc(hip.ballot(True)) + i * 100
            j += 1
    out[hip.grid(1)] = acc


def return_in_divergent_loop(x, out):
    """Threads return from inside a loop with a collective; a barrier after it."""
    t = hip.threadIdx.x
    k = 0
    while k < 5:
        if k == t % 7:
            return
        v = hip.shfl_xor(k, 1)
        k += 1 + v * 0
    hip.syncthreads()
    out[t] = 1


@DeviceFunction
def lane_count():
    return hip.popc(hip.activemask())


def device_fn_in_divergent_if(out):
    lane = hip.laneid
    n = 0
    if lane < 10:
        n = lane_count()
    out[hip.grid(1)] = n


def if_else_ballots(out):
    lane = hip.laneid
    if lane < 20:
        m = hip.ballot(True)
    else:
        m = hip.ballot(lane % 2 == 0)
    out[hip.grid(1)] = m


def return_from_nested_loop(out):
    t = hip.threadIdx.x
    for i in range(4):
        for j in range(4):
            if i * 4 + j == t:
                out[t] = 1
                return
    hip.syncthreads()
    out[t] = 2


def return_from_nested_loop_no_barrier(out):
    t = hip.threadIdx.x
    for i in range(4):
        for j in range(4):
            if i * 4 + j == t:
                out[t] = 1
                return
    out[t] = 2


def while_walks_past_end(out, n):
    i = hip.threadIdx.x
    while i <= n:  # <= : one step too far
        out[i] = 1.0
        i += hip.blockDim.x


def grid_stride_past_end(out, n):
    for i in range(hip.grid(1), n + 1, hip.gridsize(1)):
        out[i] = 2.0


# -- faults ----------------------------------------------------------------------------------------
def oob_write(out, n):
    i = hip.grid(1)
    if i < n:  # n is larger than the array: the bug
        out[i] = 1.0  # LINE: oob


def divergent_barrier(out):
    t = hip.threadIdx.x
    if t < 16:
        hip.syncthreads()  # LINE: divergent
    out[t] = t


# -- sanitizer: one bug each, and their fixes ------------------------------------------------------
def reduce_no_first_barrier(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[hip.grid(1)]  # LINE: store
    # (missing hip.syncthreads() here)
    stride = 32
    while stride > 0:
        if t < stride:
            s[t] += s[t + stride]  # LINE: add
        hip.syncthreads()
        stride //= 2
    if t == 0:
        out[hip.blockIdx.x] = s[0]


def warp_sync_reduce(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[t]
    hip.syncthreads()
    if t < 32:  # the classic "last wavefront needs no barrier" unrolling
        s[t] += s[t + 32]  # LINE: warp32
        s[t] += s[t + 16]  # LINE: warp16
        s[t] += s[t + 8]
        s[t] += s[t + 4]
        s[t] += s[t + 2]
        s[t] += s[t + 1]
    if t == 0:
        out[0] = s[0]


def warp_sync_reduce_fixed(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[t]
    hip.syncthreads()
    offset = 32
    while offset > 0:
        v = s[t + offset] if t < offset else 0.0
        hip.syncwarp()
        if t < offset:
            s[t] += v
        hip.syncwarp()
        offset //= 2
    if t == 0:
        out[0] = s[0]


def lds_histogram(x, bins):
    h = hip.shared.array(8, numba.int32)
    t = hip.threadIdx.x
    if t < 8:
        h[t] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.grid(1)] % 8, 1)
    hip.syncthreads()
    if t < 8:
        hip.atomic.add(bins, t, h[t])


def uninit_lds(out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    if t < 32:
        s[t] = 1.0
    hip.syncthreads()
    out[t] = s[t]  # LINE: uninit


def global_race(out):
    i = hip.grid(1)
    out[i % 64] = i  # LINE: gwrite -- every block writes the same 64 elements


def global_neighbour(a):
    i = hip.grid(1)
    if i + 1 < a.size:
        a[i] = a[i + 1] * 2.0  # LINE: gneighbour


def global_atomics(counter, out):
    i = hip.grid(1)
    hip.atomic.add(counter, 0, 1)
    out[i] = i  # disjoint: each thread its own element


def spin_while(flag):
    while flag[0] == 0:  # LINE: spin
        pass


def spin_for(out):
    acc = 0
    for k in range(10**12):  # LINE: forever
        acc += k & 3
    out[0] = acc


def transpose_tiled(a, out):
    tile = hip.shared.array((16, 17), numba.float32)  # 2D LDS, padded
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    x, y = hip.grid(2)
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    hip.syncthreads()
    ox = hip.blockIdx.y * 16 + tx
    oy = hip.blockIdx.x * 16 + ty
    if oy < out.shape[0] and ox < out.shape[1]:
        out[oy, ox] = tile[tx, ty]


def transpose_no_barrier(a, out):
    tile = hip.shared.array((16, 17), numba.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    x, y = hip.grid(2)
    tile[ty, tx] = a[y, x]  # LINE: tstore
    ox = hip.blockIdx.y * 16 + tx
    oy = hip.blockIdx.x * 16 + ty
    out[oy, ox] = tile[tx, ty]  # LINE: tload


def dynamic_shift(x, out):
    s = hip.shared.array(0, numba.float32)  # dynamic LDS: sized by the launch
    t = hip.threadIdx.x
    s[t] = x[t]
    hip.syncthreads()
    out[t] = s[(t + 1) % hip.blockDim.x]


def dynamic_shift_no_barrier(x, out):
    s = hip.shared.array(0, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[t]
    out[t] = s[(t + 1) % hip.blockDim.x]


def same_thread_read_write(out):
    s = hip.shared.array(64, numba.int32)
    t = hip.threadIdx.x
    s[t] = t
    s[t] = s[t] * 2  # one thread reads and writes its own element: not a race
    s[t] += 1
    out[t] = s[t]


def race_then_oob(out):
    i = hip.grid(1)
    out[i % 64] = i  # blocks 0 and 1 race here first
    out[i // 2] = 1.0  # LINE: late_oob -- block 2 goes past the end


# -- memory traces ---------------------------------------------------------------------------------
def copy_strided(a, b, stride):
    """b[i] = a[i * stride]: stride 1 is coalesced, 32 floats is one line per lane."""
    i = hip.grid(1)
    if i < b.size:
        b[i] = a[(i * stride) % a.size]


def copy_gather(a, b, idx):
    i = hip.grid(1)
    if i < b.size:
        b[i] = a[idx[i]]


def transpose_lds(a, out):
    """32x32 tiles through LDS; the column read hits one bank 32 times."""
    tile = hip.shared.array((32, 32), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * 32 + ty, hip.blockIdx.x * 32 + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * 32 + ty, hip.blockIdx.y * 32 + tx] = tile[tx, ty]


def transpose_lds_padded(a, out):
    """The same with one float of padding per row: the column read is conflict-free."""
    tile = hip.shared.array((32, 33), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * 32 + ty, hip.blockIdx.x * 32 + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * 32 + ty, hip.blockIdx.y * 32 + tx] = tile[tx, ty]


def matmul_naive(A, B, C, n):
    row = hip.blockIdx.y * hip.blockDim.y + hip.threadIdx.y
    col = hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x
    if row < n and col < n:
        acc = np.float32(0.0)
        for k in range(n):
            acc += A[row, k] * B[k, col]
        C[row, col] = acc


def accumulate(a, out):
    """out[i] += a[i]: a plain read-modify-write is a load and a store."""
    i = hip.grid(1)
    if i < out.size:
        out[i] += a[i]


def private_scratch(a, out):
    """A local (private) array lives in registers/scratch, not in global memory."""
    tmp = hip.local.array(4, np.float32)
    i = hip.grid(1)
    for k in range(4):
        tmp[k] = a[i] * k
    out[i] = tmp[0] + tmp[1] + tmp[2] + tmp[3]


def out_of_bounds(a):
    i = hip.grid(1)
    a[i + 1] = 1.0


# -- AMDGPU back end -------------------------------------------------------------------------------
def histogram(x, bins):
    i = hip.grid(1)
    stride = hip.gridsize(1)
    while i < x.size:
        hip.atomic.add(bins, x[i] % bins.size, 1)
        i += stride


def with_print(x):
    i = hip.grid(1)
    print(i)  # device printf: not lowered
    x[i] = 0


def with_tan(x):
    s = hip.shared.array(128, np.float32)
    s[hip.threadIdx.x] = math.tan(x[0])
    x[0] = s[0]


def bounded_copy(x, out):
    i = hip.grid(1)
    if i < x.size:
        out[i] = x[i]


WEIGHTS = np.arange(8, dtype=np.float32)


def everything(x, out, n, flag):
    """One kernel touching every construct the lowering supports."""
    i, j = hip.grid(2)
    w = hip.const.array_like(WEIGHTS)
    loc = hip.local.array(4, np.int32)
    for q in range(4):
        loc[q] = q * i
    v = x[i]
    mask = hip.ballot(v > 0)
    count = hip.syncthreads_count(v > 0)
    out[i] = hip.popc(mask) + hip.ffs(np.int32(i)) + hip.clz(np.int64(j)) + count
    out[i] += loc[i % 4] + hip.brev(np.uint32(n)) + w[i % 8] + hip.gridsize(1)
    out[i] += math.sqrt(abs(v)) + math.exp(np.float32(v)) + min(v, 2.0) + max(i, j)
    out[i] += (v // 3) + (v % 3) + v ** 2 + i // 7 + i % 5 + np.float32(v) ** 0.5
    out[i] += hip.fma(v, v, 1.0) + math.floor(v) + np.fmax(v, 0.5) + (-i) + (~j)
    if flag and hip.any(v < 0) or not hip.all(v > -1):
        out[i] -= hip.shfl_xor(v, 1) + hip.shfl_up(i, 1) + hip.shfl(np.float64(v), 0)
    old = hip.atomic.cas(out, 0, 1.0, 2.0)
    hip.atomic.max(out, 1, old)
    hip.atomic.inc(loc, 0, 3)
    k = n
    while k > 0:
        k -= 1
        if k == 3:
            continue
        if k == 7:
            break
        out[k] = k if k % 2 else -k
    for k in range(n, 0, -2):
        out[k] += hip.blockDim.y * hip.gridDim.z + hip.threadIdx.z
    assert i >= 0
    hip.threadfence()
    hip.syncwarp()
    if n < 0:
        return
    out[0] = hip.activemask() + hip.warpsize


# -- benchmarks (benchmarks/engine_bench.py) -------------------------------------------------------
def stencil2d(a, out):
    """out = 0.25 * (sum of the 4 neighbours) - a, at interior points: a 2-D 5-point stencil."""
    x, y = hip.grid(2)
    if 0 < y < a.shape[0] - 1 and 0 < x < a.shape[1] - 1:
        out[y, x] = 0.25 * (a[y - 1, x] + a[y + 1, x] + a[y, x - 1] + a[y, x + 1]) - a[y, x]
