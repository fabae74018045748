"""A kernel's real resource usage and ISA, from LLVM's AMDGPU backend; cached.

``amdgpu_compile`` lowers a specialization (``module.py``) and compiles it with
``occupancy_model.compile_amdgpu(..., optimize=3)``: LLVM's ``O3`` pipeline, then code
generation, in the worker process, as ``hipcc -O3`` would. About 20-60 ms per kernel
and target the first time; every answer (a failure too) is cached per function,
argument types, target, wave size and launch bounds.

``amdgpu_resources`` returns a plain dict a notebook can print and ``occupancy()`` can
read (``kernel_resources`` takes the ``vgprs``/``sgprs``/``agprs``/``lds_bytes``/
``target``/``max_flat_workgroup_size`` keys); ``occupancy`` in it is the ``Occupancy``
record for ``block_size`` threads (default: the largest work-group the kernel was
compiled for). When the kernel uses a construct the lowering does not handle yet, the
error says which and where, unless ``fallback`` counts were given.

>>> import numba
>>> from gpusim.compile import lang as hip
>>> def fill(out):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = i
>>> r = amdgpu_resources(fill, (numba.types.float32[::1],), "mi300x")  # doctest: +SKIP
>>> r["vgprs"] < 16, r["lds_bytes"], r["source"]                        # doctest: +SKIP
(True, 0, 'llvm')
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from gpusim.compile.amdgpu.module import DEFAULT_FLAT_WORKGROUP_SIZE, lower_kernel
from gpusim.compile.amdgpu.unsupported import AmdgpuLoweringError
from gpusim.compile.pipeline import front_end
from gpusim.occupancy_model import AmdgpuCompileError, AmdgpuResult, compile_amdgpu, occupancy
from gpusim.occupancy_model.calculator import resolve_device

OPT_LEVEL = 3  # hipcc's default -O3
FALLBACK_KEYS = ("vgprs", "sgprs", "agprs", "lds_bytes", "scratch_bytes")
NOT_LOWERED = (AmdgpuLoweringError, AmdgpuCompileError)

_cache: dict[tuple, AmdgpuResult | Exception] = {}
_lock = threading.Lock()


def amdgpu_compile(pyfunc: Any, arg_types: tuple, device: Any, *,
                   launch_bounds: int | None = None) -> AmdgpuResult:
    """LLVM's ``AmdgpuResult`` for ``pyfunc`` with numba ``arg_types`` on ``device``
    (a profile key, gfx target or DeviceSpec). Raises what ``NOT_LOWERED`` names."""
    spec = resolve_device(device)
    key = (pyfunc, tuple(arg_types), spec.gfx_target, spec.wave_size, launch_bounds)
    with _lock:
        found = _cache.get(key)
    if found is None:
        try:
            lowered = lower_kernel(pyfunc, arg_types, spec, launch_bounds=launch_bounds)
            found = _compile(lowered.ir, lowered.target, lowered.name)
        except NOT_LOWERED as err:
            found = err
        with _lock:
            _cache[key] = found
    if isinstance(found, Exception):
        raise found
    return found


def _compile(ir: str, target: str, name: str) -> AmdgpuResult:
    return compile_amdgpu(ir, target, kernel=name, optimize=OPT_LEVEL)


def amdgpu_resources(pyfunc: Any, arg_types: tuple, device: Any, *,
                     launch_bounds: int | None = None, block_size: int | None = None,
                     fallback: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Registers, LDS, scratch, spills and occupancy of one kernel specialization.

    Keys: ``kernel device target wave_size vgprs agprs sgprs lds_bytes scratch_bytes
    spills occupancy_waves_per_simd`` (the compiler's own number)
    ``max_flat_workgroup_size source`` ("llvm" or "fallback") and ``occupancy`` (an
    ``Occupancy`` for ``block_size`` threads); with a fallback also ``reason``.
    """
    spec = resolve_device(device)
    bound = launch_bounds or DEFAULT_FLAT_WORKGROUP_SIZE
    try:
        r = amdgpu_compile(pyfunc, arg_types, spec, launch_bounds=launch_bounds)
        out: dict[str, Any] = {
            "vgprs": r.vgprs, "agprs": r.agprs, "sgprs": r.sgprs, "lds_bytes": r.lds_bytes,
            "scratch_bytes": r.scratch_bytes, "spills": r.spills,
            "occupancy_waves_per_simd": r.occupancy_waves_per_simd,
            "max_flat_workgroup_size": r.max_flat_workgroup_size, "source": "llvm",
        }
    except NOT_LOWERED as err:
        if fallback is None:
            raise
        out = _fallback(fallback, pyfunc, arg_types, spec, bound)
        out["reason"] = str(err)
    out = {"kernel": getattr(pyfunc, "__name__", "kernel"), "device": spec.key,
           "target": spec.gfx_target, "wave_size": spec.wave_size, **out}
    out["occupancy"] = occupancy(
        block_size=block_size or out["max_flat_workgroup_size"], vgprs=out["vgprs"],
        sgprs=out["sgprs"], agprs=out["agprs"], lds_bytes=out["lds_bytes"], device=spec)
    return out


def _fallback(given: Mapping[str, int], pyfunc: Any, arg_types: tuple, spec: Any,
              bound: int) -> dict[str, Any]:
    unknown = set(given) - set(FALLBACK_KEYS)
    if unknown or not {"vgprs", "sgprs"} <= set(given):
        raise ValueError(f"fallback takes 'vgprs' and 'sgprs' (and optionally 'agprs', "
                         f"'lds_bytes', 'scratch_bytes'); got {sorted(given)}")
    lds = given.get("lds_bytes")
    if lds is None:  # the declared shared arrays, which the front end knows without LLVM
        kir = front_end(pyfunc, wave_size=spec.wave_size, arg_types=tuple(arg_types),
                        passes=("parse", "subset", "resolve", "normalize"))
        lds = sum(d.nbytes for d in kir.arrays.values() if d.space == "shared")
    return {"vgprs": int(given["vgprs"]), "agprs": int(given.get("agprs", 0)),
            "sgprs": int(given["sgprs"]), "lds_bytes": int(lds),
            "scratch_bytes": int(given.get("scratch_bytes", 0)), "spills": None,
            "occupancy_waves_per_simd": None, "max_flat_workgroup_size": bound,
            "source": "fallback"}


def amdgpu_isa(pyfunc: Any, arg_types: tuple, device: Any, *,
               launch_bounds: int | None = None, full: bool = False) -> str:
    """The kernel's assembly: its code (from the kernel label to ``s_endpgm``) under a
    one-line summary, or with ``full=True`` everything LLVM printed (directives and the
    ``.amdhsa_kernel`` descriptor and metadata, as ``hipcc -S`` shows)."""
    r = amdgpu_compile(pyfunc, arg_types, device, launch_bounds=launch_bounds)
    if full:
        return r.isa
    return isa_code(r)


def isa_code(r: AmdgpuResult) -> str:
    """The code of kernel ``r.kernel`` in ``r.isa`` with a summary comment on top."""
    lines = r.isa.splitlines()
    start = next((k for k, ln in enumerate(lines) if ln.strip() == f"{r.kernel}:"), 0)
    end = next((k for k in range(start, len(lines))
                if lines[k].startswith((".Lfunc_end", "\t.section"))), len(lines))
    head = (f"; {r.kernel} on {r.target} (wave{r.wave_size}): {r.vgprs} VGPRs, {r.agprs} "
            f"AGPRs, {r.sgprs} SGPRs, {r.lds_bytes} B LDS, {r.scratch_bytes} B scratch, "
            f"occupancy {r.occupancy_waves_per_simd} waves/SIMD")
    return "\n".join([head, *lines[start:end]]) + "\n"
