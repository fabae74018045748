"""A learner's traceback of a kernel fault: no gpusim frames, and where it was launched."""

import os
import re
import subprocess
import sys
import textwrap

import nbformat
import pytest
from nbclient import NotebookClient

KERNEL = """\
import numpy as np
from gpusim import hip

@hip.jit
def oob(a):
    a[hip.grid(1)] = 1.0
"""
LAUNCH = "d = hip.to_device(np.zeros(10))\ns = hip.stream()\noob[1, 64, s](d)"
SYNC = "hip.hipDeviceSynchronize()"


def _script_stderr(tmp_path, **env):
    path = tmp_path / "faulty.py"
    path.write_text(KERNEL + LAUNCH + "\n" + SYNC + "\n")
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                         env=dict(os.environ, **env))
    assert out.returncode == 1
    return out.stderr


def test_a_script_traceback_shows_only_the_learners_frames(tmp_path):
    err = _script_stderr(tmp_path)
    frames = re.findall(r'File "([^"]+)", line (\d+)', err)
    assert frames == [(str(tmp_path / "faulty.py"), "10")]  # the synchronising call
    assert "out-of-bounds write of global array 'a'" in err
    assert f"(kernel 'oob' was launched at {tmp_path / 'faulty.py'}, line 9: oob[1, 64, s](d))" \
        in err


def test_developers_keep_gpusims_frames_with_a_config_switch(tmp_path):
    err = _script_stderr(tmp_path, GPUSIM_INTERNAL_FRAMES="1")
    frames = re.findall(r'File "([^"]+)"', err)
    assert len(frames) > 3 and any(os.sep + "gpusim" + os.sep in f for f in frames)


def test_a_notebook_traceback_names_the_launching_cell(tmp_path):
    pytest.importorskip("ipykernel")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in (KERNEL, LAUNCH, SYNC)]
    NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    [error] = [o for o in nb.cells[2].outputs if o.output_type == "error"]
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))
    assert error.ename == "HipError"
    assert "gpusim" + os.sep not in text  # no frame of gpusim's files
    assert textwrap.dedent("""\
        Cell In[3], line 1
        ----> 1 hip.hipDeviceSynchronize()""") in text
    assert "(kernel 'oob' was launched at In [2], line 3: oob[1, 64, s](d))" in text
