"""The device-wide memory model: requests, per-CU/per-XCD isolation, atomics, flush,
tiling, LDS conflicts and the counters derived from them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_gpu_kernels import (
    OUT,
    X,
    copy_kernel,
    histogram_kernel,
    naive_matmul,
    tiled_matmul,
)

from gpusim.devices import get_spec
from gpusim.memsim import (
    Access,
    GpuMemoryModel,
    LaunchInfo,
    Trace,
    TraceBuilder,
    coalesce,
    hierarchy_for,
    kernel_counters,
)
from gpusim.trace.record import ATOMIC, LDS, STORE

N = 1 << 14


@pytest.mark.parametrize(
    ("device", "pattern", "expected"),
    [
        ("mi300x", "coalesced", 2),
        ("mi300x", "strided", 64),
        ("mi250x", "coalesced", 4),
        ("mi250x", "strided", 64),
        ("rx7900xtx", "coalesced", 1),
    ],
)
def test_requests_per_instruction(device, pattern, expected):
    spec = get_spec(device)
    tr = Trace.from_lane_addresses(N // 256, 256, copy_kernel(N, pattern), wave_size=spec.wave_size)
    r = GpuMemoryModel(spec).run(tr)
    assert r.coalescing_by_site[0]["requests_per_instruction"] == expected
    stores = r.coalescing_by_site[1]["requests_per_instruction"]  # out[i]: always coalesced
    assert stores == spec.wave_size * 4 // spec.l1_line_bytes


def test_random_gather_is_nearly_uncoalesced_and_misses_more():
    model = GpuMemoryModel("mi300x")
    run = {
        p: (model.reset(), model.run(Trace.from_lane_addresses(N // 256, 256, copy_kernel(N, p))))[
            1
        ]
        for p in ("coalesced", "random")
    }
    rnd, coal = run["random"], run["coalesced"]
    assert 55 <= rnd.coalescing_by_site[0]["requests_per_instruction"] <= 64
    assert rnd.coalescing["efficiency"] < 0.1 < 0.99 < coal.coalescing["efficiency"]
    assert rnd.levels["L2"]["misses"] > 4 * coal.levels["L2"]["misses"]  # 8 private L2s
    assert rnd.hbm_read_bytes == coal.hbm_read_bytes == 4 * N  # the MALL absorbs the rest


def one_wave_reads(workgroups: list[int], addr: int, grid: int = 64) -> Trace:
    """Workgroups each issue one load of the same 128 B line (lanes 32-63 repeat 0-31)."""
    b = TraceBuilder(LaunchInfo(grid=grid, block=64))
    for g in workgroups:
        b.append(addr + 4 * (np.arange(64) % 32), wave=g, workgroup=g)
    return b.build()


def test_each_cu_has_its_own_vl1d_and_each_xcd_its_own_l2():
    model = GpuMemoryModel("mi300x")
    # Workgroups 0 and 8 share XCD 0 (CUs 0 and 1); workgroup 1 runs on XCD 1.
    r = model.run(one_wave_reads([0, 8, 1], 1 << 20))
    l1, l2 = r.per_instance["vL1D"], r.per_instance["L2"]
    assert l1[[0, 1, 38], 5].tolist() == [1, 1, 1]  # LOAD_MISSES: each CU misses once
    assert r.levels["vL1D"]["hits"] == 0
    assert (l2[0, 4], l2[0, 5]) == (1, 1)  # XCD 0: the second CU hits the first's fill
    assert (l2[1, 4], l2[1, 5]) == (0, 1)  # XCD 1 misses in its own L2 ...
    assert r.levels["MALL"]["load_hits"] == 2  # ... and finds it in the MALL (64 B lines)
    assert r.hbm_read_bytes == 128  # read from HBM once


def test_single_cu_kernel_agrees_with_the_one_cu_hierarchy():
    rng = np.random.default_rng(7)
    b = TraceBuilder(LaunchInfo(grid=1, block=256))
    for k in range(40):  # 4 waves of random loads, one workgroup -> one CU, one XCD
        for w in range(4):
            b.append(rng.integers(0, 1 << 16, 64) * 4, wave=w, workgroup=0, site=k)
    tr = b.build()
    r = GpuMemoryModel("mi300x").run(tr)
    order = r.dispatch.order
    c = coalesce(tr.addr[order], tr.active[order], 4, line=128)
    h = hierarchy_for("mi300x").run(*c.trace())
    for level in ("vL1D", "L2", "MALL"):
        for key in ("loads", "load_hits", "load_misses", "evictions"):
            assert r.levels[level][key] == h[level][key], (level, key)
    assert r.hbm_read_bytes == h["memory"]["load_bytes"]


def test_atomics_bypass_vl1d_and_contend_at_l2():
    tr = Trace.from_lane_addresses(16, 256, histogram_kernel(16 * 256, bins=4))
    r = GpuMemoryModel("mi300x").run(tr)
    c = kernel_counters(r, spec="mi300x")
    assert r.instructions["global_atomic"] == 64
    assert r.requests["l1_to_l2_atomic"] == 64  # one line per instruction, straight to L2
    assert c["TCP_TCC_ATOMIC_WITH_RET_REQ_sum"] == c["TCC_ATOMIC_sum"] == 64
    assert r.atomic_lane_ops == 16 * 256
    assert r.atomic_hottest_line_ops == 16 * 256 // 4  # each bin word gets a quarter
    assert r.levels["vL1D"]["loads"] == 2 * 64  # only the x loads (2 lines each) used it


def test_stores_are_written_back_at_kernel_end_without_being_fetched():
    tr = Trace.from_lane_addresses(N // 256, 256, copy_kernel(N, "coalesced"))
    model = GpuMemoryModel("mi300x")
    r = model.run(tr)
    assert (r.hbm_read_bytes, r.hbm_write_bytes) == (4 * N, 4 * N)
    kept = GpuMemoryModel("mi300x").run(tr, flush_mall=False)
    assert kept.hbm_write_bytes == 0  # still dirty in the memory-side cache
    again = model.run(tr)  # L2 and MALL stay warm between kernels: no HBM reads
    assert again.hbm_read_bytes == 0 and again.levels["L2"]["load_hits"] > 0


def small_gpu():
    """One XCD with caches scaled down so 128x128 behaves like a big matmul on MI300X."""
    return dataclasses.replace(
        get_spec("mi300x"),
        key="small",
        xcd_count=1,
        cu_count=38,
        l1_bytes=4096,
        l2_bytes=32768,
        infinity_cache_bytes=0,
        infinity_cache_line_bytes=0,
    )


def test_tiled_matmul_moves_far_fewer_bytes_than_naive():
    n, grid, block = 128, (8, 8), (16, 16)
    naive = Trace.from_lane_addresses(grid, block, naive_matmul(n))
    tiled = Trace.from_lane_addresses(grid, block, tiled_matmul(n))
    # MI300X: a 16x16 block's working set fits its CU's 32 KiB vL1D, so tiling removes
    # vL1D traffic (TCP accesses) and leaves L2 traffic unchanged.
    mi = {k: GpuMemoryModel("mi300x").run(t) for k, t in (("naive", naive), ("tiled", tiled))}
    acc = {k: r.levels["vL1D"]["hits"] + r.levels["vL1D"]["misses"] for k, r in mi.items()}
    assert acc["tiled"] * 8 < acc["naive"]
    assert mi["tiled"].levels["L2"]["load_bytes"] <= mi["naive"].levels["L2"]["load_bytes"]
    assert mi["tiled"].lds["instructions"] == 64 * 4 * 8 * 34
    # When the problem outgrows the caches, naive re-reads from L2 and HBM; tiled does not.
    sm = {k: GpuMemoryModel(small_gpu()).run(t) for k, t in (("naive", naive), ("tiled", tiled))}
    l2 = {k: r.levels["L2"]["load_bytes"] for k, r in sm.items()}
    assert l2["tiled"] * 5 < l2["naive"]
    assert sm["tiled"].hbm_read_bytes * 5 < sm["naive"].hbm_read_bytes


def test_tiled_matmul_reads_its_lds_tiles_without_conflicts():
    tr = Trace.from_lane_addresses((2, 2), (16, 16), tiled_matmul(32))
    r = GpuMemoryModel("mi300x").run(tr)
    # tile[ty][k]: 2 rows (2 distinct words, different banks) per 32-lane phase, the
    # rest broadcast; tile[k][tx]: 16 consecutive words, broadcast over ty.
    assert r.lds_by_site[5]["bank_conflict_cycles"] == 0
    assert r.lds_by_site[6]["bank_conflict_cycles"] == 0
    assert r.lds["instructions"] == 4 * 4 * 2 * 34  # workgroups x waves x tiles x ops
    assert r.lds["cycles"] == 2 * r.lds["instructions"]  # 2 phases each, degree 1


def test_transpose_through_lds_conflicts_unless_padded():
    def transpose(pitch):
        def program(t):
            yield Access(X + 4 * (t.gy * 64 + t.gx), site=0)
            yield Access(4 * (t.ty * pitch + t.tx), kind=STORE, space=LDS, site=1)
            yield Access(4 * (t.tx * pitch + t.ty), space=LDS, site=2)  # column read
            yield Access(OUT + 4 * (t.gx * 64 + t.gy), kind=STORE, site=3)

        return program

    res = {
        p: GpuMemoryModel("mi300x").run(Trace.from_lane_addresses((2, 2), (32, 32), transpose(p)))
        for p in (32, 33)
    }
    assert res[32].lds_by_site[2]["max_degree"] == 32
    assert res[33].lds_by_site[2]["max_degree"] == 1
    c = {p: kernel_counters(r, spec="mi300x") for p, r in res.items()}
    assert c[32]["SQ_LDS_BANK_CONFLICT"] > 0 == c[33]["SQ_LDS_BANK_CONFLICT"]


@pytest.mark.parametrize("device", ["mi300x", "mi250x", "mi100", "rx7900xtx"])
def test_counters_follow_the_profiler_formulas(device):
    spec = get_spec(device)
    tr = Trace.from_lane_addresses(
        N // 256, 256, copy_kernel(N, "strided"), wave_size=spec.wave_size
    )
    r = GpuMemoryModel(spec).run(tr)
    c = kernel_counters(r, spec=spec, seconds=1e-5)
    assert c["SQ_WAVES"] == tr.launch.total_waves
    assert c["SQ_INSTS_VMEM_RD"] == c["SQ_INSTS_VMEM_WR"] == tr.launch.total_waves
    misses = (
        c["TCP_TCC_READ_REQ_sum"]
        + c["TCP_TCC_WRITE_REQ_sum"]
        + c["TCP_TCC_ATOMIC_WITH_RET_REQ_sum"]
    )
    hit_rate = 100 - 100 * misses / c["TCP_TOTAL_CACHE_ACCESSES_sum"]  # Omniperf's vL1D
    l1 = r.levels["vL1D"]
    assert hit_rate == pytest.approx(100 * l1["hits"] / (l1["hits"] + l1["misses"]))
    l2 = "GL2C" if spec.gfx_target.startswith("gfx11") else "TCC"
    assert (
        c[f"{l2}_HIT_sum"] + c[f"{l2}_MISS_sum"]
        == r.levels["L2"]["hits"] + r.levels["L2"]["misses"]
    )
    fabric_read = r.requests["l2_to_fabric_read"] * spec.l2_line_bytes
    assert c["FETCH_SIZE"] * 1024 == fabric_read
    assert c["WRITE_SIZE"] * 1024 == r.requests["l2_to_fabric_write"] * spec.l2_line_bytes
    assert c["GRBM_GUI_ACTIVE"] == round(1e-5 * spec.clock_mhz * 1e6)


def test_sampled_trace_scales_memory_counters():
    full = Trace.from_lane_addresses(64, 256, copy_kernel(64 * 256, "coalesced"))
    keep = np.flatnonzero(full.workgroup < 16)
    info = dataclasses.replace(full.launch, sampled=True, sampled_workgroups=np.arange(16))
    sampled = Trace(
        *(
            getattr(full, f)[keep]
            for f in (
                "addr",
                "active",
                "bytes_per_lane",
                "kind",
                "space",
                "site",
                "wave",
                "workgroup",
            )
        ),
        info,
    )
    c_full = kernel_counters(GpuMemoryModel("mi300x").run(full), spec="mi300x")
    c_smp = kernel_counters(GpuMemoryModel("mi300x").run(sampled), spec="mi300x")
    assert c_smp["GPUSIM_SAMPLED"] == 1 and c_smp["GPUSIM_TRACE_SCALE"] == 4.0
    for name in ("SQ_WAVES", "SQ_INSTS_VMEM_RD", "TCP_TOTAL_CACHE_ACCESSES_sum", "FETCH_SIZE"):
        assert c_smp[name] == c_full[name], name


def test_atomic_kind_constant_matches_the_trace_format():
    assert (ATOMIC, LDS, STORE) == (2, 1, 1)


def _atomic_reference(trace, line_bits):
    """The per-line atomic statistics by NumPy's set operations."""
    rows = np.flatnonzero((trace.space == 0) & (trace.kind == ATOMIC))
    act = trace.active[rows]
    addr = trace.addr[rows][act]
    if not addr.size:
        return 0, 0, np.zeros((0, 2), np.int64)
    _, counts = np.unique(addr >> 2, return_counts=True)
    row = np.repeat(np.arange(len(rows)), act.sum(axis=1))
    words, per_word = np.unique(np.stack([row, addr >> line_bits, addr >> 2]), axis=1,
                                return_counts=True)
    req, first = np.unique(words[:2], axis=1, return_index=True)
    serial = np.maximum.reduceat(per_word, first)
    return int(addr.size), int(counts.max()), np.stack([req[1] << line_bits, serial], 1)


@pytest.mark.parametrize("seed", range(6))
def test_atomic_statistics_match_numpys_set_operations(seed):
    """Contended and spread atomics, inactive lanes, words sharing lines, loads between."""
    from gpusim.memsim.gpu import _atomic_stats

    rng = np.random.default_rng(seed)
    spread = [4, 64, 1 << 12, 1 << 20][seed % 4]
    trace = Trace.from_lane_addresses(
        4, 128, lambda t: [Access(4 * (t.gid % 7)),
                           Access(rng.integers(0, spread, t.gid.shape) * 4, kind=ATOMIC,
                                  active=rng.random(t.gid.shape) < 0.7),
                           Access(rng.integers(0, spread, t.gid.shape) * 4 + 2, kind=ATOMIC)])
    got, want = _atomic_stats(trace, 7), _atomic_reference(trace, 7)
    assert got[:2] == want[:2] and got[2].tolist() == want[2].tolist()
