"""Exercises by id ("01.1" = lab 01, exercise 1), ``check`` and ``hint``.

Each lab's exercises live in ``gpusim/exercises/labs/labNN.py``; the module is
imported the first time one of its exercises is asked for, so a lab adds its checks by
adding its own file (no shared table to edit). An exercise is a function over the
student's objects that returns what the solution achieves (a sentence or a list) or
raises ``NotYet`` with what is not right yet, and a list of hints, gentlest first.

``check`` never lets the student's code crash the notebook: an error their kernel
raises becomes the feedback ("your kernel stopped with hipErrorIllegalAddress ...").

>>> @exercise("99.1", "double it", hints=["Multiply by two."])
... def _double(value):
...     if value != 42:
...         raise NotYet(f"value is {value}; it should be twice 21.")
...     return "42 it is."
>>> print(check("99.1", 41))
Exercise 99.1 (double it): not yet.
  value is 41; it should be twice 21.
  Stuck? gpusim.course.hint("99.1") gives a hint.
>>> check("99.1", 42).status
'solved'
>>> print(hint("99.1"))
Hint 1 of 1 for exercise 99.1: Multiply by two.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpusim.errors import HipError, SanitizerError
from gpusim.exercises.feedback import NOT_YET, SOLVED, WIDTH, Feedback, log, shorten

_ID = re.compile(r"^(\d\d)\.(\d+)$")
GRADING_ENV = "NBGRADER_EXECUTION"  # nbgrader sets it to "autograde" / "validate"


class NotYet(Exception):  # noqa: N818 - a verdict, not an error: reads as `raise NotYet(...)`
    """Raised by an exercise's check: what is not right yet, in one or more sentences
    that say what was found without giving the answer away."""

    def __init__(self, *lines: str):
        super().__init__(" ".join(lines))
        self.lines = list(lines)


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    hints: tuple[str, ...]
    run: Callable[..., str | Sequence[str]]


_EXERCISES: dict[str, Exercise] = {}
_hints_given: dict[str, int] = {}


def exercise(exercise_id: str, title: str, hints: Sequence[str]
             ) -> Callable[[Callable[..., str | Sequence[str]]], Callable]:
    """Register the decorated function as exercise ``exercise_id`` ("NN.k") of lab NN."""
    if not _ID.match(exercise_id):
        raise ValueError(f"exercise id {exercise_id!r} must look like '01.2' (lab.number)")
    if not hints:
        raise ValueError(f"exercise {exercise_id} needs at least one hint")

    def register(run: Callable[..., str | Sequence[str]]) -> Callable:
        _EXERCISES[exercise_id] = Exercise(exercise_id, title, tuple(hints), run)
        return run
    return register


def get(exercise_id: str) -> Exercise:
    """The exercise with this id, importing its lab's module on first use."""
    match = _ID.match(str(exercise_id))
    if match is None:
        raise ValueError(f"exercise id {exercise_id!r} must look like '01.2': the lab's two "
                         "digits, a dot, the exercise's number (as the lab's text shows it)")
    if exercise_id not in _EXERCISES:
        try:
            importlib.import_module(f"gpusim.exercises.labs.lab{match.group(1)}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _EXERCISES:
        known = sorted(k for k in _EXERCISES if k.startswith(match.group(1) + "."))
        raise ValueError(f"there is no exercise {exercise_id}; lab {match.group(1)} has "
                         f"{', '.join(known) or 'no checked exercises'}")
    return _EXERCISES[exercise_id]


def check(exercise_id: str, *args, **kwargs) -> Feedback | None:
    """Check the student's answer to an exercise; returns (and logs) the ``Feedback``.

    Pass what the exercise asks for: a value, a kernel, a function. The check runs it
    on its own inputs against a reference computed independently (NumPy, the device
    profile, the unoptimised kernel's modeled time). While nbgrader autogrades or
    validates a notebook (it sets ``NBGRADER_EXECUTION``), "not yet" raises
    ``AssertionError`` so the check cell loses its points, and "solved" is printed
    instead of returned (nbgrader reads a cell's value as a partial score).
    """
    ex = get(exercise_id)
    wants = inspect.signature(ex.run)
    try:
        wants.bind(*args, **kwargs)
    except TypeError:
        names = ", ".join(wants.parameters)
        raise TypeError(f'course.check("{ex.id}", ...) takes {names} after the id: pass '
                        "what the exercise names, as the lab's check cell does") from None
    try:
        said = ex.run(*args, **kwargs)
        status, lines = SOLVED, [said] if isinstance(said, str) else list(said)
    except NotYet as verdict:
        status, lines = NOT_YET, verdict.lines
    except Exception as err:  # the student's code failed: that is feedback, not a crash
        status, lines = NOT_YET, [describe_error(err)]
    feedback = Feedback(ex.id, ex.title, status, lines)
    log(feedback)
    if os.environ.get(GRADING_ENV) in ("autograde", "validate"):
        if not feedback.solved:
            raise AssertionError(str(feedback))  # nbgrader: a test cell fails by raising
        print(feedback)  # a returned value would read to nbgrader as a partial score
        return None
    return feedback


def describe_error(err: BaseException) -> str:
    """One or two sentences about an error the student's code raised.

    >>> describe_error(ZeroDivisionError("division by zero"))
    'Your code raised ZeroDivisionError: division by zero.'
    """
    if isinstance(err, SanitizerError) and err.findings:
        found = [f"{_article(f.kind)} {f.kind} on {f.array} ({_accesses(f)})"
                 for f in err.findings[:3]]
        if len(err.findings) > 3:
            found.append(f"{len(err.findings) - 3} more")
        listed = found[0] if len(found) == 1 else f"{', '.join(found[:-1])} and {found[-1]}"
        return (f"The sanitizer found {listed} in kernel "
                f"'{err.findings[0].kernel}'. Launch it with gpusim.config.check = True "
                "to read the whole report.")
    if isinstance(err, HipError):
        first = err.detail.split(". ")[0].split("\n")[0].rstrip(".")
        return f"Your code stopped with {err.code.name}: {first}."
    text = shorten(str(err).split("\n")[0]).rstrip(".")
    return f"Your code raised {type(err).__name__}: {text}."


def _article(words: str) -> str:
    """'a' or 'an', as the words are read out: an LDS race, a global race, an uninit...

    >>> [_article(w) for w in ("LDS race", "global race", "uninitialised read", "SGPR")]
    ['an', 'a', 'an', 'an']
    """
    first = words.split()[0] if words.split() else "x"
    if first.isupper() and len(first) > 1:  # an acronym, read letter by letter
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if first[0].lower() in "aeiou" else "a"


def _accesses(finding) -> str:
    """Both accesses of a finding, each with its source line: "write at line 5, read at
    line 10"; "updates at line 14 by two blocks" when both are the same line."""
    a, b = finding.first, finding.second
    if b is None:
        return f"{a.what} at line {a.line}"
    if (a.what, a.line) == (b.what, b.line):
        who = "two blocks" if a.block != b.block else "two threads"
        return f"{a.what}s at line {a.line} by {who}"
    return f"{a.what} at line {a.line}, {b.what} at line {b.line}"


@dataclass(frozen=True)
class Hint:
    exercise: str
    number: int
    total: int
    text: str

    def __str__(self) -> str:
        last = " (the last one)" if self.number == self.total > 1 else ""
        return textwrap.fill(f"Hint {self.number} of {self.total} for exercise "
                             f"{self.exercise}{last}: {self.text}", WIDTH,
                             subsequent_indent="  ", break_long_words=False,
                             break_on_hyphens=False)

    __repr__ = __str__


def hint(exercise_id: str, number: int | None = None) -> Hint:
    """The next hint for an exercise (each call gives one more), or hint ``number``."""
    ex = get(exercise_id)
    if number is None:
        number = min(_hints_given.get(ex.id, 0) + 1, len(ex.hints))
    if not 1 <= number <= len(ex.hints):
        raise ValueError(f"exercise {ex.id} has hints 1 to {len(ex.hints)}, not {number}")
    _hints_given[ex.id] = max(_hints_given.get(ex.id, 0), number)
    return Hint(ex.id, number, len(ex.hints), ex.hints[number - 1])
