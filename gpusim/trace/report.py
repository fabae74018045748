"""A traced kernel's model: memory trace -> memory model -> counters and modeled time.

When ``gpusim.profile(memory=True)`` is open (or ``gpusim.config.trace`` is True) as a
kernel is launched, the launch runs with a ``gpusim.trace.tracer.Tracer`` and then, still
inside the queued operation, ``traced_result`` makes the launch's result
(``engine.launch_time``, the "traced" way)::

    TracedLaunch --GpuMemoryModel(spec).run(trace, workgroups_per_cu=occupancy)--> result
        result + InstructionCounts --kernel_time--> seconds, breakdown  (the timeline's
                                                    duration: events see it)
        result + counts + seconds --kernel_counters--> counters (rocprof names)
        per-site coalescing / LDS statistics, occupancy --> record.memory, .occupancy

The profile record (``KernelRecord``) gets them when the operation completes. Without
tracing, a launch is timed another way (``engine/launch_time.py``).

Modelled choices: each traced kernel starts with a cold vL1D, and with the L2 and
Infinity Cache holding what earlier kernels on the device left there when it fits
(``memsim.residency``; ``gpusim.config.cold_caches = True`` shows the cold run); occupancy
comes from the block size, LDS and the registers the AMDGPU compiler reports for the
kernel (``engine/resources.py``), or a small kernel's registers
(``occupancy_model.MINIMAL_KERNEL_*``) when it could not lower it.

>>> import numpy as np, gpusim
>>> from gpusim import hip
>>> @hip.jit
... def copy(a, b):
...     i = hip.grid(1)
...     if i < b.size:
...         b[i] = a[i]
>>> a = hip.to_device(np.ones(1 << 14, np.float32)); b = hip.device_array_like(a)
>>> with gpusim.profile(memory=True) as prof:
...     copy[64, 256](a, b)
>>> k = prof.kernels[0]
>>> k.counters["SQ_WAVES"], k.counters["SQ_INSTS_VMEM_RD"], k.memory["requests_per_instruction"]
(256, 256, 2.0)
>>> k.breakdown["model"], k.memory["sites"][0]["text"]
('kernel_model', 'b[i] = a[i]')
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.memsim import GpuMemoryModel, GpuMemoryResult, kernel_counters
from gpusim.occupancy_model import occupancy
from gpusim.timing import kernel_time
from gpusim.trace.tracer import TracedLaunch
from gpusim.trace.views import add_lds_phases, view_data

_models: dict[DeviceSpec, GpuMemoryModel] = {}


def _model(spec: DeviceSpec) -> GpuMemoryModel:
    """One memory model per device profile, reset (cold caches) for every kernel."""
    model = _models.get(spec)
    if model is None:
        model = _models[spec] = GpuMemoryModel(spec)
    model.reset()
    return model


def traced_result(traced: TracedLaunch, spec: DeviceSpec, *, block: tuple[int, int, int],
                  lds_bytes: int, resources: dict[str, Any] | None = None,
                  extents: list | None = None, arrays: list | None = None,
                  warm: tuple | None = None) -> dict[str, Any]:
    """Seconds, breakdown, counters, occupancy and memory statistics of a traced launch
    (``engine.launch_time.LaunchResult``'s fields).

    ``resources``: the record's register counts (``vgprs``, ``sgprs``, ``agprs``, from the
    AMDGPU compiler when it could lower the kernel); missing ones are a small kernel's.
    """
    regs = {k: (resources or {}).get(k) for k in ("vgprs", "sgprs", "agprs")}
    occ = occupancy(block_size=math.prod(block), lds_bytes=lds_bytes, device=spec, **regs)
    from gpusim.engine.estimate import chain_of, warm_up

    model = _model(spec)
    per_cu = max(1, occ.workgroups_per_cu)
    warmed = warm_up(model, traced.trace, extents, warm, per_cu)
    mem = model.run(traced.trace, workgroups_per_cu=per_cu)
    seconds, breakdown = kernel_time(spec, traced.counts, mem, occupancy=max(1, occ.waves_per_simd),
                                     workgroups=traced.total_workgroups,
                                     **chain_of(traced, extents, arrays))
    breakdown["warm_caches"] = warmed
    if traced.extrapolated != 1.0:
        breakdown["truncated_extrapolated"] = traced.extrapolated
    counters = kernel_counters(mem, traced.counts, spec=spec, seconds=seconds)
    counters["GPUSIM_SAMPLED"] = int(traced.sampled)
    return {"seconds": seconds, "breakdown": breakdown, "counters": counters,
            "occupancy": occ.fraction, "memory": memory_summary(traced, mem, spec)}


def memory_summary(traced: TracedLaunch, mem: GpuMemoryResult,
                   spec: DeviceSpec) -> dict[str, Any]:
    """The record's ``memory``: sampling, totals, bytes per level, per-site statistics
    (traced work-groups' numbers, not scaled; ``scale`` turns them into the launch's) and
    the data views draw (``views.py``)."""
    trace = traced.trace
    sites = [_site(s, t, trace, mem) for s, t in sorted(traced.sites.items())
             if np.any(trace.site == s)]
    add_lds_phases(sites, spec)
    levels = {name: {k: float(v[k]) for k in ("hits", "misses", "hit_rate", "load_bytes",
                                                "store_bytes")}
              for name, v in mem.levels.items()}
    return {
        "sampled": traced.sampled, "truncated": traced.truncated,
        "traced_workgroups": traced.traced_workgroups,
        "total_workgroups": traced.total_workgroups, "scale": trace.launch.scale,
        "instructions": dict(mem.instructions),
        "requests_per_instruction": mem.requests_per_instruction,
        "coalescing": dict(mem.coalescing), "lds": dict(mem.lds), "levels": levels,
        "hbm_read_bytes": mem.hbm_read_bytes, "hbm_write_bytes": mem.hbm_write_bytes,
        "sites": sites,
        **view_data(trace, mem, spec),
    }  # fmt: skip


def _site(s: int, t: Any, trace: Any, mem: GpuMemoryResult) -> dict[str, Any]:
    """One static instruction: where, what, its statistics and one example wavefront."""
    row = int(np.flatnonzero(trace.site == s)[0])
    out: dict[str, Any] = {"site": s, "line": t.line, "text": t.text, "array": t.array,
                           "space": "lds" if t.space == "shared" else "global",
                           "kind": t.kind, "bytes_per_lane": t.bytes}
    out.update(mem.coalescing_by_site.get(s, {}) if t.space == "global" else
               mem.lds_by_site.get(s, {}))
    out["example"] = {"wave": int(trace.wave[row]),
                      "addr": trace.addr[row].tolist(), "active": trace.active[row].tolist()}
    return out
