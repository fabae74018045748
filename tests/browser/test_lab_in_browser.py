"""The student's path end to end: JupyterLab in headless Chromium runs the labs.

Drives the system Chromium (never a downloaded browser) through Playwright, against a
JupyterLab server with the course's shipped settings (see conftest.py).
"""

from pathlib import Path

import nbformat
import pytest
from jupyterlab_session import KERNEL_READY, Browser, Lab, click_run_all, open_notebook, run_all

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


def _notebook(lab: Lab, name: str, *sources: str) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nbformat.write(nb, lab.root / name)
    return name


def test_tour_lab_runs_in_jupyterlab(jupyterlab: Lab, browser: Browser):
    run = run_all(browser, jupyterlab, "labs/00_tour.ipynb")
    print(f"kernel ready after {run.seconds_to_kernel:.1f} s; "
          f"lab ran after {run.seconds_to_run:.1f} s")
    assert "AMD Instinct MI300X" in run.text  # the first cell's device name
    assert "End of the tour" in run.text  # ... and the last cell ran: Run All went on
    # past the cells tagged raises-exception, whose tracebacks are the only ones shown
    meant_to_fail = sum("raises-exception" in c.get("metadata", {}).get("tags", [])
                        for c in run.saved["cells"])
    assert meant_to_fail >= 1 and run.tracebacks_on_screen == meant_to_fail, run.text
    # the exercise checks render, and a starter is told "not yet", never "solved"
    assert "Exercise 00.1 (resident work-items): not yet." in run.text
    assert "Exercise 00.2 (bytes for hipMalloc): not yet." in run.text
    assert "solved." not in run.text
    assert run.saved_errors == []
    assert browser.console_errors == []
    # one kernel for the notebook, and no kernel without a session
    sessions = jupyterlab.sessions("labs/00_tour.ipynb")
    assert len(sessions) == 1
    assert {k["id"] for k in jupyterlab.api("/api/kernels")} == {
        s["kernel"]["id"] for s in jupyterlab.api("/api/sessions")}
    log = jupyterlab.log.read_text()
    assert "Traceback" not in log and "ZMQError" not in log, log[-3000:]


def test_run_all_before_the_kernel_is_ready(jupyterlab: Lab, browser: Browser):
    # What a student may do first: Run All while the status bar still says "Initializing".
    # JupyterLab 4.6 then runs nothing (it clears cells queued while the session starts:
    # jupyterlab/jupyterlab#8490, open upstream). What we ship must not make it worse: no
    # kernel dialog, no error, one kernel, and the next Run All runs every cell.
    name = _notebook(jupyterlab, "early.ipynb", "x = 6 * 7", "print('answer', x)")
    open_notebook(browser, jupyterlab, name)
    click_run_all(browser)
    browser.wait("the kernel to start and be idle", KERNEL_READY)  # fails on any dialog
    run = run_all(browser, jupyterlab, name)
    assert "answer 42" in run.text
    assert run.saved_errors == []
    assert len(jupyterlab.sessions(name)) == 1


def test_a_failing_cell_is_caught_on_screen_and_on_disk(jupyterlab: Lab, browser: Browser):
    # The error checks above must be able to fail: a deliberate ZeroDivisionError.
    name = _notebook(jupyterlab, "fails.ipynb", "print('before')",
                     "import sys; print('a warning', file=sys.stderr)", "1 / 0",
                     "print('after')")
    run = run_all(browser, jupyterlab, name)
    assert run.tracebacks_on_screen == 1  # the stderr warning is not counted
    assert run.saved_errors == ["ZeroDivisionError: division by zero"]
    assert "before" in run.text and "after" not in run.text  # Run All stopped there


def test_shipped_settings_are_in_effect(jupyterlab: Lab):
    # binder/overrides.json, installed into the environment by the Makefile and Binder's
    # postBuild, becomes JupyterLab's default; the test's own user settings are empty.
    expected = {
        "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True,
                                                  "windowingMode": "none"},
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                       "checkForUpdates": False},
    }
    for plugin, values in expected.items():
        settings = jupyterlab.api(f"/lab/api/settings/{plugin}")
        assert settings["settings"] == {}  # nothing set by the user (or the test)
        defaults = {key: settings["schema"]["properties"][key]["default"] for key in values}
        assert defaults == values, plugin


def test_a_solved_lab_shows_its_view_and_says_solved(jupyterlab: Lab, browser: Browser):
    # Lab 01 as a student who finished it has it: the solution, outputs cleared. Its
    # check renders "solved" and its dispatch view draws Bokeh figures.
    nb = nbformat.read(ROOT / "solutions" / "01_first_kernels.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(nb, jupyterlab.root / "labs" / "01_solved.ipynb")
    run = run_all(browser, jupyterlab, "labs/01_solved.ipynb")
    assert "Exercise 01.1 (grid-stride loop): solved." in run.text, run.text[-2000:]
    assert "End of lab 01." in run.text and run.saved_errors == []
    canvases = browser.page.locator(".bk-Canvas")
    canvases.first.scroll_into_view_if_needed()
    canvases.first.wait_for(state="visible", timeout=30_000)
    assert browser.console_errors == []
