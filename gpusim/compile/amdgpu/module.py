"""One kernel specialization -> a whole LLVM module for ``amdgcn-amd-amdhsa``.

The module holds the ``amdgpu_kernel`` function, its LDS and constant globals, the
intrinsic declarations and the attributes hipcc would set:

- ``"amdgpu-flat-work-group-size"="1,N"``: N is ``launch_bounds`` or 1024, hipcc's
  default, so the counts are those of a kernel compiled before anyone knows the launch;
- ``"uniform-work-group-size"="true"`` (HIP launches whole work-groups);
- ``"target-features"="+wavefrontsize32"`` (or ``64``) on RDNA, from the device's
  wave size; CDNA is wave64 only.

Kernel arguments, in order: each array as ``ptr addrspace(1)`` then its shape as
``i64`` s (then byte strides for a non-contiguous view), each scalar by value (``bool`` as
``i8``). The shape travels as arguments because the Python kernel reads ``a.shape`` and
``a.size``; a C++ kernel would pass ``n`` itself, at the same cost (SGPRs).

``GPUSIM_DEBUG=llvm`` (or ``gpusim.config.debug = "llvm"``) prints each lowered module.

>>> import numba
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> def fill(out):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = i
>>> lk = lower_kernel(fill, (numba.types.float32[::1],), get_spec("mi300x"))
>>> [ln for ln in lk.ir.splitlines() if ln.startswith("define")]
['define amdgpu_kernel void @fill(ptr addrspace(1) %arg.out, i64 %arg.out.shape0) #0 {']
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba.core import types
from numba.np.numpy_support import from_dtype

from gpusim.compile.amdgpu.emit import (
    CONSTANT,
    GLOBAL,
    I64,
    PRIVATE,
    SHARED,
    Value,
    const,
    ll_type,
    mem_type,
)
from gpusim.compile.amdgpu.expressions import ArrayInfo
from gpusim.compile.amdgpu.intrinsics import WGRED_GLOBAL
from gpusim.compile.amdgpu.statements import KernelLowering
from gpusim.compile.amdgpu.unsupported import unsupported
from gpusim.compile.pipeline import front_end
from gpusim.config import config
from gpusim.errors import GpusimError

TRIPLE = "amdgcn-amd-amdhsa"
# Up to typing: the rest of the pipeline (split, liveness, generate) is the CPU schedule.
FRONT_PASSES = ("parse", "subset", "resolve", "normalize", "infer")
DEFAULT_FLAT_WORKGROUP_SIZE = 1024  # hipcc's "amdgpu-flat-work-group-size"="1,1024"
# ROCm 6's code objects (v5): blockDim/gridDim are read from its hidden kernel arguments.
CODE_OBJECT_VERSION = 500


@dataclass(frozen=True)
class LoweredKernel:
    """The LLVM module of one kernel for one gfx target and wave size."""

    name: str
    ir: str
    target: str
    wave_size: int
    max_flat_workgroup_size: int
    static_lds_bytes: int  # declared shared arrays (LLVM may add its own, e.g. reductions)
    dynamic_lds: bool


@functools.cache
def datalayout(target: str) -> str:
    """LLVM's data layout for ``target`` (private allocas live in address space 5)."""
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    machine = llvm.Target.from_triple(TRIPLE).create_target_machine(cpu=target)
    return str(machine.target_data)


def lower_kernel(pyfunc: Any, arg_types: tuple, spec: Any, *,
                 launch_bounds: int | None = None) -> LoweredKernel:
    """Lower ``pyfunc`` for numba ``arg_types`` on device ``spec`` (a DeviceSpec).

    Raises ``AmdgpuLoweringError`` naming the first construct not lowered yet.
    """
    kir = front_end(pyfunc, wave_size=spec.wave_size, arg_types=tuple(arg_types),
                    passes=FRONT_PASSES, target=spec.gfx_target)
    if not re.fullmatch(r"[A-Za-z_]\w*", kir.name, flags=re.ASCII):
        raise unsupported(kir, kir.func, f"the kernel name {kir.name!r} (not ASCII)",
                          instead="an ASCII name")
    low = KernelLowering(kir, spec.wave_size)
    try:
        params = _parameters(low, kir)
        globals_ = _arrays(low, kir)
        low.declare_variables()
        for name, value in low.pending_args:
            low.store_var(name, value, kir.func)
        low.block(kir.func.body)
    except GpusimError:
        raise
    except Exception as exc:  # a lowering bug: name the statement, never crash a launch
        raise unsupported(kir, low.node, "this statement", f"internal error in the AMDGPU "
                          f"lowering, {type(exc).__name__}: {exc}; please report it") from exc
    body = low.fb.render()
    if low.uses_wgred:
        globals_.append(f"@{WGRED_GLOBAL} = internal addrspace(3) global i32 poison, align 4")
    bound = launch_bounds or DEFAULT_FLAT_WORKGROUP_SIZE
    attrs = [f'"amdgpu-flat-work-group-size"="1,{bound}"', '"uniform-work-group-size"="true"']
    if not spec.gfx_target.startswith("gfx9"):
        attrs.append(f'"target-features"="+wavefrontsize{spec.wave_size}"')
    lines = [
        f"; kernel '{kir.name}' lowered by gpusim for {spec.gfx_target} (wave{spec.wave_size})",
        f'target datalayout = "{datalayout(spec.gfx_target)}"',
        f'target triple = "{TRIPLE}"',
        "",
        *globals_,
        "",
        f"define amdgpu_kernel void @{kir.name}({', '.join(params)}) #0 {{",
        *body,
        "}",
        "",
        *sorted(low.fb.declarations.values()),
        "",
        f"attributes #0 = {{ {' '.join(attrs)} }}",
        "!llvm.module.flags = !{!1}",
        "!0 = !{}",
        f'!1 = !{{i32 1, !"amdhsa_code_object_version", i32 {CODE_OBJECT_VERSION}}}',
    ]
    text = "\n".join(lines) + "\n"
    if "llvm" in (item.strip() for item in (config.debug or "").split(",")):
        print(text, file=sys.stderr)  # GPUSIM_DEBUG=llvm
    decls = [d for d in kir.arrays.values() if d.space == "shared"]
    return LoweredKernel(
        name=kir.name, ir=text, target=spec.gfx_target,
        wave_size=spec.wave_size, max_flat_workgroup_size=bound,
        static_lds_bytes=sum(d.nbytes for d in decls),
        dynamic_lds=any(d.dynamic for d in decls))


def _parameters(low: KernelLowering, kir: Any) -> list[str]:
    """The kernel's LLVM parameters; scalars are stored into their variables later."""
    params: list[str] = []
    for name, ty in zip(kir.params, kir.arg_types, strict=True):
        arg = f"%arg.{name}"
        if isinstance(ty, types.Array):
            if not isinstance(ty.dtype, (types.Integer, types.Float, types.Boolean)):
                raise unsupported(kir, kir.func, f"arrays of {ty.dtype}")
            shape = [Value(f"{arg}.shape{k}", I64) for k in range(ty.ndim)]
            params.append(f"ptr addrspace({GLOBAL}) {arg}")
            params += [f"i64 {v.ref}" for v in shape]
            strides = None
            if ty.layout == "A":
                strides = [Value(f"{arg}.stride{k}", I64) for k in range(ty.ndim)]
                params += [f"i64 {v.ref}" for v in strides]
            low.arrays[name] = ArrayInfo(ty.dtype, GLOBAL, arg, shape, strides,
                                         "F" if ty.layout == "F" else "C")
        elif isinstance(ty, types.Boolean):
            params.append(f"i8 {arg}")
            low.fb.emit(f"{arg}.bool = icmp ne i8 {arg}, 0")
            low.pending_args.append((name, Value(f"{arg}.bool", ty)))
        elif isinstance(ty, (types.Integer, types.Float)):
            params.append(f"{ll_type(ty)} {arg}")
            low.pending_args.append((name, Value(arg, ty)))
        else:
            raise unsupported(kir, kir.func, f"a kernel argument of type {ty}",
                              instead="arrays, integers, floats and bools")
        if name not in kir.types and not isinstance(ty, types.Array):
            kir.types[name] = ty  # read-only scalar arguments get a variable too
    return params


def _arrays(low: KernelLowering, kir: Any) -> list[str]:
    """LDS, constant and private arrays: module globals or entry-block allocas."""
    out: list[str] = []
    for k, (name, decl) in enumerate(kir.arrays.items()):
        ident = name if re.fullmatch(r"\w+", name, flags=re.ASCII) else f"array{k}"
        dtype = from_dtype(np.dtype(decl.dtype))
        mem = mem_type(dtype)
        shape = [const(int(n), I64) for n in decl.shape] or [const(0, I64)]
        count = int(np.prod(decl.shape)) if decl.shape else 0
        if decl.space == "shared":  # prefixed: a global may not share the kernel's name
            ref = f"@lds.{ident}"
            if decl.dynamic:
                out.append(f"{ref} = external addrspace({SHARED}) global [0 x {mem}], align 16")
            else:
                out.append(f"{ref} = internal addrspace({SHARED}) global [{count} x {mem}] "
                           "poison, align 16")
            low.arrays[name] = ArrayInfo(dtype, SHARED, ref, shape, dynamic=decl.dynamic)
        elif decl.space == "const":
            ref = f"@const.{ident}"
            out.append(f"{ref} = internal addrspace({CONSTANT}) externally_initialized global "
                       f"[{count} x {mem}] zeroinitializer, align 16")
            low.arrays[name] = ArrayInfo(dtype, CONSTANT, ref, shape)
        else:  # local: private memory, promoted to registers where LLVM can
            ptr = low.fb.alloca(f"[{count} x {mem}]", name, align=16)
            low.arrays[name] = ArrayInfo(dtype, PRIVATE, ptr, shape)
    return out
