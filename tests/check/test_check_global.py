"""Global memory on the checked path: races between the blocks of one launch."""

import kernels as K
import numpy as np
import pytest
from kernels import line_of

from gpusim.engine.findings import GLOBAL_RACE
from gpusim.errors import SanitizerError


def test_blocks_writing_the_same_elements_race(run):
    with pytest.raises(SanitizerError) as err:
        run(K.global_race, 2, 64, np.zeros(64, np.float32))
    [f] = err.value.findings
    assert f.kind == GLOBAL_RACE and f.array == "out" and f.index == (0,)
    assert (f.first.block, f.second.block) == ((0, 0, 0), (1, 0, 0))
    assert f.lines == (line_of(K.global_race, "gwrite"),) * 2 and f.count == 64
    assert "blockIdx=(1, 0, 0)" in str(err.value)


def test_reading_what_another_block_writes_in_place_is_a_race(run):
    with pytest.raises(SanitizerError) as err:
        run(K.global_neighbour, 2, 64, np.ones(128, np.float32))
    [f] = err.value.findings
    assert (f.first.what, f.second.what) == ("read", "write") and f.index == (64,)
    assert f.first.thread == (63, 0, 0) and f.second.thread == (0, 0, 0)


def test_global_atomics_and_disjoint_writes_are_not_races(run):
    counter, out = np.zeros(1, np.int64), np.zeros(256, np.float32)
    run(K.global_atomics, 4, 64, counter, out)
    assert counter[0] == 256
    np.testing.assert_array_equal(out, np.arange(256))


def test_arrays_a_kernel_only_reads_get_no_shadow(run):
    n = 1000
    a, b, out = np.ones(n), np.full(n, 2.0), np.zeros(n)
    run(K.vadd, 4, 256, a, b, out)  # every block reads a and b: fine
    assert (out == 3.0).all()
