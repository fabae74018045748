"""Issue 31's model changes, each against what the hardware does (independent of the
published-figures table in test_published.py): a pointer chase pays full latency and a
TLB walk past the TLB's reach; the L2 and Infinity Cache keep data between kernels and
the vL1D does not; work-groups that share one buffer keep their L2 hits in the sampled
estimate; launch time grows with the work-groups dispatched."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.memsim.counters import InstructionCounts
from gpusim.timing import kernel_time, rates_for


@pytest.fixture(autouse=True)
def _mi300x():
    gpusim.set_system("mi300x", 1)
    yield
    gpusim.config.cold_caches = False
    gpusim.set_system()


sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "calibration"))
from published import _kernels  # noqa: E402

chase = _kernels()[0]  # gpu-latency's chase: j = buf[j], one thread


@hip.jit
def reread(b, out, n, iters):  # every block re-reads all of b
    t = hip.threadIdx.x
    acc = 0.0
    for _ in range(iters):
        for i in range(0, n, hip.blockDim.x):
            acc += b[i + t]
    if acc == -1.0:
        out[t] = acc


def _record(launch):
    with gpusim.profile() as p:
        launch()
        hip.synchronize()
    return p.kernels[-1]


def _cycle(lines: int, rng) -> np.ndarray:
    """A random cyclic permutation of 128 B lines (16 int64 each), as gpu-latency's."""
    order = np.concatenate([[0], rng.permutation(lines - 1) + 1])
    nxt = np.empty(lines, np.int64)
    nxt[order] = np.roll(order, -1)
    host = np.zeros(lines * 16, np.int64)
    host[::16] = nxt * 16
    return host


def test_a_chase_pays_the_full_latency_of_the_level_holding_it():
    spec = get_spec("mi300x")
    lat = rates_for(spec).latency_cycles
    buf = hip.to_device(_cycle(128, np.random.default_rng(1)))  # 16 KiB: the vL1D
    out = hip.device_array(1, np.int64)
    steps = 4000
    chase[1, 1](buf, steps, out)
    rec = _record(lambda: chase[1, 1](buf, steps, out))
    ns = (rec.duration_ns - rec.breakdown["launch"] * 1e9) / steps
    assert rec.breakdown["dependent_chain"] >= steps * 0.9
    # one load at a time: the vL1D's whole load-to-use latency per step (plus the loop's
    # few issue cycles), not half of it as for independent loads
    cycles = ns * spec.clock_mhz / 1e3
    assert lat["vL1D"] <= cycles <= 1.15 * lat["vL1D"]


def test_a_warm_up_launch_helps_where_the_cache_keeps_the_data():
    rng = np.random.default_rng(2)
    buf = hip.to_device(_cycle((8 << 20) // 128, rng))  # 8 MiB: past the L2, in the MALL
    out = hip.device_array(1, np.int64)
    steps = 20000
    cold = _record(lambda: chase[1, 1](buf, steps, out))
    warm = _record(lambda: chase[1, 1](buf, steps, out))
    assert not cold.breakdown["warm_caches"] and warm.breakdown["warm_caches"]
    assert warm.duration_ns < 0.75 * cold.duration_ns  # HBM -> Infinity Cache
    gpusim.config.cold_caches = True  # the profiler can still show the cold run
    again = _record(lambda: chase[1, 1](buf, steps, out))
    assert again.duration_ns == pytest.approx(cold.duration_ns, rel=0.02)


def test_a_kernel_start_invalidates_the_vl1d():
    buf = hip.to_device(_cycle(128, np.random.default_rng(3)))  # 16 KiB
    out = hip.device_array(1, np.int64)
    chase[1, 1](buf, 200, out)
    rec = _record(lambda: chase[1, 1](buf, 200, out))
    # the first pass over the 128 lines misses the vL1D (warm only in the L2)
    assert rec.breakdown["warm_caches"]
    lat = rates_for(get_spec("mi300x")).latency_cycles
    assert rec.breakdown["avg_load_latency_cycles"] > lat["vL1D"] + 0.3 * (lat["L2"] - lat["vL1D"])


def test_tlb_walks_past_the_reach_only():
    spec = get_spec("mi300x")
    arch = rates_for(spec)
    c = InstructionCounts(waves=1, vmem_read=1000)
    cycles = {}
    for nbytes in (32 << 20, 128 << 20, 2 << 30):
        _, b = kernel_time(spec, c, occupancy=1, workgroups=1, chain=1000, chain_bytes=nbytes)
        cycles[nbytes] = b["tlb_walk_cycles"]
    assert cycles[32 << 20] == 0.0
    assert cycles[128 << 20] == pytest.approx(arch.tlb_walk_cycles / 2)
    assert cycles[2 << 30] == pytest.approx(arch.tlb_walk_cycles * (1 - 1 / 32))
    # no TLB figure for the H200: nothing charged
    _, b = kernel_time(get_spec("h200"), c, occupancy=1, workgroups=1, chain=1000,
                       chain_bytes=2 << 30)
    assert b["tlb_walk_cycles"] == 0.0


def test_a_buffer_every_block_rereads_stays_in_the_l2_in_the_sampled_estimate():
    n = (1 << 20) // 4  # 1 MiB: fits one XCD's 4 MiB L2
    b = hip.to_device(np.ones(n, np.float32))
    out = hip.device_array(256, np.float32)
    recs = {}
    for iters in (2, 4):
        reread[304, 256](b, out, n, iters)
        recs[iters] = _record(lambda iters=iters: reread[304, 256](b, out, n, iters))
    for rec in recs.values():
        assert rec.breakdown["traced_workgroups"] < 304  # sampled
        assert rec.breakdown["bytes_MALL"] == 0 and rec.breakdown["bytes_HBM"] == 0
    # the repeat count does not change the time per repeat (the launch taken out)
    per = {k: (r.duration_ns - r.breakdown["launch"] * 1e9) / k for k, r in recs.items()}
    assert per[4] == pytest.approx(per[2], rel=0.1)


def test_launch_time_grows_with_the_work_groups_dispatched():
    @hip.jit
    def empty(x):
        pass

    x = hip.device_array(1, np.float32)
    small = _record(lambda: empty[1, 64](x)).duration_ns
    big = _record(lambda: empty[1 << 16, 64](x)).duration_ns
    per_wg = rates_for(get_spec("mi300x")).dispatch_s_per_workgroup * 1e9
    assert big - small == pytest.approx(((1 << 16) - 1) * per_wg, rel=0.05)
    assert math.isclose(per_wg, 0.456, rel_tol=0.01)


def test_a_chase_longer_than_the_trace_keeps_its_time_per_step():
    # past TraceLimits.max_rows a work-group's rows are cut: the counts and the chain are
    # extrapolated (and the record says so), not silently cut short
    buf = hip.to_device(_cycle(128, np.random.default_rng(4)))  # 16 KiB
    out = hip.device_array(1, np.int64)
    per_step = {}
    for steps in (20_000, 400_000):
        chase[1, 1](buf, steps, out)
        rec = _record(lambda steps=steps: chase[1, 1](buf, steps, out))
        per_step[steps] = (rec.duration_ns - rec.breakdown["launch"] * 1e9) / steps
        if steps > 200_000:
            assert rec.breakdown["truncated_extrapolated"] > 1.5
    assert per_step[400_000] == pytest.approx(per_step[20_000], rel=0.03)
