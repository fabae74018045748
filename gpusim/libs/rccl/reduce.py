"""Element-wise reduction of one step, in the data type's own arithmetic.

A ``Reducer`` does what RCCL's reduction functors (src/device/reduce_kernel.h) do to
two chunks: ``load`` applies the pre-operation to a rank's own input (ncclAvg on
floating types multiplies by the scalar 1/n stored in the data type, as PreMulSum
does), ``combine`` applies the operator with one rounding in the data type, ``finish``
applies the post-operation (ncclAvg on integers divides the sum by n, truncating
toward zero as C does). Integers wrap around on overflow, as on the GPU.

bfloat16 and FP8 are computed as RCCL computes them: both operands widened to float32,
the operator in float32, the result rounded to nearest even in the type. FP8 results
saturate: a finite result beyond the largest FP8 value becomes that value (RCCL clamps
before converting, rccl_float8.h); Inf and NaN stay what the format makes of them
(NaN in FNUZ and OCP e4m3, Inf in OCP e5m2). Floating max / min are fmaxf / fminf (a
NaN operand loses to a number), as RCCL's FuncMinMax for floating types.

>>> r = Reducer(ncclRedOp_t.ncclAvg, np.dtype(np.int32), nranks=2)
>>> r.finish(r.combine(r.load(np.array([3, -3], np.int32)), r.load(np.array([0, 0], np.int32))))
array([ 1, -1], dtype=int32)
>>> f8 = np.dtype(ml_dtypes.float8_e4m3fnuz)
>>> s = Reducer(ncclRedOp_t.ncclSum, f8, nranks=2)
>>> s.combine(np.array([200, 16], f8), np.array([100, 1], f8)).tolist()  # 17 ties to 16
[240.0, 16.0]
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from gpusim.libs.rccl.enums import ncclRedOp_t

_UFUNC = {ncclRedOp_t.ncclSum: np.add, ncclRedOp_t.ncclProd: np.multiply,
          ncclRedOp_t.ncclMax: np.maximum, ncclRedOp_t.ncclMin: np.minimum,
          ncclRedOp_t.ncclAvg: np.add}
_FLOAT_UFUNC = {**_UFUNC, ncclRedOp_t.ncclMax: np.fmax, ncclRedOp_t.ncclMin: np.fmin}
# Types computed in float32 and rounded back after every operation.
NARROW = {np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fnuz,
                                ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2fnuz,
                                ml_dtypes.float8_e5m2)}


class Reducer:
    """The pre-op / operator / post-op triple of one collective's reduction on ``dtype``."""

    def __init__(self, op: ncclRedOp_t, dtype: np.dtype, nranks: int):
        self.op, self.nranks = op, nranks
        self.storage = np.dtype(dtype)
        self.narrow = self.storage in NARROW
        self.floating = self.narrow or self.storage.kind == "f"
        self.ufunc = (_FLOAT_UFUNC if self.floating else _UFUNC)[op]
        # FP8 saturates to its largest finite value (bfloat16 overflows to Inf)
        self.limit = (float(ml_dtypes.finfo(self.storage).max)
                      if self.narrow and self.storage.itemsize == 1 else None)
        self.premul = op == ncclRedOp_t.ncclAvg and self.floating
        if self.premul:  # the host computes float(1.0 / n) and stores it in the type
            scale = np.array([1.0 / nranks])
            self.scale = scale if self.storage == np.float64 else (
                scale.astype(np.float32).astype(self.storage))
        self.tables = self._fp8_tables() if self.limit is not None else None

    def _fp8_tables(self) -> tuple[np.ndarray, np.ndarray | None]:
        """An FP8 type has 256 values, so the operator is a 256 x 256 table (and the
        pre-multiplication a 256-entry one) computed once by the float32 rule below:
        the same results, a few times faster than converting every chunk."""
        values = np.arange(256, dtype=np.uint8).view(self.storage).astype(np.float32)
        with np.errstate(all="ignore"):  # Inf - Inf is NaN on the GPU too, silently
            pairs = self._round(self.ufunc(values[:, None], values[None, :]))
            scaled = (self._round(values * self.scale.astype(np.float32)[0]).view(np.uint8)
                      if self.premul else None)
        return pairs.view(np.uint8).ravel(), scaled

    def _round(self, values: np.ndarray) -> np.ndarray:
        """float32 results in the narrow type (saturating finite FP8 overflow)."""
        if self.limit is not None:
            values = np.where(np.isfinite(values),
                              np.clip(values, -self.limit, self.limit), values)
        return values.astype(self.storage)

    def load(self, x: np.ndarray) -> np.ndarray:
        """A rank's own input as it enters the reduction (a copy, never a view)."""
        if self.premul:
            if self.tables is not None:
                return self.tables[1][x.view(np.uint8)].view(self.storage)
            if self.narrow:
                return self._round(x.astype(np.float32) * self.scale.astype(np.float32)[0])
            return x * self.scale[0]
        return x.copy()

    def combine(self, acc: np.ndarray, x: np.ndarray) -> np.ndarray:
        """op(acc, x) with one rounding in the data type; x is a loaded chunk."""
        if self.tables is not None:
            pair = (acc.view(np.uint8).astype(np.uint16) << 8) | x.view(np.uint8)
            return self.tables[0][pair].view(self.storage)
        if self.narrow:
            return self._round(self.ufunc(acc.astype(np.float32), x.astype(np.float32)))
        return self.ufunc(acc, x, out=acc)

    def accumulate(self, acc: np.ndarray, own: np.ndarray) -> np.ndarray:
        """op(acc, load(own)): fold one more rank's input into a partial result."""
        return self.combine(acc, self.load(own) if self.premul else own)

    def finish(self, acc: np.ndarray) -> np.ndarray:
        """The post-operation: integer ncclAvg divides by the rank count."""
        if self.op == ncclRedOp_t.ncclAvg and not self.floating:
            n = self.storage.type(self.nranks)
            if self.storage.kind == "u":
                return acc // n
            q = np.abs(acc) // n
            return np.where(acc < 0, -q, q).astype(self.storage)
        return acc
