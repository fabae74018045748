"""Child process that compiles LLVM IR for AMDGPU targets with llvmlite (see ``llvm.py``).

Why a separate process: llvmlite exposes no diagnostic handler, so an LLVM error
("local memory (70000) exceeds limit (65536)", "LLVM ERROR: Cannot select ...") ends the
whole process. Here that costs the worker, which the parent restarts, and never the
notebook.

Protocol: one JSON request per stdin line, ``{"ir", "cpu", "features", "opt", "optimize"}``;
``optimize`` (0-3, default 0) first runs LLVM's default ``O<n>`` pipeline, as clang does
before code generation (IR lowered from Python keeps its variables in allocas, which
mem2reg/SROA must clean up). One JSON reply per stdout line, ``{"asm": ...}`` or
``{"error": ...}``. LLVM's remarks and errors go to stderr, which the parent reads from
a file. The first reply is ``{"ready": true}`` once the AMDGPU backend is loaded.

Run as a script (no gpusim import), so it starts in about 70 ms.
"""

import json
import sys

TRIPLE = "amdgcn-amd-amdhsa"
# Prints "Occupancy [waves/SIMD]: N" and the resource counts for each function
# (AMDGPUAsmPrinter::emitResourceUsageRemarks); llvmlite cannot turn on verbose asm,
# which would carry the same numbers as "; Occupancy:" comments.
REMARKS = "-pass-remarks-analysis=kernel-resource-usage"


def _reply(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _emit(llvm, machine, ir: str, optimize: int = 0) -> str:
    # A fresh context per module, so types and metadata do not pile up; the module
    # must be disposed before its context.
    context = llvm.create_context()
    try:
        module = llvm.parse_assembly(ir, context=context)
        try:
            module.verify()
            if optimize:
                tuning = llvm.create_pipeline_tuning_options(speed_level=optimize)
                builder = llvm.create_pass_builder(machine, tuning)
                builder.getModulePassManager().run(module, builder)
            return machine.emit_assembly(module)
        finally:
            module.close()
    finally:
        context.close()


def main() -> None:
    try:
        import llvmlite.binding as llvm

        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        target = llvm.Target.from_triple(TRIPLE)
        llvm.set_option("gpusim-amdgpu", REMARKS)
    except Exception as err:  # noqa: BLE001 - any failure means "no AMDGPU backend here"
        _reply({"error": f"llvmlite cannot compile for {TRIPLE}: {err}"})
        return
    _reply({"ready": True})
    machines = {}
    for line in sys.stdin:
        request = json.loads(line)
        key = (request["cpu"], request.get("features", ""), request.get("opt", 2))
        try:
            if key not in machines:
                machines[key] = target.create_target_machine(
                    cpu=key[0], features=key[1], opt=key[2], codemodel="default"
                )
            asm = _emit(llvm, machines[key], request["ir"], request.get("optimize", 0))
            _reply({"asm": asm})
        except Exception as err:  # noqa: BLE001 - report any failure to the parent
            _reply({"error": f"{type(err).__name__}: {err}".strip()})
        sys.stderr.flush()


if __name__ == "__main__":
    main()
