"""numba.cuda -> gpusim.hip: the name table, the translation, and the round trip."""

import importlib.util

import numba
import numpy as np
import pytest
from hipify_helpers import SAMPLES

from gpusim import cuda, hip
from gpusim.hipify import hipify_python
from gpusim.hipify.python import names


def test_every_target_exists_in_gpusim_hip():
    table = names()
    targets = [*table["same"], *table["renamed"].values(), *table["sync_to_plain"].values()]
    missing = [name for name in targets if not hasattr(hip, name)]
    assert missing == []
    assert not set(table["unsupported"]) & set(targets)


def test_import_forms():
    cases = {
        "from numba import cuda\n": "from gpusim import hip\n",
        "from numba import cuda as nc, float32\nnc.syncthreads()\n":
            "from gpusim import hip\nfrom numba import float32\nhip.syncthreads()\n",
        "import numba.cuda as c\nc.grid(1)\n": "from gpusim import hip\nhip.grid(1)\n",
        "from numba.cuda import jit, select_device\n":
            "from gpusim.hip import jit, hipSetDevice as select_device\n",
        "import numba\n@numba.cuda.jit\ndef k(a): pass\n":
            "import numba\nfrom gpusim import hip\n@hip.jit\ndef k(a): pass\n",
        "from gpusim import cuda\ncuda.synchronize()\n":
            "from gpusim import hip\nhip.synchronize()\n",
    }
    for source, expected in cases.items():
        assert hipify_python(source).text == expected, source


def test_sync_mask_dropped_only_when_it_names_the_whole_warp():
    source = ("from numba import cuda\n"
              "a = cuda.shfl_down_sync(0xffffffff, v, 1)\n"
              "b = cuda.ballot_sync(cuda.activemask(), p)\n"
              "c = cuda.shfl_xor_sync(0x0000ffff, v, 1)\n")
    text = hipify_python(source).text.splitlines()
    assert text[1:] == ["a = hip.shfl_down(v, 1)", "b = hip.ballot(p)",
                        "c = hip.shfl_xor_sync(0x0000ffff, v, 1)"]


def test_strings_comments_and_other_modules_untouched():
    source = ('from numba import cuda\nimport mylib\nx = "cuda.grid(1)"  # cuda.grid\n'
              "mylib.cuda.grid(1)\ncudagrid = 3\n")
    assert hipify_python(source).text == source.replace("from numba import cuda",
                                                        "from gpusim import hip")


def test_unsupported_and_unknown_reported_with_lines():
    result = hipify_python("from numba import cuda\ncuda.default_stream()\n\ncuda.frobnicate()\n")
    assert [(f.line, f.category, f.name) for f in result.unmapped] == [
        (2, "unsupported", "cuda.default_stream"), (4, "unknown", "cuda.frobnicate")]
    assert "pass 0" in result.unmapped[0].message


def test_warp_warnings_match_the_cpp_ones():
    result = hipify_python((SAMPLES / "reduce_numba.py").read_text())
    lines = {f.line: f.message for f in result.warp_warnings}
    assert "16" in lines[13] and "0xffffffff" in lines[15] and "% 32" in lines[17]
    assert "0xffffffff" in lines[41]


def test_syntax_errors_name_the_line():
    with pytest.raises(SyntaxError) as info:
        hipify_python("from numba import cuda\ndef k(:\n")
    assert info.value.lineno == 2


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("sample", ["saxpy_numba", "reduce_numba", "stencil_numba"])
def test_round_trip_hipified_kernels_give_the_same_results(sample, tmp_path, monkeypatch,
                                                           fresh_system):
    """The original runs through ``from gpusim import cuda`` (numba.cuda material runs
    unchanged there); the hipified text runs through gpusim.hip; same answers."""
    source = (SAMPLES / f"{sample}.py").read_text()
    hipified = hipify_python(source)
    assert "cuda" not in hipified.text.replace("numba.cuda", "").split('"""')[-1]
    (tmp_path / f"hip_{sample}.py").write_text(hipified.text)
    monkeypatch.setattr(numba, "cuda", cuda, raising=False)
    original = _load(SAMPLES / f"{sample}.py", f"orig_{sample}").run()
    ported = _load(tmp_path / f"hip_{sample}.py", f"hip_{sample}").run()
    assert len(original) == len(ported)
    for before, after in zip(original, ported, strict=True):
        np.testing.assert_array_equal(before, after)


def test_round_trip_results_are_right(fresh_system):
    """Same answers are only worth having if they are the right ones (NumPy)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(numba, "cuda", cuda, raising=False)
        saxpy = _load(SAMPLES / "saxpy_numba.py", "saxpy_check")
        reduce = _load(SAMPLES / "reduce_numba.py", "reduce_check")
    x = np.arange(1000, dtype=np.float32)
    np.testing.assert_array_equal(saxpy.run()[0], 2 * x + 3)
    data = (np.arange(4 * reduce.THREADS, dtype=np.float32) % 7) - 3
    _, total, counts = reduce.run()
    assert total[0] == data.sum()
    np.testing.assert_array_equal(counts, (data > 0).reshape(-1, 64).sum(axis=1))
