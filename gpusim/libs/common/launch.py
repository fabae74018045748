"""Queue the kernels a library would launch, so they run in stream order and show up in
the profiler under real-looking names with a modeled duration.

A library call does its checks and resolves its pointers at the call (as C does), then
hands the work to ``launch``: ``fn`` runs when the host next synchronises with the
stream, like every other kernel here. ``seconds`` is the library's own model (see
modeled_time.py), which replaces the runtime's generic estimate; ``breakdown`` is what the
profiler record shows as the explanation (``prof.kernels[i].breakdown``).

>>> import numpy as np
>>> import gpusim
>>> out = np.zeros(1)
>>> with gpusim.profile() as prof:
...     op = launch(0, lambda: out.fill(1.0), name="Cijk_Ailk_Bljk_SB_MT64x64x16",
...                 grid=(4, 1, 1), block=(256, 1, 1), seconds=2e-5,
...                 breakdown={"bound": "matrix", "compute": 2e-5})
...     wait(op)
>>> out[0], prof.kernels[-1].name, prof.kernels[-1].duration_ns
(np.float64(1.0), 'Cijk_Ailk_Bljk_SB_MT64x64x16', 20000)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpusim.libs.common.modeled_time import roofline_seconds, vector_peak_tflops
from gpusim.runtime.scheduler import Op, Stream
from gpusim.runtime.streams import enqueue
from gpusim.runtime.system import get_system


def launch(stream: Any, fn: Callable[[], Any], *, name: str, grid: tuple[int, int, int],
           block: tuple[int, int, int], seconds: float, breakdown: dict | None = None,
           bytes_moved: int = 0, lds_bytes: int = 0, waits: list[Op] | None = None) -> Op:
    """Queue ``fn`` as kernel ``name`` on ``stream`` (None/0: the null stream).

    ``grid`` is in workgroups and ``block`` in work-items, as the profiler reports them;
    ``seconds`` is the modeled duration; ``waits``: operations of other streams it
    starts after (RCCL's kernel waits for the work queued on every rank's stream).
    """
    info = {"grid": tuple(grid), "block": tuple(block), "seconds": float(seconds),
            "bytes": int(bytes_moved), "lds_bytes": int(lds_bytes),
            "breakdown": dict(breakdown or {})}
    return enqueue(stream, fn, name=name, kind="kernel", info=info, waits=waits)


def launch_roofline(stream: Stream, fn: Callable[[], Any], *, name: str,
                    grid: tuple[int, int, int], block: tuple[int, int, int], flops: float,
                    bytes_moved: float, double: bool = False, breakdown: dict | None = None
                    ) -> Op:
    """``launch`` with the roofline time (modeled_time.py) on ``stream``'s device at the
    vector peak (FP64 when ``double``): the memory-bound kernels of rocSPARSE, rocRAND
    and rocFFT. ``breakdown`` adds the library's own entries to the roofline's."""
    spec = get_system().devices[stream.device].spec
    seconds, parts = roofline_seconds(spec, flops=flops, bytes_moved=bytes_moved,
                                      peak_tflops=vector_peak_tflops(spec, double))
    return launch(stream, fn, name=name, grid=grid, block=block, seconds=seconds,
                  breakdown={**parts, **(breakdown or {})}, bytes_moved=int(bytes_moved))


def wait(op: Op) -> None:
    """Block the host until ``op`` has run, as a call with a host result does (a dot
    product in pointer mode host, a get_vector into pageable memory)."""
    op.stream.scheduler.wait_host(op)
