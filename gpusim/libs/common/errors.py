"""``LibraryError``: a ROCm library call returned a non-success status; ``fail`` turns a
status into the library's exception; ``check_enum`` is every library's enum-argument check.

Every library subclasses ``LibraryError`` once, naming its status enum and which of its
members the common helpers raise for a bad pointer, for a wrong value or element type,
for an enum argument out of range and for a stream the call cannot use (the last two
default to ``value_status``)::

    class RocblasError(LibraryError):
        status_enum = rocblas_status
        pointer_status = rocblas_status.rocblas_status_invalid_pointer
        value_status = rocblas_status.rocblas_status_invalid_value

The message names the function, the status (name and C value), then the detail, which
by convention names the argument, what was wrong and the fix.

>>> import enum
>>> class demo_status(enum.IntEnum):
...     demo_status_success = 0
...     demo_status_invalid_size = 4
>>> class DemoError(LibraryError):
...     status_enum = demo_status
>>> err = DemoError(4, "demo_gemm", "lda=3 < m=4; lda is the column stride, at least m")
>>> err.status, err.function
(<demo_status.demo_status_invalid_size: 4>, 'demo_gemm')
>>> str(err)
'demo_gemm: demo_status_invalid_size (4): lda=3 < m=4; lda is the column stride, at least m'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np

from gpusim.errors import GpusimError, HipError, hipError_t


class LibraryError(GpusimError):
    """A library call failed; ``.status`` is the library's own enum member (its C value).

    ``.function`` is the C function that failed and ``.detail`` the explanation.
    """

    status_enum: ClassVar[type[enum.IntEnum]]
    pointer_status: ClassVar[enum.IntEnum | None] = None  # a null / non-device pointer
    value_status: ClassVar[enum.IntEnum | None] = None  # a wrong element type or value
    enum_status: ClassVar[enum.IntEnum | None] = None  # an enum argument (None: value_status)
    stream_status: ClassVar[enum.IntEnum | None] = None  # a bad stream (None: value_status)

    def __init__(self, status: int, function: str, detail: str):
        self.status = type(self).status_enum(status)
        self.function = function
        self.detail = detail
        super().__init__(f"{function}: {self.status.name} ({int(self.status)}): {detail}")

    def __reduce__(self):  # keep errors picklable (multiprocessing, nbval)
        return type(self), (self.status, self.function, self.detail)


def fail(error: type[LibraryError], status: Any, function: str, detail: str) -> GpusimError:
    """The exception a call raises for ``status``: ``error(status, function, detail)``, or
    ``HipError(hipErrorInvalidValue)`` where the library names no status for the case."""
    if status is None:
        return HipError(hipError_t.hipErrorInvalidValue, f"{function}: {detail}")
    return error(status, function, detail)


def check_enum(value: Any, allowed: type[enum.IntEnum] | Iterable[enum.IntEnum], *,
               function: str, arg: str, error: type[LibraryError],
               status: Any = None) -> Any:
    """``value`` as the member of ``allowed`` (an enum class, or the members a call takes)
    with its C value; else ``status`` (default: ``error.enum_status``, then
    ``error.value_status``) naming the function, the argument and the values to use.

    >>> from gpusim.errors import hipError_t
    >>> class demo_fill(enum.IntEnum):
    ...     demo_fill_upper, demo_fill_lower, demo_fill_full = 121, 122, 123
    >>> class DemoError(LibraryError):
    ...     status_enum = hipError_t
    ...     value_status = hipError_t.hipErrorInvalidValue
    >>> check_enum(122, demo_fill, function="demo_potrf", arg="uplo", error=DemoError)
    <demo_fill.demo_fill_lower: 122>
    >>> check_enum(123, list(demo_fill)[:2], function="demo_potrf", arg="uplo",
    ...            error=DemoError)
    Traceback (most recent call last):
    ...
    gpusim...DemoError: demo_potrf: hipErrorInvalidValue (1): argument 'uplo'=123 is not valid ...
    >>> check_enum(7, demo_fill, function="demo_potrf", arg="uplo", error=DemoError)
    Traceback (most recent call last):
    ...
    gpusim...: argument 'uplo'=7 is not a demo_fill; use one of demo_fill_upper (121), ...
    """
    members = list(allowed)
    kind = allowed if isinstance(allowed, type) else type(members[0])
    number = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    for member in members if number else ():
        if int(value) == int(member):
            return member
    known = number and int(value) in {int(m) for m in kind}
    what = "valid here" if known else f"a {kind.__name__}"
    names = ", ".join(f"{m.name} ({int(m)})" for m in members)
    if status is None:
        status = error.value_status if error.enum_status is None else error.enum_status
    raise fail(error, status, function,
               f"argument '{arg}'={value!r} is not {what}; use one of {names}")
