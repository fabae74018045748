"""Lab 05 (occupancy): 05.1 what the student's ``occupancy(...)`` call returned for a
119-VGPR kernel in blocks of 256 on the MI100; 05.2 ``f32_ops``, the floating-point
instructions of the lab's ``scale`` compiled with the student's scalar ``a``."""

from __future__ import annotations

import numpy as np

import gpusim
from answers import right, wrong
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.occupancy_model import occupancy


def _occ(**kw):
    return lambda: (occupancy(**kw),)


@hip.jit
def scale(a, x, out):  # the lab's kernel
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * x[i]


def float_ops(isa):  # the lab's helper
    return [ln.split()[0] for ln in isa.splitlines()
            if ln.startswith("\tv_") and ("f32" in ln or "f64" in ln)]


def _ops(a, dtype=np.float32, device="mi300x"):
    def build():
        x = np.ones(1 << 16, dtype)
        return (float_ops(scale.isa(a, x, np.ones(1 << 16, np.float32), device=device)),)
    return build


ANSWERS = [
    # ---- 05.1 occupancy on the MI100
    right("05.1", "device by key", _occ(block_size=256, vgprs=119, device="mi100")),
    right("05.1", "device by gfx target", _occ(block_size=256, vgprs=119, device="gfx908")),
    right("05.1", "the MI100's DeviceSpec", lambda: (
        gpusim.occupancy(block_size=256, vgprs=119, device=get_spec("mi100")),)),
    right("05.1", "a 16 x 16 block", _occ(block_size=(16, 16), vgprs=119, device="mi100")),
    wrong("05.1", "starter: the MI300X", ["for the mi300x", "asks about the mi100"],
          _occ(block_size=256, vgprs=119, device="mi300x")),
    wrong("05.1", "the MI250X", ["for the mi250x"],
          _occ(block_size=256, vgprs=119, device="mi250x")),
    wrong("05.1", "blocks of 128", ["128-thread", "blocks of 256"],
          _occ(block_size=128, vgprs=119, device="mi100")),
    wrong("05.1", "VGPRs rounded up by hand", ["120 vgprs", "119 vgprs"],
          _occ(block_size=256, vgprs=120, device="mi100")),
    wrong("05.1", "LDS added", ["40,000 bytes of lds"],
          _occ(block_size=256, vgprs=119, lds_bytes=40000, device="mi100")),
    wrong("05.1", "the waves per SIMD alone", ["pass the result of occupancy", "not int"],
          lambda: (occupancy(block_size=256, vgprs=119, device="mi100").waves_per_simd,)),
    wrong("05.1", "the function, not called", ["call it"], lambda: (occupancy,)),
    # ---- 05.2 FP32 arithmetic
    right("05.2", "np.float32(2.0)", _ops(np.float32(2.0))),
    right("05.2", "np.float32 of an int", _ops(np.float32(2))),
    right("05.2", "x.dtype.type", _ops(np.dtype(np.float32).type(2.0))),
    right("05.2", "compiled for the MI100", _ops(np.float32(2.0), device="mi100")),
    wrong("05.2", "starter: Python float", ["v_mul_f64", "double precision"], _ops(2.0)),
    wrong("05.2", "np.float64", ["v_mul_f64", "double precision"], _ops(np.float64(2.0))),
    wrong("05.2", "an integer scalar", ["double precision", "integer a"], _ops(2)),
    wrong("05.2", "float32 scalar, float64 array", ["double precision"],
          _ops(np.float32(2.0), dtype=np.float64)),
    wrong("05.2", "the assembly text", ["should be the list", "not str"],
          lambda: (scale.isa(np.float32(2.0), np.ones(4, np.float32),
                             np.ones(4, np.float32), device="mi300x"),)),
    wrong("05.2", "an empty list", ["no fp32 instruction"], lambda: ([],)),
]
