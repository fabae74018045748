"""Compare the student's values with a reference, and say what differs without the answer.

Each ``expect_*`` returns quietly when the value is right and raises ``NotYet`` with a
specific sentence when it is not: which index is wrong and how many are, whether an
element was never written, whether a number is too small or too large. The reference
is computed by the exercise independently of the student's code (NumPy, the device
profile); it is never printed for a scalar answer.

>>> expect_value("resident", 0, 622592)
Traceback (most recent call last):
...
gpusim.exercises.registry.NotYet: resident is 0: that is too small.
>>> import numpy as np
>>> got = np.array([0.0, 3.0, np.nan, 9.0])
>>> expect_array("out", got, np.array([0.0, 3.0, 6.0, 9.0]), unset=np.nan)
Traceback (most recent call last):
...
gpusim.exercises.registry.NotYet: out[2] was never written (1 of 4 elements are wrong).
"""

from __future__ import annotations

import numpy as np

from gpusim.exercises.registry import NotYet


def expect_value(name: str, got: object, want: float, *, rtol: float = 0.0,
                 why: str = "") -> None:
    """A number: equal to ``want`` (within ``rtol``), else say too small or too large.

    >>> expect_value("nbytes", 4_000_000, 4_000_000)
    >>> expect_value("nbytes", 1_000_000, 4_000_000, why="hipMalloc counts bytes.")
    Traceback (most recent call last):
    ...
    gpusim.exercises.registry.NotYet: nbytes is 1,000,000: that is too small. hipMalloc ...
    """
    if isinstance(got, bool) or not isinstance(got, (int, float, np.integer, np.floating)):
        raise NotYet(f"{name} should be a number, but it is {type(got).__name__} {got!r}.")
    if np.isclose(float(got), want, rtol=rtol, atol=0.0):
        return
    shown = f"{got:,}" if isinstance(got, (int, np.integer)) else f"{got:.6g}"
    side = "too small" if got < want else "too large"
    raise NotYet(f"{name} is {shown}: that is {side}." + (f" {why}" if why else ""))


def expect_array(name: str, got: np.ndarray, want: np.ndarray, *, rtol: float = 1e-5,
                 atol: float = 1e-6, unset: float | None = None) -> None:
    """An array: the same shape and values as ``want``; else the first wrong index.

    ``unset`` is the value the check filled the output with before the launch, so an
    element still holding it was never written (NaN is a good choice for floats).

    >>> expect_array("sums", np.array([1.0, 2.5]), np.array([1.0, 2.0]))
    Traceback (most recent call last):
    ...
    gpusim.exercises.registry.NotYet: sums[1] is 2.5, which is not right (1 of 2 ... wrong).
    """
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise NotYet(f"{name} has shape {got.shape}; the exercise expects {want.shape}.")
    if np.issubdtype(want.dtype, np.floating) or np.issubdtype(got.dtype, np.floating):
        good = np.isclose(got, want, rtol=rtol, atol=atol)
    else:
        good = got == want
    if good.all():
        return
    wrong = np.argwhere(~good)
    first = tuple(int(i) for i in wrong[0])
    where = f"{name}[{', '.join(map(str, first))}]"
    value = got[first]
    count = f"({len(wrong):,} of {got.size:,} elements are wrong)"
    never = unset is not None and (value == unset or (np.isnan(unset) and np.isnan(value)))
    if never:
        raise NotYet(f"{where} was never written {count}.")
    shown = f"{value:.6g}" if np.issubdtype(got.dtype, np.floating) else str(value)
    raise NotYet(f"{where} is {shown}, which is not right {count}.")


def expect_true(condition: bool, message: str) -> None:
    """Raise ``NotYet(message)`` unless ``condition`` holds.

    >>> expect_true(2 > 1, "never shown")
    """
    if not condition:
        raise NotYet(message)
