"""The ``rocrand_generate*`` family: one C function per output type and distribution.

Each fills ``n`` elements of ``output_data`` (a device array or pointer; a NumPy array for
a host generator) on the generator's stream. Normal and log-normal take ``mean`` and
``stddev`` (of the underlying normal for log-normal); Poisson takes ``lambda_`` > 0
(``lambda`` is a Python keyword).

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.libs.rocrand.generator import rocrand_create_generator
>>> g = rocrand_create_generator(404)
>>> d = hip.device_array(1000, np.float32)
>>> rocrand_generate_uniform(g, d, 1000)
>>> u = d.copy_to_host(); bool(u.min() > 0 and u.max() <= 1)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.rocrand.generator import _gen, _generate
from gpusim.libs.rocrand.status import RocrandError, rocrand_status


def rocrand_generate(generator: Any, output_data: Any, n: int) -> None:
    """n uniformly distributed 32-bit unsigned integers."""
    _generate(generator, output_data, n, np.uint32, "bits", "rocrand_generate")


def rocrand_generate_long_long(generator: Any, output_data: Any, n: int) -> None:
    """n 64-bit unsigned integers (64-bit generators only; others: TYPE_ERROR)."""
    _generate(generator, output_data, n, np.uint64, "bits", "rocrand_generate_long_long")


def rocrand_generate_char(generator: Any, output_data: Any, n: int) -> None:
    """n uniformly distributed bytes (each 32-bit number gives four, low byte first)."""
    _generate(generator, output_data, n, np.uint8, "bits", "rocrand_generate_char")


def rocrand_generate_short(generator: Any, output_data: Any, n: int) -> None:
    """n uniformly distributed 16-bit unsigned integers (two per 32-bit number)."""
    _generate(generator, output_data, n, np.uint16, "bits", "rocrand_generate_short")


def rocrand_generate_uniform(generator: Any, output_data: Any, n: int) -> None:
    """n floats uniform on (0, 1]."""
    _generate(generator, output_data, n, np.float32, "uniform", "rocrand_generate_uniform")


def rocrand_generate_uniform_double(generator: Any, output_data: Any, n: int) -> None:
    """n doubles uniform on (0, 1]."""
    _generate(generator, output_data, n, np.float64, "uniform",
              "rocrand_generate_uniform_double")


def rocrand_generate_uniform_half(generator: Any, output_data: Any, n: int) -> None:
    """n halves uniform on (0, 1] (NumPy float16; two per 32-bit number)."""
    _generate(generator, output_data, n, np.float16, "uniform", "rocrand_generate_uniform_half")


def rocrand_generate_normal(generator: Any, output_data: Any, n: int, mean: float,
                            stddev: float) -> None:
    """n normal floats (Box-Muller pairs; an odd n drops the last pair's second value)."""
    _generate(generator, output_data, n, np.float32, "normal", "rocrand_generate_normal",
              mean=float(mean), stddev=float(stddev))


def rocrand_generate_normal_double(generator: Any, output_data: Any, n: int, mean: float,
                                   stddev: float) -> None:
    """n normal doubles."""
    _generate(generator, output_data, n, np.float64, "normal",
              "rocrand_generate_normal_double", mean=float(mean), stddev=float(stddev))


def rocrand_generate_normal_half(generator: Any, output_data: Any, n: int, mean: float,
                                 stddev: float) -> None:
    """n normal halves (a pair per 32-bit number; mean and stddev are rounded to half)."""
    _generate(generator, output_data, n, np.float16, "normal", "rocrand_generate_normal_half",
              mean=float(mean), stddev=float(stddev))


def rocrand_generate_log_normal(generator: Any, output_data: Any, n: int, mean: float,
                                stddev: float) -> None:
    """n log-normal floats: exp of a normal with this mean and stddev."""
    _generate(generator, output_data, n, np.float32, "log_normal",
              "rocrand_generate_log_normal", mean=float(mean), stddev=float(stddev))


def rocrand_generate_log_normal_double(generator: Any, output_data: Any, n: int,
                                       mean: float, stddev: float) -> None:
    """n log-normal doubles."""
    _generate(generator, output_data, n, np.float64, "log_normal",
              "rocrand_generate_log_normal_double", mean=float(mean), stddev=float(stddev))


def rocrand_generate_log_normal_half(generator: Any, output_data: Any, n: int, mean: float,
                                     stddev: float) -> None:
    """n log-normal halves: exp of a half normal with this mean and stddev."""
    _generate(generator, output_data, n, np.float16, "log_normal",
              "rocrand_generate_log_normal_half", mean=float(mean), stddev=float(stddev))


def rocrand_generate_poisson(generator: Any, output_data: Any, n: int, lambda_: float) -> None:
    """n Poisson-distributed unsigned ints with mean ``lambda_`` (> 0, else OUT_OF_RANGE)."""
    _gen(generator, "rocrand_generate_poisson")  # rocrand.cpp checks the generator first
    if not float(lambda_) > 0.0:
        raise RocrandError(rocrand_status.ROCRAND_STATUS_OUT_OF_RANGE,
                           "rocrand_generate_poisson",
                           f"lambda={lambda_} must be > 0 (the mean of the distribution)")
    _generate(generator, output_data, n, np.uint32, "poisson", "rocrand_generate_poisson",
              lam=float(lambda_))
