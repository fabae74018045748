"""Generate the student labs (labs/) from the instructor solutions (solutions/).

The solutions are the source of truth and carry the outputs nbval compares. A student
lab is the same notebook with:

- outputs and execution counts cleared;
- in code cells, everything between ``### BEGIN SOLUTION`` and ``### END SOLUTION``
  replaced by the starter lines written in the same cell after ``### STARTER`` as
  ``#> code`` comments (so the solution never runs them), e.g.::

      ### BEGIN SOLUTION
      nbytes = x.nbytes
      ### STARTER
      #> nbytes = 0  # TODO: how many bytes does x hold?
      ### END SOLUTION

  Starters must run without error: labs pass ``pytest --nbval-lax``;
- cells tagged ``instructor`` dropped.

It also writes, from the manifest (course/labs.toml), the lab table of course/syllabus.md
and labs/README.md, the students' syllabus page that links each lab (``make lab`` serves
labs/ only, so the answers in solutions/ are not one click away).

Usage: ``python course/make_labs.py`` writes labs/; ``--check`` only verifies that
labs/ is up to date and lists every lab of the manifest (course CI runs this).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
BEGIN, STARTER, END = "### BEGIN SOLUTION", "### STARTER", "### END SOLUTION"
TABLE_BEGIN, TABLE_END = "<!-- labs:begin -->", "<!-- labs:end -->"


def student_source(source: str) -> str:
    """The student's version of one code cell's source.

    >>> cell = "a = 1\\n### BEGIN SOLUTION\\nb = 2\\n### STARTER\\n#> b = 0\\n### END SOLUTION"
    >>> student_source(cell)
    'a = 1\\nb = 0'
    """
    out: list[str] = []
    mode = "keep"
    for line in source.splitlines():
        marker = line.strip()
        if marker == BEGIN:
            mode = "solution"
            indent = line[: len(line) - len(line.lstrip())]
        elif marker == STARTER and mode == "solution":
            mode = "starter"
        elif marker == END:
            mode = "keep"
        elif mode == "keep":
            out.append(line)
        elif mode == "starter":
            body = line.strip()
            if not body.startswith("#>"):
                raise ValueError(f"starter line must start with '#>': {line!r}")
            out.append(indent + body[2:].removeprefix(" "))
    if mode != "keep":
        raise ValueError(f"cell has {BEGIN} without {END}")
    return "\n".join(out)


def make_lab(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A student lab built from a solution notebook (the input is not modified)."""
    lab = nbformat.from_dict(solution)
    cells = []
    for cell in lab.cells:
        if "instructor" in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "code":
            cell.source = student_source(cell.source)
            cell.outputs = []
            cell.execution_count = None
        cell.get("metadata", {}).pop("execution", None)
        cells.append(cell)
    lab.cells = cells
    return lab


def manifest() -> list[dict]:
    """The labs in course order, from course/labs.toml."""
    with open(ROOT / "course" / "labs.toml", "rb") as fh:
        return tomllib.load(fh)["lab"]


def syllabus_table(labs: list[dict]) -> str:
    """The syllabus's lab table, written from the manifest."""
    rows = ["| week | lab | what you learn |", "|---|---|---|"]
    rows += [f"| {lab['week']} | `{lab['notebook']}`: {lab['title']} | {'; '.join(lab['goals'])} |"
             for lab in labs]
    return "\n".join(rows)


def student_syllabus(labs: list[dict]) -> str:
    """labs/README.md: each lab linked, with its week and goals.

    >>> print(student_syllabus([{"notebook": "00_x.ipynb", "title": "X", "week": 1,
    ...                          "goals": ["a", "b"]}]))
    # AMD GPU programming with ROCm and HIP
    <BLANKLINE>
    Open a lab, run its cells from the top (Run > Run All Cells), then work through
    its exercises in order. No GPU is needed: every kernel runs on the gpusim emulator.
    <BLANKLINE>
    | week | lab | what you learn |
    |---|---|---|
    | 1 | [X](00_x.ipynb) | a; b |
    <BLANKLINE>
    """
    rows = ["| week | lab | what you learn |", "|---|---|---|"]
    rows += [f"| {lab['week']} | [{lab['title']}]({lab['notebook']}) | {'; '.join(lab['goals'])} |"
             for lab in labs]
    return "\n".join(["# AMD GPU programming with ROCm and HIP", "",
                      "Open a lab, run its cells from the top (Run > Run All Cells), then "
                      "work through", "its exercises in order. No GPU is needed: every kernel "
                      "runs on the gpusim emulator.", "", *rows]) + "\n"


def with_table(text: str, table: str) -> str:
    head, rest = text.split(TABLE_BEGIN)
    _, tail = rest.split(TABLE_END)
    return f"{head}{TABLE_BEGIN}\n{table}\n{TABLE_END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify labs/ is up to date")
    args = parser.parse_args(argv)
    problems = []
    listed = set()
    for entry in manifest():
        name = entry["notebook"]
        listed.add(name)
        solution = nbformat.read(ROOT / "solutions" / name, as_version=4)
        text = nbformat.writes(make_lab(solution)) + "\n"
        target = ROOT / "labs" / name
        if args.check:
            if not target.exists() or target.read_text() != text:
                problems.append(f"labs/{name} is not generated from solutions/{name}")
        else:
            target.write_text(text)
    syllabus = ROOT / "course" / "syllabus.md"
    generated = {syllabus: with_table(syllabus.read_text(), syllabus_table(manifest())),
                 ROOT / "labs" / "README.md": student_syllabus(manifest())}
    for path, wanted in generated.items():
        if not args.check:
            path.write_text(wanted)
        elif not path.exists() or path.read_text() != wanted:
            problems.append(f"{path.relative_to(ROOT)} is not generated from course/labs.toml")
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        if path.name not in listed:
            problems.append(f"solutions/{path.name} is not listed in course/labs.toml")
    for problem in problems:
        print(problem, "(run: make labs)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
