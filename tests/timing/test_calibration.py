"""The calibration suite (benchmarks/calibration) through the default model with the
h200 profile, against the H200 measurements stored there: rank correlation and the
within-family ratios (issue 13's targets: Spearman >= 0.95, ratios within 1.5x)."""

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "calibration"
sys.path.insert(0, str(HERE))

import calibrate  # noqa: E402

# Ratios the model does not reach yet, with the reason (docs/timing_model.md).
KNOWN_OFF = {
    # stride 64 revisits each line every 1024 work-groups (32 MiB: it fits the L2);
    # a sample of 32-64 work-groups spread over 65536 cannot see reuse at that distance.
    "copy_stride64 / copy_stride1",
}


@pytest.fixture(scope="module")
def result():
    from model_gpusim import modeled_times

    measured = json.loads((HERE / "h200_measured.json").read_text())["cases"]
    return calibrate.compare(measured, modeled_times("h200"))


def test_spearman_rank_correlation(result):
    assert len(result["rows"]) == 29
    assert result["spearman"] >= 0.95  # the target (0.951 in the README's table)


def test_within_family_ratios(result):
    off = {r["ratio"]: round(r["factor"], 2) for r in result["ratios"] if r["factor"] > 1.5}
    assert set(off) <= KNOWN_OFF, off
    assert len(result["ratios"]) == 18


def test_every_kernel_within_a_factor_of_three(result):
    for r in result["rows"]:
        assert 1 / 3 < r["modeled_us"] / r["measured_us"] < 3, r


def test_spearman_against_scipy():
    from scipy.stats import spearmanr

    x, y = [3, 1, 4, 1, 5, 9, 2, 6], [2, 7, 1, 8, 2, 8, 1, 8]
    assert calibrate.spearman(x, y) == pytest.approx(spearmanr(x, y).statistic)
