"""Browser-test fixtures: a JupyterLab server and a Chromium page (jupyterlab_session.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest
from jupyterlab_session import (
    CHROMIUM,
    ROOT,
    TOKEN,
    Browser,
    Lab,
    free_port,
)


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory) -> Lab:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: "
                    "sudo apt-get install -y chromium (make test does this as root)")
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(ROOT / "labs", root / "labs")
    port = free_port()
    home = tmp_path_factory.mktemp("jupyter-home")
    # A fresh user: no user settings or workspaces, so only the shipped defaults apply.
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"))
    log = home / "server.log"
    with open(log, "wb") as out:  # a file, not a pipe: a full pipe would stall the server
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
             "--ServerApp.ip=127.0.0.1", "--allow-root", f"--IdentityProvider.token={TOKEN}",
             f"--ServerApp.root_dir={root}"],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    lab = Lab(url=f"http://127.0.0.1:{port}", root=root, log=log)
    deadline = time.monotonic() + 90
    while True:
        try:
            lab.api("/api/status")
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail("JupyterLab did not start:\n" + log.read_text()[-3000:])
            time.sleep(0.25)  # polling the server's readiness, not a fixed wait
    yield lab
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.fixture
def browser(request) -> Browser:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        page = chromium.new_page(viewport={"width": 1400, "height": 1000})
        view = Browser(page=page, name=request.node.name)

        def on_console(msg) -> None:
            if msg.type == "error":
                view.console_errors.append(msg.text)

        page.on("console", on_console)
        page.on("pageerror", lambda exc: view.console_errors.append(str(exc)))
        yield view
        chromium.close()
