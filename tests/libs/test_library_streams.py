"""libs.common's handle layer in every library: a stream of another device is refused
the same way (rocBLAS's rule), 0 is the null stream of the handle's own device, and the
one enum check names the function and the argument."""

import enum

import numpy as np
import pytest

from gpusim import hip, rccl, rocblas, rocfft, rocrand, rocsolver, rocsparse
from gpusim.libs.common import LibraryError, check_enum

pytestmark = pytest.mark.usefixtures("fresh_system")

RULE = "the stream is on device 1 but {owner} on device 0; create both under the same hipSetDevice"


def _stream_of_device(ordinal):
    hip.hipSetDevice(ordinal)
    stream = hip.hipStreamCreate()
    hip.hipSetDevice(0)
    return stream


def _rocblas(stream):
    rocblas.rocblas_set_stream(rocblas.rocblas_create_handle(), stream)


def _rocsolver(stream):
    """rocSOLVER runs on rocBLAS handles: the handle it is given refuses the stream."""
    h = rocblas.rocblas_create_handle()
    rocblas.rocblas_set_stream(h, stream)
    a, info = hip.to_device(np.eye(2, dtype=np.float32)), hip.device_array(1, np.int32)
    rocsolver.rocsolver_spotrf(h, rocblas.rocblas_fill_upper, 2, a, 2, info)


def _rocsparse(stream):
    rocsparse.rocsparse_set_stream(rocsparse.rocsparse_create_handle(), stream)


def _rocfft(stream):
    """The execution info takes any stream; the plan (made on device 0) refuses it."""
    plan = rocfft.rocfft_plan_create(rocfft.rocfft_placement_inplace,
                                     rocfft.rocfft_transform_type_complex_forward,
                                     rocfft.rocfft_precision_single, 1, [8], 1, None)
    info = rocfft.rocfft_execution_info_create()
    rocfft.rocfft_execution_info_set_stream(info, stream)
    rocfft.rocfft_execute(plan, [hip.device_array(8, np.complex64)], None, info)


def _rocrand(stream):
    g = rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_PSEUDO_PHILOX4_32_10)
    rocrand.rocrand_set_stream(g, stream)


def _rccl(stream):
    comms = rccl.ncclCommInitAll(2)
    buf = hip.to_device(np.ones(4, np.float32))
    rccl.ncclAllReduce(buf, buf, 4, rccl.ncclFloat, rccl.ncclSum, comms[0], stream)


LIBRARIES = [  # (call, error, status, what the message calls the owner)
    (_rocblas, rocblas.RocblasError, rocblas.rocblas_status_invalid_value, "the handle"),
    (_rocsolver, rocblas.RocblasError, rocblas.rocblas_status_invalid_value, "the handle"),
    (_rocsparse, rocsparse.RocsparseError, rocsparse.rocsparse_status_invalid_value,
     "the handle"),
    (_rocfft, rocfft.RocfftError, rocfft.rocfft_status_invalid_arg_value, "the plan"),
    (_rocrand, rocrand.RocrandError, rocrand.ROCRAND_STATUS_LAUNCH_FAILURE, "the generator"),
    (_rccl, rccl.NcclError, rccl.ncclInvalidArgument, "rank 0's communicator"),
]
IDS = ["rocblas", "rocsolver", "rocsparse", "rocfft", "rocrand", "rccl"]


@pytest.mark.parametrize("call, error, status, owner", LIBRARIES, ids=IDS)
def test_a_stream_of_another_device_is_refused_the_same_way(call, error, status, owner):
    with pytest.raises(error) as info:
        call(_stream_of_device(1))
    assert isinstance(info.value, LibraryError)
    assert info.value.status is status
    assert RULE.format(owner=owner) in str(info.value)


@pytest.mark.parametrize("call, error, status, owner", LIBRARIES, ids=IDS)
def test_a_stream_of_the_same_device_and_the_null_stream_are_taken(call, error, status,
                                                                   owner):
    call(_stream_of_device(0))
    call(0)
    hip.hipDeviceSynchronize()


@pytest.mark.parametrize("call, error, status, owner", LIBRARIES, ids=IDS)
def test_something_that_is_not_a_stream_raises_the_library_status(call, error, status,
                                                                  owner):
    with pytest.raises(error) as info:
        call("stream")
    assert info.value.status is status and "hipStreamCreate" in str(info.value)


def test_the_null_stream_is_the_handle_devices_even_after_hipsetdevice():
    handles = [rocblas.rocblas_create_handle(), rocsparse.rocsparse_create_handle(),
               rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_PSEUDO_PHILOX4_32_10)]
    hip.hipSetDevice(1)
    assert [h.queue().device for h in handles] == [0, 0, 0]
    assert rocsparse.rocsparse_get_stream(handles[1]) is None
    assert rocblas.rocblas_get_stream(handles[0]) == 0


# the one enum check --------------------------------------------------------------------
class toy_status(enum.IntEnum):  # noqa: N801 - C spelling, as the libraries use
    toy_status_success = 0
    toy_status_invalid_value = 3


class toy_side(enum.IntEnum):  # noqa: N801
    toy_side_left = 141
    toy_side_right = 142
    toy_side_both = 143


class ToyError(LibraryError):
    status_enum = toy_status
    value_status = toy_status.toy_status_invalid_value


@pytest.mark.parametrize("value, what", [(7, "is not a toy_side"),
                                         (143, "is not valid here"),
                                         ("left", "is not a toy_side"),
                                         (True, "is not a toy_side")])
def test_check_enum_names_function_argument_and_the_values_to_use(value, what):
    allowed = (toy_side.toy_side_left, toy_side.toy_side_right)
    with pytest.raises(ToyError) as info:
        check_enum(value, allowed, function="toy_trsm", arg="side", error=ToyError)
    assert info.value.status is toy_status.toy_status_invalid_value
    assert info.value.function == "toy_trsm"
    assert str(info.value) == (f"toy_trsm: toy_status_invalid_value (3): argument 'side'="
                               f"{value!r} {what}; use one of toy_side_left (141), "
                               "toy_side_right (142)")


def test_check_enum_returns_the_member_for_a_c_value_or_a_member():
    for value in (142, np.int32(142), toy_side.toy_side_right):
        assert check_enum(value, toy_side, function="f", arg="side",
                          error=ToyError) is toy_side.toy_side_right


def _descr_base(value):
    rocsparse.rocsparse_set_mat_index_base(rocsparse.rocsparse_create_mat_descr(), value)


def _fft_precision(value):
    rocfft.rocfft_plan_create(rocfft.rocfft_placement_inplace,
                              rocfft.rocfft_transform_type_complex_forward, value, 1, [8], 1,
                              None)


def _potrf_uplo(value):
    a, info = hip.to_device(np.eye(2, dtype=np.float32)), hip.device_array(1, np.int32)
    rocsolver.rocsolver_spotrf(rocblas.rocblas_create_handle(), value, 2, a, 2, info)


def _nccl_datatype(value):
    comms = rccl.ncclCommInitAll(1)
    buf = hip.to_device(np.ones(4, np.float32))
    rccl.ncclAllReduce(buf, buf, 4, value, rccl.ncclSum, comms[0], 0)


ENUM_CASES = [  # (call, bad value, error, status, function, argument)
    (lambda v: rocblas.rocblas_set_pointer_mode(rocblas.rocblas_create_handle(), v), 5,
     rocblas.RocblasError, rocblas.rocblas_status_invalid_value, "rocblas_set_pointer_mode",
     "mode"),
    (_potrf_uplo, rocblas.rocblas_fill_full, rocblas.RocblasError,
     rocblas.rocblas_status_invalid_value, "rocsolver_spotrf", "uplo"),
    (_descr_base, 7, rocsparse.RocsparseError, rocsparse.rocsparse_status_invalid_value,
     "rocsparse_set_mat_index_base", "index_base"),
    (_fft_precision, 9, rocfft.RocfftError, rocfft.rocfft_status_invalid_arg_value,
     "rocfft_plan_create", "precision"),
    (rocrand.rocrand_create_generator, 399, rocrand.RocrandError,
     rocrand.ROCRAND_STATUS_TYPE_ERROR, "rocrand_create_generator", "rng_type"),
    (_nccl_datatype, 12, rccl.NcclError, rccl.ncclInvalidArgument, "ncclAllReduce",
     "datatype"),
]


@pytest.mark.parametrize("call, value, error, status, function, arg", ENUM_CASES, ids=IDS)
def test_every_library_checks_enums_with_the_one_check(call, value, error, status,
                                                       function, arg):
    with pytest.raises(error) as info:
        call(value)
    assert info.value.status is status
    assert f"{function}: " in str(info.value)
    assert f"argument '{arg}'={value!r} is not " in str(info.value)
