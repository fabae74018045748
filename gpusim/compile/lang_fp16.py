"""``cuda.fp16``: numba.cuda's half-precision functions, as kernel-language names.

Each name is a ``HalfFunction`` the compiler recognises by identity (``resolve`` turns a
call into a ``MathCall``; the ``half`` pass lowers it, see ``passes/half.py``). Arguments
are converted to float16 first, as numba.cuda's typing does (``hmul(np.float16(x), 2)``
multiplies by float16 2.0); results are float16, the comparisons booleans.

The arithmetic ones (``hadd`` ... ``hfma``, ``hmax``/``hmin``, ``heq`` ... ``hle``) are
IEEE-exact in ``device/half.py``; the math ones (``hsin`` ... ``hrint``) are computed in
float64 and rounded once to float16, so they are the correctly rounded result in nearly
every case, where NVIDIA's ``hsin``/``hexp``... are approximations within a few float16
ulps (``cuda_fp16.hpp``): a program that checks with a tolerance sees the same answers.

>>> hadd.nargs, str(hlt.result), hsin.ufunc.__name__
(2, 'bool', 'sin')
>>> hadd(1, 2)
Traceback (most recent call last):
  ...
RuntimeError: cuda.fp16.hadd() can only be called inside a kernel
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba.core import types


class HalfFunction:
    """One ``cuda.fp16`` function: ``nargs`` float16 arguments, a ``result`` type, and how
    it is computed: a device-library function (``impl``) or a NumPy ufunc in float64."""

    def __init__(self, name: str, nargs: int, result: Any = types.float16, impl: str = "",
                 ufunc: Any = None, doc: str = ""):
        self.name, self.nargs, self.result, self.impl, self.ufunc = name, nargs, result, impl, ufunc
        self.__name__ = name
        self.__doc__ = doc

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(f"cuda.fp16.{self.name}() can only be called inside a kernel")

    def __repr__(self) -> str:
        return f"<gpusim kernel function cuda.fp16.{self.name}>"


def _arith(name: str, nargs: int, doc: str, result: Any = types.float16) -> HalfFunction:
    return HalfFunction(name, nargs, result, impl=name, doc=doc)


def _math(name: str, ufunc: Any, doc: str) -> HalfFunction:
    return HalfFunction(name, 1, ufunc=ufunc, doc=doc)


hadd = _arith("hadd", 2, "hadd(a, b): a + b in float16.")
hsub = _arith("hsub", 2, "hsub(a, b): a - b in float16.")
hmul = _arith("hmul", 2, "hmul(a, b): a * b in float16.")
hdiv = _arith("hdiv", 2, "hdiv(a, b): a / b in float16.")
hfma = _arith("hfma", 3, "hfma(a, b, c): a * b + c in float16, rounded once.")
hneg = _arith("hneg", 1, "hneg(a): -a.")
habs = _arith("habs", 1, "habs(a): |a|.")
hmax = _arith("hmax", 2, "hmax(a, b): a if a > b else b.")
hmin = _arith("hmin", 2, "hmin(a, b): a if a < b else b.")
heq = _arith("heq", 2, "heq(a, b): a == b.", types.boolean)
hne = _arith("hne", 2, "hne(a, b): a != b, False if either is NaN.", types.boolean)
hgt = _arith("hgt", 2, "hgt(a, b): a > b.", types.boolean)
hge = _arith("hge", 2, "hge(a, b): a >= b.", types.boolean)
hlt = _arith("hlt", 2, "hlt(a, b): a < b.", types.boolean)
hle = _arith("hle", 2, "hle(a, b): a <= b.", types.boolean)

hsin = _math("hsin", np.sin, "hsin(a): sine.")
hcos = _math("hcos", np.cos, "hcos(a): cosine.")
hlog = _math("hlog", np.log, "hlog(a): natural logarithm.")
hlog2 = _math("hlog2", np.log2, "hlog2(a): base-2 logarithm.")
hlog10 = _math("hlog10", np.log10, "hlog10(a): base-10 logarithm.")
hexp = _math("hexp", np.exp, "hexp(a): e ** a.")
hexp2 = _math("hexp2", np.exp2, "hexp2(a): 2 ** a.")
hexp10 = _math("hexp10", None, "hexp10(a): 10 ** a.")
hsqrt = _math("hsqrt", np.sqrt, "hsqrt(a): square root.")
hrsqrt = _math("hrsqrt", None, "hrsqrt(a): 1 / sqrt(a).")
hrcp = _math("hrcp", None, "hrcp(a): 1 / a.")
hceil = _math("hceil", np.ceil, "hceil(a): the smallest integer >= a.")
hfloor = _math("hfloor", np.floor, "hfloor(a): the largest integer <= a.")
htrunc = _math("htrunc", np.trunc, "htrunc(a): a rounded toward zero.")
hrint = _math("hrint", np.rint, "hrint(a): a rounded to the nearest integer, ties to even.")

__all__ = ["HalfFunction", "hadd", "hsub", "hmul", "hdiv", "hfma", "hneg", "habs", "hmax",
           "hmin", "heq", "hne", "hgt", "hge", "hlt", "hle", "hsin", "hcos", "hlog", "hlog2",
           "hlog10", "hexp", "hexp2", "hexp10", "hsqrt", "hrsqrt", "hrcp", "hceil", "hfloor",
           "htrunc", "hrint"]
