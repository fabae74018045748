"""MTGP32 inside kernels: rocRAND's ``mtgp32_engine`` (``rocrand_mtgp32.h``), whose state a
block shares.

A block declares one ``rocrand_state_mtgp32()`` (a ``__shared__`` struct in rocRAND),
copies its engine in from device memory with ``rocrand_mtgp32_block_copy(d_states[b],
st)``, and its threads then call ``rocrand(st)`` together, in lockstep: thread t gets
element ``offset + t`` of the engine's sequence, and after a barrier thread 0 moves the
offset on by the block size (at most 256 threads, MTGP_TN, so that no thread reads a
word another one writes in the same step). A final ``rocrand_mtgp32_block_copy(st,
d_states[b])`` keeps the engine's position for the next launch. The state is rocRAND's
struct word for word, 1078 uint32 words: offset, id, status[1024], pos_tbl,
param_tbl[16], temper_tbl[16], sh1_tbl, sh2_tbl, single_temper_tbl[16], mask; the host
fills it with ``rocrand_make_state_mtgp32`` (mtgp32.py) from the parameter sets
``mtgp32dc_params_fast_11213``. Like rocRAND's, these functions are device-only (they
use the thread index and barriers). Outputs are mtgp32.py's ``_outputs``, as the host
generator's engine b makes them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.common.memory import device_view
from gpusim.libs.rocrand.mtgp32 import MASK, MEXP, PARAMS, STATE, N, init_state
from gpusim.libs.rocrand.status import RocrandError, rocrand_status

WORDS = 2 + STATE + 1 + 16 + 16 + 1 + 1 + 16 + 1
OFFSET, ID, STATUS = 0, 1, 2
POS = STATUS + STATE
PARAM = POS + 1
TEMPER = PARAM + 16
SH1 = TEMPER + 16
SH2 = SH1 + 1
SINGLE = SH2 + 1
MASK_AT = SINGLE + 16
_U = np.uint64
_W = _U(0xFFFFFFFF)


@hip.DeviceFunction
def next_word(st):
    """rocrand(): one output per thread (``next()``: next_thread, barrier, offset += d)."""
    t = hip.threadIdx.x
    off = int(st[OFFSET])
    pos = int(st[POS])
    x1 = _U(st[STATUS + ((t + off) & MASK)])
    x2 = _U(st[STATUS + ((t + off + 1) & MASK)])
    y = _U(st[STATUS + ((t + off + pos) & MASK)])
    x = (x1 & _U(st[MASK_AT])) ^ x2
    x = (x ^ (x << _U(st[SH1]))) & _W
    y = x ^ (y >> _U(st[SH2]))
    r = y ^ _U(st[PARAM + int(y & _U(15))])
    st[STATUS + ((t + off + N) & MASK)] = np.uint32(r)
    v = _U(st[STATUS + ((t + off + pos - 1) & MASK)])
    v ^= v >> _U(16)
    v ^= v >> _U(8)
    out = np.uint32(r ^ _U(st[TEMPER + int(v & _U(15))]))
    hip.syncthreads()
    if t == 0:
        st[OFFSET] = np.uint32((off + hip.blockDim.x) & MASK)
    hip.syncthreads()
    return out


@hip.DeviceFunction
def block_copy(src, dest):
    """rocrand_mtgp32_block_copy(src, dest): the block's threads copy the status words in
    turn, thread 0 the scalars, threads 0-15 the tables; then a barrier."""
    t = hip.threadIdx.x
    for i in range(t, STATE, hip.blockDim.x):
        dest[STATUS + i] = src[STATUS + i]
    if t == 0:
        for w in (OFFSET, ID, POS, SH1, SH2, MASK_AT):
            dest[w] = src[w]
    if t < 16:
        dest[PARAM + t] = src[PARAM + t]
        dest[TEMPER + t] = src[TEMPER + t]
        dest[SINGLE + t] = src[SINGLE + t]
    hip.syncthreads()


def _fast_params() -> np.ndarray:
    """rocRAND's ``mtgp32dc_params_fast_11213``: 512 ``mtgp32_fast_params`` records
    (``poly_sha1`` left out: no code reads it)."""
    p = PARAMS
    dt = np.dtype([("mexp", np.int32), ("pos", np.int32), ("sh1", np.int32), ("sh2", np.int32),
                   ("tbl", np.uint32, 16), ("tmp_tbl", np.uint32, 16),
                   ("flt_tmp_tbl", np.uint32, 16), ("mask", np.uint32)])
    out = np.zeros(len(p["pos"]), dt)
    out["mexp"] = MEXP
    for name in ("pos", "sh1", "sh2", "tbl", "tmp_tbl", "flt_tmp_tbl", "mask"):
        out[name] = p[name]
    out.flags.writeable = False
    return out


mtgp32dc_params_fast_11213 = _fast_params()


def rocrand_make_state_mtgp32(state: Any, params: np.ndarray, n: int, seed: int) -> None:
    """Fill ``state`` (device memory for ``n`` states: ``(n, 1078)`` uint32, or flat) with
    engines 0..n-1: engine i from parameter set i, seeded with ``(uint32)(seed ^ (seed >>
    32)) + i + 1``, offset 0, id i, as the host generator's engines start.

    >>> from gpusim import hip
    >>> d = hip.to_device(np.zeros((2, WORDS), np.uint32))
    >>> rocrand_make_state_mtgp32(d, mtgp32dc_params_fast_11213, 2, 1234)
    >>> [int(w) for w in d.copy_to_host()[1, :3]]  # offset, id, status[0]: seed32 + 2
    [0, 1, 1236]
    """
    what = "rocrand_make_state_mtgp32"
    n = int(n)
    if not 0 < n <= len(params):
        raise RocrandError(rocrand_status.ROCRAND_STATUS_OUT_OF_RANGE, what,
                           f"n={n}: there are {len(params)} parameter sets (one per block)")
    out = device_view(state, np.uint32, n * WORDS, function=what, arg="state",
                      error=RocrandError)
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    seed32 = (seed ^ (seed >> 32)) & 0xFFFFFFFF
    h = np.zeros((n, WORDS), np.uint32)
    for i in range(n):
        h[i, STATUS:STATUS + STATE] = init_state(params["tbl"][i], (seed32 + i + 1) & 0xFFFFFFFF)
        h[i, ID], h[i, POS], h[i, SH1], h[i, SH2] = (i, params["pos"][i], params["sh1"][i],
                                                     params["sh2"][i])
        h[i, PARAM:PARAM + 16] = params["tbl"][i]
        h[i, TEMPER:TEMPER + 16] = params["tmp_tbl"][i]
        h[i, SINGLE:SINGLE + 16] = params["flt_tmp_tbl"][i]
        h[i, MASK_AT] = params["mask"][0]
    out[:] = h.reshape(-1)  # rocRAND: one hipMemcpy of the n states
