"""NVIDIA's CUDA samples (cuda_samples/) ported as a learner ports them: gpusim-hipify,
then ``gpusim-hipcc ... -o app`` and ``./app`` (cuda_run.py). Each program's own check
(its exit status, its "PASSED" line) decides; one that cannot run carries
``known_failure`` (the reason) in manifest.toml and in the README table, and must still
fail, so the table stays true. The corpus is hipified once and each program built once.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import cuda_run  # noqa: E402
import samples  # noqa: E402  (tests/hipcc/samples.py, put on the path by cuda_run)

PROGRAMS = cuda_run.programs()
# The goal is the AMD samples' rule, nine in ten, counted over the programs that run on an
# AMD GPU as written: those marked by_design (a CUDA-only header, PTX, 32-bit masks, a
# device assert returned as an error) fail on ROCm too. This holds today's line until the
# reasons in the manifest are fixed.
MOST_GPUSIM_FAILURES = 1


@pytest.fixture(scope="module")
def results() -> dict[str, samples.Result]:
    return {r.name: r for r in cuda_run.run_all(PROGRAMS)}


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p["name"] for p in PROGRAMS])
def test_cuda_sample_program(prog, results):
    samples.check(prog, results[prog["name"]])


def test_no_more_programs_fail_than_the_readme_says():
    portable = [p for p in PROGRAMS if not p.get("by_design")]
    known = [p["name"] for p in portable if p.get("known_failure")]
    assert len(known) <= MOST_GPUSIM_FAILURES, \
        f"{len(known)} of the {len(portable)} programs that run on ROCm do not run: {known}"


def test_only_a_program_that_fails_is_by_design():
    assert all(p.get("known_failure") for p in PROGRAMS if p.get("by_design"))


def test_readme_lists_every_program_that_does_not_run():
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    start, end = "<!-- cuda-samples:begin -->\n", "<!-- cuda-samples:end -->"
    assert start + samples.table(PROGRAMS) + "\n" + end in readme, \
        "regenerate the README table with: python tests/hipify/cuda_run.py --table"
