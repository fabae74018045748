"""numba.cuda 2D kernel with streams and events."""

import numpy as np
from numba import cuda


@cuda.jit
def blur(src, dst):
    x, y = cuda.grid(2)
    h, w = src.shape
    if 0 < x < w - 1 and 0 < y < h - 1:
        dst[y, x] = (src[y, x - 1] + src[y, x] + src[y, x + 1]
                     + src[y - 1, x] + src[y + 1, x]) / 5.0


def run():
    cuda.select_device(0)
    img = np.arange(48 * 40, dtype=np.float64).reshape(48, 40) % 13
    stream = cuda.stream()
    start, stop = cuda.event(), cuda.event()
    d_src = cuda.to_device(img, stream=stream)
    d_dst = cuda.device_array_like(img, stream=stream)
    start.record(stream)
    blur[(5, 6), (8, 8), stream](d_src, d_dst)
    stop.record(stream)
    stop.synchronize()
    elapsed = cuda.event_elapsed_time(start, stop)
    return [d_dst.copy_to_host(stream=stream)[1:-1, 1:-1], np.array([elapsed > 0])]
