"""Every live view renders in JupyterLab: Bokeh canvases, widgets, a slider that redraws.

A notebook that shows each view of gpusim.viz (on the known kernels of tests/viz) runs
in headless Chromium against the course's JupyterLab (conftest.py). For each view the
test checks that its controls and its Bokeh figures rendered (BokehJS comes from the
jupyter_bokeh extension: no network), then drags the occupancy explorer's VGPR slider
with the keyboard and checks that the kernel answered (the summary changes) and the
figures were redrawn (the screenshot changes), and that the page logged no JavaScript
error. Screenshots of each view go to test-artifacts/browser/views/, and to docs/views/
(the README's pictures) when GPUSIM_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import shutil

import nbformat
import pytest
from jupyterlab_session import PANEL, ROOT, Browser, Lab, run_all, save_view_shot

pytestmark = pytest.mark.browser

SETUP = """\
import numpy as np
import gpusim
from gpusim import hip, viz
import view_kernels as K

gpusim.set_system("mi300x", ngpus=1)
n = 1 << 14
a = hip.to_device(np.arange(n, dtype=np.float32))
b = hip.device_array(n, np.float32)
with gpusim.profile(memory=True) as copies:
    for stride in (1, 2, 32):
        K.copy_strided[n // 256, 256](a, b, stride)
m = 128
src = hip.to_device(np.arange(m * m, dtype=np.float32).reshape(m, m))
dst = hip.device_array((m, m), np.float32)
with gpusim.profile(memory=True) as transposes:
    for k in (K.transpose_lds, K.transpose_padded):
        k[(m // K.TILE, m // K.TILE), (K.TILE, K.TILE)](src, dst)
with gpusim.profile(memory=True) as lds_bound:  # 64 KiB of LDS: one workgroup per CU
    K.copy_strided[(1 << 18) // 256, 256, 0, 65536](hip.device_array(1 << 18, np.float32),
                                                     hip.device_array(1 << 18, np.float32), 1)
A = hip.to_device(np.ones((64, 64), np.float32))
with gpusim.profile(memory=True) as matmul:
    K.matmul_naive[(4, 4), (16, 16)](A, A, hip.device_array((64, 64), np.float32), 64)
with gpusim.profile(memory=True) as diverge:
    K.even_lanes[4, 256](a, b)
with gpusim.profile(memory=True) as streams:
    s1, s2 = hip.stream(), hip.stream()
    h = hip.pinned_array(n, np.float32)
    hip.hipMemcpyAsync(h, a, h.nbytes, hip.hipMemcpyDeviceToHost, s1)
    K.saxpy[n // 256, 256, s2](np.float32(2.0), a, a, b)
    hip.synchronize()
"""
RING = """\
from gpusim.profiler import CollectiveRecord, CollectiveStep
ring = [CollectiveStep(s, r, (r + 1) % 4, 1 << 20, "xGMIx1", s * 10_000, (s + 1) * 10_000)
        for s in range(6) for r in range(4)]
call = CollectiveRecord(name="ncclAllReduce", device=0, stream=0, collective="AllReduce",
                        algorithm="RING", nranks=4, devices=[0, 1, 2, 3], nbytes=4 << 20,
                        steps=ring, end_ns=60_000, done=True)
viz.collectives([call])"""
# view name -> the cell that shows it, and how many Bokeh figures it holds
VIEWS = {
    "occupancy": ("viz.occupancy(block_size=256, vgprs=64)", 5),
    "memory_chart": ("viz.memory_chart(copies, kernel=1)", 1),
    "cache_heatmap": ("viz.cache_heatmap(matmul)", 2),
    "coalescing": ('viz.coalescing(copies, array="a", kernel=1)', 2),
    "lds_banks": ("viz.lds_banks(transposes, line=24)", 4),
    "divergence": ("viz.divergence(diverge)", 2),
    "dispatch": ("viz.dispatch(lds_bound)", 2),
    "timeline": ("viz.timeline(streams)", 1),
    "roofline": ("viz.roofline(matmul.records + streams.records)", 1),
    "collectives": (RING, 2),
}


@pytest.fixture
def views_notebook(jupyterlab: Lab) -> str:
    shutil.copy(ROOT / "tests" / "viz" / "view_kernels.py", jupyterlab.root)
    nb = nbformat.v4.new_notebook()
    nb.cells = ([nbformat.v4.new_code_cell(SETUP)]
                + [nbformat.v4.new_code_cell(src) for src, _ in VIEWS.values()]
                + [nbformat.v4.new_code_cell("print('all views shown')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nbformat.write(nb, jupyterlab.root / "views.ipynb")
    return "views.ipynb"


def _view_output(cell):
    """The output that holds the view (the cell's other output is the BokehJS loader)."""
    return cell.locator(".jp-OutputArea-output", has=cell.page.locator(".widget-vbox"))


def test_every_view_renders_and_a_slider_redraws(jupyterlab: Lab, browser: Browser,
                                                 views_notebook: str):
    run = run_all(browser, jupyterlab, views_notebook, timeout_s=300)
    assert "all views shown" in run.text and run.saved_errors == [], run.text[-2000:]
    page = browser.page
    page.set_viewport_size({"width": 1400, "height": 1700})  # a whole view on screen
    cells = page.locator(f"{PANEL} .jp-CodeCell")
    for i, (name, (_, figures)) in enumerate(VIEWS.items(), start=1):
        out = _view_output(cells.nth(i))
        out.scroll_into_view_if_needed()
        widget = out.locator(".widget-vbox").first
        canvases = out.locator(".bk-Canvas")
        try:
            widget.wait_for(state="visible", timeout=30_000)
            canvases.nth(figures - 1).wait_for(state="visible", timeout=30_000)
        except Exception:  # noqa: BLE001 - any Playwright timeout: fail with a screenshot
            errors = out.locator(".jp-RenderedText, .widget-vbox").all_inner_texts()
            browser.fail(f"{name}: the widget or its {figures} Bokeh figures did not render; "
                         f"JavaScript errors: {browser.console_errors[:5]}; output: "
                         f"{[e[:300] for e in errors]}")
        assert canvases.count() == figures, name
        assert out.locator(".widget-dropdown, .widget-slider").count() >= 1, name
        for k in range(figures):
            box = canvases.nth(k).bounding_box()
            assert box and box["width"] > 100 and box["height"] > 100, (name, k, box)
        save_view_shot(widget.screenshot(), name)

    # Drag the VGPR slider to its end with the keyboard, as a student may.
    out = _view_output(cells.nth(1))
    out.scroll_into_view_if_needed()
    figure = out.locator(".bk-Canvas").nth(1)  # occupancy vs VGPRs
    before = figure.screenshot()
    slider = out.locator(".widget-slider", has_text="VGPRs per lane")
    slider.locator(".noUi-handle").focus()
    page.keyboard.press("End")
    browser.wait("the kernel to answer the slider",
                 "() => [...document.querySelectorAll('.widget-html')].some("
                 "e => e.textContent.includes('1 of 8 waves per SIMD'))")
    page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")
    after = figure.screenshot()
    assert after != before, "moving the VGPR slider did not redraw the figure"
    save_view_shot(out.locator(".widget-vbox").first.screenshot(), "occupancy_after_slider")
    assert browser.console_errors == []
