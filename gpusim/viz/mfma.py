"""``viz.mfma``: which lane holds which element of an MFMA's A, B and C/D.

An MFMA is a wavefront-wide instruction: each of the 64 lanes hands in a few elements
of A and B and gets back a few elements of D (C arrives the same way as D). This view
draws the three matrices as grids, every cell in the colour of the lane that holds it:
lanes 0-15 blue, 16-31 green, 32-47 orange, 48-63 magenta, darker to lighter within
each group of 16, so the lane halves (cool / warm) and groups show at a glance. An
instruction with several independent blocks draws them side by side (``B0 | B1 | ...``).

Pick a lane with the slider, or click a cell (Bokeh's tap selection, read in Python):
that lane's cells are outlined in all three matrices, the others fade, and the summary
lists what the lane holds, in its register order, with index ranges written ``a..b``
and a block suffix ``.B<n>`` as AMD's matrix instruction calculator writes it. Every
position comes from ``gpusim.devices.mfma`` (the instruction tables, tested against
that calculator); the view only draws it.

>>> from gpusim import viz
>>> v = viz.mfma("v_mfma_f32_32x32x8_bf16")             # gfx942 (MI300)
>>> v.select_lane(37)
>>> for key, value in v.summary[-3:]:
...     print(f"{key}: {value}")
lane 37 holds A: A[5][4..7]
lane 37 holds B: B[4..7][5]
lane 37 holds C/D: D[4..7,12..15,20..23,28..31][5]
>>> v.select_cell("d", 0, 9, 3)                         # the lane holding D[9][3]
3
"""

from __future__ import annotations

import colorsys
from typing import Any

import numpy as np
from bokeh.models import ColumnDataSource, FixedTicker, Range1d, Span
from bokeh.plotting import figure

from gpusim.devices import get_spec, list_devices
from gpusim.devices.mfma import ARCHS, TYPE_BITS, WAVE, MfmaError, MfmaInstruction, get_mfma
from gpusim.viz.base import Summary, View, ViewError, int_slider

# One hue per group of 16 lanes: cool for the low half, warm for the high half.
GROUP_HUES = (0.58, 0.36, 0.07, 0.90)
DIM = 0.4             # fill alpha of cells the selected lane does not hold
MIN_FRAME = (90, 30)  # pixels: the smallest plot area of a grid
MATRICES = {"a": "A", "b": "B", "d": "C/D"}


def lane_colors() -> list[str]:
    """64 colours, one per lane: a hue per group of 16 lanes, light ramping within it.

    >>> colors = lane_colors()
    >>> len(colors), len(set(colors)), colors[0]
    (64, 64, '#114f88')
    """
    out = []
    for lane in range(WAVE):
        light = 0.30 + 0.45 * (lane % 16) / 15
        r, g, b = colorsys.hls_to_rgb(GROUP_HUES[lane // 16], light, 0.78)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


def _indices(values: list[int]) -> str:
    """[4, 5, 6, 7, 12, 13] -> '4..7,12..13'; single values stay single."""
    parts, start = [], 0
    for n in range(1, len(values) + 1):
        if n == len(values) or values[n] != values[n - 1] + 1:
            lo, hi = values[start], values[n - 1]
            parts.append(str(lo) if lo == hi else f"{lo}..{hi}")
            start = n
    return ",".join(parts)


def held_text(letter: str, cells: Any, blocks: int) -> str:
    """A lane's (block, row, col) elements, in register order, written compactly: runs
    along one row or column of one block share a bracket, and equal runs of consecutive
    blocks share a ``.B<first>..<last>`` suffix.

    >>> held_text("D", [(0, 4, 5), (0, 5, 5), (0, 12, 5), (0, 13, 5)], 1)
    'D[4..5,12..13][5]'
    >>> held_text("A", [(0, 1, 0), (1, 1, 0), (2, 1, 0), (3, 2, 0)], 4)
    'A[1][0].B0..2, A[2][0].B3'
    """
    runs: list[tuple[int, list[int], list[int]]] = []  # (block, rows, cols)
    for block, r, c in (tuple(int(v) for v in cell) for cell in cells):
        if runs and runs[-1][0] == block:
            _, rows, cols = runs[-1]
            if len(cols) == 1 and c == cols[0] and r > rows[-1]:  # down one column
                rows.append(r)
                continue
            if len(rows) == 1 and r == rows[0] and c > cols[-1]:  # along one row
                cols.append(c)
                continue
        runs.append((block, [r], [c]))
    texts: list[tuple[str, list[int]]] = []  # (index text, its consecutive blocks)
    for block, rows, cols in runs:
        text = f"{letter}[{_indices(rows)}][{_indices(cols)}]"
        if texts and texts[-1][0] == text and texts[-1][1][-1] == block - 1:
            texts[-1][1].append(block)
        else:
            texts.append((text, [block]))
    if blocks == 1:
        return ", ".join(t for t, _ in texts)
    return ", ".join(f"{t}.B{_indices(bs)}" for t, bs in texts)


def register_name(bits: int, element: int) -> str:
    """The operand register holding a lane's ``element``-th value, as the ISA guide and
    AMD's calculator name it (``v0`` is the operand's first VGPR).

    >>> register_name(32, 3), register_name(16, 3), register_name(64, 1), register_name(8, 5)
    ('v3', 'v1.[31:16]', 'v[3:2]', 'v1.[15:8]')
    """
    if bits == 64:
        return f"v[{2 * element + 1}:{2 * element}]"
    if bits == 32:
        return f"v{element}"
    per = 32 // bits
    low = bits * (element % per)
    return f"v{element // per}.[{low + bits - 1}:{low}]"


def _tick_step(pixels: int, gap: int) -> int:
    """Every how many cells (1, 2, 4, ...) to label, so labels are ``gap`` pixels apart."""
    step = 1
    while step * pixels < gap:
        step *= 2
    return step


def _resolve(instruction: str, arch: str) -> MfmaInstruction:
    """The instruction, or a ViewError listing what exists. ``arch`` may be a device key
    (``mi300x``, ``mi250x``): it stands for that device's gfx target."""
    if arch not in ARCHS and arch in list_devices():
        arch = get_spec(arch).gfx_target
    try:
        return get_mfma(arch, instruction)
    except MfmaError as e:
        raise ViewError(f"viz.mfma: {e}") from e


class MfmaView(View):
    """The MFMA lane-layout view (module docstring). ``select_lane(lane)`` and
    ``select_cell(matrix, block, row, col)`` do what the slider and a click do."""

    def __init__(self, inst: MfmaInstruction, lane: int = 0) -> None:
        self.inst = inst
        shapes = {"a": (inst.m, inst.k), "b": (inst.k, inst.n), "d": (inst.m, inst.n)}
        maps = {"a": inst.a_map(), "b": inst.b_map(), "d": inst.d_map()}
        bits = {"a": inst.a_bits, "b": TYPE_BITS[inst.b_type], "d": inst.d_bits}
        # One cell size for all three grids, so an element is the same size everywhere.
        widest = max(c * inst.blocks for _, c in shapes.values())
        tallest = max(r for r, _ in shapes.values())
        cell = int(min(max(min(800 // widest, 352 // tallest), 6), 20))
        colors = lane_colors()
        self._maps = maps
        self._where: dict[str, np.ndarray] = {}  # matrix -> [block, row, col] -> lane
        figures, sources = {}, {}
        for key, (rows, cols) in shapes.items():
            lanes, elems = self._cells(maps[key], rows, cols)
            self._where[key] = lanes
            b, r, c = (a.ravel().tolist() for a in np.indices(lanes.shape))
            letter = MATRICES[key][-1]
            suffix = [f".B{x}" if inst.blocks > 1 else "" for x in b]
            source = ColumnDataSource({
                "x": [x * cols + y for x, y in zip(b, c, strict=True)], "y": r,
                "block": b, "row": r, "col": c,
                "lane": lanes.ravel().tolist(), "element": elems.ravel().tolist(),
                "name": [f"{letter}[{y}][{x}]{s}" for y, x, s in zip(r, c, suffix, strict=True)],
                "register": [register_name(bits[key], e) for e in elems.ravel().tolist()],
                "color": [colors[x] for x in lanes.ravel().tolist()],
                "alpha": [1.0] * lanes.size, "line_alpha": [0.0] * lanes.size})
            figures[key] = self._grid(key, rows, cols, cell, source)
            sources[key] = source
        slider = int_slider("lane", lane, 0, WAVE - 1)
        wide = sum(f.frame_width + 70 for f in figures.values()) > 1150
        super().__init__(f"MFMA lane layout: {inst.name} ({inst.arch})", figures, sources,
                         {"lane": slider}, self._update,
                         layout=[["a", "b"], ["d"]] if wide else [["a", "b", "d"]])
        for key, source in sources.items():
            # A click selects one cell in the browser; jupyter_bokeh syncs the selection
            # back, and on_change runs here (it may run twice per click: harmless).
            source.selected.on_change("indices", self._tap_handler(key))

    def _cells(self, held: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """Invert (lane, element) -> (block, row, col) into per-cell lane and element."""
        lanes = np.full((self.inst.blocks, rows, cols), -1, dtype=np.int64)
        elems = np.full_like(lanes, -1)
        lane_idx, elem_idx = np.indices(held.shape[:2])
        lanes[held[..., 0], held[..., 1], held[..., 2]] = lane_idx
        elems[held[..., 0], held[..., 1], held[..., 2]] = elem_idx
        return lanes, elems

    def _grid(self, key: str, rows: int, cols: int, cell: int,
              source: ColumnDataSource) -> Any:
        inst = self.inst
        names = {"a": ("A", "k", "i (row)", inst.a_type), "b": ("B", "j", "k", inst.b_type),
                 "d": ("C / D", "j", "i (row)", inst.d_type)}
        title, xlabel, ylabel, dtype = names[key]
        total = cols * inst.blocks
        # A thin grid (K = 1, few blocks) still gets room for its title and labels: the
        # ranges grow around it, so cells stay square.
        xpad = max(0.0, (MIN_FRAME[0] / cell - total) / 2)
        ypad = max(0.0, (MIN_FRAME[1] / cell - rows) / 2)
        f = figure(title=f"{title}: {rows}x{cols} {dtype}", tools="tap",
                   toolbar_location=None, frame_width=max(cell * total, MIN_FRAME[0]),
                   frame_height=max(cell * rows, MIN_FRAME[1]),
                   x_range=Range1d(-0.5 - xpad, total - 0.5 + xpad),
                   y_range=Range1d(rows - 0.5 + ypad, -0.5 - ypad),  # row 0 on top
                   tooltips=[("element", "@name"), ("lane", "@lane"),
                             ("register", "@register (element @element)")])
        r = f.rect("x", "y", 0.92, 0.92, source=source, fill_color="color",
                   fill_alpha="alpha", line_color="black", line_alpha="line_alpha",
                   line_width=2)
        r.selection_glyph = r.nonselection_glyph = None  # a click must not fade cells itself
        f.grid.visible = False
        f.xaxis.axis_label, f.yaxis.axis_label = xlabel, ylabel
        f.yaxis.ticker = FixedTicker(ticks=list(range(0, rows, _tick_step(cell, 14))))
        f.xaxis.ticker = FixedTicker(ticks=list(range(0, cols, _tick_step(cell, 20))))
        if inst.blocks > 1:  # blocks side by side: a line between, a label per block
            for b in range(1, inst.blocks):
                f.add_layout(Span(location=b * cols - 0.5, dimension="height",
                                  line_color="black", line_width=1.5))
            centres = {b * cols + (cols - 1) / 2: f"B{b}"
                       for b in range(0, inst.blocks, _tick_step(cell * cols, 26))}
            f.xaxis.ticker = FixedTicker(ticks=list(centres))
            f.xaxis.major_label_overrides = centres
            f.xaxis.axis_label = f"{xlabel}, per block"
        return f

    def _tap_handler(self, key: str) -> Any:
        def tapped(_attr: str, _old: list[int], new: list[int]) -> None:
            if not new:
                return
            self.select_lane(self.sources[key].data["lane"][new[0]])
            # Clear the browser's selection, so clicking the same cell later fires again.
            self.sources[key].selected.indices = []
        return tapped

    @property
    def lane(self) -> int:
        return int(self.controls["lane"].value)

    def select_lane(self, lane: int) -> None:
        """Highlight what ``lane`` holds (as moving the slider does)."""
        if not 0 <= int(lane) < WAVE:
            raise ViewError(f"viz.mfma: lane {lane} is not in 0..{WAVE - 1}")
        self.controls["lane"].value = int(lane)

    def select_cell(self, matrix: str, block: int, row: int, col: int) -> int:
        """Select the lane holding ``matrix`` ("a", "b", "c" or "d") [row][col] of
        ``block`` (as clicking that cell does); returns the lane."""
        key = {"c": "d"}.get(matrix.lower(), matrix.lower())
        if key not in self._where:
            raise ViewError(f"viz.mfma: matrix {matrix!r} is not one of a, b, c, d")
        where = self._where[key]
        if not (0 <= block < where.shape[0] and 0 <= row < where.shape[1]
                and 0 <= col < where.shape[2]):
            raise ViewError(f"viz.mfma: {MATRICES[key]} has {where.shape[0]} block(s) of "
                            f"{where.shape[1]}x{where.shape[2]}; no cell ({block}, {row}, {col})")
        lane = int(where[block, row, col])
        self.select_lane(lane)
        return lane

    def _update(self) -> Summary:
        inst, lane = self.inst, self.lane
        for source in self.sources.values():
            held = [v == lane for v in source.data["lane"]]
            source.data.update(alpha=[1.0 if h else DIM for h in held],
                               line_alpha=[1.0 if h else 0.0 for h in held])
        b_gprs = max(1, inst.b_per_lane * TYPE_BITS[inst.b_type] // 32)
        ops = "integer ops" if inst.d_type == "i32" else "FLOPs"
        return [
            ("instruction", f"{inst.name} (builtin {inst.builtin})"),
            ("arch", inst.arch),
            ("shape MxNxK", f"{inst.m}x{inst.n}x{inst.k}"),
            ("blocks", str(inst.blocks)),
            ("types", f"A {inst.a_type}, B {inst.b_type}, C/D {inst.d_type}"),
            ("elements per lane", f"A {inst.a_per_lane}, B {inst.b_per_lane}, "
                                  f"C/D {inst.d_per_lane}"),
            ("VGPRs per lane", f"A {inst.a_gprs}, B {b_gprs}, C/D {inst.d_gprs}"),
            ("cycles", f"{inst.cycles} ({inst.passes} passes of 4)"),
            (f"{ops} per wave", str(inst.flops)),
            ("lane", str(lane)),
            *((f"lane {lane} holds {MATRICES[key]}",
               held_text(MATRICES[key][-1], self._maps[key][lane], inst.blocks))
              for key in ("a", "b", "d")),
        ]


def mfma(instruction: str, arch: str = "gfx942", *, lane: int = 0) -> MfmaView:
    """Which lane holds which element of ``instruction`` on ``arch`` (module docstring).

    ``instruction``: the ISA mnemonic (``v_mfma_f32_32x32x8_bf16``), with or without
    ``v_``, or the clang builtin (``__builtin_amdgcn_mfma_f32_32x32x8bf16_1k``);
    ``arch``: ``gfx942`` (CDNA3, MI300) or ``gfx90a`` (CDNA2, MI200), or a device key such
    as ``mi250x``; ``lane``: the lane highlighted first.

    >>> dict(mfma("v_mfma_f32_4x4x1_16b_f32").summary)["lane 0 holds C/D"]
    'D[0..3][0].B0'
    >>> mfma("v_mfma_f32_64x64x1_f32")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gpusim.viz.base.ViewError: viz.mfma: gfx942 has no MFMA 'v_mfma_f32_64x64x1_f32'; it has: ...
    """
    view = MfmaView(_resolve(instruction, arch))
    view.select_lane(lane)
    return view
