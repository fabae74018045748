"""rocRAND's device API inside ``@hip.jit`` kernels, bit-exact with rocRAND's engines.

::

    @hip.jit
    def k(out, seed):
        i = hip.grid(1)
        st = rocrand.rocrand_state_philox4x32_10()      # a private state (local array)
        rocrand.rocrand_init(seed, i, 0, st)             # seed, subsequence, offset
        out[i] = rocrand.rocrand_uniform(st)

States: ``rocrand_state_`` + ``philox4x32_10``, ``xorwow``, ``mrg32k3a``, ``mrg31k3p``,
``lfsr113``, ``threefry{2x32,4x32,2x64,4x64}_20``, ``{,scrambled_}sobol{32,64}``: rocRAND's
structs word for word (device_<family>.py) plus a word naming the generator; and
``mtgp32``, one a block shares (device_mtgp32.py: ``rocrand_mtgp32_block_copy``).
Functions as rocRAND
defines them per state: ``rocrand_init`` in its signature (LFSR113: four seed words;
Sobol: ``(vectors, offset, st)``, scrambled: ``(vectors, scramble_constant, offset,
st)``), ``rocrand``, ``rocrand_uniform(_double)``, ``skipahead`` (not ThreeFry),
``skipahead_subsequence`` / ``_sequence`` (pseudo-random, not ThreeFry),
``rocrand_normal(2)`` / ``rocrand_log_normal``: Box-Muller with the state's cache for
Philox, XORWOW and the MRGs (rocRAND's host path, ``sinf``/``cosf``; an AMD GPU's
``__sincosf`` changes the last bits of some), ``normal2`` for LFSR113 and MTGP32, else one
number by the inverse CDF ``sqrt2 erfinv(2u - 1)`` (ThreeFry's log-normal takes doubles).
The 2/4-wide draws, ``_double`` normals and ``rocrand_poisson``: device_wide.py. Each
function is a ``lang.Overload``: the compiler inlines the version for the state's type,
as C++ overloading does. On the host they run as plain Python on a NumPy state.

>>> st = rocrand_state_philox4x32_10()
>>> rocrand_init(0, 0, 0, st)
>>> f"{int(rocrand(st)):08x}"
'6627e8d5'
"""

from __future__ import annotations

import math

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import device_lfsr113 as _lfsr
from gpusim.libs.rocrand import device_mrg as _mrg
from gpusim.libs.rocrand import device_mrg31k3p as _mrg31
from gpusim.libs.rocrand import device_mtgp32 as _mtgp
from gpusim.libs.rocrand import device_philox as _philox
from gpusim.libs.rocrand import device_sobol as _sobol
from gpusim.libs.rocrand import device_threefry as _threefry
from gpusim.libs.rocrand import device_xorwow as _xorwow
from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand.device_bits import f32_bits, f32_from_bits

_INV32 = np.float32(2.3283064e-10)           # ROCRAND_2POW32_INV
_INV32_2PI = np.float32(1.46291807e-09)      # ROCRAND_2POW32_INV_2PI
_INV53 = 1.1102230246251565e-16              # ROCRAND_2POW53_INV_DOUBLE
_TWO_PI = np.float32(6.2831855)              # ROCRAND_2PI
_MINUS2 = np.float32(-2.0)
_INV32_D = 2.3283064365386963e-10             # ROCRAND_2POW32_INV_DOUBLE
_SQRT2 = np.float32(1.4142135)                # ROCRAND_SQRT2


def _state(name: str, words: int, tag: int, what: str, dtype=np.uint32) -> hip.LocalStruct:
    return hip.LocalStruct(name, words, dtype, init=((words - 1, tag),),
                           doc=f"{what} state: rocRAND's struct words + the generator word.")


def _state_of(mod, name: str, what: str) -> hip.LocalStruct:
    return _state(name, mod.WORDS, mod.TAG, what)


rocrand_state_philox4x32_10 = _state_of(_philox, "rocrand_state_philox4x32_10", "Philox4x32-10")
rocrand_state_xorwow = _state_of(_xorwow, "rocrand_state_xorwow", "XORWOW")
rocrand_state_mrg32k3a = _state_of(_mrg, "rocrand_state_mrg32k3a", "MRG32k3a")
rocrand_state_mrg31k3p = _state_of(_mrg31, "rocrand_state_mrg31k3p", "MRG31k3p")
rocrand_state_lfsr113 = _state_of(_lfsr, "rocrand_state_lfsr113", "LFSR113")


def _table_state(api: dict, name: str, what: str) -> hip.LocalStruct:
    return _state(name, api["words"], api["tag"], what, api["dtype"])


_TF, _SB = _threefry.THREEFRY, _sobol.SOBOL
rocrand_state_threefry2x32_20 = _table_state(_TF[(2, 32)], "rocrand_state_threefry2x32_20",
                                             "ThreeFry2x32-20")
rocrand_state_threefry4x32_20 = _table_state(_TF[(4, 32)], "rocrand_state_threefry4x32_20",
                                             "ThreeFry4x32-20")
rocrand_state_threefry2x64_20 = _table_state(_TF[(2, 64)], "rocrand_state_threefry2x64_20",
                                             "ThreeFry2x64-20")
rocrand_state_threefry4x64_20 = _table_state(_TF[(4, 64)], "rocrand_state_threefry4x64_20",
                                             "ThreeFry4x64-20")
rocrand_state_sobol32 = _table_state(_SB[(32, False)], "rocrand_state_sobol32", "Sobol32")
rocrand_state_sobol64 = _table_state(_SB[(64, False)], "rocrand_state_sobol64", "Sobol64")
rocrand_state_scrambled_sobol32 = _table_state(
    _SB[(32, True)], "rocrand_state_scrambled_sobol32", "scrambled Sobol32")
rocrand_state_scrambled_sobol64 = _table_state(
    _SB[(64, True)], "rocrand_state_scrambled_sobol64", "scrambled Sobol64")
rocrand_state_mtgp32 = hip.LocalStruct(
    "rocrand_state_mtgp32", _mtgp.WORDS, np.uint32, space="shared",
    doc="MTGP32 state a block shares: rocRAND's struct words (device_mtgp32.py).")


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


def _mrg_maps(mod) -> tuple:
    """(uniform, Box-Muller, rocrand()) of an MRG: its norm (``mrg_uniform_distribution``)."""
    norm, uint_norm = mod.NORM, mod.UINT_NORM

    @hip.DeviceFunction
    def uniform(v):
        return np.float32(np.float64(v) * norm)

    @hip.DeviceFunction
    def box_muller(x, y):
        u = uniform(x)
        v = uniform(y) * _TWO_PI
        s = np.float32(math.sqrt(_MINUS2 * np.float32(math.log(u))))
        return np.float32(math.sin(v)) * s, np.float32(math.cos(v)) * s

    @hip.DeviceFunction
    def word(state):
        return np.uint32((np.float64(mod.next_raw(state)) - 1.0) * uint_norm)

    return uniform, box_muller, word


def _api(mod, word, raw, uniform, box_muller, norm: float = 0.0) -> dict:
    """The device functions of a generator with a Box-Muller cache (closures over its
    pieces; ``norm`` is an MRG's, 0 for the others)."""

    @hip.DeviceFunction
    def uniform_double(state):
        u = 0.0
        if norm != 0.0:
            u = np.float64(raw(state)) * norm
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
            "skipahead": mod.skip, "skipahead_subsequence": mod.skip_subsequence,
            "skipahead_sequence": getattr(mod, "skip_sequence", mod.skip_subsequence)}


_erfinv = hip.DeviceFunction(dist.erfinv_float.py_func)  # roc_f_erfinv, shared with the host


def _plain_api(api: dict, bits: int, double_params: bool = False) -> dict:
    """The device functions of a generator without a cache: its numbers' maps
    (``uniform_distribution(v)`` of a 32- or 64-bit number, ``..._double(v)``,
    ``normal_distribution(v)``); ``double_params``: log-normal's mean and stddev are
    doubles (ThreeFry)."""
    word = api["rocrand"]

    @hip.DeviceFunction
    def uniform_float(state):
        v = np.uint64(word(state))
        if bits == 64:
            v = v >> np.uint64(32)
        return _INV32 + np.float32(v) * _INV32

    @hip.DeviceFunction
    def uniform_double(state):
        v = np.uint64(word(state))
        u = 0.0
        if bits == 64:
            u = _INV53 + np.float64(v >> np.uint64(11)) * _INV53
        else:
            u = _INV32_D + np.float64(v) * _INV32_D
        return u

    @hip.DeviceFunction
    def normal(state):
        u = uniform_float(state)
        return _SQRT2 * _erfinv(np.float32(2.0) * u - np.float32(1.0))

    @hip.DeviceFunction
    def log_normal(state, mean, stddev):
        r = normal(state)
        out = np.float32(0.0)
        if double_params:
            out = np.float32(math.exp(np.float32(np.float64(mean) + np.float64(stddev) * r)))
        else:
            out = np.float32(math.exp(np.float32(mean) + np.float32(stddev) * r))
        return out

    out = {k: api[k] for k in ("rocrand_init", "rocrand", "skipahead",
                                "skipahead_subsequence") if k in api}
    if "skipahead_subsequence" in api:
        out["skipahead_sequence"] = api.get("skipahead_sequence", api["skipahead_subsequence"])
    return out | {"rocrand_uniform": uniform_float, "rocrand_uniform_double": uniform_double,
                  "rocrand_normal": normal, "rocrand_log_normal": log_normal}


_MRG32, _MRG31 = _mrg_maps(_mrg), _mrg_maps(_mrg31)
_LFSR = _plain_api({"rocrand_init": _lfsr.init, "rocrand": _lfsr.next_word,
                    "skipahead": _lfsr.skip, "skipahead_subsequence": _lfsr.skip_subsequence},
                   32)


def _words_normal2(word) -> hip.DeviceFunction:
    @hip.DeviceFunction
    def normal2(state):
        """rocRAND's ``normal_distribution2`` of two words (Box-Muller)."""
        x = word(state)
        y = word(state)
        return _box_muller32(x, y)
    return normal2


_LFSR["rocrand_normal2"] = _words_normal2(_lfsr.next_word)
_MTGP = _plain_api({"rocrand": _mtgp.next_word}, 32)
_MTGP["rocrand_normal2"] = _words_normal2(_mtgp.next_word)
_APIS = {
    rocrand_state_philox4x32_10: _api(_philox, _philox.next_word, _philox.next_word,
                                      _uniform32, _box_muller32, False),
    rocrand_state_xorwow: _api(_xorwow, _xorwow.next_word, _xorwow.next_word, _uniform32,
                               _box_muller32, False),
    rocrand_state_mrg32k3a: _api(_mrg, _MRG32[2], _mrg.next_raw, _MRG32[0], _MRG32[1],
                                 _mrg.NORM),
    rocrand_state_mrg31k3p: _api(_mrg31, _MRG31[2], _mrg31.next_raw, _MRG31[0], _MRG31[1],
                                 _mrg31.NORM),
    rocrand_state_lfsr113: _LFSR,
    rocrand_state_threefry2x32_20: _plain_api(_TF[(2, 32)], 32, True),
    rocrand_state_threefry4x32_20: _plain_api(_TF[(4, 32)], 32, True),
    rocrand_state_threefry2x64_20: _plain_api(_TF[(2, 64)], 64, True),
    rocrand_state_threefry4x64_20: _plain_api(_TF[(4, 64)], 64, True),
    rocrand_state_sobol32: _plain_api(_SB[(32, False)], 32),
    rocrand_state_sobol64: _plain_api(_SB[(64, False)], 64),
    rocrand_state_scrambled_sobol32: _plain_api(_SB[(32, True)], 32),
    rocrand_state_scrambled_sobol64: _plain_api(_SB[(64, True)], 64),
    rocrand_state_mtgp32: _MTGP,
}


def _overload(name: str, state_arg: int, doc: str) -> hip.Overload:
    fn = hip.Overload(name, state_arg,
                      {s: api[name] for s, api in _APIS.items() if name in api})
    fn.__doc__ = doc
    return fn


rocrand_init = _overload(
    "rocrand_init", -1, "rocrand_init(seed, subsequence, offset, state); Sobol: (vectors, "
    "offset, state); scrambled Sobol: (vectors, scramble_constant, offset, state).")
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
    "XORWOW 2^67, MRG32k3a 2^76, MRG31k3p 2^72, LFSR113 2^55, ThreeFry: the counter's high "
    "half).")
skipahead_sequence = _overload(
    "skipahead_sequence", 1, "skipahead_sequence(n, state): skip n sequences (MRG31k3p: "
    "2^134 numbers; the others as skipahead_subsequence, as in rocRAND).")
