"""Run the sample corpus (tests/hipcc/samples/manifest.toml) through ``gpusim-hipcc``.

Each program is built and run in its own processes (``gpusim-hipcc main.hip -o app``,
then ``./app``), as a learner does from a terminal, so one that crashes cannot take the
others down:

    python tests/hipcc/samples.py              # a table: program, status, seconds, why
    python tests/hipcc/samples.py saxpy        # only names containing "saxpy"
    python tests/hipcc/samples.py --table      # the README's table of known failures
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
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
    """Build and run one program as its README says: code objects first (``--genco``),
    then ``gpusim-hipcc sources -o app`` and ``./app args`` in a fresh folder; passed if
    its exit status and stdout are as expected."""
    hipcc = [sys.executable, "-m", "gpusim.hipcc"]
    includes = [f"-I{root / d}" for d in prog.get("include", [])]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp) / Path(prog["sources"][0]).stem
        steps = [[*hipcc, "--genco", str(root / src), "-o", str(Path(tmp) / out)]
                 for src, out in prog.get("genco", [])]
        steps.append([*hipcc, *[str(root / s) for s in prog["sources"]], *includes,
                      *prog.get("flags", []), "-o", str(app)])
        for cmd in steps:
            done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=tmp)
            if done.returncode != 0:
                return Result(prog["name"], False, done.returncode, time.perf_counter() - start,
                              f"build failed: {_last_line(done.stderr)}", done.stderr)
        try:
            done = subprocess.run([str(app), *prog.get("args", [])], capture_output=True,
                                  text=True, timeout=TIMEOUT, cwd=tmp, check=False,
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
        except subprocess.TimeoutExpired as e:
            return Result(prog["name"], False, None, time.perf_counter() - start,
                          f"timed out after {TIMEOUT} s", str(e.stdout or ""))
    seconds = time.perf_counter() - start
    out = done.stdout + done.stderr
    expected = prog.get("expect_status", 0)
    if done.returncode != expected:
        return Result(prog["name"], False, done.returncode, seconds,
                      f"exit status {done.returncode}: {_last_line(out)}", out)
    pattern = prog.get("expect_stdout")
    if pattern and not re.search(pattern, done.stdout):
        return Result(prog["name"], False, done.returncode, seconds,
                      f"stdout lacks /{pattern}/", out)
    return Result(prog["name"], True, done.returncode, seconds, "", out)


def check(prog: dict, result: Result) -> None:
    """Assert that ``result`` is what the manifest says: a pass, or, for a program with a
    ``known_failure``, still a failure (so the README's table stays true)."""
    if prog.get("known_failure"):
        assert not result.passed, (f"{prog['name']} now runs: remove its known_failure from "
                                   "the manifest and regenerate the README table (--table)")
    else:
        assert result.passed, f"{prog['name']}: {result.why}\n{result.output[-2000:]}"


def _last_line(text: str) -> str:
    """The message of a failure: the first error line, else the last line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    errors = [ln for ln in lines if "error" in ln.lower() or "aborted" in ln or
              "not supported" in ln]
    return ((errors or lines or [""])[0])[:200]


def run_all(chosen: list[dict], workers: int = 2, root: Path = ROOT) -> list[Result]:
    """Build and run ``chosen`` (manifest entries whose paths are relative to ``root``),
    ``workers`` at a time."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda prog: run(prog, root), chosen))


def table(manifest: list[dict]) -> str:
    """The README's count of programs that run and its table of those gpusim does not
    run yet, and why."""
    n = len(manifest)
    failing = sum(bool(p.get("known_failure")) for p in manifest)
    head = f"{n - failing} of {n} run and pass their own checks."
    design = sum(bool(p.get("by_design")) for p in manifest)
    if design:  # programs that do not build or run on ROCm either, as written
        head += (f" {design} of the others do not run on an AMD GPU as written either (by "
                 f"design), so {n - failing} of the {n - design} that do run on gpusim.")
    rows = [head, "", "| program | why it does not run on gpusim |", "| --- | --- |"]
    rows += [f"| `{p['name']}` | {p['known_failure']} |" for p in manifest
             if p.get("known_failure")]
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if argv == ["--table"]:
        print(table(programs()))
        return 0
    chosen = [p for p in programs() if not argv or any(a in p["name"] for a in argv)]
    return report(run_all(chosen))


def report(results: list[Result]) -> int:
    """Print one line per program (``SAMPLES_VERBOSE=1``: the failures' output too)."""
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
