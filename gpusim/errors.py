"""Errors raised by the emulator: HIP status codes and the emulator's own faults.

The lowest layer of the package: every other module may import it.

HIP reports failures as ``hipError_t`` values; the emulator raises them as
``HipError`` so a notebook sees a message instead of a silently ignored status code.
The numeric values are HIP's own (``hip/hip_runtime_api.h``, ROCm 6.x), so a learner who
later prints ``hipGetErrorName(err)`` in C++ sees the same names and numbers.

>>> err = HipError(hipError_t.hipErrorOutOfMemory, "hipMalloc: 300 GiB requested")
>>> err.code.value
2
"""

from __future__ import annotations

import enum


class hipError_t(enum.IntEnum):  # noqa: N801 - HIP's own spelling
    """HIP runtime status codes with HIP's numeric values (hip_runtime_api.h)."""

    hipSuccess = 0
    hipErrorInvalidValue = 1
    hipErrorOutOfMemory = 2
    hipErrorNotInitialized = 3
    hipErrorDeinitialized = 4
    hipErrorProfilerDisabled = 5
    hipErrorProfilerNotInitialized = 6
    hipErrorProfilerAlreadyStarted = 7
    hipErrorProfilerAlreadyStopped = 8
    hipErrorInvalidConfiguration = 9
    hipErrorInvalidPitchValue = 12
    hipErrorInvalidSymbol = 13
    hipErrorInvalidDevicePointer = 17
    hipErrorInvalidMemcpyDirection = 21
    hipErrorInsufficientDriver = 35
    hipErrorMissingConfiguration = 52
    hipErrorPriorLaunchFailure = 53
    hipErrorInvalidDeviceFunction = 98
    hipErrorNoDevice = 100
    hipErrorInvalidDevice = 101
    hipErrorInvalidImage = 200
    hipErrorInvalidContext = 201
    hipErrorContextAlreadyCurrent = 202
    hipErrorMapFailed = 205
    hipErrorUnmapFailed = 206
    hipErrorArrayIsMapped = 207
    hipErrorAlreadyMapped = 208
    hipErrorNoBinaryForGpu = 209
    hipErrorAlreadyAcquired = 210
    hipErrorNotMapped = 211
    hipErrorNotMappedAsArray = 212
    hipErrorNotMappedAsPointer = 213
    hipErrorECCNotCorrectable = 214
    hipErrorUnsupportedLimit = 215
    hipErrorContextAlreadyInUse = 216
    hipErrorPeerAccessUnsupported = 217
    hipErrorInvalidKernelFile = 218
    hipErrorInvalidGraphicsContext = 219
    hipErrorInvalidSource = 300
    hipErrorFileNotFound = 301
    hipErrorSharedObjectSymbolNotFound = 302
    hipErrorSharedObjectInitFailed = 303
    hipErrorOperatingSystem = 304
    hipErrorInvalidHandle = 400
    hipErrorIllegalState = 401
    hipErrorNotFound = 500
    hipErrorNotReady = 600
    hipErrorIllegalAddress = 700
    hipErrorLaunchOutOfResources = 701
    hipErrorLaunchTimeOut = 702
    hipErrorPeerAccessAlreadyEnabled = 704
    hipErrorPeerAccessNotEnabled = 705
    hipErrorSetOnActiveProcess = 708
    hipErrorContextIsDestroyed = 709
    hipErrorAssert = 710
    hipErrorHostMemoryAlreadyRegistered = 712
    hipErrorHostMemoryNotRegistered = 713
    hipErrorLaunchFailure = 719
    hipErrorCooperativeLaunchTooLarge = 720
    hipErrorNotSupported = 801
    hipErrorStreamCaptureUnsupported = 900
    hipErrorStreamCaptureInvalidated = 901
    hipErrorStreamCaptureMerge = 902
    hipErrorStreamCaptureUnmatched = 903
    hipErrorStreamCaptureUnjoined = 904
    hipErrorStreamCaptureIsolation = 905
    hipErrorStreamCaptureImplicit = 906
    hipErrorCapturedEvent = 907
    hipErrorStreamCaptureWrongThread = 908
    hipErrorGraphExecUpdateFailure = 910
    hipErrorUnknown = 999
    hipErrorRuntimeMemory = 1052
    hipErrorRuntimeOther = 1053

    # HIP's deprecated aliases, kept because old tutorials use them.
    hipErrorMemoryAllocation = 2
    hipErrorInitializationError = 3
    hipErrorInvalidResourceHandle = 400


# hipGetErrorString texts, in HIP's wording (hip_error.cpp, ROCm 6.x).
ERROR_STRINGS: dict[hipError_t, str] = {
    hipError_t.hipSuccess: "no error",
    hipError_t.hipErrorInvalidValue: "invalid argument",
    hipError_t.hipErrorOutOfMemory: "out of memory",
    hipError_t.hipErrorNotInitialized: "initialization error",
    hipError_t.hipErrorInvalidConfiguration: "invalid configuration argument",
    hipError_t.hipErrorInvalidDevicePointer: "invalid device pointer",
    hipError_t.hipErrorInvalidMemcpyDirection: "invalid copy direction for memcpy",
    hipError_t.hipErrorInvalidDeviceFunction: "invalid device function",
    hipError_t.hipErrorNoDevice: "no ROCm-capable device is detected",
    hipError_t.hipErrorInvalidDevice: "invalid device ordinal",
    hipError_t.hipErrorInvalidHandle: "invalid resource handle",
    hipError_t.hipErrorNotFound: "named symbol not found",
    hipError_t.hipErrorNotReady: "device not ready",
    hipError_t.hipErrorIllegalAddress: "an illegal memory access was encountered",
    hipError_t.hipErrorLaunchOutOfResources: "too many resources requested for launch",
    hipError_t.hipErrorLaunchTimeOut: "the launch timed out and was terminated",
    hipError_t.hipErrorAssert: "device-side assert triggered",
    hipError_t.hipErrorLaunchFailure: "unspecified launch failure",
    hipError_t.hipErrorNotSupported: "operation not supported",
    hipError_t.hipErrorUnknown: "unknown error",
}


def error_string(code: hipError_t | int) -> str:
    """HIP's one-line description of a status code (hipGetErrorString).

    >>> error_string(hipError_t.hipErrorInvalidValue)
    'invalid argument'
    """
    try:
        code = hipError_t(code)
    except ValueError:
        return "unknown error"
    return ERROR_STRINGS.get(code, code.name)


class GpusimError(Exception):
    """Base of every error the emulator raises on purpose."""


class HipError(GpusimError):
    """A HIP API call failed; ``.code`` is the ``hipError_t`` it would have returned.

    >>> HipError(hipError_t.hipErrorInvalidValue, "hipMemcpy: nbytes < 0").code.name
    'hipErrorInvalidValue'
    """

    def __init__(self, code: hipError_t, message: str):
        self.code = hipError_t(code)
        self.detail = message
        super().__init__(f"{self.code.name} ({int(self.code)}): {message}")


class DeviceProfileError(GpusimError, ValueError):
    """A device profile file is missing a field, has a wrong type, or cannot be parsed."""


class KernelCompileError(GpusimError):
    """A kernel uses Python the emulator cannot run; names the line, column and fix."""


class ConfigError(GpusimError, ValueError):
    """A ``gpusim.config`` knob or ``GPUSIM_*`` variable has an invalid value."""


class SanitizerError(HipError):
    """The checked path (``gpusim.config.check``) found bugs in a kernel.

    ``findings`` lists each distinct one (a data race, an uninitialised LDS read, ...)
    with its source lines, threads and count; printing it gives the text report.

    >>> err = SanitizerError(hipError_t.hipErrorLaunchFailure, "kernel 'k': 1 LDS race", [])
    >>> err.code.value, err.findings
    (719, [])
    """

    def __init__(self, code: hipError_t, message: str, findings: list | None = None):
        super().__init__(code, message)
        self.findings = findings if findings is not None else []
