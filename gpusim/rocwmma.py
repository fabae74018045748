"""rocWMMA's fragment API under its C++ names: ``from gpusim import rocwmma`` (see
gpusim/libs/rocwmma.py).

>>> from gpusim import rocwmma
>>> rocwmma.fragment(rocwmma.matrix_b, 16, 16, 16, rocwmma.float16).size
4
"""

from gpusim.libs.rocwmma import *  # noqa: F403
from gpusim.libs.rocwmma import __all__  # noqa: F401
