"""The labs' exercises and their checks, as students and CI meet them.

Static (fast): in every lab that uses ``course.check``, the exercises are numbered 1, 2,
... in its text, each has exactly one check cell with the matching id, in order, and
the stored solution output of each check says "solved" (nbval re-runs the solutions and
compares, so a solution that stops solving fails there). Cells tagged
``raises-exception`` raise in the solution, and no other cell does.

Executed: every starter, as shipped in labs/ (make_labs --check: generated from the
solution), runs top to bottom in a fresh kernel from labs/, and only cells tagged
``raises-exception`` may raise (what ``pytest --nbval-lax labs`` checked; CI runs each
starter once, here); every check must answer "not yet" (never "solved", never a crash of
the notebook).
"""

import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "course"))
from execute import execute  # noqa: E402
from make_labs import CHECK, manifest  # noqa: E402

EXERCISE = re.compile(r"\*\*Exercise (\d+)\.\*\*")
OWN_LABS = {f"{n:02d}" for n in range(7)}  # labs 00-06 must have their exercises checked
NAMES = [lab["notebook"] for lab in manifest()]


def solution(name):
    return nbformat.read(ROOT / "solutions" / name, as_version=4)


def checks_of(nb):
    """(cell, "NN.k") for each check cell, in order."""
    return [(c, ".".join(m.groups())) for c in nb.cells if c.cell_type == "code"
            for m in CHECK.finditer(c.source)]


def text_of(cell):
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                   for o in cell.outputs)


CHECKED = [n for n in NAMES if checks_of(solution(n)) or n[:2] in OWN_LABS]


@pytest.mark.parametrize("name", CHECKED)
def test_exercises_are_numbered_and_each_has_one_check(name):
    nb = solution(name)
    numbers = [int(k) for c in nb.cells if c.cell_type == "markdown"
               for k in EXERCISE.findall(c.source)]
    assert numbers == list(range(1, len(numbers) + 1)), f"{name}: exercises {numbers}"
    ids = [i for _, i in checks_of(nb)]
    assert ids == [f"{name[:2]}.{k}" for k in numbers], f"{name}: checks {ids}"


@pytest.mark.parametrize("name", CHECKED)
def test_stored_solution_checks_say_solved(name):
    for cell, exercise_id in checks_of(solution(name)):
        assert f"Exercise {exercise_id} (" in text_of(cell), (name, exercise_id)
        assert "): solved." in text_of(cell), (name, exercise_id, text_of(cell))


@pytest.mark.parametrize("name", NAMES)
def test_raises_exception_tags_are_truthful(name):
    for i, cell in enumerate(solution(name).cells):
        if cell.cell_type != "code":
            continue
        tagged = "raises-exception" in cell.metadata.get("tags", [])
        raised = any(o.output_type == "error" for o in cell.outputs)
        assert tagged == raised, f"{name} cell {i}: tagged {tagged}, raised {raised}"


def _run_starter(name):
    """The checks' verdicts of the shipped starter ``labs/<name>``, or the error that
    stopped it (nbclient: an error in a cell not tagged ``raises-exception``)."""
    try:
        return execute(nbformat.read(ROOT / "labs" / name, as_version=4), ROOT / "labs")[1]
    except Exception as exc:  # reported per lab below, after every lab has run
        return exc


def test_every_starter_runs_and_its_checks_say_not_yet():
    """One test for all starters, several at a time (each in its own kernel)."""
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 2)) as pool:
        results = dict(zip(NAMES, pool.map(_run_starter, NAMES), strict=True))
    crashed = {name: r for name, r in results.items() if isinstance(r, Exception)}
    assert not crashed, "starters that stopped with an error:\n" + "\n\n".join(
        f"{name}: {type(r).__name__}: {r}" for name, r in crashed.items())
    for name, verdicts in results.items():
        want = [i for _, i in checks_of(solution(name))]
        assert [v["exercise"] for v in verdicts] == want, name
        for v in verdicts:
            assert v["status"] == "not yet", (name, v)
            assert v["lines"] and not v["lines"][0].startswith("Your code raised"), (name, v)


def test_lab_times_table_lists_every_lab_under_the_limit():
    """course/lab_times.md (python course/execute.py --times) has a row per lab of the
    manifest, each under a minute for the solution and the starter."""
    rows = {line.split("`")[1]: line.split("|")[2:4]
            for line in (ROOT / "course" / "lab_times.md").read_text().splitlines()
            if line.startswith("| `")}
    assert set(rows) == set(NAMES)
    for name, seconds in rows.items():
        assert all(float(s) < 60 for s in seconds), (name, seconds)
