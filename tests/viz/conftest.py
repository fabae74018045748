"""Profiles of known kernels, traced once per test session (views only read them)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim import hip

sys.path.insert(0, str(Path(__file__).parent))
import view_kernels as K  # noqa: E402


@pytest.fixture(scope="session")
def profiles():
    """{"copy": stride 1 and 2 copies, "transpose": unpadded and padded, "diverge",
    "saxpy"}, each a Profile recorded with memory=True on one MI300X, plus the arrays."""
    gpusim.set_system(device="mi300x", ngpus=1)
    n = 1 << 14
    a = hip.to_device(np.arange(n, dtype=np.float32))
    b = hip.device_array(n, np.float32)
    out = {"a": a}
    with gpusim.profile(memory=True) as out["copy"]:
        K.copy_strided[n // 256, 256](a, b, 1)
        K.copy_strided[n // 256, 256](a, b, 2)
    m = 128
    src = hip.to_device(np.arange(m * m, dtype=np.float32).reshape(m, m))
    dst = hip.device_array((m, m), np.float32)
    with gpusim.profile(memory=True) as out["transpose"]:
        for k in (K.transpose_lds, K.transpose_padded):
            k[(m // K.TILE, m // K.TILE), (K.TILE, K.TILE)](src, dst)
    with gpusim.profile(memory=True) as out["diverge"]:
        K.even_lanes[4, 256](a, b)
    with gpusim.profile(memory=True) as out["saxpy"]:
        K.saxpy[n // 256, 256](np.float32(2.0), a, a, b)
        hip.synchronize()
    yield out
    gpusim.set_system()

