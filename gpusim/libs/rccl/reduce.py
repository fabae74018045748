"""Element-wise reduction of one step, in the data type's own arithmetic.

A ``Reducer`` does what RCCL's reduction functors do to two chunks: ``load`` applies
the pre-operation to a rank's own input (ncclAvg on floating types multiplies by 1/n
first, as NCCL's PreMulSum does), ``combine`` applies the operator with one rounding
in the data type (bfloat16 is computed in float32 and rounded to nearest even each
time), ``finish`` applies the post-operation (ncclAvg on integers divides the sum by
n, truncating toward zero as C does). Integers wrap around on overflow, as on the GPU.

>>> import numpy as np
>>> from gpusim.libs.rccl.enums import ncclDataType_t, ncclRedOp_t
>>> r = Reducer(ncclRedOp_t.ncclAvg, ncclDataType_t.ncclInt32, nranks=2)
>>> r.finish(r.combine(r.load(np.array([3, -3], np.int32)), r.load(np.array([0, 0], np.int32))))
array([ 1, -1], dtype=int32)
"""

from __future__ import annotations

import numpy as np

from gpusim.libs.rccl.enums import STORAGE, ncclDataType_t, ncclRedOp_t

_UFUNC = {ncclRedOp_t.ncclSum: np.add, ncclRedOp_t.ncclProd: np.multiply,
          ncclRedOp_t.ncclMax: np.maximum, ncclRedOp_t.ncclMin: np.minimum,
          ncclRedOp_t.ncclAvg: np.add}


def bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    """bfloat16 bit patterns (uint16) as float32 values (exact).

    >>> bf16_to_f32(np.array([0x3F80, 0xC000], np.uint16))
    array([ 1., -2.], dtype=float32)
    """
    return (bits.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to nearest even bfloat16 (NaN stays a quiet NaN).

    >>> f32_to_bf16(np.array([1.0, 1.00390625, 1.01171875], np.float32))
    array([16256, 16256, 16258], dtype=uint16)
    """
    bits = np.ascontiguousarray(values, np.float32).view(np.uint32)
    rounded = ((bits + (0x7FFF + ((bits >> 16) & 1))) >> 16).astype(np.uint16)
    return np.where(np.isnan(values), np.uint16(0x7FC0), rounded)


class Reducer:
    """The pre-op / operator / post-op triple of one collective's reduction."""

    def __init__(self, op: ncclRedOp_t, datatype: ncclDataType_t, nranks: int):
        self.op, self.datatype, self.nranks = op, datatype, nranks
        self.ufunc = _UFUNC[op]
        self.storage = np.dtype(STORAGE[datatype])
        self.bf16 = datatype == ncclDataType_t.ncclBfloat16
        self.floating = self.bf16 or self.storage.kind == "f"
        self.premul = op == ncclRedOp_t.ncclAvg and self.floating
        if self.premul:  # the scalar 1/n in the data type, as NCCL stores it
            scale = np.array([1.0 / nranks])
            self.scale = (bf16_to_f32(f32_to_bf16(scale.astype(np.float32))) if self.bf16
                          else scale.astype(self.storage))

    def load(self, x: np.ndarray) -> np.ndarray:
        """A rank's own input as it enters the reduction (a copy, never a view)."""
        if self.premul:
            if self.bf16:
                return f32_to_bf16(bf16_to_f32(x) * self.scale[0])
            return x * self.scale[0]
        return x.copy()

    def combine(self, acc: np.ndarray, x: np.ndarray) -> np.ndarray:
        """op(acc, x) with one rounding in the data type; x is a loaded chunk."""
        if self.bf16:
            return f32_to_bf16(self.ufunc(bf16_to_f32(acc), bf16_to_f32(x)))
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
