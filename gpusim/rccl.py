"""``from gpusim import rccl``: RCCL's collectives over the emulated GPUs, C names and enums.

See gpusim/libs/rccl for the layers. A non-success result raises ``rccl.NcclError``
whose ``.status`` is the ``ncclResult_t`` member; out-parameters are returned
(``comms = rccl.ncclCommInitAll(8)``).

>>> from gpusim import rccl
>>> rccl.ncclFloat32 == rccl.ncclFloat == 7, rccl.ncclAvg.value
(True, 4)
"""

from gpusim.libs.rccl import *  # noqa: F403
from gpusim.libs.rccl import __all__  # noqa: F401
