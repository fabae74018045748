"""Running a rocFFT plan: execution info (stream, work buffer) and ``rocfft_execute``.

The transform is computed with ``scipy.fft`` on the values gathered from the plan's
input layout and scattered into its output layout, unnormalised both ways as rocFFT
is (a forward then inverse transform multiplies by the product of the lengths), times
the plan's scale factor. It runs as one kernel on the execution info's stream (the
null stream by default), with a modeled time (``modeled_work``: the roofline of its
FLOPs and bytes). The stream must be on the plan's device (the device current at
rocfft_plan_create): rocfft_execute refuses one of another device, as every library
does (libs.common.handle).

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocfft import *
>>> x = np.array([1, 2, 3, 4], dtype=np.complex128)
>>> d = hip.to_device(x)
>>> plan = rocfft_plan_create(rocfft_placement_inplace, rocfft_transform_type_complex_forward,
...                           rocfft_precision_double, 1, [4], 1, None)
>>> rocfft_execute(plan, [d], None, None)
>>> d.copy_to_host()
array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.fft

from gpusim.errors import HipError
from gpusim.libs.common import device_view, launch_roofline, stream_on
from gpusim.libs.rocfft.errors import RocfftError
from gpusim.libs.rocfft.layout import Layout, gather, scatter
from gpusim.libs.rocfft.plan import INPLACE, check_plan, is_bluestein, rocfft_plan
from gpusim.libs.rocfft.types import (
    COMPONENT_DTYPE,
    INTERLEAVED,
    rocfft_precision,
    rocfft_status,
    rocfft_transform_type,
)
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.pointers import resolve

T = rocfft_transform_type
# Data a single workgroup's LDS holds for a one-kernel transform (MI300X: 64 KiB LDS per
# workgroup, DESIGN.md section 6); bigger transforms take one pass per dimension.
ONE_KERNEL_BYTES = 64 * 1024


@dataclass
class rocfft_execution_info:  # noqa: N801 - the C handle's name
    """Optional execution settings: the stream and a user work buffer."""

    stream: Any = None
    work_buffer: Any = None
    work_buffer_bytes: int = 0
    destroyed: bool = field(default=False, repr=False)


def rocfft_execution_info_create() -> rocfft_execution_info:
    """A new execution info: null stream, no work buffer (rocFFT allocates one)."""
    return rocfft_execution_info()


def rocfft_execution_info_destroy(info: rocfft_execution_info) -> None:
    """Free an execution info."""
    _check_info(info, "rocfft_execution_info_destroy").destroyed = True


def rocfft_execution_info_set_stream(info: rocfft_execution_info, stream: Any) -> None:
    """Run the plan's kernels on ``stream`` (a hipStream_t; 0/None: the null stream); its
    device is checked against the plan's at rocfft_execute."""
    name = "rocfft_execution_info_set_stream"
    _check_info(info, name)
    target = stream_on(stream, None, function=name, error=RocfftError)
    info.stream = None if target.null else target


def rocfft_execution_info_set_work_buffer(info: rocfft_execution_info, work_buffer: Any,
                                          size_in_bytes: int) -> None:
    """Give the plan ``size_in_bytes`` of device memory as its work buffer.

    >>> rocfft_execution_info_set_work_buffer(rocfft_execution_info_create(), None, 64)
    Traceback (most recent call last):
    ...
    gpusim.libs.rocfft.errors.RocfftError: ...: rocfft_status_invalid_work_buffer (8): ...
    """
    name = "rocfft_execution_info_set_work_buffer"
    _check_info(info, name)
    if work_buffer is None:
        raise RocfftError(rocfft_status.rocfft_status_invalid_work_buffer, name,
                          "work_buffer is a null pointer; pass device memory of "
                          "rocfft_plan_get_work_buffer_size bytes")
    try:
        held = resolve(work_buffer, origin=name)
    except HipError as exc:
        raise RocfftError(rocfft_status.rocfft_status_invalid_work_buffer, name,
                          exc.detail) from None
    if not held.is_device or held.data.size < int(size_in_bytes):
        raise RocfftError(rocfft_status.rocfft_status_invalid_work_buffer, name,
                          f"work_buffer is {held.describe} with {held.data.size} bytes, not "
                          f"{size_in_bytes} bytes of device memory")
    info.work_buffer, info.work_buffer_bytes = work_buffer, int(size_in_bytes)


def rocfft_execute(plan: rocfft_plan, in_buffer: Any, out_buffer: Any,
                   info: rocfft_execution_info | None) -> None:
    """Queue the plan's transform: ``in_buffer`` / ``out_buffer`` are lists of device
    pointers (one, or two for planar data: real then imaginary); ``out_buffer`` is
    ignored in place."""
    name = "rocfft_execute"
    plan = check_plan(plan, name)
    stream = None
    if info is not None:
        _check_info(info, name)
        stream = info.stream
        if plan.work_buffer_bytes and info.work_buffer is not None and \
                info.work_buffer_bytes < plan.work_buffer_bytes:
            raise RocfftError(rocfft_status.rocfft_status_invalid_work_buffer, name,
                              f"the work buffer has {info.work_buffer_bytes} bytes but the "
                              f"plan needs {plan.work_buffer_bytes} "
                              "(rocfft_plan_get_work_buffer_size)")
    ins = _pointers(in_buffer, plan.input, "in_buffer")
    outs = ins if plan.placement == INPLACE else _pointers(out_buffer, plan.output,
                                                            "out_buffer")
    comp = COMPONENT_DTYPE[plan.precision]
    in_views = [_component_view(p, plan, plan.input, i, f"in_buffer[{i}]", comp)
                for i, p in enumerate(ins)]
    out_views = in_views if plan.placement == INPLACE else [
        _component_view(p, plan, plan.output, i, f"out_buffer[{i}]", comp)
        for i, p in enumerate(outs)]

    def run() -> None:
        scatter(out_views, plan.output, transform(plan, gather(in_views, plan.input)))

    queue = stream_on(stream, plan.device, function=name, error=RocfftError,
                      owner="the plan")
    flops, nbytes, passes = modeled_work(plan)
    threads = math.prod(plan.lengths) * plan.batch
    launch_roofline(queue, run, name=kernel_name(plan),
                    grid=(max(1, -(-threads // 256)), 1, 1), block=(256, 1, 1), flops=flops,
                    bytes_moved=nbytes, breakdown={"passes": passes},
                    double=plan.precision == rocfft_precision.rocfft_precision_double)


def transform(plan: rocfft_plan, values: np.ndarray) -> np.ndarray:
    """The plan's unnormalised transform of gathered values (batch axis first)."""
    axes = tuple(range(-len(plan.lengths), 0))
    if plan.precision == rocfft_precision.rocfft_precision_half:
        values = values.astype(np.complex64 if np.iscomplexobj(values) else np.float32)
    kind = plan.transform_type
    if kind == T.rocfft_transform_type_complex_forward:
        out = scipy.fft.fftn(values, axes=axes)
    elif kind == T.rocfft_transform_type_complex_inverse:
        out = scipy.fft.ifftn(values, axes=axes, norm="forward")
    elif kind == T.rocfft_transform_type_real_forward:
        out = scipy.fft.rfftn(values, axes=axes)
    else:
        out = scipy.fft.irfftn(values, s=plan.lengths[::-1], axes=axes, norm="forward")
    return out * plan.scale_factor if plan.scale_factor != 1.0 else out


def kernel_name(plan: rocfft_plan) -> str:
    """A name in the style of rocFFT's runtime-compiled kernels."""
    direction = "fwd" if plan.transform_type in (T.rocfft_transform_type_complex_forward,
                                                  T.rocfft_transform_type_real_forward) \
        else "back"
    prec = {0: "sp", 1: "dp", 2: "half"}[int(plan.precision)]
    place = "ip" if plan.placement == INPLACE else "op"
    lengths = "x".join(str(n) for n in plan.lengths)
    return f"fft_rtc_{direction}_len{lengths}_{prec}_{place}_batch{plan.batch}"


def modeled_work(plan: rocfft_plan) -> tuple[float, float, int]:
    """(FLOPs, bytes, passes) whose roofline is the modeled time: FLOPs 5 n log2 n per
    complex 1-D transform of length n (half for real data; Bluestein runs three of its
    padded length M), bytes the input read and the output written once per pass (one
    pass when a transform fits one workgroup's LDS, else one per dimension), plus the
    work buffer written and read."""
    real = plan.transform_type in (T.rocfft_transform_type_real_forward,
                                   T.rocfft_transform_type_real_inverse)
    total = math.prod(plan.lengths) * plan.batch
    flops = 0.0
    for n in plan.lengths:
        m = 1 << (2 * n - 2).bit_length() if is_bluestein(n) else n
        per = 3 * 5 * m * math.log2(m) if is_bluestein(n) else 5 * n * math.log2(max(n, 2))
        flops += per * total / n
    flops *= 0.5 if real else 1.0
    comp = COMPONENT_DTYPE[plan.precision].itemsize
    side = [math.prod(lay.lengths) * plan.batch * comp * (2 if lay.is_complex else 1)
            for lay in (plan.input, plan.output)]
    one_kernel = math.prod(plan.lengths) * 2 * comp <= ONE_KERNEL_BYTES
    passes = 1 if one_kernel else len(plan.lengths)
    return flops, passes * sum(side) + 2 * plan.work_buffer_bytes, passes


def _check_info(info: Any, function: str) -> rocfft_execution_info:
    if not isinstance(info, rocfft_execution_info) or info.destroyed:
        raise RocfftError(rocfft_status.rocfft_status_invalid_arg_value, function,
                          f"{info!r} is not a live execution info; make one with "
                          "rocfft_execution_info_create (or pass None)")
    return info


def _pointers(buffers: Any, layout: Layout, arg: str) -> list[Any]:
    buffers = list(buffers) if isinstance(buffers, (list, tuple)) else [buffers]
    if len(buffers) < layout.buffers:
        raise RocfftError(rocfft_status.rocfft_status_invalid_arg_value, "rocfft_execute",
                          f"{arg} has {len(buffers)} pointer(s) but "
                          f"{layout.array_type.name} data takes {layout.buffers} "
                          "(planar: real then imaginary)")
    return buffers[:layout.buffers]


def _component_view(ptr: Any, plan: rocfft_plan, layout: Layout, buffer: int, arg: str,
                    comp: np.dtype) -> np.ndarray:
    """Flat view of a buffer's real components, long enough for the layout (both
    layouts when the transform is in place). A device array may hold the precision's
    reals or its complex numbers (C sees the same bytes; in-place real transforms
    share one buffer between the two)."""
    extent = layout.extent(buffer)
    if plan.placement == INPLACE:
        extent = max(plan.input.extent(buffer), plan.output.extent(buffer))
    paired = np.result_type(comp, np.complex64) if comp != np.float16 else comp
    element = paired if layout.array_type in INTERLEAVED else comp
    if isinstance(ptr, DeviceArray) and ptr.dtype in (comp, paired):
        element = ptr.dtype
    per = element.itemsize // comp.itemsize
    view = device_view(ptr, element, -(-extent // per), function="rocfft_execute", arg=arg,
                       error=RocfftError)
    return view.view(comp)
