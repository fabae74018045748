"""rocRAND's device API inside ``@hip.jit`` kernels, bit-exact with rocRAND's engines.

::

    @hip.jit
    def k(out, seed):
        i = hip.grid(1)
        st = rocrand.rocrand_state_philox4x32_10()      # a private state (local array)
        rocrand.rocrand_init(seed, i, 0, st)             # seed, subsequence, offset
        out[i] = rocrand.rocrand_uniform(st)

A state is rocRAND's struct word for word (device_philox.py, device_xorwow.py,
device_mrg.py) plus one word naming the generator. Each function is a ``lang.Overload``:
the compiler inlines the version for the state's type, as C++ overloading picks it, so a
kernel carries only its own generator's code. Called on the host, the functions run as
plain Python on a NumPy state (slow; handy in tests). Normals use rocRAND's host code
path (``sinf``/``cosf``; on an AMD GPU ``__sincosf`` changes the last bits of some);
``rocrand_normal`` keeps the pair's second value in the state's Box-Muller cache.

>>> st = rocrand_state_philox4x32_10()
>>> rocrand_init(0, 0, 0, st)
>>> f"{int(rocrand(st)):08x}"
'6627e8d5'
"""

from __future__ import annotations

import math

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import device_mrg as _mrg
from gpusim.libs.rocrand import device_philox as _philox
from gpusim.libs.rocrand import device_xorwow as _xorwow
from gpusim.libs.rocrand.device_bits import f32_bits, f32_from_bits

_INV32 = np.float32(2.3283064e-10)           # ROCRAND_2POW32_INV
_INV32_2PI = np.float32(1.46291807e-09)      # ROCRAND_2POW32_INV_2PI
_INV53 = 1.1102230246251565e-16              # ROCRAND_2POW53_INV_DOUBLE
_TWO_PI = np.float32(6.2831855)              # ROCRAND_2PI
_MINUS2 = np.float32(-2.0)
_NORM = _mrg.mrg.MRG32K3A.norm_double        # ROCRAND_MRG32K3A_NORM_DOUBLE


def _state(mod, name: str, what: str) -> hip.LocalStruct:
    return hip.LocalStruct(name, mod.WORDS, np.uint32, init=((mod.WORDS - 1, mod.TAG),),
                           doc=f"{what} state: rocRAND's struct words + the generator word.")


rocrand_state_philox4x32_10 = _state(_philox, "rocrand_state_philox4x32_10", "Philox4x32-10")
rocrand_state_xorwow = _state(_xorwow, "rocrand_state_xorwow", "XORWOW")
rocrand_state_mrg32k3a = _state(_mrg, "rocrand_state_mrg32k3a", "MRG32k3a")


# -- what the generators differ in: the number a distribution starts from and its maps --
@hip.DeviceFunction
def _uniform32(v):
    return _INV32 + np.float32(v) * _INV32


@hip.DeviceFunction
def _box_muller32(x, y):
    u = _INV32 + np.float32(x) * _INV32
    v = _INV32_2PI + np.float32(y) * _INV32_2PI
    s = np.float32(math.sqrt(_MINUS2 * np.float32(math.log(u))))
    return np.float32(math.sin(v)) * s, np.float32(math.cos(v)) * s


@hip.DeviceFunction
def _mrg_uniform(v):
    return np.float32(np.float64(v) * _NORM)


@hip.DeviceFunction
def _mrg_box_muller(x, y):
    u = _mrg_uniform(x)
    v = _mrg_uniform(y) * _TWO_PI
    s = np.float32(math.sqrt(_MINUS2 * np.float32(math.log(u))))
    return np.float32(math.sin(v)) * s, np.float32(math.cos(v)) * s


@hip.DeviceFunction
def _mrg_word(state):
    return np.uint32((np.float64(_mrg.next_raw(state)) - 1.0) * _mrg.UINT_NORM)


def _api(mod, word, raw, uniform, box_muller, mrg: bool) -> dict:
    """The device functions of one generator (closures over its pieces)."""

    @hip.DeviceFunction
    def uniform_double(state):
        u = 0.0
        if mrg:
            u = np.float64(raw(state)) * _NORM
        else:
            a = np.uint64(word(state))
            b = np.uint64(word(state))
            u = _INV53 + np.float64(a | ((b >> np.uint64(11)) << np.uint64(32))) * _INV53
        return u

    @hip.DeviceFunction
    def normal2(state):
        x = raw(state)
        y = raw(state)
        return box_muller(x, y)

    @hip.DeviceFunction
    def normal(state):
        out = np.float32(0.0)
        if state[mod.BMF_STATE] != 0:
            state[mod.BMF_STATE] = np.uint32(0)
            out = f32_from_bits(state[mod.BMF])
        else:
            x = raw(state)
            y = raw(state)
            a, b = box_muller(x, y)
            state[mod.BMF_STATE] = np.uint32(1)
            state[mod.BMF] = f32_bits(b)
            out = a
        return out

    @hip.DeviceFunction
    def log_normal(state, mean, stddev):
        return np.float32(math.exp(np.float32(mean) + np.float32(stddev) * normal(state)))

    @hip.DeviceFunction
    def uniform_float(state):
        return uniform(raw(state))

    return {"rocrand_init": mod.init, "rocrand": word, "rocrand_uniform": uniform_float,
            "rocrand_uniform_double": uniform_double, "rocrand_normal": normal,
            "rocrand_normal2": normal2, "rocrand_log_normal": log_normal,
            "skipahead": mod.skip, "skipahead_subsequence": mod.skip_subsequence}


_APIS = {
    rocrand_state_philox4x32_10: _api(_philox, _philox.next_word, _philox.next_word,
                                      _uniform32, _box_muller32, False),
    rocrand_state_xorwow: _api(_xorwow, _xorwow.next_word, _xorwow.next_word, _uniform32,
                               _box_muller32, False),
    rocrand_state_mrg32k3a: _api(_mrg, _mrg_word, _mrg.next_raw, _mrg_uniform,
                                 _mrg_box_muller, True),
}


def _overload(name: str, state_arg: int, doc: str) -> hip.Overload:
    fn = hip.Overload(name, state_arg, {s: api[name] for s, api in _APIS.items()})
    fn.__doc__ = doc
    return fn


rocrand_init = _overload("rocrand_init", 3, "rocrand_init(seed, subsequence, offset, state).")
rocrand = _overload("rocrand", 0, "rocrand(state): the next uniform 32-bit unsigned int.")
rocrand_uniform = _overload("rocrand_uniform", 0, "rocrand_uniform(state): a float in (0, 1].")
rocrand_uniform_double = _overload("rocrand_uniform_double", 0,
                                   "rocrand_uniform_double(state): a double in (0, 1].")
rocrand_normal = _overload("rocrand_normal", 0,
                           "rocrand_normal(state): a standard normal float (cached pairs).")
rocrand_normal2 = _overload("rocrand_normal2", 0,
                            "rocrand_normal2(state): two standard normal floats.")
rocrand_log_normal = _overload("rocrand_log_normal", 0,
                               "rocrand_log_normal(state, mean, stddev): a log-normal float.")
skipahead = _overload("skipahead", 1, "skipahead(offset, state): skip offset numbers.")
skipahead_subsequence = _overload(
    "skipahead_subsequence", 1,
    "skipahead_subsequence(n, state): skip n subsequences (Philox 2^66 numbers each, "
    "XORWOW 2^67, MRG32k3a 2^76).")
