"""Tests of the selection that gpusim does not try to pass, each with its reason.

The selection is numba 0.68.1's ``cudapy`` and ``doc_examples`` tests that numba's own
simulator runs (does not skip). numba's skip decorators already drop what the simulator
cannot do (PTX, NVVM, linking, caching, IPC, compute capabilities ...: 702 of 1235); an
entry here removes a test (the simulator runs it, or it is a documentation example) that is
NVIDIA-specific or says nothing about gpusim, with the reason. Keys are
test-id prefixes (a module, a class or one test).

>>> reason_for("numba.cuda.tests.cudapy.test_gufunc_scheduling.TestGUFuncScheduling.test_x")[:30]
"does not use numba.cuda's API:"
"""

from __future__ import annotations

_CUDAPY = "numba.cuda.tests.cudapy."
_DOCS = "numba.cuda.tests.doc_examples."

EXCLUDED: dict[str, str] = {
    _CUDAPY + "test_gufunc_scheduling": (
        "does not use numba.cuda's API: it tests numba's host-side gufunc shape "
        "scheduler (numba.cuda.deviceufunc.GUFuncEngine), pure Python that would pass "
        "whatever the backend"),
    _CUDAPY + "test_intrinsics.TestCudaIntrinsic.test_simple_warpsize": (
        "asserts NVIDIA's 32-lane warp (\"CUDA semantics\"); gpusim's default GPU, an "
        "MI300X, runs 64-lane wavefronts and cuda.warpsize says 64, by design"),
    _CUDAPY + "test_intrinsics.TestCudaIntrinsic.test_simple_laneid": (
        "asserts lane ids 0-31 repeating every 32 threads (NVIDIA's warp); on a 64-lane "
        "wavefront they run 0-63"),
    _DOCS + "test_ffi": (
        "links CUDA C++ device functions (cuda.declare_device + link=[*.cu], compiled by "
        "NVRTC to PTX): NVIDIA's toolchain"),
}

# numba's simulator skips every doc_examples test for one reason of its own (they import
# numba.cuda inside the test function); gpusim has no such limit, so the report runs
# these too, as a separate count ("documentation examples the simulator cannot run").
SIMULATOR_ONLY_SKIP = "cudasim doesn't support cuda import at non-top-level"


def reason_for(test_id: str) -> str | None:
    """Why ``test_id`` is excluded, or None if it is not."""
    for prefix, reason in EXCLUDED.items():
        if test_id == prefix or test_id.startswith(prefix + "."):
            return reason
    return None
