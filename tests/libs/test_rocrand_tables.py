"""rocrand_get_direction_vectors32/64 and rocrand_get_scramble_constants32/64: slices of
rocRAND's own shipped tables (tests/libs/data), the words the host generators use, and
OUT_OF_RANGE for a set of the other width."""

import numpy as np
import pytest

from gpusim import rocrand
from gpusim.libs.rocrand import quasi

DATA = "tests/libs/data/"


def test_32_bit_tables_are_rocrands_and_the_host_generators():
    plain = rocrand.rocrand_get_direction_vectors32(rocrand.ROCRAND_DIRECTION_VECTORS_32_JOEKUO6)
    scr = rocrand.rocrand_get_direction_vectors32(
        rocrand.ROCRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6)
    consts = rocrand.rocrand_get_scramble_constants32()
    assert plain.shape == scr.shape == (20000 * 32,) and consts.shape == (20000,)
    with np.load(DATA + "rocrand_sobol32_slice.npz") as z:  # dims 0-31, 19968-19999
        assert np.array_equal(plain.reshape(-1, 32)[z["dims"]], z["vectors"])
    with np.load(DATA + "rocrand_scrambled_sobol32_slice.npz") as z:  # dims 0-63
        assert np.array_equal(scr.reshape(-1, 32)[:64], z["vectors"])
        assert np.array_equal(consts[:64], z["constants"])
    eng = quasi.QuasiEngine(quasi.QUASI[502], 7, 0)  # what the host generator runs on
    assert np.array_equal(scr.reshape(-1, 32)[:7], eng.vectors)
    assert np.array_equal(consts[:7], eng.constants.ravel())
    assert not plain.flags.writeable  # a const pointer in C


def test_64_bit_tables_extend_the_32_bit_ones():
    v64 = rocrand.rocrand_get_direction_vectors64(rocrand.ROCRAND_DIRECTION_VECTORS_64_JOEKUO6)
    s64 = rocrand.rocrand_get_direction_vectors64(
        rocrand.ROCRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6)
    v32 = rocrand.rocrand_get_direction_vectors32(rocrand.ROCRAND_DIRECTION_VECTORS_32_JOEKUO6)
    rows = v64.reshape(-1, 64)
    # the same Joe-Kuo numbers: the high words of the first 32 vectors are the 32-bit ones
    assert np.array_equal((rows[:, :32] >> np.uint64(32)).astype(np.uint32),
                          v32.reshape(-1, 32))
    assert np.array_equal(s64 - v64, np.full(v64.shape, 1280000, np.uint64))
    with np.load(DATA + "rocrand_mt_refs.npz") as z:  # rocrand_scrambled_sobol64_constants.h
        c64 = rocrand.rocrand_get_scramble_constants64()
        assert np.array_equal(c64[z["scrambled_index"]], z["scrambled64_constants"])
    eng = quasi.QuasiEngine(quasi.QUASI[505], 3, 0)
    assert np.array_equal(s64.reshape(-1, 64)[:3], eng.vectors)


@pytest.mark.parametrize("fn,bad", [
    (rocrand.rocrand_get_direction_vectors32, rocrand.ROCRAND_DIRECTION_VECTORS_64_JOEKUO6),
    (rocrand.rocrand_get_direction_vectors64,
     rocrand.ROCRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
    (rocrand.rocrand_get_direction_vectors32, 7)])
def test_a_set_of_the_other_width_is_out_of_range(fn, bad):
    with pytest.raises(rocrand.RocrandError, match="direction vector set") as e:
        fn(bad)
    assert e.value.status == rocrand.ROCRAND_STATUS_OUT_OF_RANGE
