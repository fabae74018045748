"""numba.cuda's float16 typing rules (part of the ``infer`` pass).

``infer`` asks numba's CPU typing context, which types ``float16 + float16`` as float32
(it has no float16 arithmetic). numba.cuda adds its own templates (``cudadecl.py``,
``cudamath.py``); this module answers as they do, before the CPU context is asked:

- ``+ - * /`` (and their in-place forms) of a float16 and a value that converts to float16
  exactly, by promotion or safely (float16, int8, uint8, bool) give float16; the six
  comparisons then give bool. Anything else (float16 + int16, + float32, + 2.5) falls
  through to numba's ordinary rules: float32 or float64, as NumPy's ``result_type``;
- ``-x``, ``abs(x)`` of a float16 give float16;
- ``math.sin cos log log2 log10 exp sqrt fabs floor ceil trunc`` of a float16 give
  float16 (numba.cuda computes them with ``cuda.fp16.h*``);
- ``cuda.fp16.*`` give their declared result, whatever numbers they are passed.

>>> from gpusim.compile.passes.infer import typing_context
>>> import operator
>>> ctx, f2 = typing_context(), types.float16
>>> [str(half_result(ctx, operator.add, [f2, t])) for t in (f2, types.int8, types.int16)]
['float16', 'float16', 'None']
"""

from __future__ import annotations

import math
import operator
from typing import Any

from numba.core import types
from numba.core.typeconv import Conversion

from gpusim.compile.lang_fp16 import HalfFunction

ARITHMETIC = {operator.add, operator.sub, operator.mul, operator.truediv, operator.iadd,
              operator.isub, operator.imul, operator.itruediv}
COMPARISONS = {operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge}
UNARY = {operator.neg, abs}
# math functions numba.cuda types float16 -> float16, and the NumPy ufunc computing each
MATH = {math.sin: "sin", math.cos: "cos", math.log: "log", math.log2: "log2",
        math.log10: "log10", math.exp: "exp", math.sqrt: "sqrt", math.fabs: "abs",
        math.floor: "floor", math.ceil: "ceil", math.trunc: "trunc"}
_F16_CONVERSIONS = (Conversion.exact, Conversion.promote, Conversion.safe)


def is_half(ty: Any) -> bool:
    """Whether ``ty`` is numba's float16."""
    return ty == types.float16


def half_result(ctx: Any, fn: Any, args: list) -> Any:
    """numba.cuda's result type of ``fn(*args)`` where a float16 rule applies, else None
    (then numba's CPU typing decides)."""
    if isinstance(fn, HalfFunction):
        return fn.result if len(args) == fn.nargs and all(
            isinstance(a, (types.Number, types.Boolean)) for a in args) else None
    if not any(is_half(a) for a in args):
        return None
    if len(args) == 2 and (_hashable_in(fn, ARITHMETIC) or _hashable_in(fn, COMPARISONS)):
        other = args[1] if is_half(args[0]) else args[0]
        if ctx.can_convert(other, types.float16) in _F16_CONVERSIONS:
            return types.boolean if _hashable_in(fn, COMPARISONS) else types.float16
        return None
    if len(args) == 1 and (_hashable_in(fn, UNARY) or _hashable_in(fn, MATH)):
        return types.float16
    return None


def _hashable_in(fn: Any, table: Any) -> bool:
    try:
        return fn in table
    except TypeError:
        return False
