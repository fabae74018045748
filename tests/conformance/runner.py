"""Run numba CUDA test ids in watched child processes and gather one record per test.

Each shard is a child process (``worker.py``) that streams an event per test; the parent
polls those streams. A test that runs past ``timeout`` seconds (an emulated kernel that
never ends, a deadlock) is killed with its process and recorded as ``timeout``; one that
takes the interpreter down is ``crash``; either way the shard restarts after it.

>>> r = run_ids("numba", ["numba.cuda.tests.cudapy.test_idiv.TestCudaIDiv.test_inplace_div"])
>>> r["numba.cuda.tests.cudapy.test_idiv.TestCudaIDiv.test_inplace_div"]["status"]
'pass'
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _child_env(mode: str | None = None) -> dict[str, str]:
    """The environment of a test process; with ``mode``, every Python process it starts
    (tests that run code with ``python -c``) gets the same backend (site/sitecustomize)."""
    env = dict(os.environ)
    paths = [str(ROOT)] + ([str(ROOT / "tests" / "conformance" / "site")] if mode else [])
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["NUMBA_ENABLE_CUDASIM"] = "1"
    env.pop("GPUSIM_CONFORMANCE", None)
    if mode:
        env["GPUSIM_CONFORMANCE"] = mode
    return env


def collect_ids() -> list[str]:
    """Every test id of the selection (numba's cudapy and doc_examples), in order."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ids.txt"
        subprocess.run([sys.executable, "-m", "tests.conformance.worker", "numba", "--collect",
                        str(out)], check=True, env=_child_env(), cwd=ROOT)
        return out.read_text().split()


class _Shard:
    """One child process working through a list of ids, restarted after a hang or crash."""

    def __init__(self, mode: str, ids: list[str], tmp: Path, index: int, timeout: float):
        self.mode, self.todo, self.timeout = mode, list(ids), timeout
        self.ids_file, self.out_file = tmp / f"ids{index}.txt", tmp / f"out{index}.jsonl"
        self.records: dict[str, dict] = {}
        self.proc: subprocess.Popen | None = None
        self.read_pos, self.current, self.started = 0, None, 0.0

    def start(self) -> None:
        self.todo = [t for t in self.todo if t not in self.records]
        if not self.todo:
            self.proc = None
            return
        self.ids_file.write_text("\n".join(self.todo) + "\n")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.conformance.worker", self.mode, str(self.ids_file),
             str(self.out_file)], env=_child_env(self.mode), cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        self.current, self.started = None, time.monotonic()

    def _read(self) -> None:
        if not self.out_file.exists():
            return
        with open(self.out_file) as f:
            f.seek(self.read_pos)
            for line in f:
                if not line.endswith("\n"):
                    break  # half-written: read it next time
                self.read_pos += len(line)
                event = json.loads(line)
                if "start" in event:
                    self.current, self.started = event["start"], time.monotonic()
                else:
                    self.records[event["id"]] = event
                    self.current = None

    def _lose_current(self, status: str, cause: str) -> None:
        victim = self.current or next((t for t in self.todo if t not in self.records), None)
        if victim is not None:
            self.records[victim] = {"id": victim, "status": status, "cause": cause,
                                    "where": "", "secs": round(time.monotonic() - self.started, 1)}

    def poll(self) -> bool:
        """Advance; False once every id has a record."""
        if self.proc is None:
            return False
        self._read()
        rc = self.proc.poll()
        if rc is None:
            if time.monotonic() - self.started > self.timeout:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
                self._read()
                self._lose_current("timeout", f"timeout: still running after {self.timeout:.0f} s")
                self.start()
            return self.proc is not None
        self._read()
        if any(t not in self.records for t in self.todo):
            self._lose_current("crash", f"crash: the test process exited with status {rc}")
            self.start()
        else:
            self.proc = None
        return self.proc is not None


def run_ids(mode: str, ids: list[str], *, jobs: int = 1, timeout: float = 120.0
            ) -> dict[str, dict]:
    """Run ``ids`` on ``mode`` ("gpusim" or "numba") in ``jobs`` child processes; return
    ``{id: {"status", "cause", "where", "secs"}}`` (status: pass, fail, error, skip,
    timeout, crash)."""
    # tests dealt out in turn: one module's tests cost alike, and whole modules per shard
    # left one shard running alone for minutes (a class's setUpClass then runs in each)
    shards_ids = [ids[k::max(1, jobs)] for k in range(max(1, jobs))]
    with tempfile.TemporaryDirectory() as tmp:
        shards = [_Shard(mode, s, Path(tmp), i, timeout) for i, s in enumerate(shards_ids) if s]
        for shard in shards:
            shard.start()
        while any([shard.poll() for shard in shards]):
            time.sleep(0.1)
    records: dict[str, dict] = {}
    for shard in shards:
        records.update(shard.records)
    return {tid: records[tid] for tid in ids if tid in records}
