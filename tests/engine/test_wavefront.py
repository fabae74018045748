"""Wavefront collectives: shuffles, ballots, votes, with HIP's semantics on AMD."""

import kernels as K
import numpy as np


def test_shfl_down_reduction(run, rng):
    x = rng.random(1000)
    out = np.zeros(1)
    run(K.shfl_down_sum, 4, 256, x, out)
    np.testing.assert_allclose(out[0], x.sum())


def test_shfl_xor_allreduce_with_cuda_sync_spelling(run, rng):
    x = rng.random(256)
    out = np.zeros(256)
    run(K.shfl_xor_allreduce, 2, 128, x, out)
    np.testing.assert_allclose(out, np.repeat(x.reshape(4, 64).sum(1), 64))


def test_shfl_xor_allreduce_on_wave32(run, rng, rx7900xtx):
    x = rng.random(128)
    out = np.zeros(128)
    run(K.shfl_xor_allreduce, 1, 128, x, out, device=rx7900xtx)
    np.testing.assert_allclose(out, np.repeat(x.reshape(4, 32).sum(1), 32))


def _hip_shfl_reference(lane_values, wave):
    """HIP's __shfl / __shfl_up / __shfl_down / __shfl_xor formulas (amd_warp_functions.h)."""
    n = len(lane_values)
    out = np.zeros((n, 5))
    for t in range(n):
        lane, base = t % wave, t - t % wave

        def read(index, base=base):
            src = base + (index & (wave - 1))
            return lane_values[src] if src < n else 0.0
        out[t, 0] = read((3 & (wave - 1)) + (lane & ~(wave - 1)))
        out[t, 1] = read(lane if lane - 1 < (lane & ~(wave - 1)) else lane - 1)
        out[t, 2] = read(lane if (lane & 15) + 2 >= 16 else lane + 2)
        idx = lane ^ 5
        out[t, 3] = read(lane if idx >= ((lane + wave) & ~(wave - 1)) else idx)
        out[t, 4] = read(((lane + 1) & 7) + (lane & ~7))
    return out


def test_shfl_variants_follow_hip_formulas(run):
    x = np.arange(100, dtype=np.float64)  # 100 threads: the second wave is partial
    out = np.zeros((100, 5))
    run(K.shfl_variants, 1, 100, x, out)
    np.testing.assert_array_equal(out, _hip_shfl_reference(x, 64))


def test_shfl_variants_wave32(run, rx7900xtx):
    x = np.arange(64, dtype=np.float64)
    out = np.zeros((64, 5))
    run(K.shfl_variants, 1, 64, x, out, device=rx7900xtx)
    np.testing.assert_array_equal(out, _hip_shfl_reference(x, 32))


def test_ballot_stream_compaction(run, rng):
    x = rng.integers(-5, 5, 300).astype(np.float32)
    out = np.zeros(300, np.float32)
    count = np.zeros(1, np.int64)
    run(K.ballot_compact, 5, 64, x, out, count)
    kept = x[x > 0]
    assert count[0] == len(kept)
    # waves append in any order; within a wave the order is kept
    np.testing.assert_array_equal(np.sort(out[:count[0]]), np.sort(kept))


def test_ballot_inside_if_sees_only_active_lanes(run):
    out = np.zeros((128, 2), np.uint64)
    run(K.ballot_in_if, 1, 128, out)
    took = np.arange(64) % 3 == 0
    mask = sum(1 << int(lane) for lane in np.nonzero(took)[0])
    for w in range(2):
        rows = out[w * 64:(w + 1) * 64]
        np.testing.assert_array_equal(rows[took, 0], np.uint64(mask))
        assert (rows[~took, 0] == 0).all()
        assert (rows[took, 1] == took.sum()).all()  # popc(activemask())


def test_ballot_is_a_64_bit_mask_and_32_bits_on_wave32(run, rx7900xtx):
    out = np.zeros((64, 2), np.uint64)
    run(K.ballot_in_if, 1, 64, out, device=rx7900xtx)
    mask32 = sum(1 << lane for lane in range(32) if lane % 3 == 0)
    assert int(out[0, 0]) == mask32 and int(out[32, 0]) == mask32


def test_any_and_all(run):
    x = np.zeros(128, np.int64)
    x[:64] = 1  # wave 0 all true, wave 1 all false ...
    x[70] = 1  # ... except one lane
    out = np.zeros((128, 2), np.int64)
    run(K.vote_any_all, 1, 128, x, out)
    assert (out[:64] == [1, 1]).all()
    assert (out[64:] == [1, 0]).all()


def test_shfl_from_lanes_that_left_a_loop_reads_zero(run):
    out = np.zeros(64, np.int64)
    run(K.divergent_loop_shfl, 1, 64, out)
    want = []
    for lane in range(64):
        acc = 0
        for k in range(lane % 4):
            src = lane + 1 if lane + 1 < 64 else lane  # past the wave: the caller's own value
            active = src % 4 > k
            acc += src + 100 * k if active else 0
        want.append(acc)
    np.testing.assert_array_equal(out, want)


def test_ballot_after_divergent_break_counts_remaining_lanes(run):
    out = np.zeros(64, np.int64)
    run(K.divergent_break_collective, 1, 64, out)
    lanes = np.arange(64)
    counts = [int((lanes % 5 >= k).sum()) for k in range(8)]
    np.testing.assert_array_equal(out, [sum(counts[:lane % 5 + 1]) for lane in lanes])


def test_both_branches_of_a_divergent_if_run_their_own_ballot(run):
    out = np.zeros(64, np.uint64)
    run(K.if_else_ballots, 1, 64, out)
    low = sum(1 << lane for lane in range(20))
    high = sum(1 << lane for lane in range(20, 64, 2))
    np.testing.assert_array_equal(out, np.where(np.arange(64) < 20, low, high).astype(np.uint64))
