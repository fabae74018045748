"""Imports point one way: down the data flow (docs/STYLE.md, "What that means here", point 1).

Each package may import from its own layer and the layers listed before it, never
from a later one; views (viz) read only profile records.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gpusim"

LAYERS = [
    {"errors", "config"},
    {"devices"},
    {"profiler", "trace.record", "trace.__init__", "debugger.__init__", "debugger.recorder",
     "debugger.steps"},
    {"memsim"},
    {"occupancy_model"},
    {"timing"},
    {"compile", "trace.events", "trace.costs", "trace.instrument", "debugger.instrument"},
    {"engine", "trace.tracer", "trace.rows", "trace.report", "trace.views",
     "debugger.runner"},
    {"runtime"},
    # hipcc translates HIP C++ to kernels over `hip`; __init__ loads its %%hip magic lazily
    {"hip", "cuda", "__init__", "hipcc"},
    {"libs", "rocblas", "rocsolver", "rocfft", "rocsparse", "rocrand", "rccl", "rccl_tests",
     "rocwmma"},
    {"viz", "debugger.session"},  # gpusim.debug: a recorded launch, shown in viz.stepper
    {"hipify"},
    {"exercises"},  # exercise checks for the labs: the top layer, may import everything
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}
# gpusim/trace holds all of tracing, so each of its files sits in the layer of its step:
# the record (read by memsim), the compile-time instrumentation, the run-time tracer;
# gpusim/debugger likewise (its instrumentation, recorder, runner and session)
SPLIT = {"trace", "debugger"}
# viz reads records and device profiles; the occupancy explorer also evaluates AMD's
# occupancy rules (pure functions of a device profile) at every slider position.
ONLY = {"viz": {"profiler", "errors", "config", "devices", "occupancy_model"},
        "hipify": {"errors", "config"}}  # a text translator: no emulator inside
# the runtime stages arguments and queues work; the engine runs and times a launch, so
# only it reaches the memory model (issue 33: one place that times a launch)
NEVER = {"runtime": {"memsim"}}
# imports up the flow: gpusim/__init__.py gives the exercise checks their public name,
# gpusim.course, and the debugger its, gpusim.debug, importing each on first use of that
# name (a module __getattr__)
UP = {"__init__": {"exercises", "debugger.session"}}


def _stage(module_path: Path) -> str:
    parts = module_path.relative_to(PACKAGE).parts
    if parts[0] in SPLIT:
        return f"{parts[0]}.{parts[1].removesuffix('.py')}"
    return parts[0].removesuffix(".py")


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "gpusim":
                if len(parts) > 2 and parts[1] in SPLIT:
                    found.add(f"{parts[1]}.{parts[2]}")
                elif len(parts) > 1 and parts[1] in SPLIT:  # from gpusim.trace import x
                    found.update(f"{parts[1]}.{a.name}" for a in getattr(node, "names", []))
                elif len(parts) > 1:
                    found.add(parts[1])
                elif isinstance(node, ast.ImportFrom):  # from gpusim import hip, ...
                    found.update(alias.name for alias in node.names)
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down_the_data_flow(path):
    stage = _stage(path)
    assert stage in RANK, f"add gpusim/{stage} to LAYERS in {__file__}"
    for imported in _imports(path) & set(RANK):
        assert RANK[imported] <= RANK[stage] or imported in UP.get(stage, ()), (
            f"gpusim/{path.relative_to(PACKAGE)} ({stage}) imports gpusim.{imported}, "
            "a later stage"
        )
        assert imported not in NEVER.get(stage, ()), (
            f"gpusim/{path.relative_to(PACKAGE)} ({stage}) imports gpusim.{imported}: "
            f"{stage} must not (NEVER in {__file__})")
        if stage in ONLY:
            assert imported in ONLY[stage] | {stage}, f"{stage} may only read {ONLY[stage]}"
