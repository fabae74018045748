"""numba.cuda teaching code runs unchanged on ``gpusim.cuda``."""

import numpy as np
import pytest

import gpusim
from gpusim import cuda

pytestmark = pytest.mark.usefixtures("fresh_system")


def test_numba_cuda_style_program_with_numba_types_and_host_arrays():
    @cuda.jit
    def block_sums(x, out):
        buf = cuda.shared.array(128, dtype=cuda.float32)
        t = cuda.threadIdx.x
        i = cuda.blockIdx.x * cuda.blockDim.x + t
        buf[t] = x[i]
        cuda.syncthreads()
        s = 64
        while s > 0:
            if t < s:
                buf[t] += buf[t + s]
            cuda.syncthreads()
            s //= 2
        if t == 0:
            out[cuda.blockIdx.x] = buf[0]

    x = np.arange(1024, dtype=np.float32)
    out = np.zeros(8, np.float32)
    block_sums[8, 128](x, out)  # host arrays: copied in and back, as numba.cuda does
    np.testing.assert_allclose(out, x.reshape(8, 128).sum(axis=1))


def test_warp_functions_with_sync_spellings_and_the_wavefront_size():
    @cuda.jit
    def lane_info(out):
        i = cuda.grid(1)
        total = cuda.shfl_down_sync(0xFFFFFFFF, i, 1)
        out[i, 0] = cuda.laneid
        out[i, 1] = cuda.warpsize
        out[i, 2] = total

    out = cuda.device_array((128, 3), np.int64)
    lane_info[1, 128](out)
    host = out.copy_to_host()
    assert (host[:, 1] == 64).all()  # an AMD wavefront, not a CUDA warp of 32
    np.testing.assert_array_equal(host[:, 0], np.arange(128) % 64)
    # shfl_down by 1: the next lane's value; the last lane of each wave keeps its own
    expected = np.arange(128) + 1
    expected[[63, 127]] = [63, 127]
    np.testing.assert_array_equal(host[:, 2], expected)


def test_streams_events_and_device_queries():
    s = cuda.stream()
    start, stop = cuda.event(), cuda.event()
    start.record(s)
    d = cuda.to_device(np.ones(1 << 16), stream=s)
    stop.record(s)
    stop.synchronize()
    assert cuda.event_elapsed_time(start, stop) == start.elapsed_time(stop) > 0
    assert cuda.is_available() and cuda.get_current_device().warpSize == 64
    cuda.select_device(3)
    assert gpusim.hip.hipGetDevice() == 3
    assert d.copy_to_host().sum() == 1 << 16
