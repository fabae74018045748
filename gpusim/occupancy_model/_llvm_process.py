"""The parent side of ``_llvm_worker.py``: start it once, send IR, collect the output.

One worker serves every compile of the session (about 10 ms each once started). If
LLVM ends it (a fatal error exits the process), the caller gets LLVM's message and the
next compile starts a fresh worker. The worker's stderr goes to a temporary file that
the parent reads with ``os.pread`` from where the request began, so the two never share
a file position.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

TRIPLE = "amdgcn-amd-amdhsa"
WORKER = Path(__file__).with_name("_llvm_worker.py")
MAX_LOG_BYTES = 8 << 20  # start a fresh worker (and log) past this much stderr


class _Worker:
    def __init__(self) -> None:
        self.pid = os.getpid()  # a forked child must not share this worker's pipes
        self.log: IO[bytes] = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            encoding="utf-8",
        )
        hello = self._receive()
        if not hello.get("ready"):
            self.close()
            raise RuntimeError(hello.get("error") or "the LLVM worker did not start")

    def _receive(self) -> dict:
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        return json.loads(line) if line else {}

    def log_size(self) -> int:
        return os.fstat(self.log.fileno()).st_size

    def log_since(self, offset: int) -> str:
        data = os.pread(self.log.fileno(), self.log_size() - offset, offset)
        return data.decode("utf-8", errors="replace")

    def compile(self, ir: str, cpu: str, optimize: int = 0) -> tuple[str | None, str]:
        start = self.log_size()
        assert self.proc.stdin is not None
        request = {"ir": ir, "cpu": cpu, "optimize": optimize}
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            reply = self._receive()
        except OSError:
            return None, "the LLVM worker had stopped"
        except BaseException:
            # Interrupted (Ctrl-C) mid-request: its reply would answer the next request,
            # so this worker is stopped and the next compile starts a fresh one.
            self.proc.kill()
            self.proc.wait()
            raise
        diagnostics = self.log_since(start)
        if not reply:  # LLVM ended the worker: its last words are in the log
            self.proc.wait()
            errors = [ln for ln in diagnostics.splitlines() if "error" in ln.lower()]
            return None, "; ".join(errors) or diagnostics.strip() or "the LLVM worker stopped"
        if "error" in reply:
            return None, reply["error"]
        return reply["asm"], diagnostics

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.log.close()


_lock = threading.Lock()
_worker: _Worker | None = None


def run_llc(ir: str, cpu: str, optimize: int = 0) -> tuple[str | None, str]:
    """``(assembly, diagnostics)``; assembly is None when LLVM failed (diagnostics say why).

    ``optimize`` > 0 runs LLVM's ``O<optimize>`` IR pipeline before code generation.

    Raises RuntimeError when the worker cannot start (no AMDGPU backend).
    """
    global _worker
    with _lock:
        if _worker is not None and _worker.pid != os.getpid():
            _worker = None  # inherited through fork: the parent still owns it
        if _worker is not None and (not _worker.alive or _worker.log_size() > MAX_LOG_BYTES):
            _worker.close()
            _worker = None
        if _worker is None:
            _worker = _Worker()
        return _worker.compile(ir, cpu, optimize)


@atexit.register
def shutdown() -> None:
    """Stop the worker (also run at interpreter exit)."""
    global _worker
    with _lock:
        if _worker is not None and _worker.pid == os.getpid():
            _worker.close()
        _worker = None
