"""``cuda.fp16``: numba.cuda's half-precision functions for kernels (``hadd``, ``hfma``,
``hsin``, ``hlt``, ...). They are kernel-language names defined in
``gpusim.compile.lang_fp16``; how float16 runs on the emulator is ``passes/half.py``.

>>> import numpy as np
>>> from gpusim import cuda
>>> @cuda.jit
... def axpy(out, a, x, y):
...     i = cuda.grid(1)
...     if i < out.size:
...         out[i] = cuda.fp16.hfma(a, x[i], y[i])
>>> x = np.array([1, 2, 3], np.float16); out = np.zeros_like(x)
>>> axpy[1, 4](out, np.float16(0.5), x, x)
>>> out
array([1.5, 3. , 4.5], dtype=float16)
"""

from gpusim.compile.lang_fp16 import *  # noqa: F403
from gpusim.compile.lang_fp16 import __all__  # noqa: F401
