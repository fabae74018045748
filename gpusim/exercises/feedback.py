"""What a check says: a verdict that prints as plain text and shows as a small HTML box.

A ``Feedback`` is plain data (the exercise, its status, a few sentences). Its text form
fits 90 columns (sentences are wrapped between words, never inside a number), so it
reads the same in JupyterLab, in a terminal and in nbval's comparisons; ``_repr_html_``
adds colour. Every verdict is also appended, as one JSON line, to the file named by the
``GPUSIM_COURSE_LOG`` environment variable when it is set: course CI reads that to
see which exercises a notebook solved.

>>> fb = Feedback("00.1", "resident work-items", SOLVED, ["All 304 CUs counted."])
>>> print(fb)
Exercise 00.1 (resident work-items): solved.
  All 304 CUs counted.
>>> fb.solved
True
>>> print(Feedback("00.1", "resident work-items", NOT_YET, ["resident is 0: too small."]))
Exercise 00.1 (resident work-items): not yet.
  resident is 0: too small.
  Stuck? gpusim.course.hint("00.1") gives a hint.
"""

from __future__ import annotations

import html
import json
import os
import textwrap
from dataclasses import dataclass, field

SOLVED, NOT_YET = "solved", "not yet"
WIDTH = 88  # the text form fits a 90-column notebook output area
LOG_ENV = "GPUSIM_COURSE_LOG"


@dataclass(frozen=True)
class Feedback:
    """The verdict of one ``check``: ``status`` is ``"solved"`` or ``"not yet"``;
    ``lines`` say what was found (what is wrong, or what the solution achieves)."""

    exercise: str
    title: str
    status: str
    lines: list[str] = field(default_factory=list)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def _advice(self) -> list[str]:
        return [] if self.solved else [f'Stuck? gpusim.course.hint("{self.exercise}") '
                                       "gives a hint."]

    def __str__(self) -> str:
        head = f"Exercise {self.exercise} ({self.title}): {self.status}."
        body = [wrapped for line in [*self.lines, *self._advice()]
                for wrapped in textwrap.wrap(line, WIDTH, initial_indent="  ",
                                             subsequent_indent="    ",
                                             break_long_words=False, break_on_hyphens=False)]
        return "\n".join([head, *body])

    def __repr__(self) -> str:  # the notebook's text/plain form is the printed form
        return str(self)

    def _repr_html_(self) -> str:
        colour, mark = ("#2e7d32", "&#10004;") if self.solved else ("#b26a00", "&#9654;")
        items = "".join(f"<li>{html.escape(line)}</li>" for line in
                        [*self.lines, *self._advice()])
        return (f'<div style="border-left:4px solid {colour};padding:2px 8px;margin:4px 0">'
                f'<b style="color:{colour}">{mark} Exercise {html.escape(self.exercise)} '
                f"({html.escape(self.title)}): {self.status}.</b>"
                f'<ul style="margin:2px 0">{items}</ul></div>')


def shorten(text: str, limit: int = 300) -> str:
    """``text`` cut to at most ``limit`` characters at the end of a sentence, else between
    words (with "..."): never inside a word or a number.

    >>> shorten("First sentence. Second one is longer.", 20)
    'First sentence.'
    >>> shorten("one very long sentence without a stop", 20)
    'one very long ...'
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[:limit + 1]
    stop = head.rfind(". ")
    if stop >= limit // 3:
        return head[:stop + 1]
    return head[:head[:limit - 3].rstrip().rfind(" ") + 1] + "..."


def log(feedback: Feedback) -> None:
    """Append the verdict to ``$GPUSIM_COURSE_LOG`` (one JSON object a line), if set."""
    path = os.environ.get(LOG_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"exercise": feedback.exercise, "status": feedback.status,
                                 "lines": feedback.lines}) + "\n")
