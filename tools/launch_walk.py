"""The walk of one kernel launch through gpusim's files: how far a reader must follow it.

Usage::

    python tools/launch_walk.py            # the summary
    python tools/launch_walk.py --files    # also every file in the order first entered

It launches a vector add once (compiling it and modeling its time), then records every
Python call into a ``gpusim/`` file during a second launch of a new grid size and the
synchronisation that runs it (the default timing path: a sampled trace, not yet
memoised). From the calls it counts

- files entered: distinct gpusim files with a call;
- climbs back up: calls whose caller's package ranks below the callee's in
  ``tests/test_layers.py``'s LAYERS (an engine function calling back into the runtime);
- file-to-file calls: distinct (caller file, callee file) pairs;
- back and forth: pairs of files that call each other (each a place where a reader
  following the launch goes down and comes back into the file they left).

Numbers compiled code runs (numba functions) are not Python calls and do not count.
"""

from __future__ import annotations

import argparse
import ast
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "gpusim"


def _ranks() -> dict[str, int]:
    """Package -> layer rank, read from tests/test_layers.py's LAYERS list."""
    tree = ast.parse((ROOT / "tests" / "test_layers.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "LAYERS":
            layers = ast.literal_eval(node.value)
            return {name: i for i, layer in enumerate(layers) for name in layer}
    raise SystemExit("tests/test_layers.py has no LAYERS list")


def _package(path: str) -> str:
    """The layer name of a gpusim file: its package, or for gpusim/trace (whose files sit
    in the layers of their steps) "trace.<module>", as tests/test_layers.py names them."""
    parts = Path(path).relative_to(PACKAGE).parts
    if parts[0] == "trace":
        return f"trace.{parts[1].removesuffix('.py')}"
    return parts[0].removesuffix(".py")


def walk() -> list[tuple[str, str]]:
    """(caller file, callee file) of every call into gpusim during the measured launch."""
    import numpy as np

    from gpusim import hip

    @hip.jit
    def vadd(a, b, out):
        i = hip.grid(1)
        if i < out.size:
            out[i] = a[i] + b[i]

    n = 1 << 16
    a, b = hip.to_device(np.ones(n, np.float32)), hip.to_device(np.ones(n, np.float32))
    out = hip.device_array(n, np.float32)
    vadd[n // 256, 256](a, b, out)
    hip.synchronize()
    calls: list[tuple[str, str]] = []
    root = str(PACKAGE)

    def profile(frame, event, arg):  # noqa: ANN001 - sys.setprofile's signature
        if event != "call":
            return
        callee = frame.f_code.co_filename
        if not callee.startswith(root):
            return
        caller = frame.f_back
        while caller is not None and not caller.f_code.co_filename.startswith(root):
            caller = caller.f_back
        calls.append((caller.f_code.co_filename if caller else "", callee))

    # every thread: streams and work-group workers run parts of a launch off this one
    threading.setprofile(profile)  # threads started from here on (Python 3.11)
    sys.setprofile(profile)
    try:
        vadd[n // 128, 128](a, b, out)
        hip.synchronize()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return calls


def summary(calls: list[tuple[str, str]]) -> dict[str, object]:
    """Files entered, the distinct file-to-file calls, and how many of those climb back
    up a layer or go back and forth between two files (module doc)."""
    rank = _ranks()
    edges = {(caller, callee) for caller, callee in calls if caller and caller != callee}
    climbs = sorted(e for e in edges if rank.get(_package(e[0]), 0) < rank.get(
        _package(e[1]), 0))
    both = sorted((a, b) for a, b in edges if (b, a) in edges and a < b)
    files = list(dict.fromkeys(callee for _, callee in calls))

    def name(path: str) -> str:
        return str(Path(path).relative_to(PACKAGE))

    return {"files": [name(f) for f in files], "edges": len(edges),
            "climbs": [f"{name(a)} -> {name(b)}" for a, b in climbs],
            "both": [f"{name(a)} <-> {name(b)}" for a, b in both]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", action="store_true", help="list the files entered")
    options = parser.parse_args()
    result = summary(walk())
    print(f"files entered {len(result['files'])}, file-to-file calls {result['edges']}, "
          f"climbs back up {len(result['climbs'])}, "
          f"back and forth {len(result['both'])}")
    for key in ("climbs", "both"):
        for line in result[key]:
            print(f"  {key}: {line}")
    if options.files:
        print("\n".join(result["files"]))


if __name__ == "__main__":
    main()
