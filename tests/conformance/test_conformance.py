"""numba's own CUDA tests on gpusim.cuda: the pass count never goes below floor.json.

CI runs only ``passing.txt`` (the tests that passed when the floor was last raised), in
two watched child processes; ``python -m tests.conformance.report --update`` runs the
whole selection, rewrites the report and raises the floor.
"""

import json
import subprocess
import sys

from tests.conformance.report import FLOOR, PASSING, cause_group
from tests.conformance.runner import ROOT, _child_env, run_ids


def test_pass_count_never_below_floor():
    floor = json.loads(FLOOR.read_text())
    ids = PASSING.read_text().split()
    assert len(ids) >= floor["gpusim_passes"], "passing.txt lost tests: rerun the report"
    results = run_ids("gpusim", ids, jobs=2, timeout=180)  # generous: a cold kernel cache
    failed = {t: r for t, r in results.items() if r["status"] != "pass"}
    failed.update({t: {"status": "missing", "cause": "no result"} for t in ids
                   if t not in results})
    passes = len(ids) - len(failed)
    assert passes >= floor["gpusim_passes"], (
        f"{passes} of numba's CUDA tests pass on gpusim, below the floor of "
        f"{floor['gpusim_passes']}; regressions:\n" +
        "\n".join(f"  {t}: {r['status']} {r['cause'][:200]}" for t, r in failed.items()))


def test_shim_swaps_numba_cuda_for_the_facade():
    """The runner really tests gpusim: tests importing numba.cuda get gpusim's names,
    numba's test infrastructure and simulator skip decisions stay numba's."""
    probe = (  # no explicit install: every process of a run gets it (site/sitecustomize)
        "import numba, gpusim.cuda\n"
        "from numba import cuda\n"
        "import numba.cuda as cuda2\n"
        "from numba.cuda.testing import CUDATestCase\n"
        "from numba.core import config\n"
        "assert cuda.jit is gpusim.cuda.jit and cuda2 is cuda, cuda\n"
        "assert config.ENABLE_CUDASIM\n"
        "assert CUDATestCase.__module__ == 'numba.cuda.testing'\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", probe], env=_child_env("gpusim"), cwd=ROOT,
                         capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_failures_with_one_cause_group_together():
    a = {"cause": "KernelCompileError: kernel 'f', line 3, column 9 (/a/x.py): tuple 'a' of 2",
         "status": "error"}
    b = {"cause": "KernelCompileError: kernel 'g', line 7, column 1 (/b/y.py): tuple 'a' of 4",
         "status": "error"}
    c = dict(a, cause=a["cause"].replace("'a'", "'b'"))
    assert cause_group(a) == cause_group(b) == "KernelCompileError: tuple 'a' of N"
    assert cause_group(c) != cause_group(a)  # the name that is missing is the cause


def test_runner_survives_hangs_and_crashes_and_records_each_test():
    case = "tests.conformance.fixture_cases.Misbehaving."
    names = ["test_passes", "test_hangs", "test_kills_the_interpreter", "test_fails",
             "test_passes_after_the_others"]
    results = run_ids("numba", [case + n for n in names], timeout=5)
    assert [results[case + n]["status"] for n in names] == [
        "pass", "timeout", "crash", "fail", "pass"]
    assert results[case + "test_fails"]["cause"].startswith("AssertionError: 1 != 2")
