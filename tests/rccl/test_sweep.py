"""The rccl-tests style sweep: columns, #wrong that finds errors, busbw = algbw x factor."""

import numpy as np
import pytest

from gpusim.libs.rccl import sweep
from gpusim.libs.rccl.collective_time import bus_factor

COLLECTIVE = {t: spec[0] for t, spec in sweep.TESTS.items()}


@pytest.mark.parametrize("test", sorted(sweep.TESTS))
def test_rows_are_right_and_busbw_uses_nccl_tests_factor(test):
    rows = sweep.sweep(test, 1000, 8000, 8, ngpus=3)   # sizes not divisible by 3
    assert [r["size"] for r in rows] == [1000, 8000]
    for row in rows + [r["ip"] for r in rows]:
        assert row["wrong"] == 0
        assert row["busbw"] == pytest.approx(row["algbw"] * bus_factor(COLLECTIVE[test], 3))
        assert row["algbw"] == pytest.approx(row["size"] / (row["time"] * 1e3))


@pytest.mark.parametrize("test,datatype,op", [("all_reduce", "fp8_e4m3", "prod"),
                                             ("reduce", "uint8", "avg"),
                                             ("reduce_scatter", "bfloat16", "min"),
                                             ("all_reduce", "half", "avg"),
                                             ("gather", "int64", "sum"),
                                             ("scatter", "fp8_e5m2", "sum")])
def test_datatype_op_and_root_options(test, datatype, op):
    rows = sweep.sweep(test, 960, 960, 2, ngpus=3, datatype=datatype, op=op, root=1)
    row = rows[0]
    assert (row["type"], row["wrong"], row["ip"]["wrong"]) == (datatype, 0, 0)
    assert row["redop"] == (op if sweep.TESTS[test][3] else "none")
    assert row["root"] == (1 if test in ("reduce", "gather", "scatter") else -1)


def test_expected_values_are_numpy_in_the_type():
    # ranks 0..2 hold -1/0/1 patterns; uint8 wraps -1 to 255 and the sum wraps mod 256
    stack = np.stack([sweep.period(r, np.int64) for r in range(3)])
    np.testing.assert_array_equal(sweep.expected("sum", 3, np.dtype(np.uint8)),
                                  (stack.sum(axis=0) % 256).astype(np.uint8))
    np.testing.assert_array_equal(sweep.expected("avg", 3, np.dtype(np.int32)),
                                  np.trunc(stack.sum(axis=0) / 3).astype(np.int32))


def test_wrong_counts_bad_elements():
    n, count = 4, 100
    scratch = np.empty(count * n, np.float32)
    good = np.tile(sweep.expected("sum", n, np.dtype(np.float32)), 7)[:count]
    assert sweep._check("AllReduce", 0, n, count, good.copy(), scratch) == 0
    bad = good.copy()
    bad[[3, 50]] += 1
    assert sweep._check("AllReduce", 0, n, count, bad, scratch) == 2


def test_command_line_prints_rccl_tests_columns(capsys):
    sweep.main(["all_gather", "-b", "8K", "-e", "16K", "-f", "2", "-g", "2", "-d", "bfloat16"])
    out = capsys.readouterr().out.splitlines()
    assert out[4].split()[2] == "bfloat16"
    assert "algbw" in out[2] and "busbw" in out[2] and "#wrong" in out[2]
    assert len([line for line in out if not line.startswith("#")]) == 2
    assert out[-1].startswith("# Avg bus bandwidth")
