"""The instruction side of the timing model: integer work's issue cost, unrolled loops,
and the two-phase sample (uniform kernels trace half the work-groups, same answer)."""

import ast

import numpy as np
import pytest

import gpusim
from gpusim import cuda
from gpusim.compile.ir import ArrayDecl, KernelIR
from gpusim.devices import get_spec
from gpusim.engine import estimate
from gpusim.memsim.counters import InstructionCounts
from gpusim.timing import kernel_time
from gpusim.timing.kernel_model import rates_for
from gpusim.trace import tracer as tracing
from gpusim.trace.costs import block_cost, loop_iteration_cost


@pytest.mark.parametrize("device", ["h200", "mi300x"])
def test_integer_vector_work_costs_int_op_cycles_per_instruction(device):
    spec = get_spec(device)
    waves = 1 << 16
    per_wave = 1000

    def valu_seconds(flops_per_instruction: int) -> float:
        c = InstructionCounts(waves=waves, valu=waves * per_wave,
                              flops=waves * per_wave * spec.wave_size * flops_per_instruction)
        return kernel_time(spec, c, occupancy=8, workgroups=waves // 4)[1]["valu"]

    integer, floating = valu_seconds(0), valu_seconds(1)
    assert integer / floating == pytest.approx(rates_for(spec).int_op_cycles)
    # the issue clocks themselves: waves x instructions x wave/lanes over every SIMD
    lanes = rates_for(spec).valu_lanes_per_simd
    simds = spec.cu_count * spec.simds_per_cu
    want = waves * per_wave * (spec.wave_size / lanes) / (simds * spec.clock_mhz * 1e6)
    assert floating == pytest.approx(want)


def _loop(trips: str) -> tuple[ast.For, KernelIR]:
    kir = KernelIR(name="k", pyfunc=None)
    kir.arrays = {"sa": ArrayDecl("sa", "shared", (16, 16), np.dtype("float32"), 1)}
    kir.types["acc"] = "float32"
    src = f"for k in range({trips}):\n    acc += sa[ty, k] * sa[k, tx]\n"
    return ast.parse(src).body[0], kir


def test_a_small_constant_loop_is_unrolled_and_its_lds_offsets_fold():
    fixed, kir = _loop("16")
    dynamic, _ = _loop("n")
    assert loop_iteration_cost(fixed, kir).valu == 0
    assert loop_iteration_cost(dynamic, kir).valu == loop_iteration_cost(dynamic, kir).branch == 1
    folded = block_cost(fixed.body, kir, folded=True)
    plain = block_cost(dynamic.body, kir)
    assert (folded.valu, folded.flops) == (1, 2)  # the multiply-add: one FMA
    assert plain.valu == folded.valu + 2  # two LDS addresses when the loop is not unrolled


@cuda.jit
def _copy(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i]


@cuda.jit
def _uneven(a, out):
    i = cuda.grid(1)
    acc = np.float32(0.0)
    for _ in range(cuda.blockIdx.x % 3):  # work depends on where in the grid it runs
        acc += a[i]
    out[i] = acc


def _record(kernel, n, *args):
    with gpusim.profile() as prof:
        kernel[n // 64, 64](*args)
        cuda.synchronize()
    return prof.kernels[-1].breakdown


def test_uniform_kernels_trace_two_runs_of_the_sample_with_the_same_result(monkeypatch):
    n = 4096 * 64
    monkeypatch.setattr(gpusim.config, "cold_caches", True)  # both launches from cold caches
    a, out = cuda.to_device(np.arange(n, dtype=np.float32)), cuda.device_array(n, np.float32)
    estimate.forget()
    uniform = _record(_copy, n, a, out)
    assert uniform["traced_workgroups"] == 2 * tracing.SPAN  # the first and middle runs
    assert _record(_uneven, n, a, out)["traced_workgroups"] == estimate.SAMPLE
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(n) * (np.arange(n) // 64 % 3))
    estimate.forget()
    monkeypatch.setattr(tracing, "_uniform", lambda *args: False)  # as before: all runs
    whole = _record(_copy, n, a, out)
    assert whole["traced_workgroups"] == estimate.SAMPLE
    for term in ("HBM", "L2", "vL1D", "latency"):
        assert uniform[term] == pytest.approx(whole[term], rel=0.02), term
