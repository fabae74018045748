"""Roofline ceilings from the device profiles; collectives from real RCCL records."""

import numpy as np
import pytest
import view_kernels as K

import gpusim
from gpusim import hip, rccl, viz
from gpusim.devices import get_spec
from gpusim.profiler import CollectiveRecord
from gpusim.viz.base import ViewError
from gpusim.viz.collectives import link_bytes, step_arrows, step_count
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


def rccl_allreduce(n: int, count: int, monkeypatch) -> CollectiveRecord:
    """A ring all-reduce of ``count`` floats through gpusim.rccl, as the profiler has it."""
    monkeypatch.setenv("NCCL_ALGO", "Ring")
    gpusim.set_system("mi300x", ngpus=8)
    comms = rccl.ncclCommInitAll(n)
    bufs = []
    for r in range(n):
        hip.hipSetDevice(r)
        bufs.append(hip.to_device(np.ones(count, np.float32)))
    with gpusim.profile() as prof:
        rccl.ncclGroupStart()
        for r in range(n):
            rccl.ncclAllReduce(bufs[r], bufs[r], count, rccl.ncclFloat, rccl.ncclSum,
                               comms[r], 0)
        rccl.ncclGroupEnd()
        for r in range(n):
            hip.hipSetDevice(r)
            hip.hipDeviceSynchronize()
    assert (bufs[n - 1].copy_to_host() == n).all()
    return next(x for x in prof.records if isinstance(x, CollectiveRecord))


def test_ring_allreduce_sends_2_n_minus_1_over_n_of_the_buffer_per_rank(monkeypatch):
    r = rccl_allreduce(8, 1 << 18, monkeypatch)
    assert r.algorithm.upper() == "RING" and step_count(r) == 14  # 2(n-1) steps
    sent = {}
    for (src, _), nbytes in link_bytes(r).items():
        sent[src] = sent.get(src, 0) + nbytes
    # 2(n-1)/n of the 1 MiB buffer per rank, in chunks aligned as NCCL aligns them
    assert sum(sent.values()) == 2 * 7 * (1 << 20)
    assert all(v == pytest.approx(2 * 7 * (1 << 20) / 8, rel=0.01) for v in sent.values())
    # nccl-tests: busbw = algbw * 2(n-1)/n
    assert r.busbw_gbs == pytest.approx((1 << 20) / r.duration_ns * 2 * 7 / 8)


def test_collectives_view_walks_the_steps(monkeypatch):
    r = rccl_allreduce(4, 1 << 12, monkeypatch)
    v = viz.collectives([r])
    first = step_arrows(r, 0)
    assert v.sources["arrows"].data["x0"] == first["x0"]
    assert set(first["color"]) == {"#d62728"}  # MI300X: every pair over Infinity Fabric
    v.controls["step"].value = 5
    assert v.sources["arrows"].data["label"] == step_arrows(r, 5)["label"]
    assert sum(v.sources["links"].data["bytes"]) == sum(link_bytes(r).values())
    with pytest.raises(ViewError, match="no CollectiveRecord"):
        viz.collectives([])


def test_roofline_names_the_library_calls_it_cannot_place():
    """A rocBLAS call in the same memory profile as a traced kernel has no per-level
    bytes: the roofline lists it under "not shown" instead of dropping it silently."""
    from gpusim import rocblas

    n = 64
    a = hip.to_device(np.ones((n, n), np.float32))
    c = hip.device_array((n, n), np.float32)
    x = hip.to_device(np.ones(4096, np.float32))
    handle = rocblas.rocblas_create_handle()
    with gpusim.profile(memory=True) as prof:
        K.saxpy[16, 256](np.float32(2.0), x, x, x)
        rocblas.rocblas_sgemm(handle, rocblas.rocblas_operation_none,
                              rocblas.rocblas_operation_none, n, n, n, 1.0, a, n, a, n,
                              0.0, c, n)
        hip.synchronize()
    summary = dict(viz.roofline(prof).summary)
    gemm = next(k for k in prof.kernels if k.name != "saxpy")
    assert gemm.name.startswith("Cijk_")  # rocBLAS names its kernels as Tensile does
    assert summary["not shown"].startswith(gemm.name)
    assert "saxpy" in summary
