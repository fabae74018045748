"""numba.cuda's host-side API on gpusim.cuda: array layouts, views, hints, devices.

References are NumPy (layouts, strides, views) and numba.cuda's documented behaviour.
"""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.runtime.pointers import is_pinned

pytestmark = pytest.mark.usefixtures("fresh_system")


@pytest.mark.parametrize("shape", [(10,), (10, 12), (4, 5, 6)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_device_array_order_matches_numpy_layout(shape, order):
    d = cuda.device_array(shape, np.float32, order=order)
    ref = np.zeros(shape, np.float32, order=order)
    assert d.strides == ref.strides
    assert d.flags["C_CONTIGUOUS"] == d.flags.c_contiguous == ref.flags.c_contiguous
    assert d.is_f_contiguous() == ref.flags.f_contiguous


@pytest.mark.parametrize("make", [
    lambda a: a[::2], lambda a: a[::2, ::3], lambda a: a.T, lambda a: a[::2, ::2].T,
    lambda a: a[1:, ::2].T])
def test_array_like_functions_follow_numpy_empty_like(make):
    host = make(np.zeros((10, 12)))
    dev = make(cuda.to_device(np.zeros((10, 12))))
    assert dev.shape == host.shape and dev.strides == host.strides  # views match NumPy
    for like in (cuda.device_array_like(dev), cuda.pinned_array_like(dev)):
        assert like.shape == host.shape
        assert like.strides == np.empty_like(host).strides


def test_pinned_arrays_are_pinned_in_either_order():
    a = cuda.pinned_array((3, 4), np.int16, order="F")
    assert a.flags.f_contiguous and is_pinned(a)
    assert is_pinned(cuda.pinned_array_like(a))


def test_bad_strides_and_orders_are_refused():
    with pytest.raises(ValueError, match="order"):
        cuda.device_array(4, order="K")
    with pytest.raises(ValueError, match="contiguous"):
        cuda.device_array((4, 4), np.float64, strides=(8, 8))


def test_to_device_keeps_fortran_order_and_copies_back_unchanged():
    host = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    d = cuda.to_device(host)
    assert d.is_f_contiguous() and not d.is_c_contiguous()
    np.testing.assert_array_equal(d.copy_to_host(), host)


def test_views_alias_the_device_bytes():
    d = cuda.to_device(np.arange(12, dtype=np.int32))
    m = d.reshape(3, 4)
    m.T[1:3, 0] = np.array([-1, -2], np.int32)  # writes through two views
    expect = np.arange(12, dtype=np.int32)
    expect[1:3] = [-1, -2]
    np.testing.assert_array_equal(d.copy_to_host(), expect)
    np.testing.assert_array_equal(d.view(np.int16).copy_to_host(), expect.view(np.int16))
    np.testing.assert_array_equal(m.T.ravel(order="F").copy_to_host(), expect)
    assert cuda.to_device(np.zeros((1, 5, 1))).squeeze().shape == (5,)


def test_reshape_that_needs_a_copy_is_refused_like_numba():
    d = cuda.to_device(np.zeros((4, 6)))[:, :3]
    with pytest.raises(NotImplementedError, match="requires copying"):
        d.ravel()


def test_split_gives_views_of_section_elements():
    d = cuda.to_device(np.arange(10, dtype=np.float32))
    parts = list(d.split(4))
    assert [p.shape for p in parts] == [(4,), (4,), (2,)]
    parts[2][0] = 99.0
    assert d[8] == 99.0
    with pytest.raises(ValueError, match="1-d"):
        list(cuda.device_array((2, 2)).split(1))


def test_cuda_array_interface_round_trip():
    d = cuda.to_device(np.arange(20.0).reshape(4, 5))
    view = d[:, 1::2]
    desc = view.__cuda_array_interface__
    assert desc["shape"] == (4, 2) and desc["strides"] == (40, 16)
    assert desc["typestr"] == "<f8" and desc["version"] == 3
    assert d.__cuda_array_interface__["strides"] is None  # C-contiguous

    class Foreign:  # another library's array wrapping the same device memory
        __cuda_array_interface__ = desc

    assert cuda.is_cuda_array(Foreign()) and not cuda.is_cuda_array(np.zeros(2))
    wrapped = cuda.as_cuda_array(Foreign())
    np.testing.assert_array_equal(wrapped.copy_to_host(), np.arange(20.0).reshape(4, 5)[:, 1::2])
    wrapped[0, 0] = -1.0
    assert d[0, 1] == -1.0  # the same bytes, not a copy


def test_auto_device_converts_host_data_and_refuses_gaps():
    d, converted = cuda.devicearray.auto_device(2)
    assert converted and d.shape == () and d.copy_to_host() == 2
    same, converted = cuda.devicearray.auto_device(d)
    assert same is d and not converted
    with pytest.raises(ValueError, match="non-contiguous"):
        cuda.devicearray.auto_device(np.arange(10.0)[::2])


@cuda.jit
def set_three(a):
    a[0] = 3


def test_in_out_hints_choose_the_copies():
    a = np.zeros(1, np.int64)
    set_three[1, 1](cuda.In(a))
    assert a[0] == 0  # copied in, not back
    set_three[1, 1](cuda.InOut(a))
    assert a[0] == 3
    b = np.full(1, 7, np.int64)
    set_three[1, 1](cuda.Out(b))
    assert b[0] == 3


def test_kernel_extensions_prepare_arguments_before_launch():
    seen = []

    class DefaultIn:
        def prepare_args(self, ty, val, stream=0, retr=None):
            seen.append(str(ty))
            return ty, cuda.args.wrap_arg(val, default=cuda.In)

    k = cuda.jit(set_three.py_func)
    k.extensions.append(DefaultIn())
    a = np.zeros(1, np.int64)
    k[1, 1](a)
    assert a[0] == 0 and seen == ["array(int64, 1d, C)"]


def test_forall_launches_one_thread_per_task():
    a = np.arange(1000, dtype=np.float64)

    @cuda.jit
    def inc(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 1

    inc.forall(a.size)(a)
    np.testing.assert_array_equal(a, np.arange(1000) + 1)
    inc.forall(0)(a)  # nothing to do: no launch
    with pytest.raises(ValueError, match="negative task count"):
        inc.forall(-1)


@pytest.mark.parametrize("config, error, text", [
    (((1, 2, 3, 4), 5), ValueError, "griddim must be a sequence of 1, 2 or 3 integers"),
    ((1, (1, 2, 3, 4)), ValueError, "blockdim must be a sequence of 1, 2 or 3 integers"),
    ((2.0, 3), TypeError, "griddim must be a sequence of integers, got [2.0]"),
    ((2, 3.0), TypeError, "blockdim must be a sequence of integers, got [3.0]"),
])
def test_launch_configurations_are_checked_when_indexed(config, error, text):
    with pytest.raises(error) as info:
        set_three[config]
    assert text in str(info.value)


def test_calling_a_kernel_without_configuration_is_a_value_error():
    with pytest.raises(ValueError, match="launch configuration was not specified"):
        set_three(np.zeros(1))


def test_reduce_matches_numpy_on_host_and_device_arrays():
    data = np.arange(1, 101, dtype=np.float64)
    total = cuda.Reduce(lambda a, b: a + b)
    assert total(data) == data.sum()
    assert total(cuda.to_device(data), size=10, init=5) == data[:10].sum() + 5
    assert cuda.reduce(lambda a, b: max(a, b))(data, init=0) == 100
    assert total(np.zeros(0)) == 0
    res = cuda.to_device(np.zeros(1))
    assert total(data, res=res) is None and res[0] == data.sum()


def test_devices_contexts_and_selection():
    assert len(cuda.gpus) == 8 and [g.id for g in cuda.gpus][:2] == [0, 1]
    with cuda.gpus[3]:
        assert cuda.current_context().device.id == 3
        d = cuda.device_array(1000, np.uint8)
        assert d.device == 3
    assert cuda.current_context().device.id == 0
    assert cuda.select_device(3).id == 3
    info = cuda.current_context().get_memory_info()
    assert info.total - info.free >= 1000
    cuda.current_context().reset()
    assert cuda.current_context().get_memory_info().free == info.total
    cuda.select_device(0)


def test_stream_auto_synchronize_waits_at_the_end_of_the_block():
    s = cuda.stream()
    out = cuda.pinned_array(1, np.int64)
    d = cuda.device_array(1, np.int64)
    with s.auto_synchronize():
        set_three[1, 1, s](d)
        d.copy_to_host(out, stream=s)
        assert out[0] == 0  # queued, not yet run
    assert out[0] == 3


def test_compile_ptx_says_what_to_use_instead():
    with pytest.raises(NotImplementedError, match=r"kernel\.isa"):
        cuda.compile_ptx(set_three.py_func, "void(int64[:])")


def test_specialize_returns_the_compiled_kernel_that_numba_code_can_launch():
    a = np.zeros(4, np.int64)
    spec = set_three.specialize(a)
    assert spec.n_regions >= 1 and "def " in spec.source  # gpusim's compiled-kernel view
    spec[1, 1](a)  # numba.cuda's specialized dispatcher
    assert a[0] == 3
