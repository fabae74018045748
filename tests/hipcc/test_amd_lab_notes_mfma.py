"""AMD's lab notes on matrix cores (github.com/amd/amd-lab-notes, matrix-cores/),
unchanged, through gpusim.hipcc on an MI250X.

Each program fills A and B from std::mt19937, computes D with one or more
``__builtin_amdgcn_mfma_*`` calls in one wavefront, computes the product again on the
host (``gemm_host`` in include/helper.hpp) and prints "Sum of squared differences of
host/device result matrices: <e>". Its kernel is ``#if __gfx90a__ || __gfx908__`` (the
makefile builds for gfx90a and gfx908), so gpusim runs it as an MI250X, the device
pass defining ``__gfx90a__``.

The program does not judge ``e`` itself; here it must be at most what the element type
allows: 0 for i8 and where each output is one product (K = 1 per MFMA, and fp32
products are exact), float32 and float64 rounding for fp32 and fp64, and for fp16 the
host's own rounding (``A[k] * B[n]`` of two ``_Float16`` is a half product, about 2^-11
relative, while the matrix core's products are exact). One output element wrong by its
own size would give e > 1. gpusim's profile must also count the sample's whole product as
matrix-core work: 2 M N K nBatch FLOPs (the sample's own constants).
"""

import re
from pathlib import Path

import pytest

import gpusim
from gpusim import hipcc

ROOT = Path(__file__).with_name("samples") / "amd_lab_notes_matrix_cores"
SAMPLES = sorted(p.stem for p in (ROOT / "src").glob("*.cpp"))
LIMIT = {"fp32": 1e-8, "fp16": 1e-2, "fp64": 1e-24, "i8": 0.0}  # by the inputs' type
EXACT = {"mfma_fp32_16x16x1fp32", "mfma_fp32_32x32x1fp32", "mfma_fp32_4x4x1fp32"}


@pytest.fixture
def mi250x():
    gpusim.set_system("mi250x", ngpus=1)
    yield
    gpusim.set_system()


def test_every_sample_of_the_snapshot_is_here():
    assert len(SAMPLES) == 13
    readme = (ROOT / "README.md").read_text()
    assert all(f"`src/{name}.cpp`" in readme for name in SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_lab_notes_sample_matches_its_host_reference(name, mi250x, capfd):
    source = (ROOT / "src" / f"{name}.cpp").read_text()
    sizes = dict(re.findall(r"constexpr int (M|N|K|nBatch) = (\d+);", source))
    mod = hipcc.compile(filename=str(ROOT / "src" / f"{name}.cpp"),
                        include_dirs=[str(ROOT / "include")])
    assert not mod.errors
    with gpusim.profile(memory=True) as prof:
        status = mod.run([])
    out = capfd.readouterr().out
    assert status == 0, out
    err = float(re.search(r"result matrices: (\S+)", out)[1])
    limit = 0.0 if name in EXACT else LIMIT[re.search(r"(fp16|fp32|fp64|i8)$", name)[1]]
    assert err <= limit, f"{name}: sum of squared differences {err} > {limit}"
    (kernel,) = prof.kernels
    m, n, k, batch = (int(sizes.get(x, 1)) for x in ("M", "N", "K", "nBatch"))
    assert kernel.counters["GPUSIM_MFMA_FLOPS"] == 2 * m * n * k * batch
