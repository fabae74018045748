"""Records (structured dtypes) in kernels (issue 19): fields read and written through
``a[i].x``, ``a[i]['x']``, nested array fields, whole-record copies and record scalar
arguments, against the same operations done by NumPy on the host."""

import numpy as np

from gpusim import cuda

REC = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex64),
                ("h", np.float32, 2)], align=True)


def _sample():
    a = np.zeros(3, REC)
    a["a"], a["b"], a["c"] = [0.5, 1.5, 2.5], [1, 2, 3], [1j, 2j, 3j]
    a["h"] = [[1, 2], [3, 4], [5, 6]]
    return a


def test_field_access_on_record_arrays():
    @cuda.jit
    def k(ary, i, v):
        ary[i].a = v
        ary[i]["b"] = ary[0].b + 10
        ary[i].h[1] = ary[i].a * 2
        ary[2].c = ary[0].c + 1j

    got, want = _sample(), _sample()
    k[1, 1](got, 1, 3.25)
    want[1]["a"] = 3.25
    want[1]["b"] = want[0]["b"] + 10
    want[1]["h"][1] = 6.5
    want[2]["c"] = want[0]["c"] + 1j
    np.testing.assert_array_equal(got, want)


def test_whole_record_copy():
    @cuda.jit
    def k(ary, i, j):
        ary[i] = ary[j]

    got, want = _sample(), _sample()
    k[1, 1](got, 0, 2)
    want[0] = want[2]
    np.testing.assert_array_equal(got, want)


def test_record_scalar_argument_is_written_back():
    @cuda.jit
    def k(r, v, out):
        out[0] = r.b
        r.a = v
        r.h[0] = 7.0

    host = _sample()
    rec = host[1]
    out = np.zeros(1, np.int32)
    k[1, 1](rec, 9.5, out)
    assert out[0] == 2
    assert rec["a"] == 9.5 and rec["h"][0] == 7.0 and host[1]["a"] == 9.5


def test_one_field_per_thread_of_a_device_record_array():
    @cuda.jit
    def k(ary):
        i = cuda.grid(1)
        if i < ary.size:
            ary[i].b = ary[i].b * i

    d = cuda.to_device(_sample())
    k[1, 32](d)
    np.testing.assert_array_equal(d.copy_to_host()["b"], np.array([1, 2, 3]) * np.arange(3))


def test_records_of_two_dtypes_are_typed_apart():
    other = np.dtype([("b", np.float64), ("a", np.int16)])

    @cuda.jit
    def k(r, out):
        out[0] = r.b

    out = np.zeros(1)
    k[1, 1](_sample()[2], out)
    assert out[0] == 3
    rec = np.zeros(1, other)
    rec["b"] = 2.5
    k[1, 1](rec[0], out)
    assert out[0] == 2.5
