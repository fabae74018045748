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

  Starters must run without error (tests/course/test_notebooks.py runs each);
- cells tagged ``instructor`` dropped;
- nbgrader's cell metadata (``nbgrader_metadata``): exercise cells are nbgrader
  "solution" cells, cells that call ``course.check`` are its autograded "tests" (locked,
  1 point), every other cell is read-only. So an instructor can run nbgrader on the
  course: ``--nbgrader DIR`` writes the solutions with that metadata as nbgrader source
  notebooks (``DIR/source/labNN/NN_name.ipynb``); ``nbgrader generate_assignment`` and
  ``autograde`` then work as usual (``course.check`` raises when nbgrader autogrades,
  so an unsolved exercise loses its point). nbgrader's own release would replace each
  solution with ``raise NotImplementedError()``; hand out labs/ instead, whose starter
  lines are in the same cells.

It also writes, from the manifest (course/labs.toml), the lab table of course/syllabus.md
and labs/README.md, the students' syllabus page that links each lab (``make lab`` serves
labs/ only, so the answers in solutions/ are not one click away).

Usage: ``python course/make_labs.py`` writes labs/; ``--check`` only verifies that
labs/ is up to date and lists every lab of the manifest (course CI runs this);
``--nbgrader DIR`` exports nbgrader source notebooks.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
BEGIN, STARTER, END = "### BEGIN SOLUTION", "### STARTER", "### END SOLUTION"
CHECK = re.compile(r"""^course\.check\(["'](\d\d)\.(\d+)["']""", re.MULTILINE)
NBGRADER_SCHEMA = 3  # nbgrader's cell metadata schema_version (nbgrader 0.9)
TABLE_BEGIN, TABLE_END = "<!-- labs:begin -->", "<!-- labs:end -->"
BINDER_BEGIN, BINDER_END = "<!-- binder:begin -->", "<!-- binder:end -->"


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


def nbgrader_metadata(cells: list) -> None:
    """Give each cell nbgrader's metadata, in place (see the module docstring).

    An exercise cell's grade_id names the check that follows it.

    >>> cells = [nbformat.v4.new_code_cell("### BEGIN SOLUTION\\nx = 1\\n### END SOLUTION"),
    ...          nbformat.v4.new_code_cell('course.check("00.1", x)')]
    >>> nbgrader_metadata(cells)
    >>> [(c.metadata.nbgrader["grade_id"], c.metadata.nbgrader["solution"],
    ...   c.metadata.nbgrader["grade"]) for c in cells]
    [('answer_00_1', True, False), ('check_00_1', False, True)]
    >>> cells[1].metadata.nbgrader["points"], cells[1].metadata.editable
    (1, False)
    """
    next_check = None
    for cell in reversed(cells):
        meta = {"schema_version": NBGRADER_SCHEMA, "solution": False, "grade": False,
                "locked": True, "task": False, "grade_id": f"cell_{cell.get('id', '')}"}
        found = CHECK.search(cell.source) if cell.cell_type == "code" else None
        if found:
            next_check = "_".join(found.groups())
            meta.update(grade=True, points=1, grade_id=f"check_{next_check}")
        elif cell.cell_type == "code" and BEGIN in cell.source:
            meta.update(solution=True, locked=False,
                        grade_id=f"answer_{next_check}" if next_check else meta["grade_id"])
        if cell.cell_type == "markdown":
            meta["cell_type"] = "markdown"
        cell.metadata["nbgrader"] = meta
        if meta["locked"]:  # what nbgrader's own tools set on locked cells
            cell.metadata.update(editable=False, deletable=False)
        else:
            cell.metadata.pop("editable", None)
            cell.metadata.pop("deletable", None)


def make_lab(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A student lab built from a solution notebook (the input is not modified)."""
    lab = nbformat.from_dict(solution)
    cells = []
    nbgrader_metadata(lab.cells)  # before the solutions go: they mark the answer cells
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


def nbgrader_source(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The solution as an nbgrader source notebook: outputs cleared, metadata added."""
    source = nbformat.from_dict(solution)
    source.cells = [c for c in source.cells
                    if "instructor" not in c.get("metadata", {}).get("tags", [])]
    for cell in source.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cell.get("metadata", {}).pop("execution", None)
    nbgrader_metadata(source.cells)
    return source


def _toml() -> dict:
    with open(ROOT / "course" / "labs.toml", "rb") as fh:
        return tomllib.load(fh)


def manifest() -> list[dict]:
    """The labs in course order, from course/labs.toml."""
    return _toml()["lab"]


def repository() -> str:
    """The course's GitHub repository URL, from course/labs.toml (one place)."""
    return _toml()["repository"]


def syllabus_table(labs: list[dict]) -> str:
    """The syllabus's lab table, written from the manifest: each lab linked, with its
    solution and (where written) its instructor notes."""
    rows = ["| week | lab | what you learn |", "|---|---|---|"]
    for lab in labs:
        name, notes = lab["notebook"], f"notes/{lab['notebook'][:2]}.md"
        extra = f"[solution](../solutions/{name})"
        if (ROOT / "course" / notes).exists():
            extra += f", [instructor notes]({notes})"
        rows.append(f"| {lab['week']} | [{lab['title']}](../labs/{name}) ({extra}) | "
                    f"{'; '.join(lab['goals'])} |")
    return "\n".join(rows)


def binder_table(labs: list[dict], repo: str) -> str:
    """The README's table of Binder badges, one per lab, each opening that lab.

    >>> table = binder_table([{"notebook": "00_x.ipynb", "title": "X"}],
    ...                      "https://github.com/me/gpusim")
    >>> table.splitlines()[2].split("](")[-1]
    'https://mybinder.org/v2/gh/me/gpusim/HEAD?urlpath=lab/tree/labs/00_x.ipynb) |'
    """
    slug = repo.removeprefix("https://github.com/").strip("/")
    rows = ["| lab | open it on Binder |", "|---|---|"]
    rows += [f"| {lab['notebook'][:2]} {lab['title']} | [![Binder](https://mybinder.org/"
             f"badge_logo.svg)](https://mybinder.org/v2/gh/{slug}/HEAD?urlpath=lab/tree/labs/"
             f"{lab['notebook']}) |" for lab in labs]
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


def with_table(text: str, table: str, begin: str = TABLE_BEGIN, end: str = TABLE_END) -> str:
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    return f"{head}{begin}\n{table}\n{end}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify labs/ is up to date")
    parser.add_argument("--nbgrader", metavar="DIR", type=Path,
                        help="write nbgrader source notebooks to DIR/source/labNN/")
    args = parser.parse_args(argv)
    if args.nbgrader:
        for entry in manifest():
            name = entry["notebook"]
            target = args.nbgrader / "source" / f"lab{name[:2]}" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nbgrader_source(nbformat.read(ROOT / "solutions" / name, 4)), target)
            print(target)
        return 0
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
    readme = ROOT / "README.md"
    generated = {syllabus: with_table(syllabus.read_text(), syllabus_table(manifest())),
                 ROOT / "labs" / "README.md": student_syllabus(manifest()),
                 readme: with_table(readme.read_text(), binder_table(manifest(), repository()),
                                    BINDER_BEGIN, BINDER_END)}
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
