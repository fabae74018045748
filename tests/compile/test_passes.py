"""Each compiler pass on small kernels: exact IR after the pass."""

import inspect

import numba
import numpy as np
import pytest

import gpusim.compile.lang as gl
from gpusim.compile import lang as cuda
from gpusim.compile import lang as hip
from gpusim.compile.ir import (
    Barrier,
    Collective,
    DivergentIf,
    DivergentLoop,
    Region,
    UniformFor,
    UniformWhile,
    unparse,
)
from gpusim.compile.lang import shfl_down, syncthreads
from gpusim.compile.pipeline import PASSES, front_end

F32 = numba.types.float32[::1]
I64 = numba.types.int64[::1]
TILE = 8


def upto(name):
    names = [n for n, _ in PASSES]
    return tuple(names[:names.index(name) + 1])


def ir_after(kernel, name, arg_types=(F32,)):
    return front_end(kernel, wave_size=64, arg_types=arg_types, passes=upto(name))


def test_passes_are_listed_in_order():
    assert [n for n, _ in PASSES] == ["parse", "subset", "resolve", "normalize", "uniformity",
                                      "lower", "infer", "half", "split", "liveness", "zerodiv",
                                      "ranges", "generate"]


def test_parse_keeps_file_line_numbers():
    def k(a):
        a[0] = 1
    kir = ir_after(k, "parse")
    first = inspect.getsourcelines(k)[1]
    assert kir.func.body[0].lineno == first + 1
    assert kir.func.body[0].col_offset == 8  # as in this file, not the dedented text


def test_resolve_finds_stubs_however_they_are_imported():
    def k(a):
        syncthreads()
        gl.syncthreads()
        cuda.syncthreads()
        a[0] = shfl_down(a[0], 1) + hip.threadIdx.x + TILE
    kir = ir_after(k, "resolve")
    text = unparse(kir.func.body)
    assert text.count("hip.syncthreads()") == 3
    assert "hip.shfl_down(a[0], 1) + hip.threadIdx.x + TILE" in text
    assert kir.constants == {"TILE": 8}


def test_resolve_renames_names_that_could_clash_with_generated_ones():
    def k(a):
        _t = 1
        x__s = 2
        a[0] = _t + x__s
    kir = ir_after(k, "resolve")
    assert unparse(kir.func.body[-1]) == "a[0] = u_t + u_x_s"
    assert kir.user_name("u_t") == "_t"


def test_normalize_hoists_collectives_and_inlines_device_functions():
    dev = hip.DeviceFunction(lambda_free_twice)

    def k(a):
        a[0] = dev(a[1]) + hip.shfl_down(a[2] * 2, 1)
    kir = ir_after(k, "normalize")
    assert unparse(kir.func.body) == (
        "lambda_free_twice_1_x = a[1]\n"
        "lambda_free_twice_1_x = lambda_free_twice_1_x * 2\n"
        "lambda_free_twice_1_ret = lambda_free_twice_1_x\n"
        "_a1 = a[2] * 2\n"
        "_k2 = hip.shfl_down(_a1, 1)\n"
        "a[0] = lambda_free_twice_1_ret + _k2")


def lambda_free_twice(x):
    x = x * 2
    return x


def add_tile_and(step, a):
    a[0] += step + TILE


def test_normalize_renames_a_callees_constant_that_a_kernel_local_would_shadow():
    """A device function's constants (module globals, constant arguments bound to its
    parameters) become kernel constants; a kernel local of the same name must not
    capture them (a rocRAND Sobol kernel's ``offset`` parameter once replaced the 100
    of ``skipahead(100, st)``, whose callee names its parameter ``offset``)."""
    dev = hip.DeviceFunction(add_tile_and)

    def k(a, step):
        TILE = step
        dev(100, a)
        a[1] = TILE
    kir = ir_after(k, "normalize", arg_types=(F32, numba.types.int64))
    assert unparse(kir.func.body[1]) == "a[0] += step_2 + TILE_2"
    assert kir.constants == {"step_2": 100, "TILE_2": 8}


def test_normalize_keeps_short_circuit_for_collectives():
    def k(a):
        if a[0] > 0 and hip.any(a[1] > 0):
            a[2] = 1
    kir = ir_after(k, "normalize")
    assert unparse(kir.func.body) == (
        "_v1 = a[0] > 0\n"
        "if _v1:\n"
        "    _a2 = a[1] > 0\n"
        "    _k3 = hip.any(_a2)\n"
        "    _v1 = _k3\n"
        "if _v1:\n"
        "    a[2] = 1")


def test_uniformity():
    def k(a, n):
        m = n // 2 + hip.blockIdx.x
        t = hip.threadIdx.x
        u = m * 2
        if t > 3:
            u = 7  # assigned under divergent control: divergent
        c = hip.syncthreads_count(t > 1)
        v = a[0]  # a memory read: divergent
        a[1] = m + t + u + c + v
    kir = ir_after(k, "uniformity", (F32, numba.types.int64))
    assert {"m", "c", "n"} <= kir.uniform
    assert not {"t", "u", "v"} & kir.uniform


def test_lower_marks_and_rewrites_divergent_loops_only():
    def k(a):
        for i in range(4):  # noqa: B007 - uniform: stays a for loop
            hip.syncthreads()
        j = hip.threadIdx.x
        while j < 10:  # divergent
            hip.syncwarp()
            j += 1
    kir = ir_after(k, "lower")
    text = unparse(kir.func.body)
    assert "for i in range(4):" in text
    assert "while True:\n    if not j < 10:\n        break" in text


def test_infer_follows_numba_promotion():
    def k(a, b):
        i = hip.grid(1)
        s = 0
        s += a[i]
        h = a[i] * 2.0
        f = a[i] * np.float32(2.0)
        m = hip.ballot(a[i] > 0)
        b[i] = s + h + f + m
    kir = ir_after(k, "infer", (F32, F32))
    types = {k: str(v) for k, v in kir.types.items()}
    assert types["i"] == "int64" and types["s"] == "float64" and types["h"] == "float64"
    assert types["f"] == "float32" and types["m"] == "uint64"


def test_split_schedule_shapes():
    def k(a):
        s = hip.shared.array(64, np.float32)
        t = hip.threadIdx.x
        s[t] = a[t]
        hip.syncthreads()
        n = 32
        while n > 0:  # uniform loop with a barrier
            if t < n:
                s[t] += s[t + n]
            hip.syncthreads()
            n //= 2
        if a[t] > 0:  # divergent if with a collective
            a[t] = hip.shfl_xor(a[t], 1)
        k = 0
        while k < t:  # divergent loop with a collective
            a[t] += hip.shfl_down(a[t], 1)
            k += 1
    kir = ir_after(k, "split")
    kinds = [type(n).__name__ for n in kir.schedule]
    assert kinds == ["Region", "Barrier", "Region", "UniformWhile", "Region", "DivergentIf",
                     "Region", "DivergentLoop"]
    loop = kir.schedule[3]
    assert isinstance(loop, UniformWhile)
    assert [type(n) for n in loop.body] == [Region, Barrier, Region]
    dif = kir.schedule[5]
    assert isinstance(dif, DivergentIf) and dif.else_mask is None
    assert any(isinstance(n, Collective) for n in dif.body)
    assert isinstance(kir.schedule[7], DivergentLoop)
    assert kir.masks[0] == "_m0"


def test_liveness_spills_only_values_that_cross_a_cut():
    def k(a):
        t = hip.threadIdx.x  # cheap: recomputed after the barrier, not kept
        tmp = t * 2  # used only before the barrier
        v = a[t]  # a memory read crosses the barrier: kept per thread
        a[t] = tmp
        hip.syncthreads()
        a[t] += v
    kir = ir_after(k, "liveness", (F32,))
    assert set(kir.spilled) == {"v"} and "t" in kir.remat
    regions = [n for n in kir.schedule if isinstance(n, Region)]
    assert regions[0].stores == ["v"] and regions[1].loads == ["v"]
    assert regions[1].remat == ["t"]


def test_region_under_if_tid_less_than_n_visits_only_those_threads():
    def k(a, n):
        tid = hip.threadIdx.x
        hip.syncthreads()
        if tid < n:
            a[tid] = 1
    kir = front_end(k, wave_size=64, arg_types=(F32, numba.types.int64))
    assert "for _tx in range(min(_bdx, n)):" in kir.source


def test_scalar_regions_run_once_per_block():
    def k(a):
        n = hip.blockDim.x // 2
        hip.syncthreads()
        a[hip.threadIdx.x] = n
    kir = ir_after(k, "generate", (F32,))
    assert "computed once for the block\n" in kir.source
    assert kir.schedule[0].scalar


@pytest.mark.parametrize("wave", [32, 64])
def test_warpsize_is_a_compile_time_constant(wave):
    def k(a):
        s = hip.shared.array(hip.warpsize, np.float32)
        s[0] = hip.warpsize
        a[0] = s[0]
    kir = front_end(k, wave_size=wave, arg_types=(F32,))
    assert kir.arrays["s"].shape == (wave,)
    assert isinstance(kir.schedule[0], Region)


def test_barrier_nodes_record_masks():
    def k(a):
        if a[hip.threadIdx.x] > 0:
            hip.syncthreads()
    kir = ir_after(k, "split", (F32,))
    barrier = kir.schedule[1].body[0]
    assert isinstance(barrier, Barrier) and barrier.masks == ("_m0", "_m1")


def test_uniform_for_keeps_the_users_loop_variable():
    def k(a):
        for k0 in range(0, a.shape[0], TILE):
            hip.syncthreads()
            a[k0] = 1
    kir = ir_after(k, "split", (F32,))
    assert isinstance(kir.schedule[0], UniformFor) and kir.schedule[0].target == "k0"


def test_dump_for_debugging(capsys, monkeypatch):
    from gpusim.config import config
    monkeypatch.setattr(config, "debug", "ir:split,source")

    def k(a):
        a[0] = 1
    front_end(k, wave_size=64, arg_types=(I64,))
    err = capsys.readouterr().err
    assert "after pass 'split'" in err and "after pass 'parse'" not in err
    assert "def k__run(" in err
