"""Run the sample corpus (tests/hipcc/samples/manifest.toml) through ``gpusim-hipcc``.

Each program runs in its own process (``python -m gpusim.hipcc --run``), as a learner
runs it from a terminal, so one that crashes cannot take the others down:

    python tests/hipcc/samples.py              # a table: program, status, seconds, why
    python tests/hipcc/samples.py saxpy        # only names containing "saxpy"
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).with_name("samples")
TIMEOUT = 240


@dataclass
class Result:
    name: str
    passed: bool
    status: int | None
    seconds: float
    why: str
    output: str


def programs(manifest: Path = ROOT / "manifest.toml") -> list[dict]:
    return tomllib.loads(manifest.read_text())["program"]


def run(prog: dict, root: Path = ROOT) -> Result:
    """Build and run one program; passed if its status and stdout are as expected."""
    cmd = [sys.executable, "-m", "gpusim.hipcc", "--run", str(root / prog["sources"][0]),
           *[f"-I{root / d}" for d in prog.get("include", [])], "--", *prog.get("args", [])]
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                              cwd=(root / prog["sources"][0]).parent, check=False,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    except subprocess.TimeoutExpired as e:
        return Result(prog["name"], False, None, time.perf_counter() - start,
                      f"timed out after {TIMEOUT} s", str(e.stdout or ""))
    seconds = time.perf_counter() - start
    out = done.stdout + done.stderr
    expected = prog.get("expect_status", 0)
    if done.returncode != expected:
        last = [ln for ln in out.splitlines() if ln.strip()][-1:] or [""]
        return Result(prog["name"], False, done.returncode, seconds,
                      f"exit status {done.returncode}: {last[0][:200]}", out)
    pattern = prog.get("expect_stdout")
    if pattern and not re.search(pattern, done.stdout):
        return Result(prog["name"], False, done.returncode, seconds,
                      f"stdout lacks /{pattern}/", out)
    return Result(prog["name"], True, done.returncode, seconds, "", out)


def main(argv: list[str]) -> int:
    chosen = [p for p in programs() if not argv or any(a in p["name"] for a in argv)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, chosen))
    for r in results:
        mark = "PASS" if r.passed else "FAIL"
        print(f"{mark} {r.seconds:6.1f}s {r.name}  {r.why}")
    passed = sum(r.passed for r in results)
    print(f"{passed} passed, {len(results) - passed} failed")
    if os.environ.get("SAMPLES_VERBOSE"):
        for r in results:
            if not r.passed:
                print(f"==== {r.name}\n{r.output[-3000:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
