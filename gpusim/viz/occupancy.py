"""``viz.occupancy``: the occupancy calculator as sliders and curves.

Sliders for block size, VGPRs, SGPRs and LDS per workgroup (pre-filled from a kernel's
AMDGPU compiler counts), a device selector; a bar per resource with the waves per SIMD
it allows (the limiter highlighted), and for each resource the occupancy curve over its
whole range with the current point marked, as AMD's and NVIDIA's occupancy calculators
draw them: the register "cliffs" are the steps. Every number is ``gpusim.occupancy``'s
(``occupancy_table`` sweeps it), so the view and the function cannot disagree.

Layering: this view evaluates AMD's rules at every slider position, so it reads
``gpusim.occupancy_model`` (pure functions of a device profile, no engine or runtime
state); tests/test_layers.py allows that one extra import for viz.
"""

from __future__ import annotations

from typing import Any

from bokeh.models import ColumnDataSource, Span
from bokeh.plotting import figure

from gpusim.devices import DEFAULT_DEVICE, get_spec, list_devices
from gpusim.occupancy_model import occupancy as occupancy_of
from gpusim.occupancy_model import occupancy_table
from gpusim.occupancy_model.calculator import LIMITERS, resolve_device
from gpusim.viz.base import Summary, View, ViewError, dropdown, int_slider

CURVES = {"vgprs": "VGPRs per lane", "sgprs": "SGPRs per wave",
          "lds_bytes": "LDS bytes per workgroup", "block_size": "threads per workgroup"}
HIGHLIGHT, OTHER = "#d62728", "#7f7f7f"


def _resources(kernel: Any, device: str) -> dict[str, int]:
    """A kernel's counts on ``device``: ``kernel.resources(device=...)`` (its last
    launch's arguments) or a mapping such as what ``kernel.resources(...)`` returned."""
    if kernel is None:
        return {}
    if isinstance(kernel, dict):
        found = kernel
    elif hasattr(kernel, "resources"):
        found = kernel.resources(device=device)
    else:
        raise ViewError(f"occupancy: cannot read resources from {type(kernel).__name__}; pass "
                        "a @hip.jit kernel that has been launched, or kernel.resources(...)")
    return {k: int(found[k]) for k in ("vgprs", "sgprs", "agprs", "lds_bytes") if k in found}


def _ranges(device: str) -> dict[str, tuple[int, int, int]]:
    spec = get_spec(device)
    return {"block_size": (spec.wave_size, spec.max_threads_per_block, spec.wave_size),
            "vgprs": (1, spec.max_vgprs_per_wave_lane, 1),
            "sgprs": (1, spec.sgpr_limit_per_wave, 1),
            "lds_bytes": (0, spec.lds_bytes_per_workgroup_max, spec.lds_alloc_granule_bytes)}


def occupancy(kernel: Any = None, device: str = DEFAULT_DEVICE, *, block_size: int = 256,
              vgprs: int | None = None, sgprs: int | None = None,
              lds_bytes: int | None = None) -> View:
    """The occupancy explorer (module docstring); ``kernel`` pre-fills the sliders.

    >>> v = occupancy(block_size=256, vgprs=128)
    >>> print(v.summary[0][1], "|", v.summary[1][1])
    4 of 8 waves per SIMD (50%) | vgpr
    """
    key = resolve_device(device).key
    given = {"vgprs": vgprs, "sgprs": sgprs, "lds_bytes": lds_bytes}
    start = {"block_size": block_size, "vgprs": 32, "sgprs": 24, "lds_bytes": 0,
             **_resources(kernel, key), **{k: v for k, v in given.items() if v is not None}}
    agprs = start.get("agprs", 0)
    sliders = {}
    for name, (lo, hi, step) in _ranges(key).items():
        sliders[name] = int_slider(CURVES[name], min(max(start[name], lo), hi), lo, hi, step)
    controls = {"device": dropdown("device", list_devices(), key), **sliders}

    bars = ColumnDataSource({"resource": list(LIMITERS), "waves": [0] * 5, "color": [OTHER] * 5})
    fig_bars = figure(title="waves per SIMD each resource allows", x_range=list(LIMITERS),
                      height=260, width=380, toolbar_location=None)
    fig_bars.vbar(x="resource", top="waves", color="color", width=0.7, source=bars)
    fig_bars.yaxis.axis_label = "waves per SIMD"
    figures, sources = {"limits": fig_bars}, {"limits": bars}
    marks = {}
    for name, label in CURVES.items():
        curve = ColumnDataSource({"x": [], "waves": []})
        point = ColumnDataSource({"x": [], "waves": []})
        f = figure(title=f"occupancy vs {label}", height=220, width=380, toolbar_location=None)
        f.step("x", "waves", source=curve, mode="after", line_width=2)
        f.scatter("x", "waves", source=point, size=11, color=HIGHLIGHT)
        f.xaxis.axis_label, f.yaxis.axis_label = label, "waves per SIMD"
        marks[name] = Span(dimension="height", line_dash="dashed", line_color=HIGHLIGHT)
        f.add_layout(marks[name])
        figures[name], sources[name], sources[name + "_point"] = f, curve, point

    drawn: dict[str, tuple] = {}  # each curve's fixed inputs when last drawn

    def update() -> Summary:
        dev = controls["device"].value
        spec = get_spec(dev)  # a spec, not a key: occupancy() then skips the profile lookup
        for name, (lo, hi, step) in _ranges(dev).items():  # the device sets the ranges
            s = sliders[name]  # widen, clamp the value, then narrow: min <= max throughout
            s.min, s.max, s.step = min(lo, s.min), max(hi, s.max), step
            s.value = min(max(s.value, lo), hi)
            s.min, s.max = lo, hi
        now = {name: s.value for name, s in sliders.items()}
        o = occupancy_of(device=spec, agprs=agprs, **now)
        bars.data = {"resource": list(LIMITERS),
                     "waves": [o.limits[k] for k in LIMITERS],
                     "color": [HIGHLIGHT if k == o.limiter else OTHER for k in LIMITERS]}
        for name in CURVES:
            lo, hi, step = _ranges(dev)[name]
            fixed = {k: v for k, v in now.items() if k != name}
            key = (dev, *fixed.values())
            if drawn.get(name) != key:  # the moved resource's own curve stays as it is
                t = occupancy_table(name, range(lo, hi + 1, step), columns=True, device=spec,
                                    agprs=agprs, **fixed)
                sources[name].data = {"x": t[name], "waves": t["waves_per_simd"]}
                drawn[name] = key
            sources[name + "_point"].data = {"x": [now[name]], "waves": [o.waves_per_simd]}
            marks[name].location = now[name]
        return [("occupancy", f"{o.waves_per_simd} of {o.max_waves_per_simd} waves per SIMD "
                              f"({o.fraction:.0%})"),
                ("limiter", o.limiter),
                ("limits (waves per SIMD)", ", ".join(f"{k} {o.limits[k]}" for k in LIMITERS)),
                (f"workgroups per {o.unit}", f"{o.workgroups_per_cu} ({o.waves_per_cu} waves)"),
                ("why", o.explain())]

    return View("Occupancy explorer", figures, sources, controls, update,
                layout=[["limits", "vgprs"], ["sgprs", "lds_bytes"], ["block_size"]])
