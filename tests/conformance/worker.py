"""Child process: run numba CUDA test ids on one backend, one JSON line per event.

``python -m tests.conformance.worker MODE IDS_FILE OUT_FILE`` (MODE: gpusim | numba)
appends ``{"start": id}`` before each test and ``{"id", "status", "cause", "secs"}``
after it, flushed at once, so the parent (``runner.py``) can tell which test hung or
crashed the interpreter and restart after it. ``... MODE --collect OUT_FILE`` lists the
test ids of the selection instead (in module order).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import traceback
import unittest
from pathlib import Path

from tests.conformance import shim

PACKAGES = ("numba.cuda.tests.cudapy", "numba.cuda.tests.doc_examples")


def test_modules() -> list[str]:
    """Dotted names of the test modules of the selection, sorted."""
    names = []
    for package in PACKAGES:
        folder = Path(importlib.import_module(package).__file__).parent
        names += [f"{package}.{p.stem}" for p in sorted(folder.glob("test_*.py"))]
    return names


def collect() -> list[str]:
    """Every test id in the selection, in module then definition order."""
    loader = unittest.TestLoader()
    ids: list[str] = []

    def walk(suite: unittest.TestSuite) -> None:
        for item in suite:
            if isinstance(item, unittest.TestSuite):
                walk(item)
            else:
                ids.append(item.id())
    for module in test_modules():
        walk(loader.loadTestsFromName(module))
    return ids


def cause_of(err: tuple) -> str:
    """"ExcType: first line of the message" -- what the report groups failures by."""
    etype, value, _ = err
    lines = str(value).strip().splitlines()
    return f"{etype.__name__}: {lines[0][:300] if lines else ''}".rstrip(": ")


def where_of(err: tuple) -> str:
    """The last traceback frame (file:line), to tell apart causes with one message."""
    frames = traceback.extract_tb(err[2])
    if not frames:
        return ""
    f = frames[-1]
    return f"{Path(f.filename).name}:{f.lineno}"


class StreamingResult(unittest.TestResult):
    """Writes each outcome as one JSON line the moment it is known."""

    def __init__(self, out) -> None:
        super().__init__()
        self.out = out
        self.outcome: dict[str, dict] = {}
        self.t0 = 0.0

    def _emit(self, record: dict) -> None:
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()

    def startTest(self, test) -> None:  # noqa: N802 - unittest's name
        super().startTest(test)
        self.t0 = time.perf_counter()
        self._emit({"start": test.id()})

    def _set(self, test, status: str, err: tuple | None = None, reason: str = "") -> None:
        prev = self.outcome.get(test.id())
        if prev and prev["status"] in ("fail", "error"):
            return  # a failed subtest already decided the test
        rec = {"id": test.id(), "status": status,
               "cause": cause_of(err) if err else reason,
               "where": where_of(err) if err else ""}
        self.outcome[test.id()] = rec

    def addSuccess(self, test) -> None:  # noqa: N802
        self._set(test, "pass")

    def addFailure(self, test, err) -> None:  # noqa: N802
        self._set(test, "fail", err)

    def addError(self, test, err) -> None:  # noqa: N802
        if isinstance(test, unittest.case._SubTest):
            test = test.test_case
        if not hasattr(test, "_testMethodName"):  # setUpClass/module fixture failed
            self.fixture_error = cause_of(err)
            return
        self._set(test, "error", err)

    def addSubTest(self, test, subtest, err) -> None:  # noqa: N802
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set(test, "fail" if failed else "error", err)

    def addSkip(self, test, reason) -> None:  # noqa: N802
        self._set(test, "skip", reason=reason)

    def addExpectedFailure(self, test, err) -> None:  # noqa: N802
        self._set(test, "pass", reason="expected failure")

    def addUnexpectedSuccess(self, test) -> None:  # noqa: N802
        self._set(test, "fail", reason="unexpected success")

    def stopTest(self, test) -> None:  # noqa: N802
        super().stopTest(test)
        rec = self.outcome.setdefault(test.id(), {"id": test.id(), "status": "pass",
                                                  "cause": "", "where": ""})
        rec["secs"] = round(time.perf_counter() - self.t0, 3)
        self._emit(rec)


def run(ids: list[str], out) -> None:
    """Run ``ids`` module by module (so class and module fixtures run once)."""
    loader = unittest.TestLoader()
    by_module: dict[str, list[str]] = {}
    for tid in ids:
        by_module.setdefault(tid.rsplit(".", 2)[0], []).append(tid)
    for module, tids in by_module.items():
        result = StreamingResult(out)
        try:
            importlib.import_module(module)
            suite = unittest.TestSuite(loader.loadTestsFromName(t) for t in tids)
        except Exception as exc:  # the module does not import on this backend
            err = (type(exc), exc, exc.__traceback__)
            for tid in tids:
                result._emit({"id": tid, "status": "error", "cause": "import: " + cause_of(err),
                              "where": where_of(err), "secs": 0.0})
            continue
        suite.run(result)
        for tid in tids:  # tests a failed class fixture never started
            if tid not in result.outcome:
                cause = getattr(result, "fixture_error", "not run")
                result._emit({"id": tid, "status": "error", "cause": "fixture: " + cause,
                              "where": "", "secs": 0.0})


def main(argv: list[str]) -> None:
    mode = argv[0]
    shim.install(mode)
    if argv[1] == "--collect":
        Path(argv[2]).write_text("\n".join(collect()) + "\n")
        return
    ids = Path(argv[1]).read_text().split()
    with open(argv[2], "a") as out:
        run(ids, out)


if __name__ == "__main__":
    main(sys.argv[1:])
