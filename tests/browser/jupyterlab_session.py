"""JupyterLab in headless Chromium, as a student meets it: the server, the page, Run All.

The server runs from this environment with its shipped settings (binder/overrides.json,
installed by the Makefile and Binder's postBuild) and empty user settings, over a
temporary copy of labs/ so autosave never touches the repository's cleared labs. Every
wait is for a state (a kernel idle, a cell executed), never for a fixed time; a wait
that fails saves a screenshot and names it in the failure, together with any dialog
that blocked the page.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "gpusim-browser-test"
SHOTS = ROOT / "test-artifacts" / "browser"  # screenshots of failures (git-ignored)
KERNEL_START_S = 90


@dataclass
class Lab:
    """A running JupyterLab server: where it is, what it serves, what it logged."""

    url: str
    root: Path
    log: Path

    def api(self, path: str) -> object:
        sep = "&" if "?" in path else "?"
        with urllib.request.urlopen(f"{self.url}{path}{sep}token={TOKEN}", timeout=10) as r:
            return json.load(r)

    def sessions(self, notebook: str) -> list[dict]:
        return [s for s in self.api("/api/sessions") if s.get("path") == notebook]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]




@dataclass
class Browser:
    """One Chromium page, with the JavaScript errors it reported."""

    page: object
    name: str
    console_errors: list[str] = field(default_factory=list)

    def fail(self, what: str) -> None:
        """Fail the test, saving a screenshot and naming any dialog on the page."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / f"{self.name}.png"
        self.page.screenshot(path=str(shot), full_page=True)
        dialogs = self.page.locator(".jp-Dialog")
        blocking = (f"\na dialog blocks the page: {dialogs.first.inner_text()!r}"
                    if dialogs.count() else "")
        pytest.fail(f"{what}{blocking}\nscreenshot: {shot}", pytrace=False)

    def wait(self, what: str, js: str, arg: object = None, timeout_s: float = 60) -> None:
        """Wait until the JavaScript predicate ``js`` holds; a dialog fails at once."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        predicate = (f"(arg) => document.querySelector('.jp-Dialog') !== null || ({js})(arg)")
        try:
            self.page.wait_for_function(predicate, arg=arg, timeout=timeout_s * 1000,
                                        polling="raf")
        except PlaywrightTimeout:
            self.fail(f"timed out after {timeout_s:.0f} s waiting for {what}")
        if self.page.locator(".jp-Dialog").count():
            self.fail(f"a dialog appeared while waiting for {what}")


# The notebook on screen (other panels may be open behind it).
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
KERNEL_READY = f"""() => {{
    const name = document.querySelector('{PANEL} .jp-KernelName');
    const state = document.querySelector('{PANEL} .jp-Notebook-ExecutionIndicator');
    return name !== null && name.textContent.trim() !== 'No Kernel'
        && state !== null && state.getAttribute('data-status') === 'idle';
}}"""
# Run All is over when no cell waits and every cell ran, or an error stopped the rest.
RUN_FINISHED = f"""() => {{
    const prompts = [...document.querySelectorAll('{PANEL} .jp-CodeCell .jp-InputArea-prompt')]
        .map(p => p.textContent.trim());
    if (prompts.length === 0 || prompts.some(p => p === '[*]:')) return false;
    const failed = [...document.querySelectorAll('{PANEL} .jp-OutputArea-output')]
        .some(o => o.textContent.includes('Traceback (most recent call last)'));
    return failed || prompts.every(p => /^\\[\\d+\\]:$/.test(p));
}}"""
SAVED = "() => document.querySelector('.lm-TabBar-tab.lm-mod-current.jp-mod-dirty') === null"


@dataclass
class NotebookRun:
    """What one Run All left on screen and on disk."""

    text: str  # every output as rendered
    tracebacks_on_screen: int  # error outputs as JupyterLab 4 renders them
    saved: dict  # the notebook file after saving
    seconds_to_kernel: float
    seconds_to_run: float

    @property
    def saved_errors(self) -> list[str]:
        """Error outputs in the saved file, except cells meant to fail."""
        return [f"{o['ename']}: {o['evalue']}" for cell in self.saved["cells"]
                if "raises-exception" not in cell.get("metadata", {}).get("tags", [])
                for o in cell.get("outputs", []) if o["output_type"] == "error"]


def save_view_shot(shot: bytes, name: str) -> None:
    """A view's screenshot, to test-artifacts/browser/views/ and, when
    GPUSIM_UPDATE_SCREENSHOTS=1, to docs/views/ (the README's pictures)."""
    folders = [SHOTS / "views"]
    if os.environ.get("GPUSIM_UPDATE_SCREENSHOTS") == "1":
        folders.append(ROOT / "docs" / "views")
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.png").write_bytes(shot)


def open_notebook(view: Browser, lab: Lab, notebook: str) -> None:
    """Open ``notebook`` (a path under the server root) in a workspace of its own."""
    view.page.goto(f"{lab.url}/lab/workspaces/{view.name}/tree/{notebook}?token={TOKEN}")
    view.wait("the notebook's cells", f"() => document.querySelector('{PANEL} .jp-Cell')")


def click_run_all(view: Browser) -> None:
    """Run > Run All Cells, as a student does."""
    view.page.click("li.lm-MenuBar-item:has-text('Run')")
    view.page.click("li.lm-Menu-item[data-command='runmenu:run-all']")


def run_all(view: Browser, lab: Lab, notebook: str, *, timeout_s: float = 180) -> NotebookRun:
    """Open ``notebook``, wait for its kernel, run every cell, save, and report."""
    page = view.page
    started = time.monotonic()
    open_notebook(view, lab, notebook)
    view.wait("the kernel to start and be idle", KERNEL_READY, timeout_s=KERNEL_START_S)
    to_kernel = time.monotonic() - started
    click_run_all(view)
    view.wait(f"Run All of {notebook} to finish", RUN_FINISHED, timeout_s=timeout_s)
    view.wait("the kernel to be idle after running", KERNEL_READY)
    ran = time.monotonic() - started
    page.keyboard.press("Control+s")
    view.wait(f"{notebook} to be saved", SAVED)
    outputs = page.locator(f"{PANEL} .jp-OutputArea-output")
    tracebacks = page.locator(f"{PANEL} .jp-OutputArea-output"
                              "[data-mime-type='application/vnd.jupyter.stderr']",
                              has_text="Traceback (most recent call last)")
    return NotebookRun(text="\n".join(outputs.all_inner_texts()),
                       tracebacks_on_screen=tracebacks.count(),
                       saved=json.loads((lab.root / notebook).read_text()),
                       seconds_to_kernel=to_kernel, seconds_to_run=ran)
