"""``viz.roofline``: each kernel at its arithmetic intensity under the device's roofs.

Ceilings from the device profile (every figure with its public source, shown on
hover): bandwidths of HBM, the Infinity Cache, L2, vL1D and LDS (per clock per unit x
units x clock) as diagonal roofs, and the FP32/FP64 vector and matrix-core
FP16/BF16/FP32/FP64 peaks as flat ones. Each traced kernel appears once per memory
level at FLOPs / that level's bytes (``record.breakdown["bytes_*"]``, launch totals) and
FLOPs / modeled time; ``GPUSIM_FLOPS`` counts the floating-point operations its lanes
executed. The level and device are selectable.
"""

from __future__ import annotations

from typing import Any

from bokeh.models import ColumnDataSource
from bokeh.plotting import figure

from gpusim.devices import DeviceSpec, get_spec, list_devices
from gpusim.profiler import KernelRecord
from gpusim.viz.base import Summary, View, dropdown
from gpusim.viz.inputs import records_of, traced_kernels

LEVELS = ("vL1D", "L2", "MALL", "HBM")
COLORS = {"vL1D": "#2ca02c", "L2": "#1f77b4", "MALL": "#9467bd", "HBM": "#d62728",
          "LDS": "#ff7f0e"}
PEAKS = {"FP32 vector": "fp32_tflops", "FP64 vector": "fp64_tflops",
         "FP16 matrix": "matrix_fp16_tflops", "BF16 matrix": "matrix_bf16_tflops",
         "FP32 matrix": "matrix_fp32_tflops", "FP64 matrix": "matrix_fp64_tflops"}
AI_RANGE = (2.0**-6, 2.0**12)  # FLOP per byte


def bandwidths(spec: DeviceSpec) -> dict[str, tuple[float, str]]:
    """Peak GB/s per level and the profile fields they come from.

    >>> round(bandwidths(get_spec("mi300x"))["L2"][0])   # 128 B x 16 ch x 8 XCD x 2.1 GHz
    34406
    """
    ghz = spec.clock_mhz / 1e3
    out = {
        "LDS": (spec.lds_bytes_per_clock_per_cu * spec.cu_count * ghz,
                "lds_bytes_per_clock_per_cu"),
        "vL1D": (spec.l1_bytes_per_clock_per_cu * spec.cu_count * ghz,
                 "l1_bytes_per_clock_per_cu"),
        "L2": (spec.l2_bytes_per_clock_per_channel * spec.l2_channels * spec.xcd_count * ghz,
               "l2_bytes_per_clock_per_channel"),
        "MALL": (spec.infinity_cache_gbs, "infinity_cache_gbs"),
        "HBM": (spec.memory_bandwidth_gbs, "memory_bandwidth_gbs"),
    }
    return {k: v for k, v in out.items() if v[0] > 0}


def ceilings(spec: DeviceSpec) -> tuple[dict[str, list], dict[str, list]]:
    """Line segments of the bandwidth roofs (up to the highest peak) and flat peaks."""
    top = max(getattr(spec, f) for f in PEAKS.values()) * 1e3  # GFLOP/s
    roofs: dict[str, list] = {"xs": [], "ys": [], "name": [], "source": [], "color": []}
    for name, (gbs, field) in bandwidths(spec).items():
        x1 = min(AI_RANGE[1], top / gbs)
        roofs["xs"].append([AI_RANGE[0], x1])
        roofs["ys"].append([gbs * AI_RANGE[0], gbs * x1])
        roofs["name"].append(f"{name} {gbs:,.0f} GB/s")
        roofs["source"].append(spec.sources.get(field, ""))
        roofs["color"].append(COLORS[name])
    flat: dict[str, list] = {"xs": [], "ys": [], "name": [], "source": [], "color": []}
    for name, field in PEAKS.items():
        peak = getattr(spec, field) * 1e3
        if peak > 0:
            flat["xs"].append(list(AI_RANGE))
            flat["ys"].append([peak, peak])
            flat["name"].append(f"{name} {peak / 1e3:,.1f} TFLOP/s")
            flat["source"].append(spec.sources.get(field, ""))
            flat["color"].append("#444444")
    return roofs, flat


def kernel_points(kernels: list[Any], levels: tuple[str, ...]) -> dict[str, list]:
    """(intensity, GFLOP/s) of each kernel per level; kernels without FLOPs are left out."""
    pts: dict[str, list] = {"ai": [], "gflops": [], "name": [], "level": [], "color": []}
    for k in kernels:
        flops = k.counters.get("GPUSIM_FLOPS", 0)
        if not flops or not k.duration_ns:
            continue
        for level in levels:
            nbytes = k.breakdown.get(f"bytes_{level}", 0)
            if nbytes:
                pts["ai"].append(flops / nbytes)
                pts["gflops"].append(flops / k.duration_ns)  # FLOP per ns = GFLOP/s
                pts["name"].append(k.name)
                pts["level"].append(level)
                pts["color"].append(COLORS[level])
    return pts


def roofline(records: Any, device: str | None = None) -> View:
    """The roofline of a profile's traced kernels (module docstring).

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def axpy(a, x, y):
    ...     i = hip.grid(1)
    ...     y[i] = a * x[i] + y[i]
    >>> x = hip.to_device(np.ones(4096, np.float32)); y = hip.to_device(np.ones(4096, np.float32))
    >>> with gpusim.profile(memory=True) as prof:
    ...     axpy[16, 256](np.float32(2.0), x, y)
    >>> roofline(prof).sources["kernels"].data["level"]
    ['vL1D', 'L2', 'MALL', 'HBM']
    """
    kernels = traced_kernels(records, "roofline")
    # Library calls (rocBLAS, rocFFT, ...) are modeled from bytes moved, not traced per
    # level, so they have no point here: name them rather than dropping them silently.
    untraced = sorted({r.name for r in records_of(records)
                       if isinstance(r, KernelRecord) and not r.memory.get("device")})
    dev = dropdown("device", list_devices(), device or kernels[0].memory["device"])
    level = dropdown("level", [("all", "all"), *[(lv, lv) for lv in LEVELS]], "all")
    roof_src = ColumnDataSource({"xs": [], "ys": [], "name": [], "source": [], "color": []})
    flat_src = ColumnDataSource({"xs": [], "ys": [], "name": [], "source": [], "color": []})
    pts = ColumnDataSource({"ai": [], "gflops": [], "name": [], "level": [], "color": []})
    f = figure(title="roofline", x_axis_type="log", y_axis_type="log", height=460, width=760,
               tooltips=[("", "@name"), ("level", "@level"), ("source", "@source")])
    f.multi_line("xs", "ys", source=roof_src, color="color", line_width=2)
    f.multi_line("xs", "ys", source=flat_src, color="color", line_width=1, line_dash="dashed")
    f.scatter("ai", "gflops", source=pts, color="color", size=10)
    f.xaxis.axis_label, f.yaxis.axis_label = "arithmetic intensity (FLOP/byte)", "GFLOP/s"

    def update() -> Summary:
        spec = get_spec(dev.value)
        roof_src.data, flat_src.data = ceilings(spec)
        chosen = LEVELS if level.value == "all" else (level.value,)
        pts.data = kernel_points(kernels, chosen)
        rows = [("device", spec.name),
                ("bandwidth roofs", ", ".join(roof_src.data["name"])),
                ("compute roofs", ", ".join(flat_src.data["name"]))]
        for k in kernels:
            flops = k.counters.get("GPUSIM_FLOPS", 0)
            if not flops:
                rows.append((k.name, "no floating-point operations: not on the roofline"))
                continue
            ai = ", ".join(f"{lv} {flops / k.breakdown[f'bytes_{lv}']:.3g}" for lv in chosen
                           if k.breakdown.get(f"bytes_{lv}"))
            rows.append((k.name, f"{flops / k.duration_ns:,.1f} GFLOP/s; FLOP/byte: {ai}"))
        if untraced:
            rows.append(("not shown", f"{', '.join(untraced)}: no per-level traffic "
                         "(library calls, or kernels launched outside profile(memory=True))"))
        return rows

    return View("Roofline", {"roofline": f}, {"roofs": roof_src, "peaks": flat_src,
                                              "kernels": pts}, {"device": dev, "level": level},
                update)
