"""Lab 00 (a tour of the MI300X): 00.1 resident work-items, 00.2 bytes for hipMalloc.

00.1: what the student computes from ``spec`` (or the HIP properties) in the lab's cell.
00.2: ``nbytes`` for the lab's ``x`` (a million float32 values), and ``x`` itself.
"""

from __future__ import annotations

import numpy as np

from answers import right, wrong
from gpusim import hip
from gpusim.devices import get_spec


def _spec():
    return get_spec("mi300x")


def _props():
    return hip.hipGetDeviceProperties(0)


def _x():
    return np.linspace(0.0, 1.0, 1_000_000, dtype=np.float32)


def _resident(f):
    return lambda: (f(),)


def _bytes(f):
    def build():
        x = _x()
        return f(x), x
    return build


ANSWERS = [
    # ---- 00.1 resident work-items
    right("00.1", "product of the four fields", _resident(
        lambda: _spec().cu_count * _spec().simds_per_cu * _spec().max_waves_per_simd
        * _spec().wave_size)),
    right("00.1", "waves per CU first, then lanes", _resident(
        lambda: (_spec().simds_per_cu * _spec().max_waves_per_simd) * _spec().cu_count
        * _spec().wave_size)),
    right("00.1", "from HIP's properties", _resident(
        lambda: _props().multiProcessorCount * _props().maxThreadsPerMultiProcessor)),
    right("00.1", "numpy product of a list", _resident(
        lambda: np.prod([getattr(_spec(), f) for f in
                         ("cu_count", "simds_per_cu", "max_waves_per_simd", "wave_size")]))),
    right("00.1", "as a float", _resident(lambda: float(304 * 4 * 8 * 64))),
    wrong("00.1", "starter: 0", ["too small"], _resident(lambda: 0)),
    wrong("00.1", "counts wavefronts", ["counts wavefronts"], _resident(
        lambda: _spec().cu_count * _spec().simds_per_cu * _spec().max_waves_per_simd)),
    wrong("00.1", "one wavefront per SIMD", ["leaves out max_waves_per_simd"], _resident(
        lambda: _spec().cu_count * _spec().simds_per_cu * _spec().wave_size)),
    wrong("00.1", "forgot the SIMDs", ["leaves out simds_per_cu"], _resident(
        lambda: _spec().cu_count * _spec().max_waves_per_simd * _spec().wave_size)),
    wrong("00.1", "times the 8 XCDs again", ["too large", "all xcds", "one gpu"], _resident(
        lambda: _spec().xcd_count * _spec().cu_count * _spec().simds_per_cu
        * _spec().max_waves_per_simd * _spec().wave_size)),
    wrong("00.1", "max threads per block times CUs", ["too small"], _resident(
        lambda: _props().maxThreadsPerBlock * _props().multiProcessorCount)),
    wrong("00.1", "a string", ["should be a number"], _resident(lambda: "622592")),
    # ---- 00.2 bytes for hipMalloc
    right("00.2", "x.nbytes", _bytes(lambda x: x.nbytes)),
    right("00.2", "size times itemsize", _bytes(lambda x: x.size * x.itemsize)),
    right("00.2", "len times 4", _bytes(lambda x: len(x) * 4)),
    right("00.2", "numpy dtype's itemsize", _bytes(
        lambda x: np.int64(x.shape[0]) * np.dtype(np.float32).itemsize)),
    wrong("00.2", "starter: elements", ["number of elements", "counts bytes"],
          _bytes(lambda x: x.size)),
    wrong("00.2", "bits, not bytes", ["counts bits"], _bytes(lambda x: x.size * 32)),
    wrong("00.2", "8 bytes per float", ["too large", "8 bytes per element", "float32"],
          _bytes(lambda x: x.size * 8)),
    wrong("00.2", "bits divided by 8, a float", ["float", "integer"],
          _bytes(lambda x: x.size * 32 / 8)),
    wrong("00.2", "sys.getsizeof", ["too large"],
          _bytes(lambda x: __import__("sys").getsizeof(x))),
    wrong("00.2", "the shape", ["should be a number"], _bytes(lambda x: x.shape)),
]
