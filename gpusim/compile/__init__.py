"""The kernel compiler: a Python kernel -> checked IR -> generated numba code.

Data flow (``pipeline.PASSES``, one module per pass)::

    @hip.jit function
      parse       parse.py        source -> ast.FunctionDef (file line numbers)
      check       check.py        reject try/lambda/f-strings/... (line, column, fix)
      resolve     resolve.py      names -> lang.py stubs, constants, casts, device fns
      normalize   normalize.py    one barrier/collective per statement; inline.py
      uniformity  uniform.py      which values are the same in the whole work-group
      lower       lower.py        divergent if/for/while around barriers -> mask form
      infer       infer.py        numba types of every variable (numba's own rules)
      split       split.py        regions between barriers; uniform/divergent nodes (ir.py)
      liveness    liveness.py     what crosses a cut: per-thread arrays, remat.py
      generate    codegen*.py     readable Python source, `# line N` comments
      compile     build.py        write + import + numba.njit(cache=True) -> compiled.py

Generated code calls ``devicelib.py`` (bounds checks, shuffles, votes, barrier checks),
``atomics.py`` and ``machine_ops.py``; they work compiled and as plain Python, so the same
generated module is also the pure-Python reference path.

Instrumented modes share the generator through ``instrument.py`` hooks: ``"check"``
(``codegen_check.py`` + ``checklib.py``/``checkops.py``) is the sanitizer: every LDS
access and every access to a written global array updates shadow memory that finds
races and uninitialised LDS reads; ``"trace"``
(``codegen_trace.py`` + ``tracelib.py``, costs from ``trace_costs.py``) records each
lane's global/LDS address and per-thread instruction counts for the memory model.

A second back end, ``amdgpu/``, lowers the IR after ``infer`` to LLVM IR for AMD GPUs
and compiles it with LLVM's AMDGPU backend: real VGPR/SGPR/LDS counts, occupancy and
the ISA (``Kernel.resources``, ``Kernel.isa``); it never runs the kernel.

Semantics in one paragraph: each region runs every live thread of the work-group in
turn (a legal schedule between barriers); waves are consecutive linear thread ids, x
fastest; a barrier needs every live thread (``return`` leaves the block, as an exited
wave does on AMD) and otherwise raises "divergent barrier"; collectives under divergent
control see only the active lanes (EXEC-mask semantics); a shuffle from an inactive lane
reads 0 (``ds_bpermute``); lanes are not in lockstep between collectives, so
warp-synchronous code must use ``syncwarp()``; every array index is bounds-checked.

>>> from gpusim.compile.pipeline import PASSES
>>> len(PASSES)
10
"""
