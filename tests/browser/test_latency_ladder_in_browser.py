"""Lab 06's latency ladder renders in JupyterLab: the student's cells, the Bokeh figure.

A notebook made of lab 06's own cells (its setup cell and the code cells of the section
"The latency ladder: a pointer chase", as shipped in labs/) runs in headless Chromium
against the course's JupyterLab (conftest.py). The ladder's view must render its Bokeh
figure with its summary, and the page must log no JavaScript error. The screenshot goes to
test-artifacts/browser/views/latency_ladder.png, and to docs/views/ (the README's
pictures) when GPUSIM_UPDATE_SCREENSHOTS=1, as test_views_in_browser.py does.
"""

from __future__ import annotations

import nbformat
import pytest
from jupyterlab_session import PANEL, ROOT, Browser, Lab, run_all, save_view_shot

pytestmark = pytest.mark.browser
HEADING = "## 4. The latency ladder"


def ladder_cells(lab: nbformat.NotebookNode) -> list[str]:
    """The lab's setup cell, then every code cell of the ladder section."""
    cells = lab.cells
    start = next(i for i, c in enumerate(cells) if c.source.startswith(HEADING))
    end = next(i for i in range(start + 1, len(cells))
               if cells[i].cell_type == "markdown" and "\n## " in "\n" + cells[i].source)
    setup = next(c.source for c in cells if c.cell_type == "code")
    return [setup, "from gpusim import viz"] + [c.source for c in cells[start:end]
                                                if c.cell_type == "code"]


@pytest.fixture
def ladder_notebook(jupyterlab: Lab) -> str:
    lab = nbformat.read(ROOT / "labs" / "06_memory.ipynb", as_version=4)
    nb = nbformat.v4.new_notebook()
    nb.cells = ([nbformat.v4.new_code_cell(src) for src in ladder_cells(lab)]
                + [nbformat.v4.new_code_cell("print('ladder shown')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    # beside the labs, so the lab's path to labs/data/ holds as it does for students
    nbformat.write(nb, jupyterlab.root / "labs" / "ladder.ipynb")
    return "labs/ladder.ipynb"


def test_latency_ladder_renders(jupyterlab: Lab, browser: Browser, ladder_notebook: str):
    run = run_all(browser, jupyterlab, ladder_notebook, timeout_s=300)
    assert "ladder shown" in run.text and run.saved_errors == [], run.text[-2000:]
    page = browser.page
    page.set_viewport_size({"width": 1400, "height": 1200})
    out = page.locator(f"{PANEL} .jp-OutputArea-output",
                       has=page.locator(".widget-vbox", has_text="Latency ladder"))
    out.scroll_into_view_if_needed()
    widget = out.locator(".widget-vbox").first
    canvas = out.locator(".bk-Canvas")
    try:
        widget.wait_for(state="visible", timeout=30_000)
        canvas.first.wait_for(state="visible", timeout=30_000)
    except Exception:  # noqa: BLE001 - any Playwright timeout: fail with a screenshot
        browser.fail(f"the ladder's Bokeh figure did not render; JavaScript errors: "
                     f"{browser.console_errors[:5]}")
    assert canvas.count() == 1
    box = canvas.first.bounding_box()
    assert box and box["width"] > 600 and box["height"] > 300, box
    summary = widget.inner_text()
    for level in ("vL1D (16 KiB)", "L2 (1 MiB)", "MALL (32 MiB)", "HBM (288 MiB)"):
        assert level in summary, summary
    save_view_shot(widget.screenshot(), "latency_ladder")
    assert browser.console_errors == []
