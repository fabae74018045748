"""The rest of rocRAND's device API (``rocrand_uniform.h``, ``rocrand_normal.h``,
``rocrand_poisson.h``, rocRAND 3.2.0): 2/4-wide draws, double normals and Poisson.

- Philox only, as in rocRAND: ``rocrand4`` (the next four words: ``next4()`` returns the
  same words as four ``rocrand`` calls), ``rocrand_uniform2/4``, ``rocrand_uniform_double2/4``
  (two words a double), ``rocrand_normal4`` (two Box-Muller pairs), ``rocrand_normal_double4``,
  ``rocrand_poisson4``. C's ``uint4`` / ``float2`` ... are tuples here.
- ``rocrand_normal_double``: Philox, XORWOW and the MRGs keep the second of a Box-Muller
  pair in the state's double cache (Philox and XORWOW: ``box_muller_double`` of four words;
  MRGs: ``mrg_box_muller_double`` of two numbers); the others map one number by the inverse
  CDF ``sqrt2 erfinv(2u - 1)`` in double. ``rocrand_normal_double2``: Philox, XORWOW,
  LFSR113, MTGP32 (four words), the MRGs (two numbers); not ThreeFry (its ``rocrand2``).
- ``rocrand_poisson(state, lambda)``: Philox, XORWOW and the MRGs run rocRAND's
  ``poisson_distribution`` (lambda < 64: Knuth's product of uniforms; up to 4000: the
  rejection method with ``lgamma_approx``; above: ``round(sqrt(lambda) n + lambda)`` of a
  double normal); the others ``poisson_distribution_inv`` (lambda < 1000: the CDF walked in
  chunks of exp(-500); above: as huge). rocRAND's host generators use their alias/CDF
  tables instead, so device and host Poisson numbers differ there as well.

The maps come from distributions.py (the host generators' njit functions), inlined as
device functions; on the host these run as plain Python on a NumPy state, as device.py's.
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import device as dev
from gpusim.libs.rocrand import device_mrg as _mrg
from gpusim.libs.rocrand import device_mrg31k3p as _mrg31
from gpusim.libs.rocrand import device_philox as _philox
from gpusim.libs.rocrand import device_xorwow as _xorwow
from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand.device_bits import f64_bits, f64_from_bits
from gpusim.libs.rocrand.device_poisson import poisson

_bm_double = hip.DeviceFunction(dist.box_muller_double.py_func)
_mrg_bm_double = hip.DeviceFunction(dist.mrg_box_muller_double.py_func)
_erfinv_d = hip.DeviceFunction(dist.erfinv_double.py_func)
_U = np.uint64


def _normals_double(word, raw, mod, norm: float) -> dict:
    """normal_double (cached) and normal_double2 of a Box-Muller generator; ``norm`` > 0:
    an MRG (two numbers of ``raw``), else four words of ``word``."""
    mrg = norm > 0.0

    @hip.DeviceFunction
    def pair(state):
        a, b = 0.0, 0.0
        if mrg:
            x = raw(state)
            y = raw(state)
            a, b = _mrg_bm_double(x, y, norm)
        else:
            x = word(state)
            y = word(state)
            z = word(state)
            w = word(state)
            a, b = _bm_double(x, y, z, w)
        return a, b

    @hip.DeviceFunction
    def normal_double(state):
        out = 0.0
        if state[mod.BMD_STATE] != 0:
            state[mod.BMD_STATE] = np.uint32(0)
            out = f64_from_bits(_U(state[mod.BMD]) | (_U(state[mod.BMD + 1]) << _U(32)))
        else:
            a, b = pair(state)
            bits = f64_bits(b)
            state[mod.BMD_STATE] = np.uint32(1)
            state[mod.BMD] = np.uint32(bits & _U(0xFFFFFFFF))
            state[mod.BMD + 1] = np.uint32(bits >> _U(32))
            out = a
        return out

    return {"rocrand_normal_double": normal_double, "rocrand_normal_double2": pair}


def _inverse_normal_double(word, bits: int):
    @hip.DeviceFunction
    def normal_double(state):
        """normal_distribution_double(rocrand(state))."""
        v = _U(word(state))
        u = 0.0
        if bits == 64:
            u = dist.INV53_D + np.float64(v >> _U(11)) * dist.INV53_D
        else:
            u = dist.INV32_D + np.float64(v) * dist.INV32_D
        return dist.SQRT2_D * _erfinv_d(2.0 * u - 1.0)
    return normal_double


def _four_words_double2(word):
    @hip.DeviceFunction
    def normal_double2(state):
        x = word(state)
        y = word(state)
        z = word(state)
        w = word(state)
        return _bm_double(x, y, z, w)
    return normal_double2


def _twice(one) -> hip.DeviceFunction:
    @hip.DeviceFunction
    def two(state):
        a = one(state)
        b = one(state)
        return a, b
    return two


def _two_pairs(pair) -> hip.DeviceFunction:
    @hip.DeviceFunction
    def four(state):
        a, b = pair(state)
        c, d = pair(state)
        return a, b, c, d
    return four


def _philox_wide() -> dict:
    """Philox's 2/4-wide draws (its API dict gives the one-wide pieces)."""
    api = dev._APIS[dev.rocrand_state_philox4x32_10]
    poisson_one = api["rocrand_poisson"]
    uniform2 = _twice(api["rocrand_uniform"])
    uniform_double2 = _twice(api["rocrand_uniform_double"])

    @hip.DeviceFunction
    def poisson4(state, lam):
        a = poisson_one(state, lam)
        b = poisson_one(state, lam)
        c = poisson_one(state, lam)
        d = poisson_one(state, lam)
        return a, b, c, d

    return {"rocrand4": _two_pairs(_twice(api["rocrand"])), "rocrand_uniform2": uniform2,
            "rocrand_uniform4": _two_pairs(uniform2),
            "rocrand_uniform_double2": uniform_double2,
            "rocrand_uniform_double4": _two_pairs(uniform_double2),
            "rocrand_normal4": _two_pairs(api["rocrand_normal2"]),
            "rocrand_normal_double4": _two_pairs(api["rocrand_normal_double2"]),
            "rocrand_poisson4": poisson4}


def _extend(apis: dict) -> None:
    """Add the double normals and Poisson to every state's API dict."""
    cached = {dev.rocrand_state_philox4x32_10: (_philox, 0.0),
              dev.rocrand_state_xorwow: (_xorwow, 0.0),
              dev.rocrand_state_mrg32k3a: (_mrg, _mrg.NORM),
              dev.rocrand_state_mrg31k3p: (_mrg31, _mrg31.NORM)}
    for state, api in apis.items():
        if state in cached:
            mod, norm = cached[state]
            raw = mod.next_raw if norm else api["rocrand"]
            api.update(_normals_double(api["rocrand"], raw, mod, norm))
        else:
            bits = 64 if np.dtype(state.dtype) == np.uint64 else 32
            api["rocrand_normal_double"] = _inverse_normal_double(api["rocrand"], bits)
        if state in (dev.rocrand_state_lfsr113, dev.rocrand_state_mtgp32):
            api["rocrand_normal_double2"] = _four_words_double2(api["rocrand"])
        api["rocrand_poisson"] = poisson(api["rocrand_uniform_double"],
                                         api["rocrand_normal_double"], state not in cached)
    apis[dev.rocrand_state_philox4x32_10].update(_philox_wide())


_extend(dev._APIS)


def _overload(name: str, doc: str) -> hip.Overload:
    return dev._overload(name, 0, doc)


rocrand4 = _overload("rocrand4", "rocrand4(state): the next four words (Philox).")
rocrand_uniform2 = _overload("rocrand_uniform2", "rocrand_uniform2(state): two floats in "
                             "(0, 1] (Philox).")
rocrand_uniform4 = _overload("rocrand_uniform4", "rocrand_uniform4(state): four floats (Philox).")
rocrand_uniform_double2 = _overload("rocrand_uniform_double2",
                                    "rocrand_uniform_double2(state): two doubles (Philox).")
rocrand_uniform_double4 = _overload("rocrand_uniform_double4",
                                    "rocrand_uniform_double4(state): four doubles (Philox).")
rocrand_normal4 = _overload("rocrand_normal4", "rocrand_normal4(state): four normal floats "
                            "(Philox).")
rocrand_normal_double = _overload("rocrand_normal_double",
                                  "rocrand_normal_double(state): a standard normal double.")
rocrand_normal_double2 = _overload("rocrand_normal_double2",
                                   "rocrand_normal_double2(state): two normal doubles.")
rocrand_normal_double4 = _overload("rocrand_normal_double4",
                                   "rocrand_normal_double4(state): four normal doubles (Philox).")
rocrand_poisson = _overload("rocrand_poisson", "rocrand_poisson(state, lambda): a Poisson "
                            "unsigned int.")
rocrand_poisson4 = _overload("rocrand_poisson4", "rocrand_poisson4(state, lambda): four "
                             "(Philox).")
