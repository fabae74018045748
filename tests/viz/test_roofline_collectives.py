"""Roofline ceilings from the device profiles; collectives from synthetic ring records."""

import pytest

import gpusim
from gpusim import viz
from gpusim.devices import get_spec
from gpusim.profiler import CollectiveRecord, Transfer
from gpusim.viz.base import ViewError
from gpusim.viz.collectives import step_arrows
from gpusim.viz.roofline import bandwidths, ceilings, kernel_points


@pytest.mark.parametrize("device", gpusim.list_devices())
def test_ceilings_come_from_the_profile(device):
    spec = get_spec(device)
    bw = bandwidths(spec)
    assert bw["HBM"][0] == spec.memory_bandwidth_gbs
    assert bw["vL1D"][0] == pytest.approx(
        spec.l1_bytes_per_clock_per_cu * spec.cu_count * spec.clock_mhz / 1e3)
    assert ("MALL" in bw) == spec.has_infinity_cache
    roofs, flat = ceilings(spec)
    assert all(src for src in roofs["source"] + flat["source"])  # every ceiling cites
    assert f"FP32 vector {spec.fp32_tflops:,.1f} TFLOP/s" in flat["name"]


def test_saxpy_sits_under_every_roof(profiles):
    k = profiles["saxpy"].kernels[0]
    flops = k.counters["GPUSIM_FLOPS"]
    assert flops == 2 * 256 * 64  # a * x + y: one multiply and one add per element
    pts = kernel_points([k], ("vL1D", "L2", "MALL", "HBM"))
    spec = get_spec("mi300x")
    bw = bandwidths(spec)
    for ai, perf, level in zip(pts["ai"], pts["gflops"], pts["level"], strict=True):
        assert ai == pytest.approx(flops / k.breakdown[f"bytes_{level}"])
        assert perf <= bw[level][0] * ai * (1 + 1e-9)  # the model cannot beat a roof
        assert perf <= spec.fp32_tflops * 1e3
    v = viz.roofline(profiles["saxpy"])
    v.controls["level"].value = "HBM"
    assert v.sources["kernels"].data["level"] == ["HBM"]
    v.controls["device"].value = "mi100"
    assert "MALL" not in " ".join(v.sources["roofs"].data["name"])


def ring_allreduce(ranks, nbytes, step_ns=1000):
    """A ring all-reduce as RCCL runs it: n-1 reduce-scatter steps, then n-1 all-gather
    steps; in step s rank r sends chunk (r - s) mod n to rank r + 1."""
    n = len(ranks)
    chunk = nbytes // n
    transfers = [
        Transfer(step=s, src=r, dst=(r + 1) % n, chunk=(r - s) % n, nbytes=chunk,
                 start_ns=s * step_ns, end_ns=(s + 1) * step_ns,
                 op="reduce" if s < n - 1 else "copy")
        for s in range(2 * (n - 1)) for r in range(n)
    ]
    return CollectiveRecord(name="ncclAllReduce", device=ranks[0], stream=0, op="allreduce",
                            algorithm="ring", ranks=tuple(ranks), nbytes=nbytes,
                            transfers=transfers, start_ns=0, end_ns=2 * (n - 1) * step_ns,
                            done=True)


def test_ring_allreduce_moves_2_n_minus_1_over_n_per_link():
    r = ring_allreduce(list(range(8)), 8 << 20)
    assert r.steps == 14
    links = r.link_bytes()
    assert set(links) == {(i, (i + 1) % 8) for i in range(8)}
    assert set(links.values()) == {2 * 7 * (1 << 20)}  # 2(n-1)/n of the buffer
    # nccl-tests: busbw = algbw * 2(n-1)/n
    assert r.bus_bandwidth_gbs == pytest.approx((8 << 20) / r.duration_ns * 2 * 7 / 8)


def test_collectives_view_walks_the_steps():
    r = ring_allreduce([0, 1, 2, 3], 4096)
    v = viz.collectives([r])
    assert len(v.sources["arrows"].data["x0"]) == 4  # every rank sends once per step
    assert v.sources["arrows"].data["color"] == ["#d62728"] * 4  # reduce-scatter
    v.controls["step"].value = 5
    assert v.sources["arrows"].data["color"] == ["#1f77b4"] * 4  # all-gather copies
    assert step_arrows(r, 5)["label"] == [f"chunk {(q - 5) % 4}" for q in range(4)]
    assert sum(v.sources["links"].data["bytes"]) == 6 * 4 * 1024
    with pytest.raises(ViewError, match="no CollectiveRecord"):
        viz.collectives([])
