"""Naive vs tiled matmul through the trace path: where the reuse is served.

On MI300X a 16x16 block's working set of a 128x128 matmul fits its CU's 32 KiB vL1D
(docs/timing_model.md), so tiling removes vL1D traffic and leaves L2 traffic as it is.
The L2 and HBM savings show on a GPU whose caches are small next to the problem: here
one XCD with a 4 KiB vL1D, a 32 KiB L2 and no Infinity Cache, which makes 128x128
behave like a large matmul on MI300X.
"""

import dataclasses

import kernels
import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.engine import launch
from gpusim.memsim import GpuMemoryModel
from gpusim.trace.tracer import Tracer

K = kernels.jitted("matmul_naive", "matmul_tiled")

N, GRID, BLOCK = 128, (8, 8), (16, 16)


@pytest.fixture()
def matrices():
    rng = np.random.default_rng(3)
    return rng.random((N, N), dtype=np.float32), rng.random((N, N), dtype=np.float32)


def test_tiling_removes_vl1d_traffic_on_mi300x(matrices):
    A, B = (hip.to_device(m) for m in matrices)
    C = {k: hip.device_array((N, N), np.float32) for k in ("naive", "tiled")}
    with gpusim.profile(memory=True) as prof:
        K.matmul_naive[GRID, BLOCK](A, B, C["naive"], N)
        K.matmul_tiled[GRID, BLOCK](A, B, C["tiled"])
    naive, tiled = prof.kernels
    for out in C.values():
        np.testing.assert_allclose(out.copy_to_host(), matrices[0] @ matrices[1], rtol=1e-4)
    assert not naive.memory["sampled"] and not tiled.memory["sampled"]
    l1 = "TCP_TOTAL_CACHE_ACCESSES_sum"
    assert tiled.counters[l1] * 8 < naive.counters[l1]
    assert tiled.counters["TCC_REQ_sum"] <= naive.counters["TCC_REQ_sum"]  # L1 absorbed it
    assert tiled.counters["SQ_INSTS_LDS"] > 0 == naive.counters["SQ_INSTS_LDS"]
    assert tiled.breakdown["bytes_vL1D"] < naive.breakdown["bytes_vL1D"]


def small_gpu():
    return dataclasses.replace(get_spec("mi300x"), key="small", xcd_count=1, cu_count=38,
                               l1_bytes=4096, l2_bytes=32768, infinity_cache_bytes=0,
                               infinity_cache_line_bytes=0)


def test_tiling_saves_l2_and_hbm_traffic_when_the_caches_are_small(matrices):
    spec = small_gpu()
    result = {}
    for name, kernel in (("naive", K.matmul_naive), ("tiled", K.matmul_tiled)):
        tracer = Tracer()
        size = (N,) if name == "naive" else ()  # the tiled kernel reads it from the shapes
        launch(kernel.py_func, grid=GRID, block=BLOCK, device=spec, tracer=tracer,
               args=(*matrices, np.zeros((N, N), np.float32), *size))
        assert not tracer.result.sampled
        result[name] = GpuMemoryModel(spec).run(tracer.result.trace)
    l2 = {k: r.levels["L2"]["load_bytes"] for k, r in result.items()}
    assert l2["tiled"] * 5 < l2["naive"]
    assert result["tiled"].hbm_read_bytes * 5 < result["naive"].hbm_read_bytes
