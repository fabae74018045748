"""The kernel compiler: a Python kernel -> checked IR -> generated numba code.

Folders by role (README.md here has the map and data flow; each folder its own README)::

    pipeline.py   the compiler as a list of passes: front_end(), compile_kernel()
    ir.py         KernelIR and the schedule nodes every pass reads and writes
    lang.py       the kernel language's stubs (hip.threadIdx, hip.syncthreads, ...)
    diagnostics.py  errors that point at the user's line and column
    compiled.py   CompiledKernel: what the engine launches
    passes/       parse, subset, resolve, normalize (+inline), uniformity, lower, infer, half,
                  split, liveness (+remat), zerodiv (debug=True kernels)
    codegen/      generate (+expr, region), instrument hooks, build (disk cache, numba)
    sanitize/     checked mode: instrumented accesses, shadow memory, findings table
    trace/        trace mode: lane addresses and instruction counts for the memory model
    device/       what generated code calls: bounds checks, barriers, shuffles, atomics
    amdgpu/       second back end: LLVM IR for AMD GPUs -> registers, occupancy, ISA

Semantics in one paragraph: each region runs every live thread of the work-group in
turn (a legal schedule between barriers); waves are consecutive linear thread ids, x
fastest; a barrier needs every live thread (``return`` leaves the block, as an exited
wave does on AMD) and otherwise raises "divergent barrier"; collectives under divergent
control see only the active lanes (EXEC-mask semantics); a shuffle from an inactive lane
reads 0 (``ds_bpermute``); lanes are not in lockstep between collectives, so
warp-synchronous code must use ``syncwarp()``; every array index is bounds-checked (once
per work-group for a region whose indices the ``ranges`` pass bounds, per access otherwise).

The engine imports the compiler through this module and one public module per folder
(``gpusim.compile.device``, ``.sanitize``, ``.trace``).

>>> from gpusim.compile import PASSES
>>> len(PASSES)
13
"""

from gpusim.compile.compiled import CompiledKernel
from gpusim.compile.diagnostics import shown_filename
from gpusim.compile.pipeline import PASSES, compile_kernel, front_end

__all__ = ["CompiledKernel", "PASSES", "compile_kernel", "front_end", "shown_filename"]
