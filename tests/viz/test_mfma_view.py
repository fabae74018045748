"""viz.mfma draws every element where AMD's matrix instruction calculator puts it.

The oracle is gpusim/devices/data/mfma_layouts.json (the calculator's own tables, read
here directly); the view draws gpusim.devices.mfma's formulas. Nothing below uses those
formulas: each cell's lane, register and the summary's "lane N holds" text are checked
against the calculator's entries.
"""

import colorsys
import json
import re
from functools import cache
from pathlib import Path

import pytest
from bokeh.models import Span

import gpusim.devices.mfma as devices_mfma
from gpusim import viz
from gpusim.viz.base import ViewError
from gpusim.viz.mfma import DIM, lane_colors

DATA = Path(devices_mfma.__file__).parent / "data" / "mfma_layouts.json"
ENTRY = re.compile(r"^([ABD])\[(\d+)\]\[(\d+)\](?:\.B(\d+))?$")
CASES = [
    ("gfx90a", "v_mfma_f32_32x32x2f32"),
    ("gfx942", "v_mfma_f32_32x32x2_f32"),
    ("gfx90a", "v_mfma_f32_32x32x8bf16_1k"),
    ("gfx942", "v_mfma_f32_32x32x8_bf16"),
    ("gfx90a", "v_mfma_f32_4x4x1f32"),
    ("gfx942", "v_mfma_f32_4x4x1_16b_f32"),
    ("gfx942", "v_mfma_f32_16x16x1_4b_f32"),
    ("gfx90a", "v_mfma_f64_16x16x4f64"),
    ("gfx942", "v_mfma_f64_4x4x4_4b_f64"),
    ("gfx90a", "v_mfma_i32_16x16x16i8"),
    ("gfx942", "v_mfma_i32_32x32x16_i8"),
]
MATRIX = {"a": "A", "b": "B", "d": "D"}


@cache
def calculator(arch: str, name: str) -> dict:
    return json.loads(DATA.read_text())[arch]["instructions"][name]


@cache
def held(arch: str, name: str, operand: str) -> dict[int, list[tuple[int, int, int]]]:
    """lane -> the (block, first, second) entries of its registers, in register order."""
    out = {}
    for lane, row in enumerate(calculator(arch, name)[operand]["lanes"]):
        out[lane] = []
        for text in row.split(","):
            found = ENTRY.match(text)
            assert found and found.group(1) == operand, text
            out[lane].append((int(found.group(4) or 0), int(found.group(2)),
                              int(found.group(3))))
    return out


@cache
def view(arch: str, name: str):
    return viz.mfma(name, arch)


def _cells(source) -> list[tuple[int, int, int]]:
    d = source.data
    return list(zip(d["block"], d["row"], d["col"], strict=True))


@pytest.mark.parametrize("arch,name", CASES)
@pytest.mark.parametrize("key", list(MATRIX))
def test_each_cell_coloured_by_the_calculators_lane(arch, name, key):
    v = view(arch, name)
    operand = MATRIX[key]
    table = calculator(arch, name)[operand]
    where = {cell: (lane, column) for lane, cells in held(arch, name, operand).items()
             for column, cell in enumerate(cells)}
    source = v.sources[key].data
    assert sorted(_cells(v.sources[key])) == sorted(where)  # every element, once
    colors = lane_colors()
    cols = max(c for _, _, c in where) + 1
    for n, cell in enumerate(_cells(v.sources[key])):
        lane, column = where[cell]
        assert source["lane"][n] == lane, (operand, cell)
        assert source["color"][n] == colors[lane]
        assert source["element"][n] == column
        assert source["register"][n] == table["registers"][column]  # hover text
        block, row, col = cell
        assert (source["x"][n], source["y"][n]) == (block * cols + col, row)  # blocks side by side


@pytest.mark.parametrize("arch,name", CASES)
def test_selecting_a_lane_outlines_exactly_its_cells(arch, name):
    v = view(arch, name)
    for lane in (0, 5, 37, 63):
        v.select_lane(lane)
        assert v.controls["lane"].value == lane
        for key, operand in MATRIX.items():
            data = v.sources[key].data
            marked = {cell for cell, line in zip(_cells(v.sources[key]), data["line_alpha"],
                                                 strict=True) if line == 1.0}
            assert marked == set(held(arch, name, operand)[lane])
            assert len(marked) == len(calculator(arch, name)[operand]["registers"])
            assert all(alpha == (1.0 if cell in marked else DIM) for cell, alpha in
                       zip(_cells(v.sources[key]), data["alpha"], strict=True))


def _expand(text: str) -> list[tuple[int, int, int]]:
    """'D[4..7,12..15][5].B0..1' -> its (block, row, col) in the written order."""
    def numbers(part: str) -> list[int]:
        out = []
        for piece in part.split(","):
            lo, _, hi = piece.partition("..")
            out += range(int(lo), int(hi or lo) + 1)
        return out

    cells = []
    for _, rows, cols, blocks in re.findall(r"([ABD])\[([\d.,]+)\]\[([\d.,]+)\](?:\.B([\d.,]+))?",
                                            text):
        for block in numbers(blocks) if blocks else [0]:
            cells += [(block, r, c) for r in numbers(rows) for c in numbers(cols)]
    return cells


@pytest.mark.parametrize("arch,name", CASES)
def test_summary_numbers_and_held_elements(arch, name):
    v = view(arch, name)
    detail = calculator(arch, name)["detail"]
    v.select_lane(37)
    rows = dict(v.summary)
    assert rows["arch"] == arch and rows["instruction"].startswith(name + " (builtin ")
    assert rows["shape MxNxK"] == f"{detail['m']}x{detail['n']}x{detail['k']}"
    assert rows["blocks"] == str(detail["blocks"])
    assert rows["VGPRs per lane"] == (f"A {detail['gprs_a']}, B {detail['gprs_b']}, "
                                      f"C/D {detail['gprs_d']}")
    assert rows["cycles"].split()[0] == str(detail["cycles"])
    ops = rows.get("FLOPs per wave", rows.get("integer ops per wave"))
    assert ops == str(detail["flops"])
    counts = [len(calculator(arch, name)[x]["registers"]) for x in "ABD"]
    assert rows["elements per lane"] == "A {}, B {}, C/D {}".format(*counts)
    for operand, label in (("A", "A"), ("B", "B"), ("D", "C/D")):
        assert _expand(rows[f"lane 37 holds {label}"]) == held(arch, name, operand)[37]


def test_summary_text_golden():
    v = viz.mfma("v_mfma_f32_32x32x8_bf16", lane=37)
    assert v.text() == """\
MFMA lane layout: v_mfma_f32_32x32x8_bf16 (gfx942)
  instruction        v_mfma_f32_32x32x8_bf16 (builtin __builtin_amdgcn_mfma_f32_32x32x8bf16_1k)
  arch               gfx942
  shape MxNxK        32x32x8
  blocks             1
  types              A bf16, B bf16, C/D f32
  elements per lane  A 4, B 4, C/D 16
  VGPRs per lane     A 2, B 2, C/D 16
  cycles             32 (8 passes of 4)
  FLOPs per wave     16384
  lane               37
  lane 37 holds A    A[5][4..7]
  lane 37 holds B    B[4..7][5]
  lane 37 holds C/D  D[4..7,12..15,20..23,28..31][5]"""
    assert repr(v) == v.text() == viz.mfma("v_mfma_f32_32x32x8_bf16", lane=37).text()
    bundle = v._repr_mimebundle_()
    assert bundle["text/plain"] == v.text() and "<table>" in bundle["text/html"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_blocks_written_with_calculator_suffix():
    rows = dict(viz.mfma("v_mfma_f32_4x4x1_16b_f32", lane=37).summary)
    assert (rows["lane 37 holds A"], rows["lane 37 holds C/D"]) == ("A[1][0].B9", "D[0..3][1].B9")
    rows = dict(viz.mfma("v_mfma_f32_32x32x1f32", "gfx90a", lane=5).summary)
    assert rows["lane 5 holds C/D"] == "D[0..3,8..11,16..19,24..27][5].B0..1"


@pytest.mark.parametrize("key,cell", [("a", (9, 2, 0)), ("b", (3, 0, 2)), ("d", (12, 2, 1))])
def test_tapping_a_cell_selects_its_lane(key, cell):
    v = viz.mfma("v_mfma_f32_4x4x1_16b_f32")
    operand = MATRIX[key]
    expected = next(lane for lane, cells in held("gfx942", v.inst.name, operand).items()
                    if cell in cells)
    index = _cells(v.sources[key]).index(cell)
    # What the browser sends after a click: the selection's new indices, via jupyter_bokeh.
    v.plot._sync_model(v.plot, {"event": "jsevent", "kind": "ModelChanged",
                                "model": {"id": v.sources[key].selected.id},
                                "attr": "indices", "new": [index]}, [])
    assert v.lane == expected
    assert v.sources[key].selected.indices == []  # cleared: the same click works again
    assert dict(v.summary)["lane"] == str(expected)
    v.select_lane(0)
    v.sources[key].selected.indices = [index]  # a Python-side selection does the same
    assert v.lane == expected


def test_select_cell_by_name():
    v = viz.mfma("v_mfma_f32_32x32x8bf16_1k", "gfx90a")
    lanes = held("gfx90a", "v_mfma_f32_32x32x8bf16_1k", "D")
    assert v.select_cell("c", 0, 9, 3) == v.lane == next(
        lane for lane, cells in lanes.items() if (0, 9, 3) in cells)
    with pytest.raises(ViewError, match="1 block\\(s\\) of 32x8"):
        v.select_cell("a", 0, 0, 8)
    with pytest.raises(ViewError, match="not one of a, b, c, d"):
        v.select_cell("x", 0, 0, 0)
    with pytest.raises(ViewError, match="lane 64"):
        v.select_lane(64)


def test_block_boundaries_and_layout():
    v = viz.mfma("v_mfma_f32_4x4x1_16b_f32")
    for fig in v.figures.values():
        assert sum(isinstance(x, Span) for x in fig.center) == 15
    one = viz.mfma("v_mfma_f32_32x32x8_bf16")
    assert not any(isinstance(x, Span) for f in one.figures.values() for x in f.center)


def test_palette_shows_lane_groups():
    hues = [colorsys.rgb_to_hls(*(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0]
            for c in lane_colors()]
    assert len(set(lane_colors())) == 64
    for group in range(4):  # one hue per 16 lanes, a different one for each group
        same = hues[16 * group:16 * group + 16]
        assert max(same) - min(same) < 0.02
    assert len({round(h, 1) for h in hues}) == 4


def test_names_arches_and_errors():
    assert viz.mfma("__builtin_amdgcn_mfma_f32_32x32x8bf16_1k").inst.name == (
        "v_mfma_f32_32x32x8_bf16")
    assert viz.mfma("mfma_f64_16x16x4f64", "mi250x").inst.arch == "gfx90a"  # a device key
    with pytest.raises(ViewError, match="gfx90a has no MFMA 'v_mfma_f32_32x32x8_bf16'; "
                                        "it has: .*v_mfma_f32_32x32x8bf16_1k"):
        viz.mfma("v_mfma_f32_32x32x8_bf16", "gfx90a")
    with pytest.raises(ViewError, match="gfx90a, gfx942"):
        viz.mfma("v_mfma_f32_4x4x1f32", "gfx1100")
    with pytest.raises(ViewError, match="'gfx908'"):
        viz.mfma("v_mfma_f32_4x4x1f32", "mi100")  # CDNA1: no table in gpusim
    assert issubclass(ViewError, ValueError)
