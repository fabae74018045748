"""Execute the labs: solutions (optionally stored back), starters, and the time table.

Each notebook runs once in a fresh kernel (nbclient, as nbval does), from its own
folder, with ``GPUSIM_COURSE_LOG`` set so every exercise check's verdict is collected.
Cells tagged ``raises-exception`` may raise; any other error stops the notebook.

Usage:
    python course/execute.py --store [NN ...]   run solutions/ and store their outputs
                                                (widget state dropped: not deterministic)
    python course/execute.py --times [NN ...]   run solutions and starters, and write their
                                                rows of course/lab_times.md (with the
                                                machine's load average while they ran)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "course"))
from make_labs import make_lab, manifest  # noqa: E402

TIMES = ROOT / "course" / "lab_times.md"
LIMIT_S = 60


def execute(nb: nbformat.NotebookNode, folder: Path, timeout: int = 300
            ) -> tuple[float, list[dict]]:
    """Run ``nb`` in place; return the wall time and the checks' verdicts, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "checks.jsonl"
        env = {**os.environ, "GPUSIM_COURSE_LOG": str(log),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}})
        start = time.perf_counter()
        client.execute(env=env)
        seconds = time.perf_counter() - start
        lines = log.read_text().splitlines() if log.exists() else []
    return seconds, [json.loads(line) for line in lines]


def strip_volatile(nb: nbformat.NotebookNode) -> None:
    """Drop what changes run to run and nbval does not need: widget state."""
    nb.metadata.pop("widgets", None)


def selected(names: list[str]) -> list[str]:
    labs = [lab["notebook"] for lab in manifest()]
    return [n for n in labs if not names or n[:2] in names or n in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labs", nargs="*", help="lab numbers (00 01 ...) or file names")
    parser.add_argument("--store", action="store_true", help="store solutions' outputs")
    parser.add_argument("--times", action="store_true", help="write course/lab_times.md")
    args = parser.parse_args(argv)
    rows = {}
    for name in selected(args.labs):
        solution = nbformat.read(ROOT / "solutions" / name, as_version=4)
        starter = make_lab(solution)
        sol_s, sol_checks = execute(solution, ROOT / "solutions")
        print(f"{name}: solution {sol_s:.1f} s, checks "
              f"{[c['status'] for c in sol_checks]}", flush=True)
        if args.store:
            strip_volatile(solution)
            nbformat.write(solution, ROOT / "solutions" / name)
        if args.times:
            lab_s, _ = execute(starter, ROOT / "labs")
            load = os.getloadavg()[0]
            rows[name] = (f"| `{name}` | {sol_s:.1f} | {lab_s:.1f} | {len(sol_checks)} | "
                          f"{load:.1f} |")
            print(f"{name}: starter {lab_s:.1f} s (load average {load:.1f})", flush=True)
    if args.times:
        TIMES.write_text(time_table(rows))
    return 0


def time_table(new_rows: dict[str, str]) -> str:
    """course/lab_times.md: seconds per lab, solution and starter; rows of labs not run
    this time, and the notes after the table (from the first ``## `` heading), are kept
    from the file."""
    old = TIMES.read_text().splitlines() if TIMES.exists() else []
    cut = next((k for k, line in enumerate(old) if line.startswith("## ")), len(old))
    rows = {line.split("`")[1]: line for line in old[:cut] if line.startswith("| `")}
    rows.update(new_rows)
    order = [lab["notebook"] for lab in manifest()]
    lines = ["# Lab execution times", "",
             "Wall seconds to run each notebook top to bottom in a fresh kernel, on the "
             "development", "machine (2 cores shared with other work: the last column is its "
             "1-minute load", "average when the lab finished), written by `python "
             "course/execute.py --times [NN ...]`.", f"Every lab must run in under {LIMIT_S} s "
             "on a quiet 2-core machine.", "",
             "| lab | solution s | starter s | checked exercises | load average |",
             "|---|---:|---:|---:|---:|"]
    lines += [rows[name] for name in order if name in rows]
    notes = [""] + old[cut:] if cut < len(old) else []
    return "\n".join(lines + notes) + "\n"


if __name__ == "__main__":
    sys.exit(main())
