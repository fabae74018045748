"""Started by every Python process of a conformance run (this folder is on PYTHONPATH):
numba tests that run code in a fresh interpreter (``python -c``, as test_print does) get
the same ``numba.cuda`` as the test itself, chosen by GPUSIM_CONFORMANCE."""

import os

if os.environ.get("GPUSIM_CONFORMANCE") in ("gpusim", "numba"):
    from tests.conformance import shim

    shim.install(os.environ["GPUSIM_CONFORMANCE"])
