"""Coalescing and LDS-bank views on known kernels, against NumPy and the model."""

import numpy as np
from view_kernels import site_index

from gpusim import viz
from gpusim.viz.coalescing import lanes_to_lines
from gpusim.viz.lds_banks import lane_banks


def test_stride_two_copy_touches_twice_the_lines(profiles):
    a = profiles["a"]
    lines = {}
    for k, stride in zip(profiles["copy"].kernels, (1, 2), strict=True):
        s = k.memory["sites"][site_index(k, "a", "load")]
        d = lanes_to_lines(s["example"]["addr"], s["example"]["active"], 4, 128)
        # independent reference: wave 0 lanes read a[lane * stride]
        expect = np.unique((a.ptr.value + 4 * stride * np.arange(64)) // 128)
        assert len(d["used"]) == len(expect)
        assert sorted(set(d["offset"])) == (expect * 128).tolist()
        assert len(d["used"]) == s["requests_per_instruction"]  # the model agrees
        lines[stride] = len(d["used"])
    assert lines[2] == 2 * lines[1] == 4


def test_coalescing_view_summary_and_control(profiles):
    v = viz.coalescing(profiles["copy"], line=15)  # b[i] = a[(i * stride) % a.size]
    assert v.controls["instruction"].label.startswith("line 15")
    v.controls["instruction"].value = site_index(profiles["copy"].kernels[0], "a", "load")
    assert dict(v.summary)["example wave"].endswith("-> 2 line requests")
    touch = v.sources["touch"]
    v.controls["kernel"].value = 1  # the stride-2 copy: same sources, new data
    assert v.sources["touch"] is touch
    assert dict(v.summary)["example wave"].endswith("-> 4 line requests")
    assert max(touch.data["line"]) == 3 and len(touch.data["lane"]) == 64


def test_transpose_without_padding_is_32_way_with_padding_none(profiles):
    degrees = []
    for k in profiles["transpose"].kernels:
        s = k.memory["sites"][site_index(k, "tile", "load", "lds")]
        d = lane_banks(s["example"]["addr"], s["example"]["active"], s["example"]["phase"], 4)
        assert d["degree"] == s["max_degree"] == s["example"]["degree"]
        degrees.append(d["degree"])
        # reference: tile[tx, ty] of a row-major tile of W floats -> dword tx * W + ty
        width = 32 if k.name == "transpose_lds" else 33
        lane = np.arange(64)
        dword = (lane % 32) * width + lane // 32
        bank = dword % 32
        assert sorted(d["bank"]) == sorted(bank.tolist())
    assert degrees == [32, 1]


def test_lds_view_side_by_side(profiles):
    v = viz.lds_banks(profiles["transpose"], line=None)
    summary = dict(v.summary)
    assert "A kernel" in v.controls and "B kernel" in v.controls
    assert summary["A conflict degree"].startswith("1-way")  # the store of a row
    v.controls["A instruction"].value = v.controls["A instruction"].options[1][1]
    v.controls["B instruction"].value = v.controls["B instruction"].options[1][1]
    summary = dict(v.summary)
    assert summary["A conflict degree"].startswith("32-way")
    assert summary["B conflict degree"].startswith("1-way")
    red = v.sources["A"].data["color"].count("#d62728")
    assert red == 64  # every lane of the column read conflicts
