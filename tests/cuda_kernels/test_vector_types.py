"""CUDA vector types in kernels (issue 19: numba's test_vector_type): construction from
numbers and smaller vectors, member readout, conversion to the base type, passing to and
returning from device functions, tuples of them. References: Python lists and NumPy
conversions (``astype``)."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError


def test_aliases_are_cuda_c_names_of_the_same_types():
    assert cuda.float4 is cuda.float32x4 and cuda.double2 is cuda.float64x2
    assert cuda.int3 is cuda.int32x3 and cuda.char1 is cuda.int8x1
    assert cuda.long2 is cuda.longlong2 is cuda.int64x2
    assert cuda.ulonglong4 is cuda.uint64x4 and cuda.ushort3 is cuda.uint16x3
    names = [f"{b}x{n}" for b in ("int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64", "float32", "float64") for n in (1, 2, 3, 4)]
    assert all(getattr(cuda, n).num_elements == int(n[-1]) for n in names)


def test_members_read_back_for_several_base_types():
    @cuda.jit
    def k(out):
        a = cuda.int8x1(7)
        b = cuda.uint16x3(1, 2, 3)
        c = cuda.float32x4(0.5, 1.5, 2.5, 3.5)
        d = cuda.double2(-1.0, 1e300)
        e = cuda.longlong4(2**40, -(2**40), 5, 6)
        out[0] = a.x
        out[1], out[2], out[3] = b.x, b.y, b.z
        out[4], out[5], out[6], out[7] = c.x, c.y, c.z, c.w
        out[8], out[9] = d.x, d.y
        out[10], out[11], out[12], out[13] = e.x, e.y, e.z, e.w

    out = np.zeros(14)
    k[1, 1](out)
    want = [7, 1, 2, 3, 0.5, 1.5, 2.5, 3.5, -1.0, 1e300, 2.0**40, -(2.0**40), 5, 6]
    np.testing.assert_array_equal(out, want)


def test_members_are_converted_to_the_base_type_as_numpy_does():
    @cuda.jit
    def k(out_i, out_f, x, y):
        v = cuda.int8x2(x[0], x[1])
        w = cuda.float32x2(y[0], y[1])
        out_i[0], out_i[1] = v.x, v.y
        out_f[0], out_f[1] = w.x, w.y

    x = np.array([300, -129], np.int64)
    y = np.array([0.1, 1e40])
    out_i, out_f = np.zeros(2, np.int64), np.zeros(2)
    k[1, 1](out_i, out_f, x, y)
    np.testing.assert_array_equal(out_i, x.astype(np.int8))
    with np.errstate(over="ignore"):  # 1e40 is inf in float32, in the kernel too
        np.testing.assert_array_equal(out_f, y.astype(np.float32).astype(np.float64))


def test_fancy_creation_concatenates_members_in_order():
    @cuda.jit
    def k(out):
        one = cuda.float1(1.0)
        two = cuda.float2(2.0, 3.0)
        three = cuda.float3(two, 4.0)
        rows = (cuda.float4(one, two, 5.0), cuda.float4(9.0, three),
                cuda.float4(two, two), cuda.float4(cuda.float2(6.0, one), one, 7.0))
        for r, v in enumerate(rows):
            out[r, 0], out[r, 1], out[r, 2], out[r, 3] = v.x, v.y, v.z, v.w

    out = np.zeros((4, 4))
    k[1, 1](out)
    one, two = [1.0], [2.0, 3.0]
    three = two + [4.0]
    want = [one + two + [5.0], [9.0] + three, two + two, [6.0] + one + one + [7.0]]
    np.testing.assert_array_equal(out, want)


@cuda.jit(device=True)
def swap(v):
    return cuda.int2(v.y, v.x)


@cuda.jit(device=True)
def dot3(a, b):
    return a.x * b.x + a.y * b.y + a.z * b.z


def test_vectors_pass_to_and_return_from_device_functions():
    @cuda.jit
    def k(out, p, q):
        i = cuda.grid(1)
        if i < p.shape[0]:
            a = cuda.float3(p[i, 0], p[i, 1], p[i, 2])
            b = cuda.float3(q[i, 0], q[i, 1], q[i, 2])
            out[i] = dot3(a, b) + swap(cuda.int2(i, 2 * i)).x

    rng = np.random.default_rng(3)
    p, q = rng.random((40, 3), np.float32), rng.random((40, 3), np.float32)
    out = np.zeros(40, np.float32)
    k[1, 64](out, p, q)
    want = (p * q).sum(axis=1) + 2 * np.arange(40)
    np.testing.assert_allclose(out, want, rtol=1e-6)


def test_loops_over_tuples_of_different_vector_types_reusing_a_name():
    @cuda.jit
    def k(out):
        j = 0
        for v in (cuda.short2(1, 2), cuda.short2(3, 4)):
            out[j], out[j + 1] = v.x, v.y
            j += 2
        for v in (cuda.short3(5, 6, 7),):
            out[j], out[j + 1], out[j + 2] = v.x, v.y, v.z

    out = np.zeros(7, np.int64)
    k[1, 1](out)
    np.testing.assert_array_equal(out, np.arange(1, 8))


def wrong_count(out):
    v = cuda.float3(1.0, cuda.float3(1.0, 2.0, 3.0))
    out[0] = v.x


def wrong_base(out):
    v = cuda.float3(1.0, cuda.int2(1, 2))
    out[0] = v.x


def not_a_number(out):
    v = cuda.float2(out, 1.0)
    out[0] = v.x


@pytest.mark.parametrize("kernel, match", [
    (wrong_count, r"needs 3 elements \(x, y, z\); these arguments give 4"),
    (wrong_base, r"built from float32 numbers and vectors \(float32x1, float32x2\), not "
                 r"int32x2"),
    (not_a_number, r"not array\(float64"),
])
def test_a_wrong_construction_is_a_clear_error(kernel, match):
    with pytest.raises(KernelCompileError, match=match):
        cuda.jit(kernel)[1, 1](np.zeros(1))
