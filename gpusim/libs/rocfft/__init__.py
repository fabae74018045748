"""Emulated rocFFT: FFT plans and their execution under rocFFT's C names.

    types.py     rocFFT's enums (status, transform type, precision, placement, array type)
    errors.py    RocfftError with ``.status``
    layout.py    lengths/strides/distances/offsets -> element indices; gather and scatter
    description.py  plan descriptions: array types, strides, distances, offsets, scale
    plan.py      setup, plan creation with rocFFT's checks, work buffer
    execute.py   execution info (stream, work buffer), rocfft_execute, modeled time

    plan_create --(layouts, checks)--> plan --rocfft_execute--> gather input layout
        --> scipy.fft (unnormalised) --> scatter output layout, one kernel on the stream

Conventions: ``lengths[0]`` is the fastest dimension; both directions are
unnormalised; out-parameters (plans, descriptions, sizes) are returned.

>>> import numpy as np
>>> from gpusim import hip
>>> x = np.arange(8, dtype=np.float32)
>>> d_in, d_out = hip.to_device(x), hip.device_array(5, np.complex64)
>>> plan = rocfft_plan_create(rocfft_placement_notinplace, rocfft_transform_type_real_forward,
...                           rocfft_precision_single, 1, [8], 1, None)
>>> rocfft_execute(plan, [d_in], [d_out], None)
>>> np.allclose(d_out.copy_to_host(), np.fft.rfft(x))
True
"""

from gpusim.libs.rocfft.description import (
    rocfft_plan_description,
    rocfft_plan_description_create,
    rocfft_plan_description_destroy,
    rocfft_plan_description_set_data_layout,
    rocfft_plan_description_set_scale_factor,
)
from gpusim.libs.rocfft.errors import RocfftError
from gpusim.libs.rocfft.execute import (
    rocfft_execute,
    rocfft_execution_info,
    rocfft_execution_info_create,
    rocfft_execution_info_destroy,
    rocfft_execution_info_set_stream,
    rocfft_execution_info_set_work_buffer,
)
from gpusim.libs.rocfft.plan import (
    rocfft_cleanup,
    rocfft_plan,
    rocfft_plan_create,
    rocfft_plan_destroy,
    rocfft_plan_get_print,
    rocfft_plan_get_work_buffer_size,
    rocfft_setup,
)
from gpusim.libs.rocfft.types import *  # noqa: F403 - the enums and their members, as in C
from gpusim.libs.rocfft.types import __all__ as _types

__all__ = [*_types, "RocfftError", "rocfft_cleanup", "rocfft_execute",
           "rocfft_execution_info", "rocfft_execution_info_create",
           "rocfft_execution_info_destroy", "rocfft_execution_info_set_stream",
           "rocfft_execution_info_set_work_buffer", "rocfft_plan", "rocfft_plan_create",
           "rocfft_plan_description", "rocfft_plan_description_create",
           "rocfft_plan_description_destroy", "rocfft_plan_description_set_data_layout",
           "rocfft_plan_description_set_scale_factor", "rocfft_plan_destroy",
           "rocfft_plan_get_print", "rocfft_plan_get_work_buffer_size", "rocfft_setup"]
