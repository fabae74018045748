"""What views need from a traced kernel, as plain data in its record's ``memory``.

Views (``gpusim.viz``) read records only, so the model results they draw are put here
when a traced kernel completes, small enough to keep in every record::

    dispatch   per traced workgroup: CU, XCD, first and last step (memsim dispatch)
    heatmap    per cache level: requests binned by time step x touched line (address
               order), counted per outcome (hit, miss, write)
    reuse      per cache level: reuse-distance histogram (per CU's vL1D, per XCD's L2)
               and the level's capacity in lines
    sites      each LDS site's example wave gets the phase (clock group) of every lane
               and its conflict degree (memsim.lds), for the bank view
    exec       EXEC masks (active lanes) at each memory instruction of the first waves,
               and per source line the average active lanes (the divergence view)

The trace records EXEC only where a wave touches memory, so divergence shows at memory
instructions, not at every branch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.memsim import GpuMemoryResult, Trace, bank_conflicts
from gpusim.memsim.lds import phase_of_lane
from gpusim.memsim.reuse import histogram, reuse_distances
from gpusim.memsim.streams import OUTCOME_NAMES

TIME_BINS, LINE_BINS = 48, 64  # heat map resolution
EXEC_WAVES, EXEC_ROWS = 16, 64  # waves kept for the divergence view, rows per wave


def view_data(trace: Trace, mem: GpuMemoryResult, spec: DeviceSpec) -> dict[str, Any]:
    """The entries above (module docstring), and the device they were modelled on."""
    return {"device": spec.key, "dispatch": dispatch_data(trace, mem),
            "heatmap": heatmap_data(mem), "reuse": reuse_data(mem, spec),
            "exec": exec_data(trace)}


def add_lds_phases(sites: list[dict[str, Any]], spec: DeviceSpec) -> None:
    """Give each LDS site's example the lanes' phases and the example's degree."""
    for site in sites:
        if site["space"] != "lds":
            continue
        ex, store = site["example"], site["kind"] != "load"
        lanes = len(ex["addr"])
        ex["phase"] = [int(phase_of_lane(lane, site["bytes_per_lane"], store, lanes,
                                         spec.lds_banks, spec.lds_bank_width_bytes))
                       for lane in range(lanes)]
        ex["degree"] = int(bank_conflicts(ex["addr"], ex["active"], site["bytes_per_lane"],
                                          store, spec.lds_banks,
                                          spec.lds_bank_width_bytes).degree[0])


def dispatch_data(trace: Trace, mem: GpuMemoryResult) -> dict[str, Any]:
    d = mem.dispatch
    return {
        "workgroup": d.workgroups.tolist(), "cu": d.wg_cu.tolist(),
        "xcd": (d.wg_cu // d.cus_per_xcd).tolist(), "start": d.wg_start.tolist(),
        "end": d.wg_end.tolist(), "xcd_count": d.xcd_count, "cus_per_xcd": d.cus_per_xcd,
        "workgroups_per_cu": d.workgroups_per_cu,
        "waves_per_workgroup": trace.launch.waves_per_workgroup,
    }  # fmt: skip


def heatmap_data(mem: GpuMemoryResult) -> dict[str, Any]:
    out = {}
    for name, s in mem.streams.items():
        if not len(s):
            continue
        lines, rank = np.unique(s.line, return_inverse=True)
        nt = int(min(TIME_BINS, s.step.max() + 1))
        nl = int(min(LINE_BINS, len(lines)))
        t_bin = (s.step * nt) // (s.step.max() + 1)
        l_bin = (rank.ravel() * nl) // len(lines)
        counts = np.zeros((len(OUTCOME_NAMES), nt, nl), np.int64)
        np.add.at(counts, (s.outcome, t_bin, l_bin), 1)
        first_line = [int(lines[(b * len(lines) + nl - 1) // nl]) for b in range(nl)]
        out[name] = {
            "steps": int(s.step.max() + 1), "lines": len(lines), "first_line": first_line,
            "line_bytes": mem.line_bytes[name],
            **{o: counts[i].tolist() for i, o in enumerate(OUTCOME_NAMES)},
        }  # fmt: skip
    return out


def reuse_data(mem: GpuMemoryResult, spec: DeviceSpec) -> dict[str, Any]:
    capacity = {"vL1D": spec.l1_bytes // spec.l1_line_bytes,
                "L2": spec.l2_bytes // spec.l2_line_bytes}
    out = {}
    for name, lines in capacity.items():
        s = mem.streams.get(name)
        if s is None or not len(s):
            continue
        own = s.instance >= 0  # atomics bypass the vL1D
        line = s.line[own] >> int(mem.line_bytes[name]).bit_length() - 1
        out[name] = {**histogram(reuse_distances(line, s.instance[own])),
                     "capacity_lines": lines}
    return out


def exec_data(trace: Trace) -> dict[str, Any]:
    waves = np.unique(trace.wave)[:EXEC_WAVES]
    per_wave = {}
    for w in waves:
        rows = np.flatnonzero(trace.wave == w)[:EXEC_ROWS]
        per_wave[int(w)] = {"site": trace.site[rows].tolist(),
                            "mask": [_mask(a) for a in trace.active[rows]]}
    lanes = trace.active.sum(axis=1)
    sites = {int(s): float(lanes[trace.site == s].mean()) for s in np.unique(trace.site)}
    return {"waves": per_wave, "active_lanes": sites, "wave_size": trace.launch.wave_size}


def _mask(active: np.ndarray) -> int:
    """Lane k active -> bit k set (EXEC as an integer); distinct bits, so the sum is an OR."""
    return int((active.astype(np.uint64) << np.arange(len(active), dtype=np.uint64)).sum())
