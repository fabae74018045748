"""Views and records read well without a front end (consoles, nbval)."""

import re

import pytest

from gpusim import viz
from gpusim.profiler.format import format_bytes, format_ns
from gpusim.viz.base import ViewError

VIEWS = {"memory_chart": "copy", "cache_heatmap": "copy", "coalescing": "copy",
         "lds_banks": "transpose", "divergence": "diverge", "dispatch": "copy",
         "timeline": "saxpy", "roofline": "saxpy"}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_text_is_complete_and_deterministic(profiles, name):
    make = getattr(viz, name)
    a, b = make(profiles[VIEWS[name]]), make(profiles[VIEWS[name]])
    assert repr(a) == repr(b) == a.text()
    bundle = a._repr_mimebundle_()
    assert bundle["text/plain"] == a.text()  # not cut at 110 characters like ipywidgets
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "<table>" in bundle["text/html"]
    assert not re.search(r"0x[0-9a-f]{6,}|object at", a.text())  # no addresses


def test_views_say_what_to_pass(profiles):
    with pytest.raises(ViewError, match="profile\\(memory=True\\)"):
        viz.memory_chart(profiles["saxpy"].copies)
    with pytest.raises(ViewError, match="expected a profile record"):
        viz.coalescing(42)
    with pytest.raises(ViewError, match="has an LDS access"):
        viz.lds_banks(profiles["copy"])
    with pytest.raises(ViewError, match="lines \\[15\\]"):
        viz.coalescing(profiles["copy"], line=3)


def test_kernel_record_prints_short(profiles):
    k = profiles["copy"].kernels[1]
    text = repr(k)
    assert len(text) < 250 and text == str(k)
    assert text.startswith("<KernelRecord copy_strided grid 64 x block 256, device 0")
    assert "requests/instr" in text and "vL1D hit" in text
    html = k._repr_html_()
    assert html.count("<tr>") == len(k.describe())


def test_summary_covers_counters_and_memory(profiles, capsys):
    profiles["saxpy"].summary()
    out = capsys.readouterr().out
    assert "Time per operation" in out and "Kernels" in out
    assert "VALU" in out and "req/instr" in out
    assert profiles["saxpy"]._repr_html_().count("<table>") == 2  # no copies: 2 sections


def test_units():
    assert [format_ns(v) for v in (5, 1500, 2_500_000, 3e9)] == ["5 ns", "1.5 us", "2.5 ms",
                                                                 "3 s"]
    assert format_bytes(1536) == "1.5 KiB"
