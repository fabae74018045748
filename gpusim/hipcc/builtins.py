"""What HIP's device built-ins and math functions become in the kernel language.

Names as HIP spells them (ROCm's hip/amd_detail/amd_device_functions.h and
amd_warp_functions.h); values are ``gpusim.hip`` intrinsics, or ``math`` / NumPy
functions the front end accepts.
"""

from __future__ import annotations

# __syncthreads() -> hip.syncthreads(), and friends: the same arguments, in order.
CALLS = {
    "__syncthreads": "hip.syncthreads", "__syncthreads_count": "hip.syncthreads_count",
    "__syncthreads_and": "hip.syncthreads_and", "__syncthreads_or": "hip.syncthreads_or",
    "__threadfence": "hip.threadfence", "__threadfence_block": "hip.threadfence_block",
    "__threadfence_system": "hip.threadfence_system",
    "__shfl": "hip.shfl", "__shfl_up": "hip.shfl_up", "__shfl_down": "hip.shfl_down",
    "__shfl_xor": "hip.shfl_xor", "__ballot": "hip.ballot", "__any": "hip.any",
    "__all": "hip.all", "__activemask": "hip.activemask",
    "__popcll": "hip.popc", "__clzll": "hip.clz", "__ffsll": "hip.ffs", "__brevll": "hip.brev",
    "fmaf": "hip.fma", "fma": "hip.fma", "min": "min", "max": "max", "abs": "abs",
}
# 32-bit bit functions: the argument is converted to the C parameter's width first, so
# __clz(x) counts within 32 bits even where the Python value is a wider integer.
BITS32 = {"__popc": ("hip.popc", "uint32"), "__clz": ("hip.clz", "int32"),
          "__ffs": ("hip.ffs", "int32"), "__brev": ("hip.brev", "uint32")}

# sqrtf/sqrt -> math.sqrt ...: the float32 ('f') spelling and the double one.
_MATH = {"sqrt": "math.sqrt", "cbrt": "np.cbrt", "exp": "math.exp", "expm1": "math.expm1",
         "log": "math.log", "log2": "math.log2", "log10": "math.log10", "log1p": "math.log1p",
         "sin": "math.sin", "cos": "math.cos", "tan": "math.tan", "asin": "math.asin",
         "acos": "math.acos", "atan": "math.atan", "sinh": "math.sinh", "cosh": "math.cosh",
         "tanh": "math.tanh", "fabs": "abs", "floor": "np.floor", "ceil": "np.ceil",
         "trunc": "np.trunc", "rint": "np.rint", "erf": "math.erf", "erfc": "math.erfc",
         "pow": "math.pow", "atan2": "math.atan2", "fmin": "np.fmin", "fmax": "np.fmax",
         "fmod": "math.fmod", "hypot": "math.hypot", "copysign": "math.copysign",
         "isnan": "math.isnan", "isinf": "math.isinf", "isfinite": "math.isfinite"}
MATH = {**_MATH, **{name + "f": fn for name, fn in _MATH.items()}}

# atomicAdd(p, v) -> hip.atomic.add(array, index, v)
ATOMICS = {"atomicAdd": "add", "atomicSub": "sub", "atomicMax": "max", "atomicMin": "min",
           "atomicExch": "exch", "atomicAnd": "and_", "atomicOr": "or_", "atomicXor": "xor",
           "atomicInc": "inc", "atomicDec": "dec", "atomicCAS": "cas"}

# Position built-ins: threadIdx.x -> hip.threadIdx.x
POSITION = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
