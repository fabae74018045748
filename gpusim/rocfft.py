"""``from gpusim import rocfft``: the emulated rocFFT under its C names (see
``gpusim.libs.rocfft``).

>>> from gpusim import rocfft
>>> int(rocfft.rocfft_status_invalid_work_buffer)
8
"""

from gpusim.libs.rocfft import *  # noqa: F403
from gpusim.libs.rocfft import __all__  # noqa: F401
