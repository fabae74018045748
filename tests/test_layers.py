"""Imports point one way: down the data flow (STYLE.md point 1).

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
    {"profiler"},
    {"memsim"},
    {"occupancy_model"},
    {"timing"},
    {"compile"},
    {"engine"},
    {"runtime"},
    # hipcc translates HIP C++ to kernels over `hip`; __init__ loads its %%hip magic lazily
    {"hip", "cuda", "__init__", "hipcc"},
    {"libs", "rocblas", "rocsolver", "rocfft", "rocsparse", "rocrand", "rccl", "rccl_tests",
     "rocwmma"},
    {"viz"},
    {"hipify"},
    {"course"},  # exercise checks for the labs: the top layer, may import everything
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}
# viz reads records and device profiles; the occupancy explorer also evaluates AMD's
# occupancy rules (pure functions of a device profile) at every slider position.
ONLY = {"viz": {"profiler", "errors", "config", "devices", "occupancy_model"},
        "hipify": {"errors", "config"}}  # a text translator: no emulator inside


def _stage(module_path: Path) -> str:
    return module_path.relative_to(PACKAGE).parts[0].removesuffix(".py")


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
                if len(parts) > 1:
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
        assert RANK[imported] <= RANK[stage], (
            f"gpusim/{path.relative_to(PACKAGE)} ({stage}) imports gpusim.{imported}, "
            "a later stage"
        )
        if stage in ONLY:
            assert imported in ONLY[stage] | {stage}, f"{stage} may only read {ONLY[stage]}"
