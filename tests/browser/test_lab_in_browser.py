"""The student's path end to end: JupyterLab in headless Chromium runs a lab.

Drives the system Chromium (never a downloaded browser) through Playwright. The lab is
served from a temporary copy so autosave never touches the repository's cleared labs.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "gpusim-browser-test"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM) and os.environ.get("GPUSIM_SKIP_BROWSER") == "1",
        reason="GPUSIM_SKIP_BROWSER=1 and no Chromium installed",
    ),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(ROOT / "labs", root / "labs")
    port = _free_port()
    # Render every cell (JupyterLab 4 only renders the cells in view by default), so the
    # checks below see all outputs, not just the visible ones.
    settings = root / ".settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(root / ".jupyter"),
               JUPYTERLAB_WORKSPACES_DIR=str(root / ".workspaces"),
               JUPYTERLAB_SETTINGS_DIR=str(root / ".settings"))
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", "--allow-root", f"--IdentityProvider.token={TOKEN}",
         f"--ServerApp.root_dir={root}", "--LabApp.news_url=",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            break
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail("JupyterLab did not start: " + server.stderr.read().decode()[-2000:])
            time.sleep(0.5)
    yield url
    server.terminate()
    server.wait(timeout=20)


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )
        yield browser.new_page(viewport={"width": 1400, "height": 1000})
        browser.close()


def test_tour_lab_runs_in_jupyterlab(jupyterlab, page, tmp_path):
    page.goto(f"{jupyterlab}/lab/tree/labs/00_tour.ipynb?token={TOKEN}")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']",
                           timeout=60_000)
    page.click("li.lm-MenuBar-item:has-text('Run')")
    page.click("li.lm-Menu-item[data-command='runmenu:run-all']")
    # the last cell reaches the end of the tour; the first printed the device name
    page.wait_for_selector(".jp-OutputArea-output:has-text('End of the tour')",
                           timeout=120_000)
    page.wait_for_selector(".jp-OutputArea-output:has-text('AMD Instinct MI300X')",
                           state="attached", timeout=10_000)
    page.screenshot(path=str(tmp_path / "tour.png"))
    errors = page.locator("[data-mime-type='application/vnd.jupyter.error']")
    assert errors.count() == 0, errors.first.inner_text()
