"""Which distribution a ``rocrand_generate_*`` call uses for a generator family, and how
many words each output group takes (rocRAND's ``input_width`` / ``output_width``).

``plan(family, what, ...)`` returns ``(words_per_group, outputs_per_group, fill)`` where
``fill(words, out)`` writes every output. Widths are in 32-bit words; a 64-bit generator's
number is two words (low first), so its groups are twice as wide.

>>> w, o, fill = plan("std32", "normal", np.float32, mean=0.0, stddev=1.0)
>>> w, o
(2, 2)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand import half


def _copy(words: np.ndarray, out: np.ndarray) -> None:
    out[:] = words.view(out.dtype)[:out.size]


def _hi_words(fill: Callable) -> Callable:
    """A 64-bit number's float uses its high 32 bits (rocRAND: ``(v >> 32) * 2^-32``)."""
    return lambda words, out: fill(words[1::2], out)


def _uniform_double64(words: np.ndarray, out: np.ndarray) -> None:
    v = words.view(np.uint64)[:out.size] >> np.uint64(11)
    out[:] = dist.INV53_D + v.astype(np.float64) * dist.INV53_D


def plan(family: str, what: str, dtype: np.dtype, *, mean: float = 0.0, stddev: float = 1.0,
         norm: float = 0.0, uint_norm: float = 0.0, table: tuple | None = None,
         lam: float = 0.0, narrow_double: bool = False,
         half_math: bool = False) -> tuple[int, int, Callable]:
    """(words per group, outputs per group, fill) for ``what`` in uniform/normal/log_normal/
    bits/poisson and output ``dtype``; ``norm``/``uint_norm`` for the MRG family;
    ``narrow_double``: ThreeFry2x32's doubles take one word each (inverse CDF);
    float16 outputs (``half_math``: a device generator's half arithmetic) see half.py."""
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        return half.plan(family, what, mean=mean, stddev=stddev, uint_norm=uint_norm,
                         half_math=half_math)
    wide = 2 if family == "std64" else 1
    log = what == "log_normal"
    if what == "bits":  # rocrand_generate, _char, _short, _long_long: raw bits
        per_word = 4 // dtype.itemsize if dtype.itemsize < 4 else 1
        if family == "mrg":
            def fill_bits(words, out):
                conv = np.empty(words.size, np.uint32)
                dist.mrg_uint(words, conv, uint_norm)
                _copy(conv, out)
            return 1, per_word, fill_bits
        if dtype.itemsize == 8:
            return 2, 1, _copy
        return 1, per_word, _copy
    if what == "uniform":
        if family == "mrg":
            f = dist.mrg_uniform_float if dtype == np.float32 else dist.mrg_uniform_double
            return 1, 1, lambda words, out: f(words, out, norm)
        if dtype == np.float32:
            return wide, 1, _hi_words(dist.uniform_float) if wide == 2 else dist.uniform_float
        return 2, 1, _uniform_double64 if wide == 2 else dist.uniform_double
    if what in ("normal", "log_normal"):
        if family == "mrg":
            if dtype == np.float32:
                return 2, 2, lambda words, out: dist.normal_float(words, out, mean, stddev, log,
                                                                  norm)
            return 2, 2, lambda words, out: dist.normal_double(words, out, mean, stddev, log,
                                                               norm)
        if narrow_double and dtype == np.float64:
            def fill_narrow(words, out):
                u = dist.INV32_D + words[:out.size].astype(np.float64) * dist.INV32_D
                dist.inverse_normal_double(u, out, mean, stddev, log)
            return 1, 1, fill_narrow
        f = dist.normal_float if dtype == np.float32 else dist.normal_double
        width = 2 if dtype == np.float32 else 4
        return width, 2, lambda words, out: f(words, out, mean, stddev, log)
    if what == "poisson":
        return wide, 1, _poisson(family, lam, table, uint_norm, wide)
    raise ValueError(f"unknown distribution {what!r}")


def _poisson(family: str, lam: float, table: tuple | None, uint_norm: float,
             wide: int) -> Callable:
    """Poisson: the alias table on x = word 2^-32 (64-bit: number 2^-64), or for
    lambda > 4000 the normal approximation on rocRAND's uniform double of the word."""
    def fill(words, out):
        if family == "mrg":
            conv = np.empty(words.size, np.uint32)
            dist.mrg_uint(words, conv, uint_norm)
            words = conv
        if wide == 2:
            v = words.view(np.uint64)[:out.size]
            x = v.astype(np.float64) * 5.4210108624275221700372640043497e-20
            p = dist.INV53_D + (v >> np.uint64(11)).astype(np.float64) * dist.INV53_D
        else:
            x = words[:out.size].astype(np.float64) * dist.INV32_D
            p = dist.INV32_D + x
        if table is None:
            dist.poisson_huge(p, out, lam)
        else:
            offset, alias, prob = table
            dist.discrete_alias(x, out, offset, alias, prob)
    return fill
