"""``rocrand_poisson(state, lambda)`` inside kernels, as ``rocrand_poisson.h`` (rocRAND
3.2.0) draws it from a state's uniform and normal doubles.

- ``poisson_distribution`` (Philox, XORWOW, MRG32k3a, MRG31k3p): lambda < 64, Knuth's
  product of uniforms until it falls to exp(-lambda); lambda <= 4000, the rejection method
  (``poisson_distribution_large``, with rocRAND's ``lgamma_approx``); above,
  ``round(sqrt(lambda) n + lambda)`` of one ``rocrand_normal_double``.
- ``poisson_distribution_inv`` (the others): lambda < 1000, the CDF walked from 0 in
  chunks of exp(-500) against one uniform (``poisson_distribution_itr``); above, as huge.

rocRAND's host generators draw Poisson numbers from their alias/CDF tables instead
(discrete.py), so a kernel's Poisson numbers are not the host generator's, in rocRAND too.

>>> from gpusim import rocrand
>>> st = rocrand.rocrand_state_philox4x32_10()
>>> rocrand.rocrand_init(0, 0, 0, st)
>>> [int(rocrand.rocrand_poisson(st, 3.5)) for _ in range(4)]
[3, 3, 2, 2]
"""

from __future__ import annotations

import math

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import distributions as dist

SMALL, HUGE, INV_HUGE = 64.0, dist.LAMBDA_HUGE, 1000.0  # rocrand_poisson.h thresholds


@hip.DeviceFunction
def c_round(x):
    """C's round() of a non-negative double (halves away from zero)."""
    r = np.floor(x)
    if x - r >= 0.5:
        r += 1.0
    return r


@hip.DeviceFunction
def lgamma_approx(x):
    """rocRAND's lgamma_approx (Lanczos, g = 7, n = 9), summed in its order."""
    z = x - 1.0
    s = 1.50563273514931155834e-7 / (z + 8.0)
    s += 9.984369578019570859563e-6 / (z + 7.0)
    s += -0.13857109526572011689554707 / (z + 6.0)
    s += 12.507343278686904814458936853 / (z + 5.0)
    s += -176.61502916214059906584551354 / (z + 4.0)
    s += 771.3234287776530788486528258894 / (z + 3.0)
    s += -1259.13921672240287047156078755283 / (z + 2.0)
    s += 676.520368121885098567009190444019 / (z + 1.0)
    s += 0.99999999999980993227684700473478
    return (0.9189385332046727418 + math.log(s) - 7.0) + (z + 0.5) * math.log(
        (z + 7.0 + 0.5) / 2.718281828459045090796)


def _huge(normal_double) -> hip.DeviceFunction:
    """Huge lambdas: round(sqrt(lambda) n + lambda) of one normal double."""

    @hip.DeviceFunction
    def huge(state, lam):
        return c_round(math.sqrt(lam) * normal_double(state) + lam)

    return huge


def _walk(uniform_double) -> hip.DeviceFunction:
    """poisson_distribution_itr (the inverse method): the CDF against one uniform."""

    @hip.DeviceFunction
    def walk(state, lam):
        """poisson_distribution_itr: the CDF from 0 in chunks of exp(-500)."""
        k, x, y, pw = 0.0, 1.0, 1.0, 0
        u = uniform_double(state) - dist.INV32_D / 2.0
        go = True
        while go:
            big = math.exp(-500.0)
            if not lam > 500.0:  # rocRAND compares with pow + 500 taken before the loop
                big = math.exp(np.float64(pw) - lam)
            x *= big
            y *= big
            pw += 500
            while u > y:
                k += 1.0
                x *= lam / k
                y += x
            go = np.float64(pw) < lam
        return k

    return walk


def _knuth(uniform_double) -> hip.DeviceFunction:
    """poisson_distribution_small: Knuth's product of uniforms."""

    @hip.DeviceFunction
    def knuth(state, lam):
        """poisson_distribution_small: multiply uniforms until exp(-lambda) is passed."""
        limit = math.exp(-lam)
        k, product = -1.0, 1.0
        go = True
        while go:
            k += 1.0
            product *= uniform_double(state)
            go = product > limit
        return k

    return knuth


def _reject(uniform_double) -> hip.DeviceFunction:
    """poisson_distribution_large: rocRAND's rejection method."""

    @hip.DeviceFunction
    def reject(state, lam):
        """poisson_distribution_large: the rejection method of rocRAND."""
        c = 0.767 - 3.36 / lam
        beta = dist.PI_D / math.sqrt(3.0 * lam)
        alpha = beta * lam
        kk = math.log(c) - lam - math.log(beta)
        log_lam = math.log(lam)
        k, u, x, n = -1.0, 0.0, 0.0, -1.0
        while k < 0.0:
            u = uniform_double(state)
            if n >= 0.0:  # u is this try's v: accept or reject n
                y = alpha - beta * x
                t = 1.0 + math.exp(y)
                if y + math.log(u / (t * t)) <= kk + n * log_lam - lgamma_approx(n + 1.0):
                    k = n
                n = -1.0
            else:  # u starts a try: its candidate n
                x = (alpha - math.log((1.0 - u) / u)) / beta
                n = np.floor(x + 0.5)
        return k

    return reject


def poisson(uniform_double, normal_double, inverse: bool) -> hip.DeviceFunction:
    """The ``rocrand_poisson`` of a state with these uniform and normal doubles;
    ``inverse``: ``poisson_distribution_inv``."""
    huge, walk = _huge(normal_double), _walk(uniform_double)
    knuth, reject = _knuth(uniform_double), _reject(uniform_double)

    @hip.DeviceFunction
    def draw(state, lam):
        lam = np.float64(lam)
        k = 0.0
        if inverse:  # (a compile-time constant: one algorithm is compiled)
            if lam >= INV_HUGE:
                k = huge(state, lam)
            else:
                k = walk(state, lam)
        else:
            if lam > HUGE:
                k = huge(state, lam)
            elif lam < SMALL:
                k = knuth(state, lam)
            else:
                k = reject(state, lam)
        return np.uint32(k)

    return draw
