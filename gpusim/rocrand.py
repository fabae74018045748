"""rocRAND under its C names: ``from gpusim import rocrand`` (see gpusim/libs/rocrand).

>>> from gpusim import rocrand
>>> rocrand.ROCRAND_RNG_PSEUDO_MRG32K3A.value
402
"""

from gpusim.libs.rocrand import *  # noqa: F403
from gpusim.libs.rocrand import __all__  # noqa: F401
