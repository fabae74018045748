"""Run the student's code the way a check needs: profiled, sanitized, counted.

A check launches the student's kernel on its own inputs inside these helpers and reads
the profile records (``gpusim.profile(memory=True)``): modeled time, how often each
element was stored or updated atomically, LDS bank-conflict degree. Comparisons of
modeled time are relative (the student's kernel against a slower version run the same
way), so they hold whatever the timing model's absolute numbers are. A check measures
from cold caches (``gpusim.config.cold_caches``): what earlier cells left in the L2 and
Infinity Cache must not change a verdict, so a check says the same whatever ran before.

>>> import numpy as np
>>> from gpusim import hip
>>> @hip.jit
... def fill(out):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = 1.0
>>> out = hip.device_array(1000, np.float32)
>>> (k,) = profiled(lambda: fill[4, 256](out))
>>> lanes_per_element(k, "out", "store", 1000)
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import gpusim
from gpusim import hip
from gpusim.exercises.registry import NotYet
from gpusim.profiler.records import KernelRecord


def profiled(launch: Callable[[], object], *kernels: object) -> list[KernelRecord]:
    """Run ``launch()`` with memory tracing from cold caches, wait for it, return its
    kernel records.

    Pass the kernels it launches when one may be ``@hip.jit(check=True)``: the checked
    path does not trace, so they run traced here (their ``check`` is restored after).
    """
    saved = [(k, k.check) for k in kernels]
    cold = gpusim.config.cold_caches
    try:
        for k, _ in saved:
            k.check = None
        gpusim.config.cold_caches = True
        with gpusim.profile(memory=True) as prof:
            launch()
            hip.hipDeviceSynchronize()
    finally:
        gpusim.config.cold_caches = cold
        for k, flag in saved:
            k.check = flag
    if not prof.kernels:
        raise NotYet("Nothing was launched: the check expected your code to run a kernel.")
    return prof.kernels


@contextmanager
def sanitizer() -> Iterator[None]:
    """Kernels launched inside run on the checked path (races, uninitialised LDS).

    A finding raises ``SanitizerError`` at the synchronisation; ``check`` turns it into
    a sentence naming the kind of bug, the array and the source lines. The checked path
    does not trace memory: count accesses in a separate ``profiled`` run.
    """
    before = gpusim.config.check
    gpusim.config.check = True
    try:
        yield
    finally:
        gpusim.config.check = before


@contextmanager
def on_device(device: str) -> Iterator[None]:
    """The check's own launches inside run on a one-GPU system of profile ``device``
    (``"rx7900xtx"``: wave32), so that code which types in the wavefront size shows.

    The student's system is put back untouched afterwards: its buffers, streams and
    current device stay valid (``gpusim.set_system`` would free them).
    """
    from gpusim.runtime import system as machine

    hip.hipDeviceSynchronize()  # the student's queued work finishes on its own system
    saved, other = machine.get_system(), machine.System(device, 1)
    with machine._lock:
        machine._system = other
    try:
        yield
        hip.hipDeviceSynchronize()
    finally:
        with machine._lock:
            machine._system = saved
        other.shutdown()


def checked(launch: Callable[[], object]) -> None:
    """Run ``launch()`` on the checked path and wait: a race or a read of uninitialised
    LDS raises ``SanitizerError``, which ``check`` turns into a sentence with the lines."""
    with sanitizer():
        launch()
        hip.hipDeviceSynchronize()


def lanes_per_element(record: KernelRecord, array: str, kind: str, elements: int) -> float:
    """How many lanes did ``kind`` ("load", "store", "atomic") on global ``array``, per
    element of it, over the whole launch (traced work-groups scaled up when sampled)."""
    memory = record.memory
    if "sites" not in memory:
        raise RuntimeError(f"kernel {record.name} ran untraced (on the checked path?): "
                           "pass it to profiled(launch, kernel) to count its accesses")
    active = memory.get("exec", {}).get("active_lanes", {})  # mean active lanes per site
    lanes = sum(s["instructions"] * active.get(s["site"], 0.0) for s in memory.get("sites", [])
                if s["array"] == array and s["kind"] == kind and s["space"] == "global")
    return round(lanes * memory.get("scale", 1.0) / elements, 3)


def lds_conflict_degree(record: KernelRecord) -> int:
    """The worst LDS bank-conflict degree of any LDS instruction (1 = conflict-free)."""
    degrees = [int(s.get("max_degree", 1)) for s in record.memory.get("sites", [])
               if s["space"] == "lds"]
    return max(degrees, default=0)


def expect_faster(what: str, ns: float, baseline_ns: float, *, factor: float,
                  baseline: str) -> str:
    """``ns`` must be at least ``factor`` times less than ``baseline_ns``; returns the
    sentence a solved check shows, else raises ``NotYet`` with both modeled times.

    >>> print(expect_faster("4 streams", 500, 1000, factor=1.5, baseline="1 stream"))
    4 streams: 0.50 us modeled, 2.00x faster than 1 stream (target 1.5x).
    >>> expect_faster("4 streams", 900, 1000, factor=1.5, baseline="1 stream")
    Traceback (most recent call last):
    ...
    gpusim.exercises.registry.NotYet: 4 streams: 0.90 us modeled, only 1.11x faster than ...
    """
    speedup = baseline_ns / ns if ns > 0 else float("inf")
    if speedup < factor:
        raise NotYet(f"{what}: {ns / 1000:.2f} us modeled, only {speedup:.2f}x faster than "
                     f"{baseline}; the target is {factor:g}x.")
    return f"{what}: {ns / 1000:.2f} us modeled, {speedup:.2f}x faster than {baseline} " \
           f"(target {factor:g}x)."
