"""numba.cuda's side of a launch configuration: its error types, its dimension rules and
the launchable result of ``kernel.specialize``.

numba.cuda checks ``kernel[grid, block]`` when indexed and raises ValueError/TypeError;
HIP returns hipErrorInvalidConfiguration. The errors here are both, so numba.cuda code
and HIP-minded code catch them alike.

>>> try:
...     check_dims((1, 2, 3, 4), "griddim")
... except ValueError as err:
...     print(err.detail)
griddim must be a sequence of 1, 2 or 3 integers, got [1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t


class LaunchConfigError(HipError, ValueError):
    """A kernel indexed or called without a valid launch configuration (numba.cuda raises
    ValueError; HIP returns hipErrorInvalidConfiguration / hipErrorMissingConfiguration)."""


class LaunchDimsTypeError(HipError, TypeError):
    """A launch dimension that is not an integer (numba.cuda raises TypeError)."""


def check_dims(value: Any, name: str) -> None:
    """numba.cuda's rules, checked at ``kernel[...]``: 1 to 3 integers."""
    dims = list(value) if isinstance(value, (tuple, list)) else [value]
    if len(dims) > 3:
        raise LaunchConfigError(hipError_t.hipErrorInvalidConfiguration,
                                f"{name} must be a sequence of 1, 2 or 3 integers, got {dims!r}")
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        raise LaunchDimsTypeError(hipError_t.hipErrorInvalidConfiguration,
                                  f"{name} must be a sequence of integers, got {dims!r}")


class Specialized:
    """What ``kernel.specialize(*args)`` returns: the compiled kernel -- its attributes
    (``source``, ``n_regions`` ...) read through -- that can also be launched as numba.cuda's
    specialized dispatcher is, ``spec[grid, block](*args)``."""

    def __init__(self, kernel: Any, compiled: Any):
        self.kernel = kernel
        self.compiled = compiled

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled, name)

    def __getitem__(self, config: Any) -> Callable[..., None]:
        return self.kernel[config]

    def __repr__(self) -> str:
        return f"<specialized {self.kernel!r}>"
