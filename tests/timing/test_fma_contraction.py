"""FMA contraction in the instruction costs: a float multiply feeding an add or subtract
of the same expression is one VALU instruction of two FLOPs (as clang's default
-ffp-contract=fast for HIP and libNVVM's default -fma=1 emit it); the timing model counts
an FMA as one float instruction, not two."""

import ast

import numpy as np
import pytest

from gpusim import cuda
from gpusim.compile.ir import KernelIR
from gpusim.devices import get_spec
from gpusim.engine import launch
from gpusim.memsim.counters import InstructionCounts
from gpusim.timing import kernel_time
from gpusim.timing.kernel_model import rates_for
from gpusim.trace.costs import Cost, statement_cost
from gpusim.trace.tracer import Tracer

# statement -> what one thread issues, counted by hand: every operator 1 VALU, one
# contraction per add/subtract with a product operand (float statements only)
HAND_COUNTED = [
    ("y = a * x + b", Cost(valu=1, flops=2, fma=1)),
    ("y = b - a * x", Cost(valu=1, flops=2, fma=1)),
    ("y = a * b + c * d", Cost(valu=2, flops=3, fma=1)),  # one product fuses, one stays
    ("y = a * b + c * d + e", Cost(valu=3, flops=4, fma=1)),
    ("y = (a + b) * c", Cost(valu=2, flops=2)),  # an add feeding a multiply: no FMA
    ("y = a * b * c", Cost(valu=2, flops=2)),
    ("acc += a * b", Cost(valu=1, flops=2, fma=1)),
    ("acc += a * b + c", Cost(valu=2, flops=3, fma=1)),
    ("acc -= a * b", Cost(valu=1, flops=2, fma=1)),
    ("acc *= a + b", Cost(valu=2, flops=2)),
    ("k = a * x + b", Cost(valu=2)),  # an integer statement: left alone
    ("y = v[i * 4 + j] * a + b", Cost(valu=4, flops=2, fma=1)),  # the index stays integer
]


@pytest.mark.parametrize("src, want", HAND_COUNTED)
def test_statement_costs_contract_float_multiply_adds(src, want):
    kir = KernelIR(name="k", pyfunc=None)
    kir.types.update(y="float32", acc="float32", k="int64")
    kir.params = ["v"]
    assert statement_cost(ast.parse(src).body[0], kir) == want


@cuda.jit
def _fused(a, x, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + b[i]


@cuda.jit
def _unfused(a, x, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = (a + x[i]) + b[i]


def _counts(kernel, n=256, block=64):
    rng = np.random.default_rng(1)
    x, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    tracer = Tracer()
    launch(kernel.py_func, grid=n // block, block=block, args=(np.float32(1.5), x, b, out),
           device=get_spec("mi300x"), tracer=tracer)
    return tracer.result.counts


def test_a_traced_kernel_counts_one_fma_per_thread():
    fused, unfused = _counts(_fused), _counts(_unfused)
    waves, threads = fused.waves, 256
    assert waves == 4
    assert fused.valu == unfused.valu - waves  # one instruction fewer per wave
    assert fused.flops == unfused.flops == 2 * threads
    assert (fused.fma, unfused.fma) == (threads, 0)  # one FMA per lane


@pytest.mark.parametrize("device", ["h200", "mi300x"])
def test_an_fma_is_one_float_instruction_in_the_timing_model(device):
    spec = get_spec(device)
    waves, per_wave = 1 << 16, 1000
    lanes = waves * per_wave * spec.wave_size

    def valu_seconds(valu: int, flops: int, fma: int) -> float:
        c = InstructionCounts(waves=waves, valu=valu, flops=flops, fma=fma)
        return kernel_time(spec, c, occupancy=8, workgroups=waves // 4)[1]["valu"]

    # per wave: 1000 FMAs (2000 FLOPs per lane) and 1000 integer instructions
    mixed = valu_seconds(2 * waves * per_wave, 2 * lanes, lanes)
    floats = valu_seconds(waves * per_wave, lanes, 0)  # 1000 float instructions alone
    assert mixed == pytest.approx(floats * (1 + rates_for(spec).int_op_cycles))
