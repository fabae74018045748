"""Every rocfft_status a call can raise, with rocfft.h's numeric values; the plan's
work buffer; the kernel on the timeline."""

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim import rocfft as F

FWD, R2C = F.rocfft_transform_type_complex_forward, F.rocfft_transform_type_real_forward
IP, OP = F.rocfft_placement_inplace, F.rocfft_placement_notinplace
DOUBLE = F.rocfft_precision_double


def test_enum_values_are_rocfft_h():
    assert [int(s) for s in F.rocfft_status] == list(range(9))
    assert F.rocfft_status_invalid_work_buffer == 8
    assert (F.rocfft_transform_type_real_inverse, F.rocfft_precision_half,
            F.rocfft_placement_notinplace, F.rocfft_array_type_unset) == (3, 2, 1, 5)
    assert F.rocfft_array_type_hermitian_interleaved == 3


def _layout(in_type, out_type, in_strides=None, in_dist=0, out_strides=None, out_dist=0,
            in_offsets=None, out_offsets=None):
    desc = F.rocfft_plan_description_create()
    F.rocfft_plan_description_set_data_layout(
        desc, in_type, out_type, in_offsets, out_offsets,
        len(in_strides or []), in_strides, in_dist, len(out_strides or []), out_strides,
        out_dist)
    return desc


def _raises(status, fn, *args):
    with pytest.raises(F.RocfftError) as info:
        fn(*args)
    assert info.value.status == status and isinstance(info.value.status, F.rocfft_status)
    return str(info.value)


def test_failure_for_a_destroyed_plan(fresh_system):
    plan = F.rocfft_plan_create(IP, FWD, DOUBLE, 1, [8], 1, None)
    F.rocfft_plan_destroy(plan)
    msg = _raises(F.rocfft_status_failure, F.rocfft_plan_get_work_buffer_size, plan)
    assert "destroyed" in msg


@pytest.mark.parametrize("lengths,batch", [([0], 1), ([8], 0)])
def test_invalid_arg_value_for_empty_transforms(fresh_system, lengths, batch):
    _raises(F.rocfft_status_invalid_arg_value, F.rocfft_plan_create, IP, FWD, DOUBLE, 1,
            lengths, batch, None)


def test_invalid_arg_value_for_a_non_finite_scale(fresh_system):
    desc = F.rocfft_plan_description_create()
    _raises(F.rocfft_status_invalid_arg_value, F.rocfft_plan_description_set_scale_factor,
            desc, float("nan"))


def test_invalid_dimensions(fresh_system):
    msg = _raises(F.rocfft_status_invalid_dimensions, F.rocfft_plan_create, IP, FWD, DOUBLE,
                  4, [2, 2, 2, 2], 1, None)
    assert "1, 2 or 3" in msg


@pytest.mark.parametrize("kind,placement,in_type,out_type", [
    (FWD, OP, F.rocfft_array_type_real, F.rocfft_array_type_complex_interleaved),
    (FWD, IP, F.rocfft_array_type_complex_interleaved, F.rocfft_array_type_complex_planar),
    (R2C, OP, F.rocfft_array_type_real, F.rocfft_array_type_complex_interleaved),
    (R2C, IP, F.rocfft_array_type_real, F.rocfft_array_type_hermitian_planar),
    (F.rocfft_transform_type_real_inverse, OP, F.rocfft_array_type_complex_interleaved,
     F.rocfft_array_type_real),
])
def test_invalid_array_type(fresh_system, kind, placement, in_type, out_type):
    _raises(F.rocfft_status_invalid_array_type, F.rocfft_plan_create, placement, kind, DOUBLE,
            1, [8], 1, _layout(in_type, out_type))


def test_in_place_real_transform_with_unpadded_rows_is_invalid_strides(fresh_system):
    """The classic mistake: a packed 2-D real array transformed in place. Each row of
    n0 reals has no room for its n0 // 2 + 1 complex outputs."""
    desc = _layout(F.rocfft_array_type_real, F.rocfft_array_type_hermitian_interleaved,
                   in_strides=[1, 8], out_strides=[1, 5])
    msg = _raises(F.rocfft_status_invalid_strides, F.rocfft_plan_create, IP, R2C, DOUBLE, 2,
                  [8, 4], 1, desc)
    assert "padded to 10 elements" in msg


def test_in_place_real_batch_without_padding_is_invalid_distance(fresh_system):
    desc = _layout(F.rocfft_array_type_real, F.rocfft_array_type_hermitian_interleaved,
                   in_dist=8, out_dist=5)
    _raises(F.rocfft_status_invalid_distance, F.rocfft_plan_create, IP, R2C, DOUBLE, 1, [8],
            3, desc)


def test_in_place_complex_with_moved_output_is_invalid_offset(fresh_system):
    ci = F.rocfft_array_type_complex_interleaved
    _raises(F.rocfft_status_invalid_offset, F.rocfft_plan_create, IP, FWD, DOUBLE, 1, [8], 1,
            _layout(ci, ci, in_offsets=[0], out_offsets=[2]))


def test_overlapping_outputs_are_invalid_strides_or_distance(fresh_system):
    ci = F.rocfft_array_type_complex_interleaved
    _raises(F.rocfft_status_invalid_strides, F.rocfft_plan_create, OP, FWD, DOUBLE, 2, [4, 4],
            1, _layout(ci, ci, out_strides=[1, 2]))
    _raises(F.rocfft_status_invalid_distance, F.rocfft_plan_create, OP, FWD, DOUBLE, 1, [8], 2,
            _layout(ci, ci, out_dist=4))


def test_strides_size_must_match(fresh_system):
    desc = F.rocfft_plan_description_create()
    ci = F.rocfft_array_type_complex_interleaved
    _raises(F.rocfft_status_invalid_strides, F.rocfft_plan_description_set_data_layout, desc,
            ci, ci, None, None, 2, [1], 0, 0, None, 0)


def test_work_buffer_for_bluestein_lengths(fresh_system):
    """17 = 17 factors into rocFFT's radices; 23 does not (Bluestein with M = 64)."""
    assert F.rocfft_plan_get_work_buffer_size(
        F.rocfft_plan_create(IP, FWD, DOUBLE, 1, [2 * 17], 1, None)) == 0
    plan = F.rocfft_plan_create(IP, FWD, DOUBLE, 1, [23], 2, None)
    size = F.rocfft_plan_get_work_buffer_size(plan)
    assert size == 3 * 64 * 2 * 16
    x = np.arange(46, dtype=np.complex128)
    d = hip.to_device(x)
    info = F.rocfft_execution_info_create()
    small = hip.hipMalloc(size // 2)
    F.rocfft_execution_info_set_work_buffer(info, small, size // 2)
    _raises(F.rocfft_status_invalid_work_buffer, F.rocfft_execute, plan, [d], None, info)
    _raises(F.rocfft_status_invalid_work_buffer, F.rocfft_execution_info_set_work_buffer,
            info, small, size)  # more bytes than the allocation has
    F.rocfft_execution_info_set_work_buffer(info, hip.hipMalloc(size), size)
    F.rocfft_execute(plan, [d], None, info)
    np.testing.assert_allclose(d.copy_to_host(), np.fft.fft(x.reshape(2, 23)).ravel(),
                               atol=1e-9)


def test_wrong_buffer_type_and_count(fresh_system):
    plan = F.rocfft_plan_create(OP, FWD, DOUBLE, 1, [8], 1, None)
    d = hip.device_array(8, np.complex64)  # single precision data for a double plan
    _raises(F.rocfft_status_invalid_arg_value, F.rocfft_execute, plan, [d], [d], None)
    _raises(F.rocfft_status_invalid_arg_value, F.rocfft_execute, plan, [d], [], None)


def test_too_small_buffer_faults_instead_of_corrupting(fresh_system):
    plan = F.rocfft_plan_create(OP, FWD, DOUBLE, 1, [8], 2, None)
    d_in, d_out = hip.device_array(16, np.complex128), hip.device_array(8, np.complex128)
    with pytest.raises(gpusim.HipError, match="16 elements"):
        F.rocfft_execute(plan, [d_in], [d_out], None)


def test_kernel_runs_on_the_info_stream_with_modeled_time(fresh_system):
    s = hip.hipStreamCreate()
    info = F.rocfft_execution_info_create()
    F.rocfft_execution_info_set_stream(info, s)
    times = []
    for n in (1 << 10, 1 << 20):
        d = hip.device_array(n, np.complex64)
        plan = F.rocfft_plan_create(IP, FWD, F.rocfft_precision_single, 1, [n], 1, None)
        with gpusim.profile() as prof:
            F.rocfft_execute(plan, [d], None, info)
            hip.hipStreamSynchronize(s)
        (record,) = prof.kernels
        assert record.stream == s.handle and record.name.startswith(f"fft_rtc_fwd_len{n}_sp")
        times.append(record.duration_ns)
    assert 0 < times[0] < times[1]
