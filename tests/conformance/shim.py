"""Put ``gpusim.cuda`` where numba's tests import ``numba.cuda`` from (child process only).

numba's CUDA tests are written against ``numba.cuda`` and read ``config.ENABLE_CUDASIM``
when decorated (``skip_on_cudasim``, ``skip_unless_cc_*`` ...). So the child sets
``NUMBA_ENABLE_CUDASIM=1`` before numba is imported -- every skip decorator then decides
exactly as it does for numba's own simulator -- imports numba's test infrastructure
(``numba.cuda.testing``, the test packages), and only then swaps the module the tests
reach as ``numba.cuda`` / ``from numba import cuda`` for one whose names are gpusim's.

One simulator skip is not applied on gpusim: numba's simulator skips every doc_examples
test because they import numba.cuda inside the test (``SIMULATOR_ONLY_SKIP``); the report
counts those separately, as documentation examples the simulator cannot run.

What the tests still get from numba: ``numba.cuda.testing`` (test cases, skip helpers),
the test packages themselves, and submodules gpusim does not provide (they are imported
from numba's files, and see the facade as ``numba.cuda``) -- except the API submodules in
``FACADE_SUBMODULES``, which come from gpusim or fail to import. A name the facade lacks is an
AttributeError in the test, counted as a failure: nothing falls back to the simulator.
"""

from __future__ import annotations

import importlib
import os
import sys
import types

# submodule names numba's tests import that gpusim.cuda provides under the same name
FACADE_SUBMODULES = ("random", "libdevice", "fp16", "cg", "args")


_installed: list[str] = []


def install(mode: str) -> None:
    """Prepare this process to run numba's CUDA tests on ``mode`` ("gpusim" or "numba");
    a second call for the same mode (sitecustomize did it already) does nothing."""
    if _installed == [mode]:
        return
    if "numba" in sys.modules:
        raise RuntimeError("shim.install must run before numba is imported")
    _installed.append(mode)
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    import numba
    import numba.cuda
    import numba.cuda.testing  # noqa: F401 - the test infrastructure stays numba's
    import numba.cuda.tests.cudapy  # noqa: F401
    import numba.cuda.tests.doc_examples  # noqa: F401

    if mode == "numba":
        return
    if mode != "gpusim":
        raise ValueError(f"mode must be 'gpusim' or 'numba', not {mode!r}")
    from gpusim import cuda as facade
    from tests.conformance.exclusions import SIMULATOR_ONLY_SKIP

    testing = sys.modules["numba.cuda.testing"]
    simulator_skip = testing.skip_on_cudasim
    testing.skip_on_cudasim = lambda reason: (
        (lambda test: test) if reason == SIMULATOR_ONLY_SKIP else simulator_skip(reason))

    real = sys.modules["numba.cuda"]
    shim = types.ModuleType("numba.cuda", facade.__doc__)
    shim.__dict__.update({k: v for k, v in vars(facade).items() if not k.startswith("__")})
    shim.__path__ = list(real.__path__)  # numba's own submodules stay importable
    shim.__file__ = getattr(facade, "__file__", None)
    for name in ("testing", "tests", "cudadrv", "simulator"):  # infrastructure, not API
        if name in vars(real) and name not in vars(shim):
            setattr(shim, name, getattr(real, name))
    for name in FACADE_SUBMODULES:  # a submodule, or a namespace object of that name
        sub = sys.modules.get(f"{facade.__name__}.{name}", getattr(facade, name, None))
        # None: importing numba's own file (simulator code) instead fails as ImportError
        sys.modules[f"numba.cuda.{name}"] = sub
    # test_vector_type reads the backend's table of vector types from the simulator's
    # internals (numba.cuda.vector_types on a GPU); on gpusim it is gpusim's own table
    sys.modules["numba.cuda.simulator.vector_types"] = importlib.import_module(
        "gpusim.compile.lang_vectors")
    sys.modules["numba.cuda"] = shim
    numba.cuda = shim
