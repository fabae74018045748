"""The gpusim-hipify console script, run as a separate process."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from hipify_helpers import SAMPLES

ROOT = Path(__file__).resolve().parents[2]


def _run(*args, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "gpusim.hipify", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_script_is_declared_and_points_at_the_entry_point():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["gpusim-hipify"] == "gpusim.hipify.cli:entry_point"


def test_clean_file_exits_0_with_hip_on_stdout():
    done = _run(str(SAMPLES / "libraries.cu"))
    assert done.returncode == 0, done.stderr
    assert "hipblasSgemm" in done.stdout and done.stderr == ""


def test_unmapped_names_are_warnings_on_stderr_and_the_run_exits_0_as_hipify_perl():
    """hipify-perl exits 0 whatever it warned about; only a file it cannot open fails."""
    done = _run(str(SAMPLES / "unsupported.cu"), "--print-stats")
    assert done.returncode == 0
    line = "unsupported.cu:6: warning: unsupported ROCm HIP identifier: cudaInitDevice"
    assert line in done.stderr
    assert "[HIPIFY] info: file" in done.stderr and "UNCONVERTED refs count: 6" in done.stderr
    assert "hipMalloc" in done.stdout and "warning" not in done.stdout


def test_warp_warnings_on_stderr_do_not_fail_the_run():
    done = _run(str(SAMPLES / "saxpy_numba.py"))
    assert done.returncode == 0 and "from gpusim import hip" in done.stdout
    done = _run(str(SAMPLES / "warp32.cu"), "--hip-kernel-execution-syntax")
    assert "wave64" in done.stderr and "64 lanes" in done.stderr


def test_stdin_output_file_and_bad_input(tmp_path):
    out = tmp_path / "x.hip"
    done = _run("-", "-o", str(out), stdin="cudaFree(p);\n")
    assert done.returncode == 0 and out.read_text() == "hipFree(p);\n" and done.stdout == ""
    missing = _run(str(tmp_path / "missing.cu"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert _run(str(tmp_path)).returncode == 2  # a directory is no file either
    bad = tmp_path / "bad.py"
    bad.write_text("def k(:\n")
    done = _run(str(bad))
    assert done.returncode == 2 and "bad.py:1" in done.stderr
    assert _run(str(bad), "--roc").returncode == 2
