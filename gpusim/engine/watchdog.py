"""The watchdog and Ctrl-C: stop a launch's workers and leave the emulator usable.

The launching thread only waits for the workers, in short slices, so that a learner's
Ctrl-C (or Jupyter's "interrupt kernel") is seen within a fraction of a second even when
it arrives as ``_thread.interrupt_main()`` rather than a real signal. Either way it
raises the stop flag ``ctl[0]`` that generated code polls (every ``while`` iteration,
every 2**16 iterations of a ``for``, every block-level loop and every chunk of blocks),
waits for the workers to leave, and reports:

- past ``gpusim.config.watchdog_seconds``: ``LaunchTimeoutError`` with the workers' stop
  records, from which ``timeout_error`` names the kernel and the loop it was stuck in;
- Ctrl-C: the ``KeyboardInterrupt`` itself, once the workers have stopped.

>>> import concurrent.futures as cf, numpy as np
>>> ctl = np.zeros(8, np.int64)
>>> with cf.ThreadPoolExecutor(1) as ex:
...     wait_for_workers([ex.submit(lambda: None)], ctl, timeout=1.0)
>>> int(ctl[0])
0
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from typing import Any

from gpusim.compile.device import FAULT_STOPPED, KernelFaultError
from gpusim.errors import HipError, hipError_t

STOP_WATCHDOG, STOP_FAULT, STOP_INTERRUPT = 1, 2, 3
SLICE_SECONDS = 0.05  # how often the waiting thread looks for Ctrl-C
GRACE_SECONDS = 10.0  # how long stopped workers get to reach a poll


class LaunchTimeoutError(Exception):
    """The watchdog stopped the launch; ``args[0]`` holds the workers' exceptions."""


def wait_for_workers(futures: list[cf.Future], ctl: Any, timeout: float,
                     errors: list | None = None) -> None:
    """Wait until every worker is done; stop them on timeout or Ctrl-C."""
    deadline = time.monotonic() + timeout
    pending = set(futures)
    try:
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            _, pending = cf.wait(pending, timeout=min(SLICE_SECONDS, left))
    except BaseException as exc:  # KeyboardInterrupt: stop the workers, then re-raise
        ctl[0] = STOP_INTERRUPT
        cf.wait(futures, timeout=GRACE_SECONDS)
        if isinstance(exc, KeyboardInterrupt):
            exc.add_note("gpusim: the kernel launch was interrupted; its worker threads "
                         "stopped and the emulator is ready for the next launch")
        raise
    if pending:
        ctl[0] = STOP_WATCHDOG
        cf.wait(pending, timeout=GRACE_SECONDS)
        raise LaunchTimeoutError(list(errors or []))


def stuck_loop(errors: list) -> tuple[int, int] | None:
    """(site, block) of the loop a stopped worker was in, if its poll named one."""
    for exc in errors:
        if isinstance(exc, KernelFaultError) and len(exc.args) > 2 and \
                exc.args[0] == FAULT_STOPPED and int(exc.args[1]) >= 0:
            return int(exc.args[1]), int(exc.args[2])
    return None


def timeout_error(ck: Any, errors: list, seconds: float, grid: tuple) -> HipError:
    """hipErrorLaunchTimeOut naming the kernel and, if known, the loop it was stuck in."""
    from gpusim.compile import shown_filename
    from gpusim.engine.faults import unflatten

    where = ""
    found = stuck_loop(errors)
    if found is not None:
        site = ck.sites[found[0]]
        text = ck.line_text(site.line) if site.func == ck.name else ""
        where = (f" It was in the loop at line {site.line} of {shown_filename(site.filename)}"
                 + (f" (device function '{site.func}')" if site.func != ck.name else "")
                 + f", in blockIdx={unflatten(found[1], grid)}"
                 + (f":\n    {text}\n" if text else ".\n")
                 + "Does its condition ever change (a `while` whose variable is never updated, "
                 "a range far too large)?")
    return HipError(hipError_t.hipErrorLaunchTimeOut,
                    f"kernel '{ck.name}' ran longer than gpusim.config.watchdog_seconds = "
                    f"{seconds:g} s and was stopped (an endless loop?).{where} "
                    "Raise the limit for long kernels.")
