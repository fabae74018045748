"""Tests of the selection that gpusim does not try to pass, each with its reason.

The selection is numba 0.68.1's ``cudapy`` and ``doc_examples`` tests that numba's own
simulator runs (does not skip). numba's skip decorators already drop what the simulator
cannot do (PTX, NVVM, linking, caching, IPC, compute capabilities ...: 702 of 1235); an
entry here removes a test the simulator runs but that says nothing about gpusim. Keys are
test-id prefixes (a module, a class or one test).

>>> reason_for("numba.cuda.tests.cudapy.test_gufunc_scheduling.TestGUFuncScheduling.test_x")[:30]
"does not use numba.cuda's API:"
"""

from __future__ import annotations

_CUDAPY = "numba.cuda.tests.cudapy."

EXCLUDED: dict[str, str] = {
    _CUDAPY + "test_gufunc_scheduling": (
        "does not use numba.cuda's API: it tests numba's host-side gufunc shape "
        "scheduler (numba.cuda.deviceufunc.GUFuncEngine), pure Python that would pass "
        "whatever the backend"),
}


def reason_for(test_id: str) -> str | None:
    """Why ``test_id`` is excluded, or None if it is not."""
    for prefix, reason in EXCLUDED.items():
        if test_id == prefix or test_id.startswith(prefix + "."):
            return reason
    return None
