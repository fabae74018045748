"""The MPI backend: 2-4 processes under mpiexec (from the mpich wheel), one rank each.
Results match NumPy; mismatched calls and a vanished rank give a clear error on every
surviving process within the timeout, never a hang."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mpi4py")
HERE = Path(__file__).parent
MPIEXEC = shutil.which("mpiexec", path=str(Path(sys.executable).parent))
pytestmark = pytest.mark.skipif(MPIEXEC is None, reason="mpiexec (mpich wheel) not found")


def mpirun(n, *args, tmp_path, timeout_s="5"):
    env = dict(os.environ, GPUSIM_RCCL_TIMEOUT=timeout_s, MPI_JOB_OUT=str(tmp_path),
               PYTHONPATH=str(HERE.parents[1]) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([MPIEXEC, "-n", str(n), sys.executable, *args], env=env,
                         capture_output=True, text=True, timeout=120)
    return sorted(p.read_text() for p in tmp_path.glob("rank*.txt")), out


@pytest.mark.parametrize("n,per", [(3, 1), (2, 2)])  # 4 x 1: the example below
def test_collectives_p2p_and_split_across_processes(n, per, tmp_path):
    """n processes with per ranks each: sends and receives between processes and
    within one, communicators split across processes and inside one."""
    lines, out = mpirun(n, str(HERE / "mpi_job.py"), "collectives", str(per),
                        tmp_path=tmp_path)
    assert lines == [f"rank {r}: ok" for r in range(n)], out.stderr[-2000:]


@pytest.mark.parametrize("mode", ["mismatch_count", "mismatch_order"])
def test_mismatched_calls_fail_on_every_rank(mode, tmp_path):
    lines, out = mpirun(2, str(HERE / "mpi_job.py"), mode, tmp_path=tmp_path)
    assert len(lines) == 2, out.stderr[-2000:]
    for line in lines:
        assert "ncclInvalidUsage: mismatched collective calls" in line
        assert "rank 0: ncclAllReduce" in line and "rank 1: nccl" in line


def test_unresponsive_rank_gives_remote_error_not_a_hang(tmp_path):
    lines, out = mpirun(3, str(HERE / "mpi_job.py"), "hung", tmp_path=tmp_path, timeout_s="2")
    assert len(lines) == 3, (out.stdout, out.stderr[-2000:])
    assert lines[2] == "rank 2: woke up"
    for line in lines[:2]:
        assert "ncclRemoteError" in line and "[2] did not take part within 2 s" in line


def test_data_parallel_example_matches_one_process():
    example = str(HERE.parents[1] / "examples" / "data_parallel.py")
    env = dict(os.environ, PYTHONPATH=str(HERE.parents[1]))
    alone = subprocess.run([sys.executable, example], env=env, capture_output=True,
                           text=True, timeout=120).stdout
    spread = subprocess.run([MPIEXEC, "-n", "4", sys.executable, example], env=env,
                            capture_output=True, text=True, timeout=120).stdout
    assert "sha256:" in alone and alone == spread


def test_p2p_and_split_mistakes_fail_on_both_ranks_within_the_timeout(tmp_path):
    lines, out = mpirun(2, str(HERE / "mpi_job.py"), "p2p_errors", tmp_path=tmp_path,
                        timeout_s="2")
    assert len(lines) == 2, out.stderr[-2000:]
    for line in lines:
        count, first, split = line.split(": ", 1)[1].split(" | ")
        assert count.startswith("count ncclInvalidUsage") and "(10 x ncclFloat64)" in count
        assert "(12 x ncclFloat64)" in count
        assert first.startswith("both_send_first ncclRemoteError") and "group" in first
        assert split.startswith("split_skipped ncclRemoteError")
        assert "did not take part within 2 s" in split
