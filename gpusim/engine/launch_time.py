"""How a launch's time is made: one chooser, at the launch call, picks one of five ways.

::

    prepare_timed(kernel, ..., addresses, caches)       the runtime's one call per launch
      prepare(...)                   launcher.py: checked and compiled (a Tracer when a
                                     memory profile or config.trace asks for the trace)
      LaunchTiming.choose(launch)    which way (below); arms a sampled Tracer if needed
    Launch.run() -> LaunchResult     seconds, breakdown (+ counters, occupancy, memory
                                     when traced): what the profile record shows

    way           when                                      time from
    "memo"        a launch like an earlier one (same        that launch's (estimate.py)
                  shapes, scalars, warm caches)
    "sampled"     the default: about 64 work-groups         estimate.estimate: the sample
                  traced, spread over the grid              on a scaled machine
    "traced"      profile(memory=True), config.trace        trace/report.py: the whole
                                                            trace through the models
    "cooperative" grid syncs (no work-group may run alone)  cooperative.cooperative_time
    "first-order" checked or reference path, the default    timing.kernel_estimate's
                  model off, or a sample that failed        roofline (estimate.first_order)

Every way starts from what the device's caches hold from earlier kernels
(``memsim.residency``): extents warm at the launch are replayed before the timed replay,
and the launch's extents are marked used in issue order.

>>> import numpy as np
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> def double(x):
...     x[hip.grid(1)] *= 2
>>> x = np.ones(1 << 12, np.float32)
>>> ready = prepare_timed(double, grid=16, block=256, args=(x,), device=get_spec("mi300x"),
...                       addresses=(1 << 20,), caches="doc")
>>> ready.timing.way                 # 16 work-groups: the "sample" is all of them
'sampled'
>>> result = ready.run()
>>> result.breakdown["estimate"], result.seconds > 0, float(x[-1])
('traced', True, 2.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpusim.config import config
from gpusim.engine import estimate
from gpusim.engine.cooperative import cooperative_time
from gpusim.engine.launcher import Launch, prepare
from gpusim.engine.resources import launch_resources
from gpusim.memsim import residency
from gpusim.memsim.residency import RESIDENCY
from gpusim.profiler.session import memory_requested
from gpusim.timing import kernel_estimate
from gpusim.trace.report import traced_result
from gpusim.trace.tracer import Tracer


@dataclass
class LaunchResult:
    """What a launch's time model made: the profile record's duration and explanation,
    and, for a traced launch, its counters, occupancy and memory statistics."""

    seconds: float
    breakdown: dict[str, Any]
    counters: dict[str, Any] | None = None
    occupancy: float | None = None
    memory: dict[str, Any] | None = None

    def info(self) -> dict[str, Any]:
        """The fields a queued operation's ``info`` takes (those the model made)."""
        return {k: v for k, v in vars(self).items() if v is not None}


def tracing_requested() -> bool:
    """True when a launch now should be traced (a memory profile, or ``config.trace``)."""
    return bool(config.trace) or memory_requested()


@dataclass
class LaunchTiming:
    """How one launch's time is made (module docstring): the way, and what it needs."""

    way: str
    spec: Any  # DeviceSpec
    extents: list[tuple[int, int]]  # (device address, bytes) of each array argument
    arrays: list[np.ndarray]
    warm: tuple[bool, ...]  # per extent: left in the caches by earlier kernels
    # the record's registers and occupancy ({} unprofiled), once the kernel is compiled
    resources: dict[str, Any] = field(default_factory=dict)
    key: tuple | None = None  # the memo key ("sampled", "memo")
    remembered: tuple[float, dict] | None = None
    modeled: list = field(default_factory=list)  # the sample's estimate, once made

    @classmethod
    def choose(cls, launch: Launch, *, addresses: tuple, caches: Any) -> LaunchTiming:
        """The way ``launch`` is timed; a sampled launch gets its Tracer (and mode
        "trace") here. ``caches``: what names the device whose caches persist between
        kernels (``memsim.residency``); ``addresses``: each argument's device address."""
        spec, ck = launch.device, launch.kernel
        extents = Tracer(addresses).extents(launch.args)
        warm = (() if residency.cold_requested() else
                RESIDENCY.warm(caches, extents, capacity=residency.last_level_bytes(spec)))
        timing = cls("first-order", spec, extents,
                     [a for a in launch.args if isinstance(a, np.ndarray)], warm)
        if launch.tracer is not None:  # traced, or a work-group under the debugger
            timing.way = "traced" if isinstance(launch.tracer, Tracer) else "first-order"
        elif ck.cooperative:  # a sample of work-groups cannot pass a grid sync alone
            timing.way = "cooperative"
        elif launch.mode == "fast" and not ck.reference and estimate.ENABLED:
            timing.key = estimate.launch_key(launch) + (warm,)
            timing.remembered = estimate.remembered(timing.key)
            timing.way = "sampled" if timing.remembered is None else "memo"
            if timing.remembered is None:
                launch.tracer = Tracer(addresses, sample=estimate.SAMPLE)
                launch.mode = "trace"
                launch.meanwhile = lambda: timing._estimate(launch)
        return timing

    def _estimate(self, launch: Launch) -> None:
        """The sampled estimate, made once the sample is traced (on the launching thread
        while the fast path runs the other work-groups, or after the launch)."""
        if launch.tracer.result is not None and not self.modeled:
            self.modeled.append(estimate.estimate(
                launch.tracer.result, self.spec, block=launch.block,
                lds_bytes=launch.lds_bytes, resources=self.resources, key=self.key,
                extents=launch.tracer.extents(launch.args), arrays=self.arrays,
                warm=self.warm))

    def result(self, launch: Launch) -> LaunchResult:
        """The launch's time, once it ran (``Launch.run`` returns it)."""
        threads = math.prod(launch.block) * math.prod(launch.grid)
        nbytes = sum(a.nbytes for a in self.arrays)
        tracer = launch.tracer
        if self.way == "memo":
            return LaunchResult(*self.remembered)
        if self.way == "sampled" and tracer.result is not None:
            self._estimate(launch)
            return LaunchResult(*self.modeled[0])
        if self.way == "sampled":  # the sample failed to trace: the launch still counts
            return LaunchResult(*estimate.first_order(
                self.spec, threads=threads, bytes_moved=nbytes,
                failure=tracer.failure or "no work-group was traced"))
        if self.way == "cooperative":  # untraced: roofline + the grid syncs it executed
            return LaunchResult(*cooperative_time(
                self.spec, threads=threads, bytes_moved=nbytes,
                blocks=math.prod(launch.grid), grid_syncs=launch.grid_syncs))
        if self.way == "traced" and tracer.result is not None:
            return LaunchResult(**traced_result(
                tracer.result, self.spec, block=launch.block, lds_bytes=launch.lds_bytes,
                resources=self.resources, extents=tracer.extents(launch.args),
                arrays=self.arrays, warm=self.warm))
        return LaunchResult(*kernel_estimate(self.spec, threads=threads, bytes_moved=nbytes))


def prepare_timed(kernel: Any, *, addresses: tuple, caches: Any,
                  max_threads: int | None = None, check: bool | None = None,
                  recorder: Any = None, **options: Any) -> Launch:
    """``prepare`` a launch the runtime queues, with its time model chosen
    (``launch.timing``); ``Launch.run()`` then returns its ``LaunchResult``. Options as
    ``prepare``'s; ``addresses`` and ``caches`` as ``LaunchTiming.choose``'s.
    ``recorder`` (``debugger.runner.WorkgroupRecorder``) runs one work-group under the
    debugger, in the tracer's place: such a launch is neither traced nor sampled."""
    tracer = (Tracer(addresses) if recorder is None and
              config.launch_mode(check, traced=tracing_requested()) == "trace" else None)
    launch = prepare(kernel, tracer=tracer, defer=True, max_threads=max_threads, check=check,
                     **options)
    launch.tracer = launch.tracer if recorder is None else recorder
    timing = launch.timing = LaunchTiming.choose(launch, addresses=addresses, caches=caches)
    launch.settle()  # numba compiles what will run (a small grid: the trace variant only)
    timing.resources = launch_resources(launch.kernel, launch.device, math.prod(launch.block),
                                        launch.dynamic_lds_bytes, launch_bounds=max_threads)
    RESIDENCY.touch(caches, timing.extents)  # in issue order, as the device will run them
    return launch
