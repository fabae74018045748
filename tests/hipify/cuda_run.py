"""Run NVIDIA's CUDA samples (cuda_samples/, manifest.toml) as a learner ports them:
``gpusim-hipify`` on every file, then ``gpusim-hipcc ... -o app`` and ``./app``.

The whole corpus is hipified into a scratch folder that keeps its layout (so each
``#include "..."`` finds the hipified header), then each program is built and run there
by the AMD samples' runner (tests/hipcc/samples.py), with the same rules: its exit status
and its own "PASSED" line decide, and a program that cannot run on AMD or on gpusim
carries ``known_failure`` (the reason) in the manifest and in the README table:

    python tests/hipify/cuda_run.py              # a table: program, status, seconds, why
    python tests/hipify/cuda_run.py vectorAdd    # only names containing "vectorAdd"
    python tests/hipify/cuda_run.py --table      # the README's table of known failures
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "hipcc"))
import samples  # noqa: E402

from gpusim.hipify.cli import main as hipify  # noqa: E402

ROOT = Path(__file__).with_name("cuda_samples")
SUFFIXES = (".cu", ".cuh", ".cpp", ".h", ".hpp")
# Common/helper_cuda.h declares checkCudaErrors and findCudaDevice only under the include
# guards of CUDA's own headers (driver_types.h, cuda_runtime.h), which hipify leaves as
# they are and HIP's headers do not define: a port defines them on the command line.
#
# CUDART_VERSION is the CUDA runtime's version macro (cuda_runtime_api.h): HIP has none and
# HIPIFY maps none, so samples that branch on it (``#if CUDART_VERSION >= 2020``) take their
# oldest, long-dead branch unless the port defines it. 13000 is CUDA 13.0, the toolkit the
# corpus's snapshot (c94ff366, SOURCES.md) targets.
HELPER_FLAGS = ["-D__DRIVER_TYPES_H__", "-D__CUDA_RUNTIME_H__", "-DCUDART_VERSION=13000"]


def programs() -> list[dict]:
    """The corpus's programs, from its manifest."""
    return samples.programs(ROOT / "manifest.toml")


def hipified_corpus(dest: Path) -> Path:
    """Every source and header of the corpus through gpusim-hipify, at the same relative
    path under ``dest``; raises if one does not translate (exit status not 0)."""
    for path in sorted(ROOT.rglob("*")):
        if path.suffix not in SUFFIXES:
            continue
        out = dest / path.relative_to(ROOT)
        out.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.redirect_stderr(io.StringIO()) as err:
            status = hipify([str(path), "--quiet-warnings", "-o", str(out)])
        if status != 0:
            raise RuntimeError(f"gpusim-hipify {path}: exit status {status}\n{err.getvalue()}")
    return dest


def run_all(chosen: list[dict], workers: int = 2) -> list[samples.Result]:
    """Hipify the corpus once, then build and run each chosen program."""
    chosen = [{**p, "flags": [*HELPER_FLAGS, *p.get("flags", [])]} for p in chosen]
    with tempfile.TemporaryDirectory() as tmp:
        return samples.run_all(chosen, workers, root=hipified_corpus(Path(tmp)))


def main(argv: list[str]) -> int:
    """The command line (see the module's docstring)."""
    if argv == ["--table"]:
        print(samples.table(programs()))
        return 0
    chosen = [p for p in programs() if not argv or any(a in p["name"] for a in argv)]
    return samples.report(run_all(chosen))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
