"""The shadow logic compiled (sanitize/ops.py's intrinsics) equals the plain-Python reference,
on random access sequences (the compiled helpers are inlined by numba: this holds it to
the reference statement by statement)."""

import numba
import numpy as np
import pytest

from gpusim.compile.sanitize import shadow as cl
from gpusim.compile.sanitize.ops import PYTHON, _glb1, _lds1


@numba.njit
def _replay_lds(ops, sh, cst, fnd):
    for k in range(ops.shape[0]):
        what, i, kind, site, t = ops[k, 0], ops[k, 1], ops[k, 2], ops[k, 3], ops[k, 4]
        if what == 1:
            cst[cl.EPOCH] += 1  # a barrier
        elif what == 2:
            cst[cl.WSYNC] += 1  # a wave collective
        elif what == 3:
            cl._lds_flush(sh, cst, fnd)  # a new block
            cst[cl.LASTBLOCK] = t
            cst[cl.GEN] += 1
            cst[cl.EPOCH] += 1
        else:
            _lds1(i, kind, site, 0, t, sh, 0, cst, fnd)


@numba.njit
def _replay_glb(ops, sh, cst, fnd):
    for k in range(ops.shape[0]):
        _glb1(ops[k, 1], ops[k, 2], ops[k, 3], ops[k, 5], ops[k, 4], sh, 0, cst, fnd)


def _replay_python(ops, sh, cst, fnd, space):
    for what, i, kind, site, t, b in ops.tolist():
        if space == "glb":
            PYTHON["_glb1"](i, kind, site, b, t, sh, 0, cst, fnd)
        elif what == 1:
            cst[cl.EPOCH] += 1
        elif what == 2:
            cst[cl.WSYNC] += 1
        elif what == 3:
            cl._lds_flush(sh, cst, fnd)
            cst[cl.LASTBLOCK], cst[cl.GEN], cst[cl.EPOCH] = t, cst[cl.GEN] + 1, cst[cl.EPOCH] + 1
        else:
            PYTHON["_lds1"](i, kind, site, 0, t, sh, 0, cst, fnd)


def _state(space, n):
    cols = cl.LDS_COLS if space == "lds" else cl.GLOBAL_COLS
    sh = np.full((n, cols), -1, np.int32)
    if space == "lds":
        sh[:, cl.L_GEN] = 0
    cst = np.array([1, 1, 0, 4, 0, 0, 0, 0], np.int64)  # wave size 4: several waves
    return sh, cst, np.zeros((cl.MAX_FINDINGS, cl.FIND_COLS), np.int64)


@pytest.mark.parametrize("space", ["lds", "glb"])
@pytest.mark.parametrize("seed", range(4))
def test_compiled_shadow_equals_python(space, seed):
    rng = np.random.default_rng(seed)
    n, count = 6, 400
    ops = np.column_stack([
        rng.choice(4, count, p=[0.85, 0.07, 0.05, 0.03]),  # access, barrier, wsync, block
        rng.integers(0, n, count), rng.integers(0, 4, count),  # element, access kind
        rng.integers(0, 5, count), rng.integers(0, 8, count),  # site, thread
        rng.integers(0, 3, count)]).astype(np.int64)  # block (global)
    compiled, python = _state(space, n), _state(space, n)
    (_replay_lds if space == "lds" else _replay_glb)(ops, *compiled)
    _replay_python(ops, *python, space)
    for a, b in zip(compiled, python, strict=True):
        np.testing.assert_array_equal(a, b)
    assert python[1][cl.NFOUND] > 0  # the sequences do find something
