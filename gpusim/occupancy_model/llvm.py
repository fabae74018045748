"""Real register, LDS and occupancy numbers from LLVM's AMDGPU backend (in llvmlite).

Data flow::

    LLVM IR text (a probe from probe_kernel_ir, or a kernel lowered by gpusim.compile)
        |  compile_amdgpu(ir, "gfx942")          cached; one worker process, reused
        v
    _llvm_worker.py   llvmlite: parse -> verify -> emit_assembly for amdgcn-amd-amdhsa
        |  assembly text + "kernel-resource-usage" remarks (stderr)
        v
    AmdgpuResult      ISA, VGPRs, AGPRs, SGPRs, LDS, scratch, spills and the compiler's
                      own occupancy (waves per SIMD); pass it to occupancy() as a kernel

The numbers come from two places LLVM fills from the same ``SIProgramInfo``: the
remarks ``clang -Rpass-analysis=kernel-resource-usage`` prints (counts and occupancy),
and the AMDHSA code-object metadata in the assembly (``.group_segment_fixed_size``,
``.wavefront_size``, ``.max_flat_workgroup_size``; AMDGPUUsage "Code Object V3+
Metadata"). https://llvm.org/docs/AMDGPUUsage.html

>>> r = compile_amdgpu(probe_kernel_ir(vgprs=128, block_size=256), "gfx942")  # doctest: +SKIP
>>> r.vgprs, r.occupancy_waves_per_simd                                         # doctest: +SKIP
(128, 4)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from gpusim.errors import GpusimError
from gpusim.occupancy_model._llvm_process import TRIPLE, run_llc

ARCH_VGPRS = 256  # v0..v255 (and a0..a255) are all an instruction can name


class AmdgpuCompileError(GpusimError):
    """LLVM's AMDGPU backend rejected the IR, or is not available in this llvmlite."""


@dataclass(frozen=True)
class AmdgpuResult:
    """What LLVM reports for one kernel compiled for one gfx target.

    ``vgprs`` counts architected VGPRs, ``agprs`` accumulation registers (gfx908,
    gfx90a, gfx942), ``sgprs`` the total a wave is given (incl. VCC, FLAT_SCRATCH,
    XNACK_MASK), ``lds_bytes`` the static LDS, ``scratch_bytes`` private memory per lane.
    """

    kernel: str
    target: str
    isa: str = field(repr=False)
    vgprs: int
    agprs: int
    sgprs: int
    lds_bytes: int
    scratch_bytes: int
    spills: int
    sgpr_spills: int
    vgpr_spills: int
    occupancy_waves_per_simd: int
    wave_size: int
    max_flat_workgroup_size: int
    dynamic_stack: bool

    def resources(self, device: object = None) -> dict[str, int | str]:
        """What ``occupancy()`` reads from a kernel: the four counts, the target they
        hold for and the largest workgroup the kernel was compiled for."""
        return {
            "vgprs": self.vgprs,
            "sgprs": self.sgprs,
            "agprs": self.agprs,
            "lds_bytes": self.lds_bytes,
            "target": self.target,
            "max_flat_workgroup_size": self.max_flat_workgroup_size,
        }


@functools.cache
def amdgpu_available() -> bool:
    """True when this llvmlite was built with the AMDGPU backend (numba's wheels are)."""
    try:
        import llvmlite.binding as llvm

        llvm.initialize_all_targets()
        llvm.Target.from_triple(TRIPLE)
    except Exception:  # noqa: BLE001 - any failure means "no backend"
        return False
    return True


def compile_amdgpu(
    ir_text: str, target: str, kernel: str | None = None, *, optimize: int = 0
) -> AmdgpuResult:
    """Compile LLVM IR for ``target`` (e.g. "gfx942") and read back its resource usage.

    ``kernel`` names the kernel to report when the module defines several. ``optimize``
    (0-3) runs LLVM's ``O<n>`` IR pipeline first, as hipcc does (``-O3`` by default);
    0 compiles the IR as written, like ``llc``. Results are cached by (IR, target,
    kernel, optimize). Raises AmdgpuCompileError with LLVM's message when the backend
    refuses the IR; the calling process is never affected.

    >>> compile_amdgpu(probe_kernel_ir(sgprs=40), "gfx90a").sgprs  # doctest: +SKIP
    44
    """
    return _compile(ir_text, target, kernel, optimize)


@functools.lru_cache(maxsize=1024)
def _compile(ir_text: str, target: str, kernel: str | None, optimize: int = 0) -> AmdgpuResult:
    try:
        asm, diagnostics = run_llc(ir_text, target, optimize)
    except RuntimeError as err:
        raise AmdgpuCompileError(str(err)) from None
    if asm is None:
        raise AmdgpuCompileError(f"LLVM could not compile this IR for {target}: {diagnostics}")
    found = re.search(r'\.amdgcn_target "[^"]*--(gfx[0-9a-f]+)', asm)
    if found is None or found[1] != target:
        raise AmdgpuCompileError(f"{target!r} is not a processor LLVM knows: {diagnostics}")
    kernels = _metadata(asm)
    if kernel is None:
        if len(kernels) != 1:
            raise AmdgpuCompileError(
                f"the module defines kernels {sorted(kernels)}; name one with kernel=..."
            )
        kernel = next(iter(kernels))
    if kernel not in kernels:
        raise AmdgpuCompileError(f"no kernel {kernel!r} in the module: {sorted(kernels)}")
    meta, remarks = kernels[kernel], _remarks(diagnostics).get(kernel)
    if remarks is None or "Occupancy [waves/SIMD]" not in remarks:
        raise AmdgpuCompileError(f"LLVM printed no resource-usage remarks for {kernel!r}")
    sgpr_spills, vgpr_spills = int(remarks["SGPRs Spill"]), int(remarks["VGPRs Spill"])
    return AmdgpuResult(
        kernel=kernel,
        target=target,
        isa=asm,
        vgprs=int(remarks["VGPRs"]),
        agprs=int(remarks.get("AGPRs", 0)),
        sgprs=int(remarks["TotalSGPRs"]),
        lds_bytes=int(meta["group_segment_fixed_size"]),
        scratch_bytes=int(remarks["ScratchSize [bytes/lane]"]),
        spills=sgpr_spills + vgpr_spills,
        sgpr_spills=sgpr_spills,
        vgpr_spills=vgpr_spills,
        occupancy_waves_per_simd=int(remarks["Occupancy [waves/SIMD]"]),
        wave_size=int(meta["wavefront_size"]),
        max_flat_workgroup_size=int(meta["max_flat_workgroup_size"]),
        dynamic_stack=remarks["Dynamic Stack"] == "True",
    )


# "remark: <file>:<line>:<col>: Function Name: k" then "remark: ...:     VGPRs: 12"
_REMARK = re.compile(r"^remark: .*?:\d+:\d+:\s+(?P<key>[^:]+?):\s*(?P<value>\S.*?)\s*$")


def _remarks(text: str) -> dict[str, dict[str, str]]:
    by_function: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in text.splitlines():
        m = _REMARK.match(line)
        if m is None:
            continue
        if m["key"] == "Function Name":
            current = by_function.setdefault(m["value"], {})
        else:
            current[m["key"]] = m["value"]
    return by_function


# Kernel entries of the YAML between .amdgpu_metadata and .end_amdgpu_metadata: each
# starts with "  - .key:", its scalar fields sit at four spaces.
_META_FIELD = re.compile(r"^(?:  - |    )\.(?P<key>\w+):[ \t]+(?P<value>\S.*?)\s*$")


def _metadata(asm: str) -> dict[str, dict[str, str]]:
    start, end = asm.find(".amdgpu_metadata"), asm.find(".end_amdgpu_metadata")
    kernels: list[dict[str, str]] = []
    for line in asm[start:end].splitlines():
        if line.startswith("  - ."):
            kernels.append({})
        m = _META_FIELD.match(line)
        if m is not None and kernels:
            kernels[-1][m["key"]] = m["value"].strip("'\"")
    return {k["name"]: k for k in kernels if "name" in k}


def probe_kernel_ir(
    *,
    vgprs: int = 0,
    sgprs: int = 0,
    agprs: int = 0,
    lds_bytes: int = 0,
    block_size: int = 256,
    name: str = "probe",
) -> str:
    """A kernel that uses exactly the given resources, for testing the rules.

    Inline asm that clobbers the highest register (v<N-1>, s<N-1>, a<N-1>) makes the
    allocator count N of them; a volatile store keeps an LDS array of ``lds_bytes``;
    ``amdgpu-flat-work-group-size`` fixes the workgroup size, which the occupancy rules
    need. The SGPR total LLVM reports adds VCC / FLAT_SCRATCH / XNACK_MASK to ``sgprs``.

    >>> print(probe_kernel_ir(vgprs=8, block_size=64).splitlines()[2])
      call void asm sideeffect "", "~{v7}"()
    """
    if not 1 <= block_size <= 1024:
        raise ValueError(f"block_size {block_size} is outside 1..1024")
    for label, count, most in (
        ("vgprs", vgprs, ARCH_VGPRS),
        ("agprs", agprs, ARCH_VGPRS),
        ("sgprs", sgprs, 108),
        ("lds_bytes", lds_bytes, 1 << 20),
    ):
        if not 0 <= count <= most:
            raise ValueError(f"{label} {count} is outside 0..{most}")
    clobbers = [f"~{{{reg}{n - 1}}}" for reg, n in (("v", vgprs), ("s", sgprs), ("a", agprs)) if n]
    lines = [f'target triple = "{TRIPLE}"']
    if lds_bytes:
        lines.append(f"@lds = internal addrspace(3) global [{lds_bytes} x i8] poison, align 4")
    lines.append(f"define amdgpu_kernel void @{name}() #0 {{")
    lines.append(f'  call void asm sideeffect "", "{",".join(clobbers)}"()')
    if lds_bytes:
        lines.append("  store volatile i8 0, ptr addrspace(3) @lds")
    lines += [
        "  ret void",
        "}",
        f'attributes #0 = {{ "amdgpu-flat-work-group-size"="{block_size},{block_size}" }}',
    ]
    return "\n".join(lines) + "\n"
