"""numba.cuda.args: copy hints for host-array kernel arguments.

``kernel[1, n](cuda.In(a))`` copies ``a`` to the device but not back; ``cuda.Out(a)``
copies it back only; ``cuda.InOut(a)`` both (what a bare host array gets).

>>> import numpy as np
>>> type(wrap_arg(np.zeros(2))).__name__, type(wrap_arg(In(np.zeros(2)))).__name__
('InOut', 'In')
"""

from __future__ import annotations

from typing import Any

from gpusim.runtime.kernel_args import ArgHint, In, InOut, Out


def wrap_arg(value: Any, default: type = InOut) -> ArgHint:
    """``value`` if it already carries a hint, else ``default(value)``."""
    return value if isinstance(value, ArgHint) else default(value)


__all__ = ["ArgHint", "In", "Out", "InOut", "wrap_arg"]
