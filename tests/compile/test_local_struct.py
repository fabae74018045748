"""Library state types in kernels: ``lang.LocalStruct`` (a private array declared with
fixed words) and ``lang.Overload`` (the version picked from the struct that declared the
argument), plus ``np.float64(x)`` casts, which library device functions use."""

import numpy as np
import pytest

from gpusim import hip
from gpusim.compile import lang
from gpusim.compile.ir import unparse
from gpusim.compile.pipeline import front_end
from gpusim.errors import KernelCompileError

PAIR = lang.LocalStruct("pair_state", 3, np.int64, init=((2, 7),))
TRIPLE = lang.LocalStruct("triple_state", 3, np.int64, init=((2, 9),))


@hip.jit(device=True)
def _pair_next(st):
    st[0] += 1
    return st[0] + st[2]


@hip.jit(device=True)
def _triple_next(st):
    st[1] += 2
    return st[1] * st[2]


advance = lang.Overload("advance", 0, {PAIR: _pair_next, TRIPLE: _triple_next})


@hip.jit(device=True)
def twice(st):  # a user device function passing the state on: the overload still resolves
    return advance(st) + advance(st)


def kernel(out):
    p = PAIR()
    t = TRIPLE()
    i = hip.grid(1)
    out[i, 0] = advance(p)
    out[i, 1] = twice(t)
    out[i, 2] = np.float64(i) / 2


def test_local_struct_declares_a_local_array_and_stores_its_words():
    kir = front_end(kernel, wave_size=64, passes=("parse", "check", "resolve", "normalize"))
    assert kir.arrays["p"].space == "local" and kir.arrays["p"].struct == "pair_state"
    assert kir.arrays["t"].shape == (3,) and kir.arrays["t"].dtype == np.int64
    text = unparse(kir.func.body)
    assert "p[2] = 7" in text and "t[2] = 9" in text
    assert "_pair_next" in text and "_triple_next" in text  # one version each, no dispatch


def test_overloads_run_the_version_of_each_state():
    out = hip.device_array((4, 3), np.float64)
    hip.jit(kernel)[1, 4](out)
    got = out.copy_to_host()
    assert np.array_equal(got[:, 0], np.full(4, 1 + 7))
    assert np.array_equal(got[:, 1], np.full(4, 2 * 9 + 4 * 9))
    assert np.array_equal(got[:, 2], np.arange(4) / 2)


def test_overload_on_the_host_picks_by_the_fixed_words():
    assert advance(PAIR()) == 8 and advance(TRIPLE()) == 18
    with pytest.raises(TypeError, match="pair_state"):
        advance(np.zeros(3, np.int64))


def test_overload_needs_a_state_declared_in_the_kernel():
    def bad(out, st):
        out[0] = advance(st)

    with pytest.raises(KernelCompileError, match="must be a state made in this kernel by "
                       "pair_state\\(\\) or triple_state\\(\\)"):
        hip.jit(bad)[1, 1](hip.device_array(1, np.int64), hip.device_array(3, np.int64))


def test_local_struct_takes_no_arguments():
    def bad(out):
        p = PAIR(3)
        out[0] = p[0]

    with pytest.raises(KernelCompileError, match="takes no arguments"):
        hip.jit(bad)[1, 1](hip.device_array(1, np.int64))


BLOCK = lang.LocalStruct("block_state", 2, np.int64, space="shared")


def test_a_shared_struct_is_one_array_per_block():
    """``space="shared"``: every thread of a block sees the same state (rocRAND's MTGP32)."""
    def k(out):
        st = BLOCK()
        if hip.threadIdx.x == 0:
            st[0] = 0
            st[1] = 0
        hip.syncthreads()
        hip.atomic.add(st, 1, 1)
        hip.syncthreads()
        out[hip.grid(1)] = st[1]
    kir = front_end(k, wave_size=64, passes=("parse", "check", "resolve", "normalize"))
    assert kir.arrays["st"].space == "shared" and kir.arrays["st"].struct == "block_state"
    out = hip.device_array(6, np.int64)
    hip.jit(k)[2, 3](out)
    assert list(out.copy_to_host()) == [3] * 6
