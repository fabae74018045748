"""The kernel language: the names a learner writes inside ``@hip.jit`` kernels.

Every name here is a *stub*: the compiler recognises it by identity (``hip.syncthreads``,
``cuda.syncthreads`` or ``from gpusim.hip import syncthreads`` all name the same object)
and turns it into emulator code. Called outside a kernel a stub raises ``RuntimeError``
that says so, the way numba.cuda's do.

``gpusim.hip`` and ``gpusim.cuda`` re-export this module's ``__all__``.

>>> threadIdx.x
Traceback (most recent call last):
  ...
RuntimeError: hip.threadIdx.x can only be used inside a @hip.jit kernel
>>> syncthreads.name
'syncthreads'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


class Stub:
    """A kernel-language name; ``name`` is what the compiler dispatches on."""

    def __init__(self, name: str, doc: str = ""):
        self.name = name
        self.__doc__ = doc or f"hip.{name} (kernel language)"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"hip.{self.name}() can only be called inside a @hip.jit kernel")

    def __repr__(self) -> str:
        return f"<gpusim kernel intrinsic hip.{self.name}>"


class _Value(Stub):
    """A value stub read as an attribute (``threadIdx.x``) or a name (``warpsize``)."""

    def __init__(self, name: str, doc: str = "", fields: tuple[str, ...] = ()):
        super().__init__(name, doc)
        self._fields = fields

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_") or attr not in self.__dict__.get("_fields", ()):
            raise AttributeError(attr)
        raise RuntimeError(f"hip.{self.name}.{attr} can only be used inside a @hip.jit kernel")

    def __int__(self) -> int:
        raise RuntimeError(f"hip.{self.name} can only be used inside a @hip.jit kernel")


class _Namespace:
    """A group of stubs (``atomic.add``, ``shared.array``)."""

    def __init__(self, prefix: str, names: dict[str, str]):
        self._prefix = prefix
        for attr, doc in names.items():
            setattr(self, attr, Stub(f"{prefix}.{attr.rstrip('_')}", doc))

    def __repr__(self) -> str:
        return f"<gpusim kernel namespace hip.{self._prefix}>"


_XYZ = ("x", "y", "z")

# Thread position: per-thread (threadIdx), per-block (blockIdx), per-launch (blockDim, gridDim).
threadIdx = _Value("threadIdx", "This thread's index within its block (.x .y .z).", _XYZ)
blockIdx = _Value("blockIdx", "This block's index within the grid (.x .y .z).", _XYZ)
blockDim = _Value("blockDim", "Threads per block in each dimension (.x .y .z).", _XYZ)
gridDim = _Value("gridDim", "Blocks per grid in each dimension (.x .y .z).", _XYZ)
warpsize = _Value("warpsize", "Lanes per wavefront: 64 on CDNA, 32 on RDNA (wave32).")
laneid = _Value("laneid", "This thread's lane within its wavefront (0 .. warpsize-1).")

grid = Stub("grid", "grid(n): this thread's absolute index, an int (n=1) or a tuple (n=2, 3).")
gridsize = Stub("gridsize", "gridsize(n): threads in the whole grid per dimension.")

shared = _Namespace("shared", {"array": "shared.array(shape, dtype): LDS, one per block; "
                               "shape 0 is dynamic LDS sized by the launch."})
local = _Namespace("local", {"array": "local.array(shape, dtype): private per-thread array."})
const = _Namespace("const", {"array_like": "const.array_like(host_array): a read-only copy "
                                           "of a host array made when the kernel compiles."})

syncthreads = Stub("syncthreads", "Block barrier (__syncthreads): waits for every live thread.")
syncthreads_count = Stub("syncthreads_count", "Barrier; returns how many threads had pred true.")
syncthreads_and = Stub("syncthreads_and", "Barrier; returns 1 if pred is true in every thread.")
syncthreads_or = Stub("syncthreads_or", "Barrier; returns 1 if pred is true in any thread.")
syncwarp = Stub("syncwarp", "Wavefront barrier (mask ignored: the active lanes take part).")
threadfence = Stub("threadfence", "Memory fence visible to the whole device.")
threadfence_block = Stub("threadfence_block", "Memory fence visible to the block.")
threadfence_system = Stub("threadfence_system", "Memory fence visible to host and peers.")

atomic = _Namespace("atomic", {
    "add": "atomic.add(ary, idx, val): ary[idx] += val; returns the old value.",
    "sub": "atomic.sub(ary, idx, val): ary[idx] -= val; returns the old value.",
    "max": "atomic.max(ary, idx, val): ary[idx] = max(ary[idx], val); returns the old value.",
    "min": "atomic.min(ary, idx, val): ary[idx] = min(ary[idx], val); returns the old value.",
    "nanmax": "atomic.nanmax(ary, idx, val): max where a NaN counts as missing; returns old.",
    "nanmin": "atomic.nanmin(ary, idx, val): min where a NaN counts as missing; returns old.",
    "exch": "atomic.exch(ary, idx, val): ary[idx] = val; returns the old value.",
    "inc": "atomic.inc(ary, idx, val): old >= val ? 0 : old + 1 (CUDA wrap); returns old.",
    "dec": "atomic.dec(ary, idx, val): (old == 0 or old > val) ? val : old - 1; returns old.",
    "and_": "atomic.and_(ary, idx, val): ary[idx] &= val; returns the old value.",
    "or_": "atomic.or_(ary, idx, val): ary[idx] |= val; returns the old value.",
    "xor": "atomic.xor(ary, idx, val): ary[idx] ^= val; returns the old value.",
    "cas": "atomic.cas(ary, idx, expected, val): store val if ary[idx] == expected; "
           "returns the old value.",
    "compare_and_swap": "atomic.compare_and_swap(ary, expected, val): cas on ary[0].",
})

shfl = Stub("shfl", "shfl(v, src_lane[, width]): v from lane src_lane of this segment.")
shfl_up = Stub("shfl_up", "shfl_up(v, delta[, width]): v from lane - delta (own v if none).")
shfl_down = Stub("shfl_down", "shfl_down(v, delta[, width]): v from lane + delta (own v if none).")
shfl_xor = Stub("shfl_xor", "shfl_xor(v, mask[, width]): v from lane ^ mask.")
ballot = Stub("ballot", "ballot(pred): uint64 mask of the active lanes whose pred is true.")
any = Stub("any", "any(pred): 1 if pred is true in any active lane.")  # noqa: A001
all = Stub("all", "all(pred): 1 if pred is true in every active lane.")  # noqa: A001
activemask = Stub("activemask", "activemask(): uint64 mask of the lanes executing this call.")

# CUDA spellings with an explicit member mask. The mask is accepted and not applied: the
# active lanes take part, which is what CUDA code means by 0xffffffff (a whole warp).
shfl_sync = Stub("shfl_sync", "shfl_sync(mask, v, src_lane[, width])")
shfl_up_sync = Stub("shfl_up_sync", "shfl_up_sync(mask, v, delta[, width])")
shfl_down_sync = Stub("shfl_down_sync", "shfl_down_sync(mask, v, delta[, width])")
shfl_xor_sync = Stub("shfl_xor_sync", "shfl_xor_sync(mask, v, lane_mask[, width])")
ballot_sync = Stub("ballot_sync", "ballot_sync(mask, pred)")
any_sync = Stub("any_sync", "any_sync(mask, pred)")
all_sync = Stub("all_sync", "all_sync(mask, pred)")

popc = Stub("popc", "popc(x): number of set bits.")
ffs = Stub("ffs", "ffs(x): 1-based position of the lowest set bit, 0 if x == 0.")
clz = Stub("clz", "clz(x): leading zero bits in x's width (32 or 64).")
brev = Stub("brev", "brev(x): x with its bits reversed within its width.")
fma = Stub("fma", "fma(a, b, c): a * b + c with a single rounding.")
cbrt = Stub("cbrt", "cbrt(x): the real cube root of x (float32 stays float32).")
bf16 = Stub("bf16", "bf16(x): the bfloat16 bit pattern (uint16) of x, rounded to nearest "
            "even (HIP's __float2bfloat16); a uint16 stays as it is.")
# printf(fmt, *values): C's printf from a kernel (the host formats it; device/printf.py).
from gpusim.compile.device.printf import printf  # noqa: E402

# Scalar types, so kernels can write hip.float32 (numba.cuda exposes numba's types too).
float16, float32, float64 = np.float16, np.float32, np.float64
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
bool_ = np.bool_


class DeviceFunction:
    """A ``@hip.jit(device=True)`` function: inlined into every kernel that calls it.

    Called from host code it runs the plain Python function (handy for testing it).

    >>> def twice(x):
    ...     return 2 * x
    >>> DeviceFunction(twice)(21)
    42
    """

    def __init__(self, py_func: Callable[..., Any]):
        self.py_func = py_func
        self.__name__ = getattr(py_func, "__name__", "device_function")
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.py_func(*args, **kwargs)

    def __deepcopy__(self, memo: dict) -> DeviceFunction:
        return self  # identity matters: the compiler spots recursion by it

    def __repr__(self) -> str:
        return f"<gpusim device function {self.__name__}>"


class LocalStruct:
    """A library type whose values are private per-thread arrays (rocRAND's generator
    states): ``st = T()`` in a kernel declares ``hip.local.array(size, dtype)`` and stores
    ``init`` (pairs of index, value) into it there; on the host it returns that array.
    ``space="shared"``: one array a block shares (``hip.shared.array``), as rocRAND's
    MTGP32 state is a ``__shared__`` struct its block's threads draw from together.

    >>> T = LocalStruct("pair_state", 2, np.uint32, init=((1, 7),))
    >>> T()
    array([0, 7], dtype=uint32)
    """

    def __init__(self, name: str, size: int, dtype: Any, init: tuple = (), doc: str = "",
                 space: str = "local"):
        self.__name__, self.size, self.dtype, self.init = name, size, np.dtype(dtype), init
        self.space = space
        self.__doc__ = doc or f"{name}(): a private {size}-word state"

    def __call__(self) -> np.ndarray:
        out = np.zeros(self.size, self.dtype)
        for i, v in self.init:
            out[i] = v
        return out

    def __repr__(self) -> str:
        return f"<gpusim local struct {self.__name__}>"


class Overload(DeviceFunction):
    """A library device function with one implementation per ``LocalStruct`` type of its
    argument ``arg`` (C++ overloading on a state type; -1: the last argument, where the
    overloads differ in arity, as rocRAND's ``rocrand_init`` do). The compiler picks the
    implementation when it inlines the call, from the struct that declared the array; on
    the host the array's fixed ``init`` words tell the types apart.

    >>> A = LocalStruct("a_state", 2, np.uint32, init=((1, 1),))
    >>> B = LocalStruct("b_state", 2, np.uint32, init=((1, 2),))
    >>> name = Overload("name", 0, {A: DeviceFunction(lambda s: "a"),
    ...                             B: DeviceFunction(lambda s: "b")})
    >>> name(B())
    'b'
    """

    def __init__(self, name: str, arg: int, impls: dict[LocalStruct, DeviceFunction]):
        super().__init__(next(iter(impls.values())).py_func)
        self.__name__, self.arg = name, arg
        self.impls = {struct.__name__: impl for struct, impl in impls.items()}
        self.structs = list(impls)

    def pick(self, struct_name: str) -> DeviceFunction | None:
        """The implementation for arrays declared by the struct named ``struct_name``."""
        return self.impls.get(struct_name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        state = args[self.arg]
        for struct in self.structs:  # (this module's `all` is the kernel intrinsic)
            if state.size == struct.size and not [i for i, v in struct.init if state[i] != v]:
                return self.impls[struct.__name__](*args, **kwargs)
        raise TypeError(f"{self.__name__}: argument {self.arg} is not a state made by "
                        + " / ".join(f"{s.__name__}()" for s in self.structs))


# hip.mfma_f32_32x32x8bf16_1k(a, b, acc) and the other matrix-core instructions.
from gpusim.compile.lang_mfma import *  # noqa: E402, F403
from gpusim.compile.lang_mfma import __all__ as _mfma_names  # noqa: E402

__all__ = [*_mfma_names,
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpsize", "laneid", "grid", "gridsize",
    "shared", "local", "const", "syncthreads", "syncthreads_count", "syncthreads_and",
    "syncthreads_or", "syncwarp", "threadfence", "threadfence_block", "threadfence_system",
    "atomic", "shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "activemask",
    "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "ballot_sync", "any_sync",
    "all_sync", "popc", "ffs", "clz", "brev", "fma", "cbrt", "bf16", "printf", "float16", "float32",
    "float64", "int8",
    "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "DeviceFunction",
    "LocalStruct", "Overload", "Stub",
]
