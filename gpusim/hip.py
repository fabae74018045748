"""``from gpusim import hip``: HIP's runtime API and kernel language in one namespace.

Host side under HIP's names (hipMalloc, hipMemcpy, ...) plus numba.cuda-style helpers
(to_device, device_array, ...). The kernel language (hip.jit, hip.threadIdx, ...) comes
from ``gpusim.compile.lang`` and ``gpusim.runtime.kernel``.

>>> import numpy as np
>>> from gpusim import hip
>>> hip.hipGetDeviceCount()
8
>>> d = hip.to_device(np.arange(3.0))
>>> d.copy_to_host()
array([0., 1., 2.])
"""

from gpusim.compile import lang_cg as cg  # hip.cg: cooperative groups (this_grid, ...)
from gpusim.compile.lang import *  # noqa: F403 - the kernel language: hip.threadIdx, ...
from gpusim.compile.lang import __all__ as _language
from gpusim.errors import HipError, hipError_t
from gpusim.runtime.api import (
    hipDeviceReset,
    hipDeviceSynchronize,
    hipFree,
    hipGetDevice,
    hipGetDeviceCount,
    hipGetDeviceProperties,
    hipGetErrorName,
    hipGetErrorString,
    hipGetLastError,
    hipHostFree,
    hipHostMalloc,
    hipMalloc,
    hipMemcpy,
    hipMemcpyDefault,
    hipMemcpyDeviceToDevice,
    hipMemcpyDeviceToHost,
    hipMemcpyHostToDevice,
    hipMemcpyHostToHost,
    hipMemcpyKind,
    hipMemGetInfo,
    hipMemset,
    hipOccupancyMaxActiveBlocksPerMultiprocessor,
    hipOccupancyMaxPotentialBlockSize,
    hipPeekAtLastError,
    hipSetDevice,
    pinned_array,
)
from gpusim.runtime.api_async import (
    Event,
    hipEventBlockingSync,
    hipEventCreate,
    hipEventCreateWithFlags,
    hipEventDefault,
    hipEventDestroy,
    hipEventDisableTiming,
    hipEventElapsedTime,
    hipEventQuery,
    hipEventRecord,
    hipEventSynchronize,
    hipLaunchHostFunc,
    hipMemcpyAsync,
    hipMemsetAsync,
    hipStreamAddCallback,
    hipStreamCreate,
    hipStreamCreateWithFlags,
    hipStreamCreateWithPriority,
    hipStreamDefault,
    hipStreamDestroy,
    hipStreamNonBlocking,
    hipStreamQuery,
    hipStreamSynchronize,
    hipStreamWaitEvent,
)
from gpusim.runtime.capture import (
    capture,
    hipStreamBeginCapture,
    hipStreamCaptureMode,
    hipStreamCaptureStatus,
    hipStreamEndCapture,
    hipStreamGetCaptureInfo,
    hipStreamGetCaptureInfo_v2,
    hipStreamIsCapturing,
    hipThreadExchangeStreamCaptureMode,
)
from gpusim.runtime.darray import DeviceArray, device_array, device_array_like, to_device
from gpusim.runtime.graph_api import (
    hipGraphAddChildGraphNode,
    hipGraphAddDependencies,
    hipGraphAddEmptyNode,
    hipGraphAddEventRecordNode,
    hipGraphAddEventWaitNode,
    hipGraphAddHostNode,
    hipGraphAddKernelNode,
    hipGraphAddMemcpyNode1D,
    hipGraphAddMemsetNode,
    hipGraphChildGraphNodeGetGraph,
    hipGraphClone,
    hipGraphCreate,
    hipGraphDestroy,
    hipGraphExecDestroy,
    hipGraphExecHostNodeSetParams,
    hipGraphExecKernelNodeSetParams,
    hipGraphExecMemcpyNodeSetParams1D,
    hipGraphExecMemsetNodeSetParams,
    hipGraphExecUpdate,
    hipGraphExecUpdateResult,
    hipGraphGetNodes,
    hipGraphGetRootNodes,
    hipGraphInstantiate,
    hipGraphInstantiateFlagAutoFreeOnLaunch,
    hipGraphInstantiateFlagUseNodePriority,
    hipGraphInstantiateWithFlags,
    hipGraphKernelNodeGetParams,
    hipGraphKernelNodeSetParams,
    hipGraphLaunch,
    hipGraphNodeGetDependencies,
    hipGraphNodeGetDependentNodes,
    hipGraphNodeGetType,
    hipGraphUpload,
)
from gpusim.runtime.graphs import (
    Graph,
    GraphExec,
    GraphNode,
    hipGraphNodeType,
    hipHostNodeParams,
    hipKernelNodeParams,
    hipMemsetParams,
)
from gpusim.runtime.kernel import Kernel, hipLaunchKernelGGL, jit
from gpusim.runtime.managed import (
    ManagedArray,
    hipCpuDeviceId,
    hipMallocManaged,
    hipMemAdvise,
    hipMemAttachGlobal,
    hipMemAttachHost,
    hipMemoryAdvise,
    hipMemPrefetchAsync,
    managed_array,
)
from gpusim.runtime.memory import DevicePointer
from gpusim.runtime.peer import (
    hipDeviceCanAccessPeer,
    hipDeviceDisablePeerAccess,
    hipDeviceEnablePeerAccess,
    hipMemcpyPeer,
    hipMemcpyPeerAsync,
)
from gpusim.runtime.properties import hipDeviceProp_t
from gpusim.runtime.scheduler import Stream

# hipError_t members at module level, as C code names them (hip.hipSuccess, ...).
globals().update(hipError_t.__members__)
globals().update(hipMemoryAdvise.__members__)
for _enum in (hipStreamCaptureMode, hipStreamCaptureStatus, hipGraphNodeType):
    globals().update(_enum.__members__)


def synchronize() -> None:
    """Wait for all work on the current device (numba.cuda.synchronize)."""
    hipDeviceSynchronize()


def stream(non_blocking: bool = False) -> Stream:
    """A new stream (numba.cuda.stream); ``non_blocking`` as hipStreamNonBlocking."""
    return hipStreamCreateWithFlags(hipStreamNonBlocking if non_blocking else hipStreamDefault)


def event(timing: bool = True) -> Event:
    """A new event (numba.cuda.event)."""
    return hipEventCreateWithFlags(hipEventDefault if timing else hipEventDisableTiming)


# `from gpusim.hip import *` must not shadow Python's any() and all(): they stay
# reachable as hip.any / hip.all.
__all__ = [
    *(name for name in _language if name not in ("any", "all")),
    "cg", "jit", "Kernel", "hipLaunchKernelGGL",
    "HipError", "hipError_t", "DeviceArray", "DevicePointer", "hipDeviceProp_t",
    "device_array", "device_array_like", "to_device", "pinned_array", "synchronize",
    "stream", "event", "Stream", "Event", "ManagedArray", "managed_array", "hipCpuDeviceId",
    "hipMallocManaged", "hipMemAdvise", "hipMemAttachGlobal", "hipMemAttachHost",
    "hipMemoryAdvise", "hipMemPrefetchAsync", "hipEventBlockingSync", "hipEventCreate",
    "hipEventCreateWithFlags", "hipEventDefault", "hipEventDestroy", "hipEventDisableTiming",
    "hipEventElapsedTime", "hipEventQuery", "hipEventRecord", "hipEventSynchronize",
    "hipLaunchHostFunc", "hipMemcpyAsync", "hipMemsetAsync", "hipStreamAddCallback",
    "hipStreamCreate", "hipStreamCreateWithFlags", "hipStreamCreateWithPriority",
    "hipStreamDefault", "hipStreamDestroy", "hipStreamNonBlocking", "hipStreamQuery",
    "hipStreamSynchronize", "hipStreamWaitEvent",
    "hipDeviceReset", "hipDeviceSynchronize", "hipFree", "hipGetDevice",
    "hipGetDeviceCount", "hipGetDeviceProperties", "hipGetErrorName", "hipGetErrorString",
    "hipGetLastError", "hipHostFree", "hipHostMalloc", "hipMalloc", "hipMemcpy",
    "hipMemcpyDefault", "hipMemcpyDeviceToDevice", "hipMemcpyDeviceToHost",
    "hipMemcpyHostToDevice", "hipMemcpyHostToHost", "hipMemcpyKind", "hipMemGetInfo",
    "hipMemset", "hipPeekAtLastError", "hipSetDevice",
    "hipOccupancyMaxActiveBlocksPerMultiprocessor", "hipOccupancyMaxPotentialBlockSize",
    "hipDeviceCanAccessPeer", "hipDeviceEnablePeerAccess", "hipDeviceDisablePeerAccess",
    "hipMemcpyPeer", "hipMemcpyPeerAsync",
    # graphs and stream capture (runtime/graphs.py, graph_api.py, capture.py)
    "Graph", "GraphExec", "GraphNode", "capture", "hipGraphNodeType", "hipHostNodeParams",
    "hipKernelNodeParams", "hipMemsetParams", "hipStreamCaptureMode", "hipStreamCaptureStatus",
    "hipStreamBeginCapture", "hipStreamEndCapture", "hipStreamGetCaptureInfo",
    "hipStreamGetCaptureInfo_v2", "hipStreamIsCapturing", "hipThreadExchangeStreamCaptureMode",
    "hipGraphAddChildGraphNode", "hipGraphAddDependencies", "hipGraphAddEmptyNode",
    "hipGraphAddEventRecordNode", "hipGraphAddEventWaitNode", "hipGraphAddHostNode",
    "hipGraphAddKernelNode", "hipGraphAddMemcpyNode1D", "hipGraphAddMemsetNode",
    "hipGraphChildGraphNodeGetGraph", "hipGraphClone", "hipGraphCreate", "hipGraphDestroy",
    "hipGraphExecDestroy", "hipGraphExecHostNodeSetParams", "hipGraphExecKernelNodeSetParams",
    "hipGraphExecMemcpyNodeSetParams1D", "hipGraphExecMemsetNodeSetParams",
    "hipGraphExecUpdate", "hipGraphExecUpdateResult", "hipGraphGetNodes",
    "hipGraphGetRootNodes", "hipGraphInstantiate", "hipGraphInstantiateFlagAutoFreeOnLaunch",
    "hipGraphInstantiateFlagUseNodePriority", "hipGraphInstantiateWithFlags",
    "hipGraphKernelNodeGetParams", "hipGraphKernelNodeSetParams", "hipGraphLaunch",
    "hipGraphNodeGetDependencies", "hipGraphNodeGetDependentNodes", "hipGraphNodeGetType",
    "hipGraphUpload",
    *hipStreamCaptureMode.__members__, *hipStreamCaptureStatus.__members__,
    *hipGraphNodeType.__members__,
]
