"""``cuda.Reduce``: numba.cuda's reduction object, ``Reduce(lambda a, b: a + b)(array)``.

numba.cuda compiles the binary function into a tree-reduction kernel. Here the
reduction is done on the host, in array order (``functools.reduce``, as numba's own
simulator does): the result is the same for associative integer functions and may differ
in the last bits for floating-point sums. The array is copied to the host first, so the
profile shows one device-to-host copy, not a kernel.

>>> import numpy as np
>>> total = Reduce(lambda a, b: a + b)
>>> float(total(np.arange(10.0), init=5))
50.0
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.runtime.darray import DeviceArray


class Reduce:
    """A reduction by the binary function ``functor`` (numba.cuda.Reduce)."""

    def __init__(self, functor: Callable[[Any, Any], Any]):
        if not callable(functor):
            raise TypeError(f"Reduce needs a binary function, got {functor!r}")
        self._functor = getattr(functor, "py_func", functor)  # a @cuda.jit device function

    def __call__(self, arr: Any, size: int | None = None, res: DeviceArray | None = None,
                 init: Any = 0, stream: Any = 0) -> Any:
        """Reduce the first ``size`` elements (all by default) of a 1-d host or device
        array, starting from ``init``; with ``res`` (a device array) the result is
        written to ``res[0]`` and None returned."""
        host = arr.copy_to_host(stream=stream) if isinstance(arr, DeviceArray) else (
            np.asarray(arr))
        if host.ndim != 1:
            raise ValueError(f"Reduce: the array must be 1-d, not {host.ndim}-d")
        values = host[:size] if size is not None else host
        result = host.dtype.type(functools.reduce(self._functor, values, init))
        if res is None:
            return result
        res[0] = result  # a synchronous copy on the null stream, as numba.cuda's
        return None


reduce = Reduce  # numba.cuda's lower-case alias
