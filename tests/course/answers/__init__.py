"""Students' answers to every exercise, as students really write them: right answers
written differently from the solution, and the mistakes students typically make, each
with the words its feedback must contain (the mistake, named). The checks are judged by
this corpus: ``test_answers.py`` runs every answer through ``course.check``, and
``python tests/course/answers/counts.py`` prints the table of docs/course_checks.md.

One module per lab, ``labNN.py``, holding ``ANSWERS``, a list of ``Answer``. Kernels must
live in the module (gpusim reads a kernel's source). An answer the check still judges
wrongly is kept, with ``misjudged`` saying how, so the count is measured, not assumed
(the test expects it to be misjudged and fails once the check is fixed).

>>> a = wrong("99.1", "off by one", says=["too small"], args=lambda: (41,))
>>> a.correct, a.says
(False, ('too small',))
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    """One student's answer to one exercise."""

    exercise: str                      # "04.1"
    label: str                         # what the answer is or does wrong, in a few words
    correct: bool                      # the answer is right: the check must say "solved"
    args: Callable[[], tuple]          # builds what the student passes to course.check
    says: tuple[str, ...] = ()         # phrases a "not yet" must contain (case-insensitive)
    system: str = "mi300x"             # the emulated system the lab runs on
    ngpus: int = 1
    misjudged: str = ""                # a known wrong verdict or message: why

    @property
    def id(self) -> str:
        return f"{self.exercise}-{self.label}"


def right(exercise: str, label: str, args: Callable[[], tuple], **kw: Any) -> Answer:
    """A right answer, written in its own way."""
    return Answer(exercise, label, True, args, **kw)


def wrong(exercise: str, label: str, says: list[str], args: Callable[[], tuple],
          **kw: Any) -> Answer:
    """A typical mistake; ``says``: what the feedback must name."""
    return Answer(exercise, label, False, args, tuple(says), **kw)


def all_answers() -> list[Answer]:
    """Every lab module's ANSWERS, in lab order."""
    found: list[Answer] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("lab"):
            found += importlib.import_module(f"{__name__}.{info.name}").ANSWERS
    return found


@dataclass(frozen=True)
class Verdict:
    """How the check judged an answer."""

    answer: Answer
    status: str        # "solved" / "not yet"
    text: str          # the whole feedback, on one line

    @property
    def judged_right(self) -> bool:
        return (self.status == "solved") == self.answer.correct

    @property
    def names_mistake(self) -> bool:
        flat = self.text.lower()
        return all(p.lower() in flat for p in self.answer.says)

    @property
    def ok(self) -> bool:
        return self.judged_right and (self.answer.correct or self.names_mistake)


def judge(answer: Answer) -> Verdict:
    """Run ``answer`` through its exercise's check on a fresh emulated system."""
    import gpusim
    from gpusim import course

    gpusim.set_system(answer.system, ngpus=answer.ngpus)
    try:
        fb = course.check(answer.exercise, *answer.args())
    finally:
        gpusim.set_system()
    return Verdict(answer, fb.status, " ".join(str(fb).split()))
