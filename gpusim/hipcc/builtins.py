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
# __shfl_sync(mask, v, lane[, width]) is __shfl(v, lane[, width]) once ROCm has checked
# that the mask names the lanes that call it (amd_warp_sync_functions.h).
SHFL_SYNC = {name + "_sync": fn for name, fn in CALLS.items() if name.startswith("__shfl")}
# __ballot_sync(mask, p) is __ballot(p) & mask, the mask's upper half dropped on a wave32
# device; __any_sync / __all_sync compare that with 0 / with the mask (the same header).
VOTE_SYNC = {"__ballot_sync": "{b}", "__any_sync": "np.int32({b} != np.uint64(0))",
             "__all_sync": "np.int32({b} == {m})"}

# Device functions that read what gpusim does not model, and what to use instead.
_NO_CYCLES = ("gpusim runs a kernel's threads functionally, not cycle by cycle, so there "
              "is no cycle counter to read", "time the kernel from the host (hipEventRecord + "
              "hipEventElapsedTime, or gpusim.profile) and count its instructions with "
              "kernel.isa()")
UNMODELED = {"clock": _NO_CYCLES, "clock64": _NO_CYCLES, "wall_clock64": _NO_CYCLES}

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
# atomicAdd_system ...: the same operation at system scope. gpusim's host, peers and
# device see one memory, so only the name differs.
ATOMICS |= {f"{name}_system": op for name, op in ATOMICS.items()
            if name not in ("atomicInc", "atomicDec")}

# Position built-ins: threadIdx.x -> hip.threadIdx.x
POSITION = {"threadIdx", "blockIdx", "blockDim", "gridDim"}

# <hip/hip_fp16.h>: a __half is a float16 number of the kernel language, a __half2 a struct
# of two (fields x, y). Each function -> a template over its arguments, each converted to
# its parameter's type first: {a} {b} {c} for a number, {ax} {ay} (...) for the fields of
# a __half2 or float2. A __half2 (or float2) result is a pair of templates, one per field.
# float16 + - * / of two float16 values is float16 arithmetic rounded once (the kernel
# language's rule, passes/half.py); a fused or math result is computed in float64 and
# rounded once with np.float16 (a float16 product is exact in float64, so __hfma is too).
_HALF1 = {
    "__hadd": "{a} + {b}", "__hsub": "{a} - {b}", "__hmul": "{a} * {b}", "__hdiv": "{a} / {b}",
    "__hfma": "np.float16(np.float64({a}) * np.float64({b}) + np.float64({c}))",
    "__hneg": "-{a}", "__habs": "abs({a})",
    # IEEE fmax/fmin as ROCm's __ocml_fmax_f16: a NaN operand gives the other operand
    "__hmax": "{b} if {a} != {a} or {b} > {a} else {a}",
    "__hmin": "{b} if {a} != {a} or {b} < {a} else {a}",
}
# comparisons as ROCm writes them: __hne is C's != (true for NaN), ...u true if unordered
_HALF_CMP = {
    "__heq": "{a} == {b}", "__hne": "{a} != {b}", "__hlt": "{a} < {b}", "__hle": "{a} <= {b}",
    "__hgt": "{a} > {b}", "__hge": "{a} >= {b}", "__hequ": "not ({a} < {b} or {a} > {b})",
    "__hneu": "not {a} == {b}", "__hltu": "not {a} >= {b}", "__hleu": "not {a} > {b}",
    "__hgtu": "not {a} <= {b}", "__hgeu": "not {a} < {b}",
}
_HALF_MATH = {  # h<name>(__half) and h2<name>(__half2): float64, rounded once
    "sqrt": "math.sqrt({w})", "rsqrt": "1.0 / math.sqrt({w})", "rcp": "1.0 / {w}",
    "sin": "math.sin({w})", "cos": "math.cos({w})", "exp": "math.exp({w})",
    "exp2": "math.pow(2.0, {w})", "exp10": "math.pow(10.0, {w})", "log": "math.log({w})",
    "log2": "math.log2({w})", "log10": "math.log10({w})", "floor": "np.floor({w})",
    "ceil": "np.ceil({w})", "trunc": "np.trunc({w})", "rint": "np.rint({w})",
}


def _lanes(template: str) -> tuple[str, str]:
    """A __half template applied to the x fields, then to the y fields, of __half2s."""
    return (template.format(a="{ax}", b="{bx}", c="{cx}"),
            template.format(a="{ay}", b="{by}", c="{cy}"))


_HALF_MATH1 = {"h" + name: f"np.float16({t.format(w='np.float64({a})')})"
               for name, t in _HALF_MATH.items()}
HALF: dict[str, str | tuple[str, str]] = {
    **_HALF1, **_HALF_CMP, **_HALF_MATH1,
    "__hisnan": "{a} != {a}", "__hisinf": "math.isinf(np.float32({a}))",
    "__hisnan2": _lanes("np.float16(1.0) if {a} != {a} else np.float16(0.0)"),
    "__hisinf2": _lanes("np.float16(1.0) if math.isinf(np.float32({a})) else np.float16(0.0)"),
    # conversions: float -> half rounds to nearest even, half -> float is exact
    **dict.fromkeys(["__float2half", "__float2half_rn", "__double2half", "__int2half_rn",
                     "__uint2half_rn", "__short2half_rn", "__ushort2half_rn"],
                    "np.float16({a})"),
    "__half2float": "np.float32({a})", "__half2int_rz": "np.int32({a})",
    "__half2uint_rz": "np.uint32({a})", "__half2short_rz": "np.int16({a})",
    "__half2ushort_rz": "np.uint16({a})",
    "__low2float": "np.float32({ax})", "__high2float": "np.float32({ay})",
    "__low2half": "{ax}", "__high2half": "{ay}",
    # __half2 results
    "__float2half2_rn": ("np.float16({a})", "np.float16({a})"),
    "__floats2half2_rn": ("np.float16({a})", "np.float16({b})"),
    "__float22half2_rn": ("np.float16({ax})", "np.float16({ay})"),
    "__half22float2": ("np.float32({ax})", "np.float32({ay})"),
    "make_half2": ("{a}", "{b}"), "__halves2half2": ("{a}", "{b}"),
    "__half2": ("{a}", "{b}"),  # the constructor __half2(x, y)
    "__half2half2": ("{a}", "{a}"), "__low2half2": ("{ax}", "{ax}"),
    "__high2half2": ("{ay}", "{ay}"), "__lows2half2": ("{ax}", "{bx}"),
    "__highs2half2": ("{ay}", "{by}"), "__lowhigh2highlow": ("{ay}", "{ax}"),
    **{("__h2div" if name == "__hdiv" else name + "2"): _lanes(t) for name, t in _HALF1.items()},
    **{"h2" + name[1:]: _lanes(t) for name, t in _HALF_MATH1.items()},
    **{name + "2": _lanes(f"np.float16(1.0) if {t} else np.float16(0.0)")
       for name, t in _HALF_CMP.items()},
    **{"__hb" + name[3:] + "2": " and ".join(f"({t})" for t in _lanes(t))
       for name, t in _HALF_CMP.items()},
}
# __half2 operators (HIP's, per half; == and < when both halves compare so, != <= >= their
# negations as ROCm writes them), keyed by name and operand count: `operator-1` is -v;
# the compound ones (`v += w`) are statements that store this value into v.
_OPS2 = {"+": "__hadd2", "-": "__hsub2", "*": "__hmul2", "/": "__h2div"}
HALF.update({f"operator{op}2": HALF[fn] for op, fn in _OPS2.items()})
HALF.update({f"operator{op}=2": HALF[fn] for op, fn in _OPS2.items()})
HALF.update({"operator-1": HALF["__hneg2"], "operator+1": ("{ax}", "{ay}"),
             "operator==2": HALF["__hbeq2"], "operator!=2": f"not ({HALF['__hbeq2']})",
             "operator<2": HALF["__hblt2"],
             "operator>2": HALF["__hblt2"].format(ax="{bx}", ay="{by}", bx="{ax}", by="{ay}"),
             "operator<=2": "not ({})".format(
                 HALF["__hblt2"].format(ax="{bx}", ay="{by}", bx="{ax}", by="{ay}")),
             "operator>=2": f"not ({HALF['__hblt2']})"})
