"""``from gpusim import rocsparse``: the emulated rocSPARSE under its C names (see
``gpusim.libs.rocsparse``).

>>> from gpusim import rocsparse
>>> int(rocsparse.rocsparse_status_invalid_size)
4
"""

from gpusim.libs.rocsparse import *  # noqa: F403
from gpusim.libs.rocsparse import __all__  # noqa: F401
