"""The rccl-tests style sweep: columns, #wrong that finds errors, busbw = algbw x factor."""

import numpy as np
import pytest

from gpusim.libs.rccl import sweep
from gpusim.libs.rccl.model import bus_factor

COLLECTIVE = {t: spec[0] for t, spec in sweep.TESTS.items()}


@pytest.mark.parametrize("test", sorted(sweep.TESTS))
def test_rows_are_right_and_busbw_uses_nccl_tests_factor(test):
    rows = sweep.sweep(test, 1000, 8000, 8, ngpus=3)   # sizes not divisible by 3
    assert [r["size"] for r in rows] == [1000, 8000]
    for row in rows + [r["ip"] for r in rows]:
        assert row["wrong"] == 0
        assert row["busbw"] == pytest.approx(row["algbw"] * bus_factor(COLLECTIVE[test], 3))
        assert row["algbw"] == pytest.approx(row["size"] / (row["time"] * 1e3))


def test_wrong_counts_bad_elements():
    n, count = 4, 100
    scratch = np.empty(count * n, np.float32)
    good = np.tile(sum(sweep.period(r) for r in range(n)), 7)[:count]
    assert sweep._check("AllReduce", 0, n, count, good.copy(), scratch) == 0
    bad = good.copy()
    bad[[3, 50]] += 1
    assert sweep._check("AllReduce", 0, n, count, bad, scratch) == 2


def test_command_line_prints_rccl_tests_columns(capsys):
    sweep.main(["all_gather", "-b", "8K", "-e", "16K", "-f", "2", "-g", "2"])
    out = capsys.readouterr().out.splitlines()
    assert "algbw" in out[2] and "busbw" in out[2] and "#wrong" in out[2]
    assert len([line for line in out if not line.startswith("#")]) == 2
    assert out[-1].startswith("# Avg bus bandwidth")
