"""Discrete distributions as rocRAND builds them (``rocrand_create_discrete_distribution``,
``rocrand_create_poisson_distribution``; ``library/src/rng/distribution/discrete.hpp``).

A distribution holds ``size`` probabilities for the values ``offset .. offset + size - 1``,
normalised by their running sum, and both of rocRAND's sampling tables: Walker's alias
table (``alias``, ``probability``) and the CDF, as device arrays like the
``rocrand_discrete_distribution_st`` that rocRAND copies to the device. The host API's
Poisson generation uses the same tables (generator.py).

>>> d = rocrand_create_discrete_distribution([1.0, 3.0], 2, 10)
>>> d.size, d.offset, d.cdf.copy_to_host()
(2, 10, array([0.25, 1.  ]))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand.status import RocrandError, rocrand_status
from gpusim.runtime.darray import to_device


@dataclass
class rocrand_discrete_distribution:  # noqa: N801 - C name
    """``rocrand_discrete_distribution_st``: size, offset and device arrays of the tables."""

    size: int
    offset: int
    alias: Any
    probability: Any
    cdf: Any
    destroyed: bool = False


def _create(p: np.ndarray, offset: int) -> rocrand_discrete_distribution:
    p = dist.normalize(p)
    prob, alias = dist.alias_table(p)
    return rocrand_discrete_distribution(p.size, int(offset), to_device(alias),
                                         to_device(prob), to_device(np.cumsum(p)))


def rocrand_create_discrete_distribution(probabilities: Any, size: int,
                                         offset: int) -> rocrand_discrete_distribution:
    """A distribution over ``offset + i`` with weights ``probabilities[i]`` (size > 0)."""
    if int(size) <= 0:
        raise RocrandError(rocrand_status.ROCRAND_STATUS_OUT_OF_RANGE,
                           "rocrand_create_discrete_distribution",
                           f"size={size}; a distribution needs at least one value")
    p = np.asarray(probabilities, np.float64)[:int(size)]
    return _create(p, offset)


def rocrand_create_poisson_distribution(lambda_: float) -> rocrand_discrete_distribution:
    """The Poisson(lambda_) table rocRAND builds (values with p >= 1e-12 around lambda)."""
    if not float(lambda_) > 0.0:
        raise RocrandError(rocrand_status.ROCRAND_STATUS_OUT_OF_RANGE,
                           "rocrand_create_poisson_distribution",
                           f"lambda={lambda_} must be > 0")
    p, offset = dist.poisson_probabilities(float(lambda_))
    return _create(p, offset)


def rocrand_destroy_discrete_distribution(discrete_distribution: Any) -> None:
    """Release a distribution (None: ROCRAND_STATUS_OUT_OF_RANGE, as rocrand.cpp says)."""
    if not isinstance(discrete_distribution, rocrand_discrete_distribution) or (
            discrete_distribution.destroyed):
        raise RocrandError(rocrand_status.ROCRAND_STATUS_OUT_OF_RANGE,
                           "rocrand_destroy_discrete_distribution",
                           f"{discrete_distribution!r} is not a live discrete distribution")
    discrete_distribution.destroyed = True
