"""hip.cg, HIP's cooperative groups in @hip.jit kernels (issue 32): tiles, blocks and the
grid against NumPy references written from HIP's definitions
(amd_hip_cooperative_groups.h), on the wave64 MI300X and the wave32 RX 7900 XTX, and the
compile errors of what HIP refuses."""

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.compile.ir import unparse
from gpusim.compile.pipeline import front_end
from gpusim.errors import HipError, KernelCompileError, hipError_t

WAVES = {"mi300x": 64, "rx7900xtx": 32}


@pytest.fixture(params=list(WAVES))
def device(request):
    """A one-GPU system of each wavefront size; the default system again afterwards."""
    gpusim.set_system(request.param, ngpus=1)
    yield request.param
    gpusim.set_system()


def tile_reduction(n: int, xor: bool):
    """Each tile of ``n`` threads sums its values, by shfl_xor or shfl_down."""
    @hip.jit
    def tile_sums(x, sums):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), n)
        i = hip.grid(1)
        v = x[i]
        step = t.size() // 2
        while step > 0:
            v += t.shfl_xor(v, step) if xor else t.shfl_down(v, step)
            step //= 2
        if t.thread_rank() == 0:
            sums[i // n] = v
    return tile_sums


@pytest.mark.parametrize("n, xor", [(4, False), (16, True), (32, False)])
def test_tile_sums_match_numpy_on_both_wave_sizes(device, n, xor):
    x = np.random.default_rng(n).integers(-50, 50, 384).astype(np.float64)
    sums = np.full(x.size // n, np.nan)
    tile_reduction(n, xor)[3, 128](x, sums)
    np.testing.assert_array_equal(sums, x.reshape(-1, n).sum(axis=1))


def test_a_tile_as_wide_as_the_wavefront_is_the_whole_wavefront(device):
    wave = WAVES[device]
    x = np.arange(256.0)
    sums = np.full(256 // wave, np.nan)

    @hip.jit
    def wave_sums(x, sums):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), hip.warpsize)
        v = x[hip.grid(1)]
        for s in (32, 16, 8, 4, 2, 1):
            if s < t.size():
                v += t.shfl_down(v, s)
        if t.thread_rank() == 0:
            sums[hip.grid(1) // t.size()] = v

    wave_sums[2, 128](x, sums)
    np.testing.assert_array_equal(sums, x.reshape(-1, wave).sum(axis=1))


def test_ranks_and_sizes_follow_hips_definitions():
    """A 2-D block of 16 x 6 = 96 threads (a partial second wavefront) in a 2 x 3 grid."""
    @hip.jit
    def ranks(out):
        g = hip.cg.this_grid()
        b = hip.cg.this_thread_block()
        t = hip.cg.tiled_partition(b, 16)
        q = hip.cg.tiled_partition(t, 4)  # a tile of a tile
        r = g.thread_rank()
        out[r, 0] = g.size()
        out[r, 1] = b.thread_rank()
        out[r, 2] = b.size()
        out[r, 3] = t.thread_rank()
        out[r, 4] = t.meta_group_rank()
        out[r, 5] = t.meta_group_size()
        out[r, 6] = q.thread_rank()
        out[r, 7] = q.meta_group_rank()
        out[r, 8] = q.meta_group_size()
        out[r, 9] = b.group_index().y * 10 + b.thread_index().y
        out[r, 10] = b.group_dim().x * b.group_dim().y + t.size() + q.size()

    out = np.full((6 * 96, 11), -1, np.int64)
    ranks[(2, 3), (16, 6)](out)
    for gy in range(3):
        for gx in range(2):
            block = gx + 2 * gy  # x fastest, as HIP's grid::thread_rank
            for ty in range(6):
                for tx in range(16):
                    rank = tx + 16 * ty  # HIP's workgroup::thread_rank
                    want = [6 * 96, rank, 96, rank % 16, rank // 16, 6, rank % 4,
                            rank % 16 // 4, 4, gy * 10 + ty, 96 + 16 + 4]
                    assert out[block * 96 + rank].tolist() == want, (block, rank)


def test_tile_shuffles_stay_in_the_tile(device):
    """HIP: the source lane is taken within the tile (``__shfl*(v, k, N)``); shfl_up and
    shfl_down sources outside the tile give the lane's own value."""
    n = 8

    @hip.jit
    def shuffles(x, out):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), n)
        i = hip.grid(1)
        out[i, 0] = t.shfl(x[i], 5)
        out[i, 1] = t.shfl_up(x[i], 3)
        out[i, 2] = t.shfl_down(x[i], 3)
        out[i, 3] = t.shfl_xor(x[i], 6)

    x = np.random.default_rng(3).integers(0, 1000, 128).astype(np.int64)
    out = np.zeros((128, 4), np.int64)
    shuffles[1, 128](x, out)
    lane = np.arange(128) % n
    base = np.arange(128) - lane
    up = np.where(lane >= 3, np.arange(128) - 3, np.arange(128))
    down = np.where(lane + 3 < n, np.arange(128) + 3, np.arange(128))
    want = np.stack([x[base + 5], x[up], x[down], x[base + (lane ^ 6)]], axis=1)
    np.testing.assert_array_equal(out, want)


def test_tile_votes_see_only_the_tiles_lanes(device):
    n = 16

    @hip.jit
    def votes(x, out):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), n)
        i = hip.grid(1)
        out[i, 0] = t.ballot(x[i] > 0)
        out[i, 1] = t.any(x[i] > 0)
        out[i, 2] = t.all(x[i] > 0)

    x = np.ones(128, np.int64)
    x[16:32] = 0  # tile 1: none
    x[[40, 47]] = 0  # tile 2: all but two
    x[64:80] = np.arange(16) % 3  # tile 4: a pattern
    out = np.zeros((128, 3), np.uint64)
    votes[1, 128](x, out)
    tiles = (x > 0).reshape(-1, n)
    mask = (tiles * (1 << np.arange(n))).sum(axis=1).astype(np.uint64)
    want = np.stack([mask, tiles.any(axis=1), tiles.all(axis=1)], axis=1).astype(np.uint64)
    np.testing.assert_array_equal(out, np.repeat(want, n, axis=0))


def center(x, partial, out):
    """out = x - mean(x) in one cooperative launch: block sums, a grid sync, the mean."""
    g = hip.cg.this_grid()
    b = hip.cg.this_thread_block()
    t = hip.cg.tiled_partition(b, 32)
    sums = hip.shared.array(32, np.float64)
    v = 0.0
    for i in range(g.thread_rank(), x.size, g.size()):
        v += x[i]
    step = 16
    while step > 0:
        v += t.shfl_down(v, step)
        step //= 2
    if t.thread_rank() == 0:
        sums[t.meta_group_rank()] = v
    b.sync()
    if b.thread_rank() == 0:
        for k in range(1, t.meta_group_size()):
            v += sums[k]
        partial[hip.blockIdx.x] = v
    g.sync()  # every block's sum is in partial
    total = 0.0
    for k in range(partial.size):
        total += partial[k]
    for i in range(g.thread_rank(), x.size, g.size()):
        out[i] = x[i] - total / x.size


def test_a_grid_sync_joins_two_phases_in_one_launch(device):
    x = np.random.default_rng(7).random(50_000)
    partial, out = np.full(40, np.nan), np.full(x.size, np.nan)
    kernel = hip.jit(center)
    with gpusim.profile() as prof:
        kernel[40, 256](x, partial, out)
    np.testing.assert_allclose(partial, [x[np.arange(x.size) % 10240 // 256 == b].sum()
                                         for b in range(40)], rtol=1e-12)
    np.testing.assert_allclose(out, x - x.mean(), rtol=0, atol=1e-12)
    (k,) = prof.kernels
    assert k.breakdown["grid_syncs"] == 1  # cooperative: timed with its grid sync


def test_a_cooperative_grid_larger_than_the_device_holds_is_refused():
    kernel = hip.jit(center)
    x = np.ones(4096)
    kernel[1, 256](x, np.zeros(1), np.zeros(4096))
    cus = hip.hipGetDeviceProperties().multiProcessorCount
    most = hip.hipOccupancyMaxActiveBlocksPerMultiprocessor(kernel, 256) * cus
    out = np.zeros(4096)
    with pytest.raises(HipError) as err:
        kernel[most + 1, 256](x, np.zeros(most + 1), out)
    assert err.value.code == hipError_t.hipErrorCooperativeLaunchTooLarge
    assert f"holds at most {most}" in str(err.value)
    assert not out.any()  # nothing ran


def test_syncs_become_the_barrier_of_their_group():
    def k(a):
        g = hip.cg.this_grid()
        b = hip.cg.this_thread_block()
        t = hip.cg.tiled_partition(b, 8)
        t.sync()
        b.sync()
        g.sync()
        a[0] = 1

    kir = front_end(k, wave_size=64, passes=("parse", "subset", "resolve"))
    text = unparse(kir.func.body)
    assert "hip.syncwarp()\nhip.syncthreads()\nhip.sync_grid()" in text


@hip.jit(device=True)
def _block_sum(v, slots):
    """A device function makes its own groups: the block of the calling thread."""
    b = hip.cg.this_thread_block()
    t = hip.cg.tiled_partition(b, 16)
    for s in (8, 4, 2, 1):
        v += t.shfl_xor(v, s)
    if t.thread_rank() == 0:
        slots[t.meta_group_rank()] = v
    b.sync()
    total = 0.0
    for k in range(t.meta_group_size()):
        total += slots[k]
    return total


def test_groups_made_in_a_device_function():
    @hip.jit
    def block_sums(x, out):
        slots = hip.shared.array(8, np.float64)
        v = _block_sum(x[hip.grid(1)], slots)
        if hip.threadIdx.x == 0:
            out[hip.blockIdx.x] = v

    x = np.random.default_rng(1).random(512)
    out = np.zeros(4)
    block_sums[4, 128](x, out)
    np.testing.assert_allclose(out, x.reshape(4, 128).sum(axis=1), rtol=1e-12)


# ---- what HIP refuses, as compile errors naming the line


def _compile_error(kernel, wave: int = 64) -> KernelCompileError:
    with pytest.raises(KernelCompileError) as err:
        front_end(kernel, wave_size=wave, passes=("parse", "subset", "resolve"))
    return err.value


def _line_of(kernel, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(kernel)
    return first + next(i for i, ln in enumerate(lines) if text in ln)


def test_a_tile_size_that_is_not_a_power_of_two():
    def k(a):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 12)
        a[0] = t.size()

    err = _compile_error(k)
    assert "a tile of 12 threads: the size must be a power of two" in str(err)
    assert err.lineno == _line_of(k, "tiled_partition")


def test_a_tile_larger_than_the_wavefront():
    def k(a):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 64)
        a[0] = t.shfl(a[0], 1)

    front_end(k, wave_size=64, passes=("parse", "subset", "resolve"))  # fits wave64
    err = _compile_error(k, wave=32)
    assert "a tile of 64 threads is larger than a wavefront" in str(err)
    assert "(32 lanes)" in str(err) and "Instead: at most hip.warpsize" in str(err)

    def wider(a):
        a[0] = hip.cg.tiled_partition(hip.cg.this_thread_block(), 128).size()

    assert "a tile of 128 threads is larger" in str(_compile_error(wider, wave=64))


def test_a_tile_size_known_only_at_run_time():
    def k(a, n):
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), n)
        a[0] = t.size()

    err = _compile_error(k)
    assert "the tile size must be known when the kernel compiles" in str(err)
    assert err.col == _line_col(k, "n)")


def _line_col(kernel, text: str) -> int:
    import inspect

    lines, _ = inspect.getsourcelines(kernel)
    line = next(ln for ln in lines if "tiled_partition" in ln)
    return line.index(text) + 1


TILE = 8


def test_tile_sizes_from_constants_are_accepted():
    def k(a):
        size = TILE * 2
        t = hip.cg.tiled_partition(hip.cg.this_thread_block(), size)
        u = hip.cg.tiled_partition(t, hip.warpsize // 8)
        a[0] = t.size() + u.size()

    text = unparse(front_end(k, wave_size=32, passes=("parse", "subset", "resolve")).func.body)
    assert "a[0] = 16 + 4" in text


@pytest.mark.parametrize("body, says", [
    ("b = hip.cg.this_thread_block()\n    a[0] = b.shfl_down(a[0], 1)",
     "shfl_down on a thread block: shuffles and votes work within one wavefront"),
    ("g = hip.cg.this_grid()\n    a[0] = g.ballot(a[0] > 0)", "ballot on the grid group"),
    ("t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 8)\n    a[0] = helper(t)",
     "the group `t` is used as a value"),
    ("t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 8)\n    t = 3",
     "`t` names a cooperative group and cannot be assigned another value"),
    ("t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 8)\n    a[0] = t.match_any(1)",
     "a tile has no method `match_any`"),
    ("t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 8)\n    a[0] = t.size",
     "`t.size`: a tile has methods, not fields"),
    ("b = hip.cg.this_thread_block()\n    a[0] = b.sync()", "returns nothing"),
    ("a[0] = hip.cg.tiled_partition(hip.cg.this_grid(), 8).size()",
     "cuts a thread block or a tile into tiles, not the grid"),
    ("t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 8)\n"
     "    u = hip.cg.tiled_partition(t, 16)", "a tile of 16 threads cut from a tile of 8"),
    ("a[0] = helper(hip.cg.this_thread_block())", "a cooperative group is not a value"),
    ("t = hip.cg.tiled_partition(hip.cg.this_thread_block(), 8)\n    a[0] = t.shfl(a[0])",
     "`shfl` of a tile takes 2 argument(s)"),
])
def test_unsupported_uses_are_compile_errors_naming_the_line(body, says):
    source = f"def k(a):\n    {body}\n"
    ns = {"hip": hip, "helper": _block_sum}
    exec(compile(source, "<cg-test>", "exec"), ns)  # gpusim keeps exec'd kernels' text
    err = _compile_error(ns["k"])
    assert says in str(err), str(err)
    assert err.lineno == len(body.splitlines()) + 1  # the group's last line of use
    assert err.construct == "cooperative groups"
