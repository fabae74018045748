"""The mapping table is HIPIFY's data, with its source recorded, and can be regenerated."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpusim.hipify import load_table
from gpusim.hipify.table import DATA

ROOT = Path(__file__).resolve().parents[2]
MIRROR = Path("/work/.mirror/ROCm+HIPIFY/repo")


def test_source_is_recorded():
    source = load_table().source
    assert source["repository"] == "https://github.com/ROCm/HIPIFY"
    assert len(source["commit"]) == 40 and source["generated_by"] == "tools/hipify_table.py"


def test_known_entries():
    """Spot checks against HIPIFY's published tables (docs/tables/*.md at that commit)."""
    table = load_table()
    assert table.lookup("cudaMemcpyAsync") == ("hipMemcpyAsync", "memory")
    assert table.lookup("cudaStream_t") == ("hipStream_t", "type")
    assert table.lookup("cublasDgemm") == ("hipblasDgemm", "library")
    assert table.lookup("cublasDgemm", roc=True) == ("rocblas_dgemm", "library")
    assert table.header("curand.h") == ("hiprand/hiprand.h", "include_cuda_main_header")
    assert table.header("cufft.h")[0] == "hipfft/hipfft.h"
    assert table.is_unsupported("cudaInitDevice")
    assert "__shfl_down_sync" in table.unsupported_device_functions
    # transformHostFunctions drops the CUoccupancyB2DSize callback (argument index 3)
    assert table.dropped_arguments == {"hipModuleOccupancyMaxPotentialBlockSize": (3,),
                                       "hipModuleOccupancyMaxPotentialBlockSizeWithFlags": (3,)}


def test_package_data_is_declared():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"gpusim.hipify" = ["data/*.json", "data/README.md"]' in text
    assert DATA.exists()


@pytest.mark.skipif(not MIRROR.exists(), reason="no local clone of ROCm/HIPIFY")
def test_regenerating_from_hipify_gives_the_stored_table(tmp_path):
    commit = json.loads(DATA.read_text())["source"]["commit"]
    out = tmp_path / "cuda2hip.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "hipify_table.py"), "--git",
                    str(MIRROR), "--commit", commit, "--out", str(out)], check=True,
                   capture_output=True)
    assert out.read_text() == DATA.read_text()
