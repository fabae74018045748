"""The kernel timing model orders kernels as hardware would (invariants, never absolute
numbers): coalesced < strided, tiled < naive, occupancy helps a memory-bound kernel until
bandwidth saturates, a compute-bound kernel ignores memory bandwidth."""

from __future__ import annotations

import dataclasses
import math

import pytest
from test_gpu_kernels import (
    copy_kernel,
    histogram_kernel,
    matmul_counts,
    naive_matmul,
    tiled_matmul,
)

from gpusim.devices import get_spec, list_devices
from gpusim.memsim import Access, GpuMemoryModel, InstructionCounts, Trace
from gpusim.occupancy_model import occupancy
from gpusim.timing import ARCH, kernel_estimate, kernel_time
from gpusim.trace.record import STORE

DEVICES = ["mi300x", "mi250x", "mi100", "rx7900xtx"]
RESOURCES = {"valu", "salu", "lds", "vL1D", "L2", "HBM", "latency"}


def run(device, trace, counts, occ=8):
    spec = get_spec(device) if isinstance(device, str) else device
    mem = GpuMemoryModel(spec).run(trace)
    return kernel_time(spec, counts, mem, occupancy=occ, workgroups=trace.launch.total_workgroups)


def copy_counts(waves: int) -> InstructionCounts:
    return InstructionCounts(
        waves=waves, valu=6 * waves, salu=4 * waves, vmem_read=waves, vmem_write=waves
    )


@pytest.mark.parametrize("device", DEVICES)
def test_coalesced_copy_is_faster_than_strided_and_random(device):
    spec = get_spec(device)
    n = 1 << 16
    t = {}
    for pattern in ("coalesced", "strided", "random"):
        tr = Trace.from_lane_addresses(
            n // 256, 256, copy_kernel(n, pattern), wave_size=spec.wave_size
        )
        t[pattern], _ = run(spec, tr, copy_counts(tr.launch.total_waves))
    assert t["coalesced"] < t["strided"]
    assert t["coalesced"] < t["random"]


@pytest.mark.parametrize("device", ["mi300x", "mi250x"])
def test_tiled_matmul_is_faster_than_naive(device):
    n, grid, block = 128, (8, 8), (16, 16)
    t = {}
    for kind, program in (("naive", naive_matmul(n)), ("tiled", tiled_matmul(n))):
        tr = Trace.from_lane_addresses(grid, block, program)
        occ = occupancy(
            block_size=256, vgprs=32, lds_bytes=2048 if kind == "tiled" else 0, device=device
        )
        t[kind], why = run(device, tr, matmul_counts(kind, n, tr.launch.total_waves), occ)
    assert t["tiled"] < t["naive"]


def vector_add(n: int) -> Trace:
    return Trace.from_lane_addresses(
        n // 256,
        256,
        lambda t: [
            Access(4 * t.gid),
            Access((1 << 26) + 4 * t.gid, site=1),
            Access((2 << 26) + 4 * t.gid, kind=STORE, site=2),
        ],
    )


@pytest.fixture(scope="module")
def big_vector_add():
    tr = vector_add(1 << 20)
    w = tr.launch.total_waves
    counts = InstructionCounts(waves=w, valu=6 * w, salu=4 * w, vmem_read=2 * w, vmem_write=w)
    return tr, counts, GpuMemoryModel("mi300x").run(tr)


def test_memory_bound_kernel_speeds_up_with_occupancy_until_bandwidth_saturates(big_vector_add):
    tr, counts, mem = big_vector_add
    spec = get_spec("mi300x")
    times, bounds = [], []
    for occ in range(1, spec.max_waves_per_simd + 1):
        t, why = kernel_time(
            spec, counts, mem, occupancy=occ, workgroups=tr.launch.total_workgroups
        )
        times.append(t - why["launch"])  # the kernel's part: what occupancy can change
        bounds.append(why["bound"])
    assert all(a >= b for a, b in zip(times, times[1:], strict=False))  # never slower
    # latency exposed at 1 wave per SIMD: Little's law says 1216 waves x 2 loads x 256 B
    # in flight over ~375 ns give 1.7 TB/s, well under the 4.2 TB/s achieved
    assert times[0] > 1.5 * times[-1]
    assert bounds[0] == "latency" and bounds[-1] == "HBM"  # ... hidden at full occupancy
    assert times[-1] == times[-2]  # saturated: more waves no longer help


def test_compute_bound_kernel_ignores_memory_bandwidth(big_vector_add):
    tr, counts, mem = big_vector_add
    heavy = dataclasses.replace(counts, valu=2000 * counts.waves)
    spec = get_spec("mi300x")
    times = {}
    for bw in (0.5, 1.0, 2.0):
        s = dataclasses.replace(spec, memory_bandwidth_gbs=spec.memory_bandwidth_gbs * bw)
        times[bw], why = kernel_time(
            s, heavy, mem, occupancy=8, workgroups=tr.launch.total_workgroups
        )
        assert why["bound"] == "valu"
    assert times[0.5] == times[1.0] == times[2.0]
    # ... while the memory-bound original follows the bandwidth.
    slow = dataclasses.replace(spec, memory_bandwidth_gbs=spec.memory_bandwidth_gbs / 2)
    t_fast, _ = kernel_time(spec, counts, mem, occupancy=8, workgroups=4096)
    t_slow, _ = kernel_time(slow, counts, mem, occupancy=8, workgroups=4096)
    assert t_slow > t_fast


def test_breakdown_names_every_resource_and_the_binding_one(big_vector_add):
    tr, counts, mem = big_vector_add
    t, why = kernel_time(
        get_spec("mi300x"), counts, mem, occupancy=4, workgroups=tr.launch.total_workgroups
    )
    assert RESOURCES | {"MALL", "launch", "bound"} <= set(why)
    times = {k: why[k] for k in RESOURCES | {"MALL"}}
    assert why["bound"] == max(times, key=times.get)
    assert t == pytest.approx(why["launch"] + max(times.values()))


def test_lds_bank_conflicts_cost_time_when_lds_bound():
    def transpose(pitch):
        def program(t):
            yield Access(4 * (t.ty * pitch + t.tx), kind=STORE, space="lds", site=1)
            for _ in range(16):
                yield Access(4 * (t.tx * pitch + t.ty), space="lds", site=2)

        return program

    t = {}
    for pitch in (32, 33):
        tr = Trace.from_lane_addresses(64, (32, 32), transpose(pitch))
        w = tr.launch.total_waves
        counts = InstructionCounts(waves=w, valu=4 * w, lds=17 * w)
        t[pitch], why = run("mi300x", tr, counts)
        assert why["bound"] in ("lds", "latency")
    assert t[33] < t[32]


def test_hot_atomics_serialise():
    n = 64 * 256
    t = {}
    for bins in (1, 4096):
        tr = Trace.from_lane_addresses(n // 256, 256, histogram_kernel(n, bins))
        w = tr.launch.total_waves
        counts = InstructionCounts(waves=w, valu=4 * w, vmem_read=w, vmem_atomic=w)
        t[bins], why = run("mi300x", tr, counts)
    assert t[4096] < t[1]


def test_without_a_trace_time_grows_with_bytes_and_stays_near_the_roofline():
    spec = get_spec("mi300x")
    small = InstructionCounts(waves=4096, valu=4096 * 4, vmem_read=4096, vmem_write=4096)
    big = dataclasses.replace(small, waves=8 * 4096, vmem_read=8 * 4096, vmem_write=8 * 4096)
    t_small, why = kernel_time(spec, small, occupancy=8, workgroups=1024)
    t_big, _ = kernel_time(spec, big, occupancy=8, workgroups=8192)
    assert why["model"] == "no-trace" and t_small < t_big
    roof, _ = kernel_estimate(spec, threads=8 * 4096 * 64, bytes_moved=8 * 4096 * 2 * 256)
    assert math.isclose(t_big, roof, rel_tol=0.5)  # same first-order answer, more detail


def test_every_device_profile_has_cited_timing_rates():
    for key in list_devices(calibration=True):
        rates = ARCH[get_spec(key).gfx_target]
        assert rates.sources and rates.valu_lanes_per_simd > 0


def test_zero_occupancy_is_a_clear_error():
    with pytest.raises(ValueError, match="cannot be resident"):
        kernel_time(get_spec("mi300x"), InstructionCounts(waves=1), occupancy=0, workgroups=1)
