"""Host worker threads that run a launch's work-groups, and the watchdog around them.

Work-groups of one launch are independent except through global memory, and every
global atomic is a real CPU atomic (``gpusim.compile.device.atomics``), so they run on all host
cores at once: each worker claims chunks of work-groups from a shared counter and runs
the compiled ``<kernel>__run`` on each chunk (numba releases the GIL meanwhile).

Why this is safe for every kernel: work-groups of a launch are independent in HIP except
through global atomics (real atomics here) and fences (real fences). Non-atomic races
between blocks are races on a GPU too. The one pattern that can hang is a block
spin-waiting for a block that has not started (a software grid barrier); HIP does not
guarantee that either without a cooperative launch, and the watchdog below ends it.
(Python threads rather than numba's ``prange``: no parfor compile cost, dynamic
claiming of blocks, and a calling thread that stays free to run the watchdog.)

The calling thread waits (``watchdog.py``), after any work ``run_workers`` hands it
to do meanwhile (a first launch's timing estimate). If the launch runs past
``gpusim.config.watchdog_seconds`` (or Ctrl-C arrives) it raises the stop flag, which
generated code polls at work-group boundaries and in every loop, and reports a timeout
(or the interrupt): the notebook stays usable.

>>> plan_workers(nblocks=1, parallel=True)
(1, 1)
>>> plan_workers(nblocks=4096, parallel=False)
(1, 512)
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import threading
from collections.abc import Callable
from typing import Any

from gpusim.engine.watchdog import (  # noqa: F401 - LaunchTimeoutError is imported from here
    STOP_FAULT,
    STOP_WATCHDOG,
    LaunchTimeoutError,
    wait_for_workers,
)

_pool: cf.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def host_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def pool() -> cf.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = cf.ThreadPoolExecutor(max_workers=host_cores(),
                                          thread_name_prefix="gpusim-worker")
        return _pool


def plan_workers(nblocks: int, parallel: bool) -> tuple[int, int]:
    """(number of worker threads, work-groups per claim)."""
    workers = min(host_cores(), nblocks) if parallel else 1
    chunk = max(1, nblocks // (workers * 8))  # ~8 claims per worker balances uneven blocks
    return workers, chunk


def run_workers(body: Callable[[], None], ctl: Any, workers: int, timeout: float,
                meanwhile: Callable[[], None] | None = None) -> list:
    """Run ``body`` on ``workers`` threads; returns the exceptions they raised.

    ``ctl[0]`` is the stop flag the generated code polls. ``meanwhile`` runs on the
    calling thread while the workers run (the default timing model of a first launch:
    the kernel's fast path and its estimate overlap); what it raises is raised once the
    workers are done.
    """
    errors: list[BaseException] = []

    def task() -> None:
        try:
            body()
        except BaseException as exc:  # noqa: BLE001 - reported to the launching thread
            if ctl[0] == 0:
                ctl[0] = STOP_FAULT  # let the other workers stop early
            errors.append(exc)

    if workers == 1 and timeout <= 0:
        task()
        if meanwhile is not None:
            meanwhile()
        return errors
    futures = [pool().submit(task) for _ in range(workers)]
    try:
        if meanwhile is not None:
            meanwhile()
    finally:
        wait_for_workers(futures, ctl, timeout, errors)  # raises on timeout or Ctrl-C
    return errors
