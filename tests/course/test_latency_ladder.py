"""Lab 06's latency ladder, checked on its own: the modeled pointer chase against the
published MI300X curve in labs/data/rrze_latency_mi300x.csv (issue 31).

The chase here is the published-figures suite's (benchmarks/calibration/published.py),
run apart from the lab's cells the way RRZE-HPC's gpu-latency measures it: one thread
follows a random cyclic permutation of 128 B lines, two warm-up
launches and a synchronize, then one launch timed with events; ns = time / steps. The
lab's claims: the four plateaus are ordered vL1D < L2 < MALL < HBM and each lies within
1.25x of the published median at that size; the time per step does not depend on the
step count (the lab takes 20,000 steps at least, RRZE 2,000,000); one warm-up launch
does what two do; with ``gpusim.config.cold_caches`` the L2 and MALL plateaus vanish
while the vL1D one stays.
"""

import csv
import gc
import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim import hip

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "labs" / "data" / "rrze_latency_mi300x.csv"
KiB, MiB = 1 << 10, 1 << 20
WORDS = 16  # int64 per 128 B line
PLATEAUS = {"vL1D": 16 * KiB, "L2": 1 * MiB, "MALL": 32 * MiB, "HBM": 288 * MiB}


def published():
    """(comment lines, rows as dicts) of the data file."""
    lines = DATA.read_text().splitlines()
    head = [line for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    return head, rows


def published_median_ns(nbytes: int) -> float:
    _, rows = published()
    kib = np.array([float(r["data_kib"]) for r in rows])
    ns = np.array([float(r["median_ns"]) for r in rows])
    return float(np.interp(np.log2(nbytes / KiB), np.log2(kib), ns))


sys.path.insert(0, str(ROOT / "benchmarks" / "calibration"))
from published import _kernels  # noqa: E402

pchase = _kernels()[0]  # the published-figures suite's chase, written as gpu-latency's


@hip.jit
def scatter_links(buf, to):
    i = hip.grid(1)
    if i < to.size:
        buf[i * 16] = to[i] * 16


class Chase:
    """Chains over data sets, timed like gpu-latency (module docstring)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(2092)
        self.out = hip.device_array(1, np.int64)

    def ns(self, nbytes: int, steps: int | None = None, warmups: int = 2) -> float:
        lines = nbytes // 128
        cycle = np.concatenate([[0], 1 + self.rng.permutation(lines - 1)])
        to = np.empty(lines, np.int64)
        to[cycle] = np.roll(cycle, -1)
        buf = hip.device_array(lines * WORDS, np.int64)
        scatter_links[(lines + 255) // 256, 256](buf, hip.to_device(to))
        steps = max(lines, 20_000) if steps is None else steps
        for _ in range(warmups):
            pchase[1, 1](buf, steps, self.out)
        hip.synchronize()
        start, stop = hip.event(), hip.event()
        start.record()
        pchase[1, 1](buf, steps, self.out)
        stop.record()
        stop.synchronize()
        assert self.out.copy_to_host()[0] % WORDS == 0  # the chain held: line starts only
        del buf
        gc.collect()  # a launch's trace lingers in reference cycles until collected
        return hip.hipEventElapsedTime(start, stop) * 1e6 / steps


@pytest.fixture(scope="module")
def chase():
    gpusim.set_system("mi300x", ngpus=1)
    yield Chase()
    gpusim.set_system()


@pytest.fixture(scope="module")
def plateaus(chase):
    return {name: chase.ns(n) for name, n in PLATEAUS.items()}


def test_data_file_names_its_source_and_converts_at_the_reported_clock():
    head, rows = published()
    text = "\n".join(head)
    assert "https://github.com/RRZE-HPC/gpu-benches" in text
    assert "gpu-latency/mi300x.txt" in text
    assert "1038c5d0d0f48cfe9912930d34eb2d8a31b72b9b" in text
    assert len(rows) > 200
    kib = [float(r["data_kib"]) for r in rows]
    assert kib == sorted(kib) and kib[0] <= 4 and kib[-1] >= 1 << 21  # 2 KiB .. 2 GiB
    for r in rows:
        assert r["clock_mhz"] == "2092"
        for stat in ("mean", "median", "p05", "p95"):
            ns = float(r[f"{stat}_cycles"]) / 2092 * 1000
            assert abs(float(r[f"{stat}_ns"]) - ns) < 0.01, r
        assert float(r["p05_ns"]) <= float(r["median_ns"]) <= float(r["p95_ns"]), r


def test_plateaus_are_ordered_and_near_the_published_curve(plateaus):
    ns = [plateaus[name] for name in PLATEAUS]
    assert ns == sorted(ns), plateaus
    for name, n in PLATEAUS.items():
        ratio = plateaus[name] / published_median_ns(n)
        assert 1 / 1.25 <= ratio <= 1.25, (name, plateaus[name], published_median_ns(n))


def test_time_per_step_does_not_depend_on_the_step_count(chase, plateaus):
    # 16 KiB: 20,000 steps (the lab's least) against 100,000 (gpu-latency's main.cu)
    assert chase.ns(16 * KiB, steps=100_000) == pytest.approx(plateaus["vL1D"], rel=0.02)
    # 32 MiB: one pass over its lines against two
    assert chase.ns(32 * MiB, steps=2 * (32 * MiB // 128)) == pytest.approx(
        plateaus["MALL"], rel=0.01)


def test_one_warm_up_launch_does_what_two_do(chase, plateaus):
    for name in ("L2", "MALL"):
        assert chase.ns(PLATEAUS[name], warmups=1) == pytest.approx(plateaus[name], rel=0.01)


def test_cold_caches_lose_the_L2_and_MALL_plateaus_but_not_the_vL1D_one(chase, plateaus):
    gpusim.config.cold_caches = True
    try:
        cold = {n: chase.ns(n) for n in (16 * KiB, 3 * MiB, 32 * MiB)}
    finally:
        gpusim.config.cold_caches = False
    assert cold[16 * KiB] == pytest.approx(plateaus["vL1D"], rel=0.1)  # refilled in-kernel
    for n in (3 * MiB, 32 * MiB):  # each line loaded once per launch: all from HBM
        assert cold[n] > 1.5 * plateaus["MALL"], (n, cold[n])
        assert cold[n] == pytest.approx(published_median_ns(288 * MiB), rel=0.25)
