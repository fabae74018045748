"""The debugger's stepper works in JupyterLab: step through a divergent if and a barrier.

A notebook made of the labs' own cells (lab 02's divergent ``masks`` kernel under
``gpusim.debug``, lab 03's racy block reduction under it) runs in headless Chromium
against the course's JupyterLab (conftest.py). In the first view, *next divergence*
must show the ``if`` side's 22 lanes, *step ▶* must reach the ``else`` side's 42 and
*◀ step* come back; in the second, *next barrier* must show a barrier with the waves
that arrived. Every wait is for a state of the page. The screenshot goes to
test-artifacts/browser/views/stepper.png, and to docs/views/ when
GPUSIM_UPDATE_SCREENSHOTS=1, as the other view tests do.
"""

from __future__ import annotations

import nbformat
import pytest
from jupyterlab_session import PANEL, ROOT, Browser, Lab, run_all, save_view_shot

pytestmark = pytest.mark.browser


def _cells(name: str, *needles: str) -> list[str]:
    """A lab's setup cell, then its code cells that contain each of ``needles``."""
    lab = nbformat.read(ROOT / "labs" / name, as_version=4)
    code = [c.source for c in lab.cells if c.cell_type == "code"]
    return [code[0]] + [next(s for s in code if needle in s) for needle in needles]


@pytest.fixture
def stepper_notebook(jupyterlab: Lab) -> str:
    sources = (_cells("02_wavefronts_lds.ipynb", "def masks", "gpusim.debug(masks")
               + _cells("03_sanitizer.ipynb", "def block_sum_racy",
                        "gpusim.debug(block_sum_racy")
               + ["print('stepper shown')"])
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nbformat.write(nb, jupyterlab.root / "labs" / "stepper.ipynb")
    return "labs/stepper.ipynb"


def test_step_through_a_divergent_if_and_a_barrier(jupyterlab: Lab, browser: Browser,
                                                   stepper_notebook: str):
    run = run_all(browser, jupyterlab, stepper_notebook, timeout_s=300)
    assert "stepper shown" in run.text and run.saved_errors == [], run.text[-2000:]
    page = browser.page
    page.set_viewport_size({"width": 1400, "height": 1400})

    def view(title: str):
        out = page.locator(f"{PANEL} .jp-OutputArea-output",
                           has=page.locator(".widget-vbox", has_text=title))
        out.scroll_into_view_if_needed()
        widget = out.locator(".widget-vbox").first
        try:
            widget.wait_for(state="visible", timeout=30_000)
            out.locator(".bk-Canvas").first.wait_for(state="visible", timeout=30_000)
        except Exception:  # noqa: BLE001 - any Playwright timeout: fail with a screenshot
            browser.fail(f"the stepper '{title}' did not render; JavaScript errors: "
                         f"{browser.console_errors[:5]}")
        return widget

    def shows(widget, text: str) -> None:
        try:
            widget.locator("table", has_text=text).first.wait_for(state="visible",
                                                                  timeout=20_000)
        except Exception:  # noqa: BLE001
            browser.fail(f"the stepper's summary never showed {text!r}: "
                         f"{widget.inner_text()[-600:]}")

    masks = view("Stepping kernel masks")
    shows(masks, "64 of 64 lanes")
    masks.get_by_role("button", name="next divergence").click()
    shows(masks, "22 of 64 lanes (lanes switched off)")
    for _ in range(5):  # the if side's five steps, then the else side's first
        masks.get_by_role("button", name="step ▶").click()
    shows(masks, "42 of 64 lanes (lanes switched off)")
    masks.get_by_role("button", name="◀ step").click()
    shows(masks, "22 of 64 lanes (lanes switched off)")
    shot = masks.screenshot()

    racy = view("Stepping kernel block_sum_racy")
    shows(racy, "LDS race on tile[128]")
    racy.get_by_role("button", name="next barrier").click()
    shows(racy, "waves arrived")
    save_view_shot(shot, "stepper")
    save_view_shot(racy.screenshot(), "stepper_barrier")
    assert browser.console_errors == []
