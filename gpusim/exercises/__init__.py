"""Exercise checks for the course's labs: specific, kind feedback, hints on demand.

In a lab, after an exercise cell::

    from gpusim import course
    course.check("01.1", scale)      # -> Exercise 01.1 (grid-stride loop): solved.
    course.hint("01.1")              # one more hint each time you ask

``check`` runs what you pass (a value, a kernel, a function) on the check's own inputs
and compares it with a reference computed independently (NumPy, the device profile,
the modeled time of a slower version). It says what is wrong without the answer: the
first wrong index and how many are wrong, an element never written, a race the
sanitizer found, a modeled time short of the target, LDS bank conflicts, an atomic per
element, work done twice. Errors your code raises become the feedback; the notebook
keeps running. See docs/course_checks.md.

Named ``exercises`` for what it holds (``course/`` at the top of the repository is the
course material); ``course`` stays its public name, given by ``gpusim/__init__.py``.

Data flow::

    labs/labNN.py --registers--> registry.py (id -> check function, hints)
    check(id, obj) --> runs obj via measure.py (profile, sanitizer, another device)
                   --> expect.py (compare with the reference, say what differs)
                   --> feedback.py: Feedback (text <= 90 columns, HTML box,
                       a $GPUSIM_COURSE_LOG line)
    warm.py        ``python -m gpusim.exercises.warm``: compiles the shared machinery at
                   set-up (make lab, Binder), so a lab's first kernel starts warm

Writing a check for a new lab: add ``gpusim/exercises/labs/labNN.py`` with functions
decorated by ``@exercise("NN.k", title, hints=[...])`` that return a sentence on
success and raise ``NotYet`` (directly or through ``expect_*``) otherwise.

>>> from gpusim import course
>>> print(course.check("00.1", 0))
Exercise 00.1 (resident work-items): not yet.
  resident is 0: that is too small. Multiply all four numbers of the device profile.
  Stuck? gpusim.course.hint("00.1") gives a hint.
"""

from gpusim.exercises.expect import expect_array, expect_true, expect_value
from gpusim.exercises.feedback import NOT_YET, SOLVED, Feedback
from gpusim.exercises.measure import (
    expect_faster,
    lanes_per_element,
    lds_conflict_degree,
    profiled,
    sanitizer,
)
from gpusim.exercises.registry import NotYet, check, exercise, hint

__all__ = ["check", "hint", "exercise", "NotYet", "Feedback", "SOLVED", "NOT_YET",
           "expect_array", "expect_value", "expect_true", "expect_faster", "profiled",
           "sanitizer", "lanes_per_element", "lds_conflict_degree"]
