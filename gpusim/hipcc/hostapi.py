"""The HIP runtime API as a compiled program calls it: C values in, C values out.

Each function here implements the ``extern "C"`` function of the same name in
``<hip/hip_runtime_api.h>`` over gpusim's runtime (``gpusim.hip``); the shim calls it
with C's raw values: addresses as ints, out-parameters as addresses to write through.
A ``HipError`` from gpusim becomes the returned ``hipError_t`` (``shim_call``).

Addresses: device memory has gpusim's device addresses (as hipMalloc hands them out);
pinned memory (hipHostMalloc) and managed memory (hipMallocManaged) are real host
memory, so the program reads and writes them directly, and a kernel that is given such
an address reaches the same bytes (AMD GPUs map host memory into one address space).

>>> import ctypes
>>> out = ctypes.c_void_p()
>>> hipMalloc(ctypes.addressof(out), 256), hipFree(out.value)
(None, None)
"""

from __future__ import annotations

import bisect
import ctypes
import math
from typing import Any

import numpy as np

from gpusim import hip
from gpusim.errors import HipError, hipError_t
from gpusim.runtime.system import get_system

E = hipError_t


# ---- C memory
def host_bytes(address: int, nbytes: int) -> np.ndarray:
    """The program's host memory at ``address`` as a writable uint8 array (no copy)."""
    if nbytes == 0:
        return np.zeros(0, np.uint8)
    return np.ctypeslib.as_array((ctypes.c_ubyte * int(nbytes)).from_address(address))


def _put(address: int, ctype: Any, value: Any) -> None:
    if not address:
        raise HipError(E.hipErrorInvalidValue, "an output pointer argument is NULL")
    ctype.from_address(address).value = value


def _text(address: int) -> str:
    return ctypes.string_at(address).decode(errors="replace") if address else ""


class _HostBuffers:
    """Host memory a kernel may read: pinned (hipHostMalloc, hipHostRegister) and
    managed (hipMallocManaged) ranges, by start address; kept alive until freed."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.items: dict[int, tuple[int, Any]] = {}  # start -> (nbytes, owner)

    def add(self, start: int, nbytes: int, owner: Any) -> None:
        bisect.insort(self.starts, start)
        self.items[start] = (nbytes, owner)

    def pop(self, start: int) -> Any:
        if start not in self.items:
            return None
        self.starts.remove(start)
        return self.items.pop(start)[1]

    def find(self, address: int) -> tuple[int, int, Any] | None:
        """(start, nbytes, owner) of the range holding ``address``."""
        k = bisect.bisect_right(self.starts, address) - 1
        if k < 0:
            return None
        start = self.starts[k]
        nbytes, owner = self.items[start]
        return (start, nbytes, owner) if address < start + max(nbytes, 1) else None


HOST = _HostBuffers()


def is_device(address: int) -> bool:
    return get_system().owner_of(address) is not None


def memory(address: int, nbytes: int, what: str) -> Any:
    """A side of a copy: a device address (int), or the host bytes there."""
    if not address:
        raise HipError(E.hipErrorInvalidValue, f"{what} is a NULL pointer")
    if is_device(address):
        return address
    found = HOST.find(address)
    if found is not None and isinstance(found[2], hip.ManagedArray):
        return int(found[2].ptr) + (address - found[0])
    return host_bytes(address, nbytes)


def kernel_pointer(address: int, dtype: np.dtype, where: str) -> Any:
    """What a kernel's pointer parameter gets for ``address``: a device address, or a
    view of pinned/managed host memory from there; other host memory is a memory access
    fault, as on a GPU, reported at the launch (a GPU would fault at the first access)."""
    if not address or is_device(address):
        return address
    found = HOST.find(address)
    if found is None:  # a GPU faults on it: "Memory access fault by GPU", and the end
        raise HipError(E.hipErrorIllegalAddress,
                       f"{where} is host memory ({address:#x}) that the GPU cannot reach: "
                       "copy the data to device memory (hipMalloc + hipMemcpy), or allocate "
                       "it with hipHostMalloc / hipMallocManaged")
    start, nbytes, owner = found
    if isinstance(owner, hip.ManagedArray):
        return int(owner.ptr) + (address - start)
    offset = address - start
    count = (nbytes - offset) // dtype.itemsize
    return owner[offset:offset + count * dtype.itemsize].view(dtype)


# ---- handles: streams, events, modules, functions are opaque pointers in C
class Handles:
    """Python objects behind C handles (never 0, never a valid host address)."""

    def __init__(self) -> None:
        self.objects: dict[int, Any] = {}
        self._by_id: dict[int, int] = {}
        self.next = 0x10000

    def new(self, obj: Any) -> int:
        self.next += 16
        self.objects[self.next] = obj
        return self.next

    def of(self, obj: Any) -> int:
        """The handle of ``obj``, made on first use: one object, one handle (a graph
        node is named by several calls, and C compares the handles)."""
        handle = self._by_id.get(id(obj))
        if handle is None or self.objects.get(handle) is not obj:
            handle = self._by_id[id(obj)] = self.new(obj)
        return handle

    def get(self, handle: int, kind: type | tuple, what: str,
            code: hipError_t = E.hipErrorInvalidHandle) -> Any:
        obj = self.objects.get(handle)
        if not isinstance(obj, kind):
            raise HipError(code, f"{handle or 0:#x} is not a {what} (destroyed, or never "
                           "created)")
        return obj

    def drop(self, handle: int) -> None:
        self.objects.pop(handle, None)


HANDLES = Handles()
_STREAM_PER_THREAD = 2


def stream(handle: int | None) -> Any:
    """The stream a C handle names (0 / NULL: the null stream)."""
    if not handle or handle == _STREAM_PER_THREAD:
        return 0
    return HANDLES.get(handle, hip.Stream, "stream")


def event(handle: int) -> Any:
    return HANDLES.get(handle, hip.Event, "event")


# ---- devices
def hipInit(flags):
    if flags != 0:
        raise HipError(E.hipErrorInvalidValue, "hipInit: flags must be 0")


def hipGetDeviceCount(count):
    _put(count, ctypes.c_int, hip.hipGetDeviceCount())


def hipSetDevice(deviceId):
    hip.hipSetDevice(int(deviceId))


def hipGetDevice(deviceId):
    _put(deviceId, ctypes.c_int, int(hip.hipGetDevice()))


# Image limits as ROCm's hipGetDeviceProperties reports them (CLR's hip_device.cpp copies
# ROCr's GFX9 image limits: 16384-element 1D/2D, 16384x16384x8192 3D, 8192 layers, and
# a 2**27-element image buffer, times 16 bytes, capped at INT_MAX, for linear 1D).
# Not yet checked against an MI300X's own deviceQuery output: the figures are ROCr's GFX9
# limits as the CLR code path reads them, to be confirmed with a public rocminfo capture.
_IMAGE_LIMITS = {
    "maxTexture1DLinear": 2**31 - 1, "maxTexture1D": 16384, "maxTexture2D": (16384, 16384),
    "maxTexture3D": (16384, 16384, 8192), "maxTexture1DLayered": (16384, 8192),
    "maxTexture2DLayered": (16384, 16384, 8192), "maxSurface1D": 16384,
    "maxSurface2D": (16384, 16384), "maxSurface3D": (16384, 16384, 8192),
    "texturePitchAlignment": 256, "surfaceAlignment": 256}


def _properties(deviceId) -> dict:
    """hipDeviceProp_t's fields by name: gpusim's device properties, with the ROCm fields
    it reports from the same profile."""
    p = hip.hipGetDeviceProperties(int(deviceId)).as_dict()
    spec = get_system().devices[int(deviceId)].spec
    p.update(imageSupport=1,  # texture objects: gpusim/hipcc/textures.py
             clockInstructionRate=p["clockRate"], memPitch=2**31 - 1, textureAlignment=256,
             kernelExecTimeoutEnabled=0, gcnArch=int(spec.gcn_arch_name[3:6], 16)
             if spec.gcn_arch_name[3:6].isalnum() else 0,
             cooperativeMultiDeviceLaunch=p["cooperativeLaunch"], pageableMemoryAccess=0,
             tccDriver=0, computePreemptionSupported=0,
             # ROCm's HIP_MEM_POOL_SUPPORT, on by default (clr rocclr/utils/flags.hpp)
             memoryPoolsSupported=1)
    p.update(_IMAGE_LIMITS)
    return p


def hipGetDeviceProperties(prop, deviceId):
    from gpusim.hipcc.shim import write_struct

    p = _properties(deviceId)
    if not prop:
        raise HipError(E.hipErrorInvalidValue, "hipGetDeviceProperties: prop is NULL")
    write_struct("hipDeviceProp_t", prop, p)


# hipDeviceAttribute_t by name (the header has the numbers): the hipDeviceProp_t field,
# or (field, index) for an array's element.
_ATTRIBUTES = {
    "MaxThreadsPerBlock": "maxThreadsPerBlock", "MaxBlockDimX": ("maxThreadsDim", 0),
    "MaxBlockDimY": ("maxThreadsDim", 1), "MaxBlockDimZ": ("maxThreadsDim", 2),
    "MaxGridDimX": ("maxGridSize", 0), "MaxGridDimY": ("maxGridSize", 1),
    "MaxGridDimZ": ("maxGridSize", 2), "MaxSharedMemoryPerBlock": "sharedMemPerBlock",
    "WarpSize": "warpSize", "MultiprocessorCount": "multiProcessorCount",
    "ClockRate": "clockRate", "MemoryClockRate": "memoryClockRate",
    "MemoryBusWidth": "memoryBusWidth", "L2CacheSize": "l2CacheSize",
    "MaxThreadsPerMultiProcessor": "maxThreadsPerMultiProcessor",
    "ComputeCapabilityMajor": "major", "ComputeCapabilityMinor": "minor",
    "TotalConstantMemory": "totalConstMem", "MaxRegistersPerBlock": "regsPerBlock",
    "ConcurrentKernels": "concurrentKernels", "ManagedMemory": "managedMemory",
    "CooperativeLaunch": "cooperativeLaunch", "Integrated": "integrated",
    "ImageSupport": "imageSupport",
    "CanMapHostMemory": "canMapHostMemory", "PciBusId": "pciBusID",
    "PciDeviceId": "pciDeviceID", "ComputeMode": "computeMode",
    "AsyncEngineCount": "asyncEngineCount",
    "ComputePreemptionSupported": "computePreemptionSupported",
    "KernelExecTimeout": "kernelExecTimeoutEnabled",
    "MemoryPoolsSupported": "memoryPoolsSupported"}


def _attribute_field(attr: int) -> Any:
    from gpusim.hipcc.shim import enum_values

    names = {v: k.removeprefix("hipDeviceAttribute")
             for k, v in enum_values("hipDeviceAttribute_t").items()}
    return _ATTRIBUTES.get(names.get(int(attr), ""))


def hipDeviceGetAttribute(pi, attr, deviceId):
    field = _attribute_field(attr)
    if field is None:
        raise HipError(E.hipErrorInvalidValue,
                       f"hipDeviceGetAttribute: attribute {attr} is not modelled by gpusim")
    p = _properties(deviceId)
    value = p[field[0]][field[1]] if isinstance(field, tuple) else p[field]
    _put(pi, ctypes.c_int, min(int(value), 2**31 - 1))


def hipDeviceSynchronize():
    hip.hipDeviceSynchronize()


def hipDeviceReset():
    hip.hipDeviceReset()


def hipSetDeviceFlags(flags):
    """Scheduling flags change how a real host thread waits; gpusim's wait is modeled."""


def hipDeviceSetCacheConfig(cacheConfig):
    """A preference only; AMD GPUs have no L1/LDS split to choose (HIP ignores it too)."""


def hipDeviceSetSharedMemConfig(config):
    """A preference only; HIP ignores it on AMD GPUs."""


def hipFuncSetCacheConfig(func, config):
    """A preference only; HIP ignores it on AMD GPUs."""


_VERSION = 60200000  # the HIP version gpusim's headers describe (HIP_VERSION)


def hipDriverGetVersion(driverVersion):
    _put(driverVersion, ctypes.c_int, _VERSION)


def hipRuntimeGetVersion(runtimeVersion):
    _put(runtimeVersion, ctypes.c_int, _VERSION)


# ---- the driver API's device and context calls: a context is its device (HIP's primary
# context), so creating one makes that device current
def hipDeviceGet(device, ordinal):
    get_system().device(int(ordinal), origin="hipDeviceGet")
    _put(device, ctypes.c_int, int(ordinal))


def hipDeviceGetName(name, len, device):  # noqa: A002 - HIP's parameter name
    size = int(len)
    if size > 0:
        text = hip.hipGetDeviceProperties(int(device)).name.encode()[:size - 1] + b"\0"
        ctypes.memmove(name, text, text.__len__())


def hipDeviceComputeCapability(major, minor, device):
    p = hip.hipGetDeviceProperties(int(device))
    _put(major, ctypes.c_int, p.major)
    _put(minor, ctypes.c_int, p.minor)


def hipDeviceTotalMem(bytes, device):  # noqa: A002 - HIP's parameter name
    _put(bytes, ctypes.c_size_t, hip.hipGetDeviceProperties(int(device)).totalGlobalMem)


def hipCtxCreate(ctx, flags, device):
    hip.hipSetDevice(int(device))
    _put(ctx, ctypes.c_void_p, HANDLES.new(("context", int(device))))


def hipCtxDestroy(ctx):
    HANDLES.get(ctx, tuple, "context")
    HANDLES.drop(ctx)


def hipCtxSetCurrent(ctx):
    if ctx:
        hip.hipSetDevice(HANDLES.get(ctx, tuple, "context")[1])


def hipCtxGetCurrent(ctx):
    _put(ctx, ctypes.c_void_p, HANDLES.new(("context", int(hip.hipGetDevice()))))


def hipCtxSynchronize():
    hip.hipDeviceSynchronize()


def hipDeviceCanAccessPeer(canAccessPeer, deviceId, peerDeviceId):
    _put(canAccessPeer, ctypes.c_int, hip.hipDeviceCanAccessPeer(deviceId, peerDeviceId))


def hipDeviceEnablePeerAccess(peerDeviceId, flags):
    hip.hipDeviceEnablePeerAccess(peerDeviceId, flags)


def hipDeviceDisablePeerAccess(peerDeviceId):
    hip.hipDeviceDisablePeerAccess(peerDeviceId)


# ---- errors
def hipGetLastError():
    return hip.hipGetLastError()


def hipPeekAtLastError():
    return hip.hipPeekAtLastError()


_STRINGS: dict[tuple[str, int], ctypes.Array] = {}


def _c_string(kind: str, code: int, text: str) -> int:
    key = (kind, int(code))
    if key not in _STRINGS:  # kept alive for the program's lifetime, as HIP's are
        _STRINGS[key] = ctypes.create_string_buffer(text.encode())
    return ctypes.addressof(_STRINGS[key])


def hipGetErrorString(hipError):
    return _c_string("string", hipError, hip.hipGetErrorString(hipError))


def hipGetErrorName(hipError):
    return _c_string("name", hipError, hip.hipGetErrorName(hipError))


# ---- profiler control
def hipProfilerStart():
    """Marks where an external profiler (rocprof) should start collecting; gpusim's
    profiler records every launch anyway, so this is a no-op returning hipSuccess."""


def hipProfilerStop():
    """See hipProfilerStart: a no-op returning hipSuccess."""


# ---- memory
def hipMalloc(ptr, size):
    if not ptr:
        raise HipError(E.hipErrorInvalidValue, "hipMalloc: ptr is NULL")
    _put(ptr, ctypes.c_void_p, int(hip.hipMalloc(int(size))) if size else 0)


def hipFree(ptr):
    if ptr:
        if not is_device(ptr):
            raise HipError(E.hipErrorInvalidValue,
                           f"hipFree: {ptr:#x} is not device memory from hipMalloc" +
                           ("; memory from hipHostMalloc is freed with hipHostFree"
                            if HOST.find(ptr) else ""))
        hip.hipFree(ptr)


def hipHostMalloc(ptr, size, flags):
    ary = hip.hipHostMalloc(max(int(size), 1), int(flags))
    HOST.add(ary.ctypes.data, int(size), ary)
    _put(ptr, ctypes.c_void_p, ary.ctypes.data)


def hipMallocHost(ptr, size):
    hipHostMalloc(ptr, size, 0)


def hipHostAlloc(ptr, size, flags):
    hipHostMalloc(ptr, size, flags)


def hipHostFree(ptr):
    if not ptr:
        return
    owner = HOST.find(ptr)
    if owner is None or owner[0] != ptr or isinstance(owner[2], hip.ManagedArray):
        raise HipError(E.hipErrorInvalidValue,
                       f"hipHostFree: {ptr:#x} is not memory from hipHostMalloc")
    hip.hipHostFree(HOST.pop(ptr))


def hipFreeHost(ptr):
    hipHostFree(ptr)


def hipHostGetDevicePointer(devPtr, hstPtr, flags):
    if HOST.find(hstPtr) is None:
        raise HipError(E.hipErrorInvalidValue,
                       f"hipHostGetDevicePointer: {hstPtr:#x} is not pinned host memory "
                       "(hipHostMalloc with hipHostMallocMapped, or hipHostRegister)")
    _put(devPtr, ctypes.c_void_p, hstPtr)  # one address space: the same address


def hipHostRegister(hostPtr, sizeBytes, flags):
    if HOST.find(hostPtr) is not None:
        raise HipError(E.hipErrorHostMemoryAlreadyRegistered,
                       f"hipHostRegister: {hostPtr:#x} is already registered")
    view = host_bytes(hostPtr, sizeBytes)
    from gpusim.runtime.pointers import register_pinned

    register_pinned(view)
    HOST.add(hostPtr, int(sizeBytes), view)


def hipHostUnregister(hostPtr):
    if HOST.pop(hostPtr) is None:
        raise HipError(E.hipErrorHostMemoryNotRegistered,
                       f"hipHostUnregister: {hostPtr:#x} was not registered")


def hipMallocManaged(dev_ptr, size, flags):
    m = hip.hipMallocManaged(max(int(size), 1), int(flags))
    address = m._alloc.buffer.ctypes.data
    HOST.add(address, int(size), m)
    _put(dev_ptr, ctypes.c_void_p, address)


def _managed(address: int, what: str) -> Any:
    found = HOST.find(address)
    if found is None or not isinstance(found[2], hip.ManagedArray):
        raise HipError(E.hipErrorInvalidValue, f"{what}: {address:#x} is not managed memory")
    start, _, owner = found
    return owner[address - start:]


def hipMemPrefetchAsync(dev_ptr, count, device, stream_):
    hip.hipMemPrefetchAsync(_managed(dev_ptr, "hipMemPrefetchAsync"), int(count), int(device),
                            stream(stream_))


def hipMemAdvise(dev_ptr, count, advice, device):
    hip.hipMemAdvise(_managed(dev_ptr, "hipMemAdvise"), int(count), int(advice), int(device))


def hipMemGetInfo(free, total):
    f, t = hip.hipMemGetInfo()
    _put(free, ctypes.c_size_t, f)
    _put(total, ctypes.c_size_t, t)


def hipPointerGetAttributes(attributes, ptr):
    from gpusim.hipcc.shim import write_struct

    if is_device(ptr):
        dev = get_system().owner_of(ptr).ordinal
        info = dict(type=2, device=dev, devicePointer=ptr, hostPointer=0, isManaged=0)
    else:
        found = HOST.find(ptr)
        if found is None:
            raise HipError(E.hipErrorInvalidValue,
                           f"hipPointerGetAttributes: {ptr:#x} is not memory HIP knows")
        managed = isinstance(found[2], hip.ManagedArray)
        info = dict(type=3 if managed else 1, device=int(hip.hipGetDevice()),
                    devicePointer=ptr, hostPointer=ptr, isManaged=int(managed))
    write_struct("hipPointerAttribute_t", attributes, {**info, "allocationFlags": 0})


def hipMemcpy(dst, src, sizeBytes, kind):
    hip.hipMemcpy(*_copy(dst, src, sizeBytes, kind, "hipMemcpy"))


def hipMemcpyAsync(dst, src, sizeBytes, kind, stream_):
    hip.hipMemcpyAsync(*_copy(dst, src, sizeBytes, kind, "hipMemcpyAsync"), stream(stream_))


def _copy(dst: int, src: int, n: int, kind: int, api: str) -> tuple:
    """Pinned and managed memory are reachable from host and device alike: a copy that
    touches them goes by address (hipMemcpyDefault), whatever kind the program named, as
    HIP's does with unified addressing."""
    shared = any(HOST.find(a) is not None for a in (dst, src) if a and not is_device(a))
    return (memory(dst, n, f"{api}: dst"), memory(src, n, f"{api}: src"), int(n),
            hip.hipMemcpyDefault if shared else int(kind))


def hipMemcpyHtoD(dst, src, sizeBytes):
    hipMemcpy(dst, src, sizeBytes, 1)


def hipMemcpyDtoH(dst, src, sizeBytes):
    hipMemcpy(dst, src, sizeBytes, 2)


def hipMemcpyDtoD(dst, src, sizeBytes):
    hipMemcpy(dst, src, sizeBytes, 3)


def hipMallocPitch(ptr, pitch, width, height):
    row = -(-int(width) // 256) * 256  # rows start 256-byte aligned, as HIP's do
    _put(pitch, ctypes.c_size_t, row)
    hipMalloc(ptr, row * int(height))


def hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind):
    for r in range(int(height)):
        hipMemcpy(dst + r * dpitch, src + r * spitch, width, kind)


def hipMemcpyPeer(dst, dstDeviceId, src, srcDeviceId, sizeBytes):
    hip.hipMemcpyPeer(dst, dstDeviceId, src, srcDeviceId, int(sizeBytes))


def hipMemcpyPeerAsync(dst, dstDeviceId, src, srcDevice, sizeBytes, stream_):
    hip.hipMemcpyPeerAsync(dst, dstDeviceId, src, srcDevice, int(sizeBytes), stream(stream_))


def _memset_target(dst: int, n: int, api: str) -> Any:
    target = memory(dst, n, f"{api}: dst")
    if isinstance(target, np.ndarray):
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: {dst:#x} is host memory; use memset for host memory")
    return target


def hipMemset(dst, value, sizeBytes):
    hip.hipMemset(_memset_target(dst, sizeBytes, "hipMemset"), int(value), int(sizeBytes))


def hipMemsetAsync(dst, value, sizeBytes, stream_):
    hip.hipMemsetAsync(_memset_target(dst, sizeBytes, "hipMemsetAsync"), int(value),
                       int(sizeBytes), stream(stream_))


def hipMemsetD32(dest, value, count):
    words = np.full(int(count), value, np.int32)
    hip.hipMemcpy(_memset_target(dest, 4 * count, "hipMemsetD32"), words, 4 * int(count),
                  hip.hipMemcpyHostToDevice)


# ---- the stream-ordered allocator (gpusim.runtime.mempool). Argument checks and their
# codes as ROCm's hipamd/src/hip_mempool.cpp (ROCm/clr f9f995c) makes them.
_POOL_HANDLES: dict[Any, int] = {}


def _pool_handle(pool: Any) -> int:
    """One C handle per pool, so hipDeviceGetDefaultMemPool always gives the same one."""
    if pool not in _POOL_HANDLES:
        _POOL_HANDLES[pool] = HANDLES.new(pool)
    return _POOL_HANDLES[pool]


def _pool(handle: int, api: str) -> Any:
    from gpusim.runtime.mempool import MemPool

    pool = HANDLES.objects.get(handle) if handle else None
    if not isinstance(pool, MemPool) or pool.destroyed:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: {handle or 0:#x} is not a live memory pool (hipMemPool_t)")
    return pool


def _pool_device(device: int, api: str, code: hipError_t = E.hipErrorInvalidValue) -> int:
    if not 0 <= int(device) < hip.hipGetDeviceCount():
        raise HipError(code, f"{api}: device {device} does not exist")
    return int(device)


def hipMallocAsync(dev_ptr, size, stream_):
    """``size`` bytes from the current pool of the stream's device, for use in the
    stream's order (0 bytes: NULL, as hipMalloc)."""
    if not dev_ptr:
        raise HipError(E.hipErrorInvalidValue, "hipMallocAsync: dev_ptr is NULL")
    _put(dev_ptr, ctypes.c_void_p, _malloc_async(int(size), stream(stream_), None))


def _malloc_async(size: int, s: Any, pool: Any) -> int:
    """hipMallocAsync's address: on a captured stream a memory allocation node's (the
    graph's memory), else a block of ``pool`` (None: the stream's device's current pool);
    mempool.malloc_async decides."""
    from gpusim.runtime import mempool

    ptr = mempool.malloc_async(size, s, pool)
    return int(ptr) if ptr is not None else 0


def hipMallocFromPoolAsync(dev_ptr, size, mem_pool, stream_):
    """hipMallocAsync from the pool ``mem_pool``."""
    if not dev_ptr:
        raise HipError(E.hipErrorInvalidValue, "hipMallocFromPoolAsync: dev_ptr is NULL")
    _put(dev_ptr, ctypes.c_void_p, _malloc_async(int(size), stream(stream_),
                                                 _pool(mem_pool, "hipMallocFromPoolAsync")))


def hipFreeAsync(dev_ptr, stream_):
    """Give a hipMallocAsync block back to its pool in the stream's order; memory from
    hipMalloc is freed at once, as ROCm's hipFreeAsync does. On a captured stream, memory
    the capture allocated gets a memory free node."""
    from gpusim.runtime import mempool

    if not dev_ptr:
        raise HipError(E.hipErrorInvalidValue, "hipFreeAsync: dev_ptr is NULL")
    s = stream(stream_)
    mempool.free_async(int(dev_ptr), s)  # on a captured stream: a free node


def hipDeviceGetDefaultMemPool(mem_pool, device):
    """The device's default pool (the same handle every time)."""
    from gpusim.runtime import mempool

    if not mem_pool:
        raise HipError(E.hipErrorInvalidValue, "hipDeviceGetDefaultMemPool: mem_pool is NULL")
    ordinal = _pool_device(device, "hipDeviceGetDefaultMemPool", E.hipErrorInvalidDevice)
    _put(mem_pool, ctypes.c_void_p, _pool_handle(mempool.default_pool(ordinal)))


def hipDeviceGetMemPool(mem_pool, device):
    """The pool hipMallocAsync allocates from on the device's streams."""
    from gpusim.runtime import mempool

    if not mem_pool:
        raise HipError(E.hipErrorInvalidValue, "hipDeviceGetMemPool: mem_pool is NULL")
    ordinal = _pool_device(device, "hipDeviceGetMemPool")
    _put(mem_pool, ctypes.c_void_p, _pool_handle(mempool.current_pool(ordinal)))


def hipDeviceSetMemPool(device, mem_pool):
    """Make ``mem_pool`` (one of the device's) the one hipMallocAsync allocates from."""
    from gpusim.runtime import mempool

    ordinal = _pool_device(device, "hipDeviceSetMemPool")
    mempool.set_current_pool(ordinal, _pool(mem_pool, "hipDeviceSetMemPool"))


def hipMemPoolCreate(mem_pool, pool_props):
    """A pool of pinned device memory on ``pool_props->location.id``; its maxSize, if
    not 0, caps what it holds."""
    from gpusim.hipcc.shim import enum_values, read_struct
    from gpusim.runtime import mempool

    if not mem_pool or not pool_props:
        raise HipError(E.hipErrorInvalidValue, "hipMemPoolCreate: an argument is NULL")
    props = read_struct("hipMemPoolProps", pool_props)
    if props["allocType"] != enum_values("hipMemAllocationType")["hipMemAllocationTypePinned"]:
        raise HipError(E.hipErrorInvalidValue,
                       "hipMemPoolCreate: allocType must be hipMemAllocationTypePinned")
    if props["location.type"] != enum_values("hipMemLocationType")["hipMemLocationTypeDevice"]:
        raise HipError(E.hipErrorInvalidValue,
                       "hipMemPoolCreate: location.type must be hipMemLocationTypeDevice")
    ordinal = _pool_device(props["location.id"], "hipMemPoolCreate")
    pool = mempool.create_pool(ordinal, int(props["maxSize"]))
    _put(mem_pool, ctypes.c_void_p, _pool_handle(pool))


def hipMemPoolDestroy(mem_pool):
    """Destroy a pool made by hipMemPoolCreate (not a default pool)."""
    from gpusim.runtime import mempool

    mempool.destroy_pool(_pool(mem_pool, "hipMemPoolDestroy"))


def hipMemPoolTrimTo(mem_pool, min_bytes_to_hold):
    """Give freed memory whose frees completed back to the device, down to
    ``min_bytes_to_hold``."""
    _pool(mem_pool, "hipMemPoolTrimTo").trim_to(int(min_bytes_to_hold))


# hipMemPoolAttr by name: the pool's attribute, and the C type *value points to.
_POOL_ATTRIBUTES = {
    "hipMemPoolReuseFollowEventDependencies": ("follow_event_dependencies", ctypes.c_int32),
    "hipMemPoolReuseAllowOpportunistic": ("opportunistic", ctypes.c_int32),
    "hipMemPoolReuseAllowInternalDependencies": ("internal_dependencies", ctypes.c_int32),
    "hipMemPoolAttrReleaseThreshold": ("release_threshold", ctypes.c_uint64),
    "hipMemPoolAttrReservedMemCurrent": ("reserved", ctypes.c_uint64),
    "hipMemPoolAttrReservedMemHigh": ("reserved_high", ctypes.c_uint64),
    "hipMemPoolAttrUsedMemCurrent": ("used", ctypes.c_uint64),
    "hipMemPoolAttrUsedMemHigh": ("used_high", ctypes.c_uint64)}
_POOL_READ_ONLY = {"reserved", "used"}
_POOL_RESET_ONLY = {"reserved_high", "used_high"}  # only 0 may be set, as ROCm's


def _pool_attribute(mem_pool: int, attr: int, value: int, api: str) -> tuple:
    from gpusim.hipcc.shim import enum_values

    pool = _pool(mem_pool, api)
    if not value:
        raise HipError(E.hipErrorInvalidValue, f"{api}: value is NULL")
    names = {v: k for k, v in enum_values("hipMemPoolAttr").items()}
    if int(attr) not in names:
        raise HipError(E.hipErrorInvalidValue, f"{api}: {attr} is not a hipMemPoolAttr")
    return (pool, *_POOL_ATTRIBUTES[names[int(attr)]])


def hipMemPoolSetAttribute(mem_pool, attr, value):
    """Set a hipMemPoolAttr from ``*value`` (an int for the reuse switches, a uint64_t
    for the sizes, of which the high-water marks may only be reset to 0)."""
    pool, name, ctype = _pool_attribute(mem_pool, attr, value, "hipMemPoolSetAttribute")
    new = ctype.from_address(value).value
    if name in _POOL_READ_ONLY or (name in _POOL_RESET_ONLY and new != 0):
        raise HipError(E.hipErrorInvalidValue,
                       f"hipMemPoolSetAttribute: attribute {attr} can only be read" +
                       (", or reset to 0" if name in _POOL_RESET_ONLY else ""))
    setattr(pool, name, bool(new) if ctype is ctypes.c_int32 else new)


def hipMemPoolGetAttribute(mem_pool, attr, value):
    """Write a hipMemPoolAttr to ``*value`` (int or uint64_t, as for the setter)."""
    pool, name, ctype = _pool_attribute(mem_pool, attr, value, "hipMemPoolGetAttribute")
    ctype.from_address(value).value = int(getattr(pool, name))


# ---- device variables (__device__, __constant__): see program.Program.symbol
def hipMemcpyToSymbol(symbol, src, sizeBytes, offset, kind):
    address = _symbol(symbol, sizeBytes, offset, "hipMemcpyToSymbol")
    hip.hipMemcpy(address + offset, memory(src, sizeBytes, "hipMemcpyToSymbol: src"),
                  int(sizeBytes), hip.hipMemcpyDefault)


def hipMemcpyToSymbolAsync(symbol, src, sizeBytes, offset, kind, stream_):
    address = _symbol(symbol, sizeBytes, offset, "hipMemcpyToSymbolAsync")
    hip.hipMemcpyAsync(address + offset, memory(src, sizeBytes, "hipMemcpyToSymbolAsync: src"),
                       int(sizeBytes), hip.hipMemcpyDefault, stream(stream_))


def hipMemcpyFromSymbol(dst, symbol, sizeBytes, offset, kind):
    address = _symbol(symbol, sizeBytes, offset, "hipMemcpyFromSymbol")
    hip.hipMemcpy(memory(dst, sizeBytes, "hipMemcpyFromSymbol: dst"), address + offset,
                  int(sizeBytes), hip.hipMemcpyDefault)


def hipMemcpyFromSymbolAsync(dst, symbol, sizeBytes, offset, kind, stream_):
    address = _symbol(symbol, sizeBytes, offset, "hipMemcpyFromSymbolAsync")
    hip.hipMemcpyAsync(memory(dst, sizeBytes, "hipMemcpyFromSymbolAsync: dst"),
                       address + offset, int(sizeBytes), hip.hipMemcpyDefault, stream(stream_))


def hipGetSymbolAddress(devPtr, symbol):
    _put(devPtr, ctypes.c_void_p, _symbol(symbol, 0, 0, "hipGetSymbolAddress"))


def hipGetSymbolSize(size, symbol):
    from gpusim.hipcc.program import current

    _put(size, ctypes.c_size_t, current().variable(symbol, "hipGetSymbolSize").nbytes)


def _symbol(symbol: int, nbytes: int, offset: int, api: str) -> int:
    from gpusim.hipcc.program import current

    var = current().variable(symbol, api)
    if offset + nbytes > var.nbytes:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: {nbytes} bytes at offset {offset} overrun the device "
                       f"variable '{var.name}' ({var.nbytes} bytes)")
    return var.address()


def __gpusim_register_var(shadow, name, size):
    from gpusim.hipcc.program import current

    current().register_variable(shadow, _text(name), int(size))


def __gpusim_register_kernel(stub, name):
    from gpusim.hipcc.program import current

    current().kernel_stubs[stub] = _text(name)


# ---- streams and events
def hipStreamCreate(stream_):
    _put(stream_, ctypes.c_void_p, HANDLES.new(hip.hipStreamCreate()))


def hipStreamCreateWithFlags(stream_, flags):
    _put(stream_, ctypes.c_void_p, HANDLES.new(hip.hipStreamCreateWithFlags(int(flags))))


def hipStreamCreateWithPriority(stream_, flags, priority):
    _put(stream_, ctypes.c_void_p,
         HANDLES.new(hip.hipStreamCreateWithPriority(int(flags), int(priority))))


def hipDeviceGetStreamPriorityRange(leastPriority, greatestPriority):
    if leastPriority:
        _put(leastPriority, ctypes.c_int, 0)
    if greatestPriority:
        _put(greatestPriority, ctypes.c_int, -1)


def hipStreamDestroy(stream_):
    hip.hipStreamDestroy(stream(stream_))
    HANDLES.drop(stream_)


def hipStreamSynchronize(stream_):
    hip.hipStreamSynchronize(stream(stream_))


def hipStreamQuery(stream_):
    return hip.hipStreamQuery(stream(stream_))


def hipStreamWaitEvent(stream_, event_, flags):
    hip.hipStreamWaitEvent(stream(stream_), event(event_), int(flags))


_CALLBACKS = {"host": ctypes.CFUNCTYPE(None, ctypes.c_void_p),
              "stream": ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)}


def hipLaunchHostFunc(stream_, fn, userData):
    call = _CALLBACKS["host"](fn)
    hip.hipLaunchHostFunc(stream(stream_), lambda data: call(data), userData)


def hipStreamAddCallback(stream_, callback, userData, flags):
    call = _CALLBACKS["stream"](callback)
    hip.hipStreamAddCallback(stream(stream_), lambda s, status, data: call(stream_, int(status),
                                                                           data), userData)


def hipEventCreate(event_):
    _put(event_, ctypes.c_void_p, HANDLES.new(hip.hipEventCreate()))


def hipEventCreateWithFlags(event_, flags):
    _put(event_, ctypes.c_void_p, HANDLES.new(hip.hipEventCreateWithFlags(int(flags))))


def hipEventDestroy(event_):
    hip.hipEventDestroy(event(event_))
    HANDLES.drop(event_)


def hipEventRecord(event_, stream_):
    hip.hipEventRecord(event(event_), stream(stream_))


def hipEventSynchronize(event_):
    hip.hipEventSynchronize(event(event_))


def hipEventQuery(event_):
    return hip.hipEventQuery(event(event_))


def hipEventElapsedTime(ms, start, stop):
    _put(ms, ctypes.c_float, hip.hipEventElapsedTime(event(start), event(stop)))


# ---- graphs and stream capture: C's handles for gpusim.hip's Graph, GraphNode, GraphExec
def hipStreamBeginCapture(stream_, mode):
    hip.hipStreamBeginCapture(stream(stream_), int(mode))


def hipStreamEndCapture(stream_, pGraph):
    """The captured graph; *pGraph is NULL when the capture failed (invalidated, ...)."""
    if not pGraph:
        raise HipError(E.hipErrorInvalidValue, "hipStreamEndCapture: pGraph is NULL")
    _put(pGraph, ctypes.c_void_p, 0)
    _put(pGraph, ctypes.c_void_p, HANDLES.of(hip.hipStreamEndCapture(stream(stream_))))


def hipStreamIsCapturing(stream_, pCaptureStatus):
    _put(pCaptureStatus, ctypes.c_int, int(hip.hipStreamIsCapturing(stream(stream_))))


def hipStreamGetCaptureInfo(stream_, pCaptureStatus, pId):
    status, capture_id = hip.hipStreamGetCaptureInfo(stream(stream_))
    _put(pCaptureStatus, ctypes.c_int, int(status))
    if pId:
        _put(pId, ctypes.c_ulonglong, capture_id)


def hipThreadExchangeStreamCaptureMode(mode):
    """Swap this thread's capture mode with *mode (in and out)."""
    if not mode:
        raise HipError(E.hipErrorInvalidValue, "hipThreadExchangeStreamCaptureMode: mode is NULL")
    _put(mode, ctypes.c_int, int(hip.hipThreadExchangeStreamCaptureMode(
        ctypes.c_int.from_address(mode).value)))


# a bad graph, node or executable graph handle is hipErrorInvalidValue, as in ROCm clr
def _graph(handle: int, api: str) -> Any:
    return HANDLES.get(handle or 0, hip.Graph, f"hipGraph_t ({api})", E.hipErrorInvalidValue)


def _node(handle: int, api: str) -> Any:
    return HANDLES.get(handle or 0, hip.GraphNode, f"hipGraphNode_t ({api})",
                       E.hipErrorInvalidValue)


def _exec(handle: int, api: str) -> Any:
    return HANDLES.get(handle or 0, hip.GraphExec, f"hipGraphExec_t ({api})",
                       E.hipErrorInvalidValue)


def _nodes(array: int, count: int, api: str) -> list:
    """The nodes of a C array of ``count`` hipGraphNode_t."""
    if count and not array:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: {count} dependencies, but the array pointer is NULL")
    handles = (ctypes.c_void_p * int(count)).from_address(array) if count else []
    return [_node(h or 0, api) for h in handles]


def _added(pGraphNode: int, node: Any) -> None:
    _put(pGraphNode, ctypes.c_void_p, HANDLES.of(node))


def hipGraphCreate(pGraph, flags):
    _put(pGraph, ctypes.c_void_p, HANDLES.of(hip.hipGraphCreate(int(flags))))


def hipGraphDestroy(graph):
    hip.hipGraphDestroy(_graph(graph, "hipGraphDestroy"))


def hipGraphClone(pGraphClone, originalGraph):
    _put(pGraphClone, ctypes.c_void_p,
         HANDLES.of(hip.hipGraphClone(_graph(originalGraph, "hipGraphClone"))))


def _kernel_params(address: int, api: str) -> Any:
    """A C hipKernelNodeParams as gpusim.hip's: the kernel its ``func`` (host stub)
    names, its ``kernelParams`` (or ``extra``) read now, as HIP copies them when the node
    is made, and converted as a launch converts them."""
    from gpusim.hipcc.program import current, launch_params
    from gpusim.hipcc.shim import read_struct

    if not address:
        raise HipError(E.hipErrorInvalidValue, f"{api}: pNodeParams is NULL")
    p = read_struct("hipKernelNodeParams", address)
    prog = current()
    kernel = prog.kernel(prog.kernel_at(p["func"] or 0, api))
    values = launch_params(kernel, p["kernelParams"] or 0, p["extra"] or 0)
    args = (*kernel.c_args(values), *kernel.module.device_globals(prog))
    dims = [tuple(p[f"{d}.{c}"] for c in "xyz") for d in ("gridDim", "blockDim")]
    return hip.hipKernelNodeParams(kernel, *dims, args, int(p["sharedMemBytes"]))


def hipGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, pNodeParams):
    api = "hipGraphAddKernelNode"
    _added(pGraphNode, hip.hipGraphAddKernelNode(
        _graph(graph, api), _nodes(pDependencies, numDependencies, api),
        _kernel_params(pNodeParams, api)))


def hipGraphAddMemcpyNode1D(pGraphNode, graph, pDependencies, numDependencies, dst, src,
                            count, kind):
    api = "hipGraphAddMemcpyNode1D"
    n = int(count)
    _added(pGraphNode, hip.hipGraphAddMemcpyNode1D(
        _graph(graph, api), _nodes(pDependencies, numDependencies, api),
        memory(dst, n, f"{api}: dst"), memory(src, n, f"{api}: src"), n, int(kind)))


def hipGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, pMemsetParams):
    from gpusim.hipcc.shim import read_struct

    api = "hipGraphAddMemsetNode"
    if not pMemsetParams:
        raise HipError(E.hipErrorInvalidValue, f"{api}: pMemsetParams is NULL")
    p = read_struct("hipMemsetParams", pMemsetParams)
    params = hip.hipMemsetParams(p["dst"] or 0, p["value"], p["elementSize"], p["width"],
                                 p["height"], p["pitch"])
    _added(pGraphNode, hip.hipGraphAddMemsetNode(
        _graph(graph, api), _nodes(pDependencies, numDependencies, api), params))


def hipGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, pNodeParams):
    from gpusim.hipcc.shim import read_struct

    api = "hipGraphAddHostNode"
    p = read_struct("hipHostNodeParams", pNodeParams) if pNodeParams else {}
    if not p.get("fn"):
        raise HipError(E.hipErrorInvalidValue, f"{api}: pNodeParams->fn is NULL")
    call = _CALLBACKS["host"](p["fn"])
    host_fn = lambda data: call(data)  # noqa: E731 - keeps the C callback alive
    host_fn.__name__ = "hipGraphHostNode"
    _added(pGraphNode, hip.hipGraphAddHostNode(
        _graph(graph, api), _nodes(pDependencies, numDependencies, api),
        hip.hipHostNodeParams(host_fn, p["userData"])))


def hipGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies):
    api = "hipGraphAddEmptyNode"
    _added(pGraphNode, hip.hipGraphAddEmptyNode(_graph(graph, api),
                                                _nodes(pDependencies, numDependencies, api)))


def hipGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, pNodeParams):
    """A memory allocation node; its address is written to pNodeParams->dptr (the memory
    is made now: gpusim.runtime.graphs.hipMemAllocNodeParams)."""
    from gpusim.hipcc.shim import offset_of, read_struct
    from gpusim.runtime.graphs import T, allocate

    api = "hipGraphAddMemAllocNode"
    if not pNodeParams:
        raise HipError(E.hipErrorInvalidValue, f"{api}: pNodeParams is NULL")
    p = read_struct("hipMemAllocNodeParams", pNodeParams)
    if p["poolProps.location.type"] != 1:  # hipMemLocationTypeDevice
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: poolProps.location.type must be hipMemLocationTypeDevice")
    g = _graph(graph, api)
    deps = _nodes(pDependencies, numDependencies, api)
    params = allocate(p["bytesize"], p["poolProps.location.id"], api)
    node = g.add(T.hipGraphNodeTypeMemAlloc, params, deps, name=api, device=params.device,
                 origin=api)
    _put(pNodeParams + offset_of("hipMemAllocNodeParams", "dptr"), ctypes.c_void_p,
         params.dptr)
    _added(pGraphNode, node)


def hipGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, dev_ptr):
    from gpusim.runtime.graphs import T, allocation_of

    api = "hipGraphAddMemFreeNode"
    g = _graph(graph, api)
    if allocation_of(g, dev_ptr or 0) is None:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: {dev_ptr or 0:#x} is not memory a memory allocation node of "
                       "this graph made (hipGraphAddMemAllocNode)")
    _added(pGraphNode, g.add(T.hipGraphNodeTypeMemFree, int(dev_ptr), _nodes(
        pDependencies, numDependencies, api), name=api, origin=api))


def hipGraphAddDependencies(graph, from_, to, numDependencies):
    api = "hipGraphAddDependencies"
    hip.hipGraphAddDependencies(_graph(graph, api), _nodes(from_, numDependencies, api),
                                _nodes(to, numDependencies, api))


def hipGraphGetNodes(graph, nodes, numNodes):
    """With ``nodes`` NULL, *numNodes = the node count; else up to *numNodes handles, the
    rest of the array NULL, and *numNodes = how many were written."""
    if not numNodes:
        raise HipError(E.hipErrorInvalidValue, "hipGraphGetNodes: numNodes is NULL")
    found = hip.hipGraphGetNodes(_graph(graph, "hipGraphGetNodes"))
    room = ctypes.c_size_t.from_address(numNodes).value
    if nodes:
        out = (ctypes.c_void_p * room).from_address(nodes)
        for k in range(room):
            out[k] = HANDLES.of(found[k]) if k < len(found) else None
    _put(numNodes, ctypes.c_size_t, min(room, len(found)) if nodes else len(found))


def hipGraphNodeGetType(node, pType):
    _put(pType, ctypes.c_int, int(hip.hipGraphNodeGetType(_node(node, "hipGraphNodeGetType"))))


def hipGraphKernelNodeSetParams(node, pNodeParams):
    api = "hipGraphKernelNodeSetParams"
    hip.hipGraphKernelNodeSetParams(_node(node, api), _kernel_params(pNodeParams, api))


def hipGraphInstantiate(pGraphExec, graph, pErrorNode, pLogBuffer, bufferSize):
    if pErrorNode:
        _put(pErrorNode, ctypes.c_void_p, 0)
    _put(pGraphExec, ctypes.c_void_p,
         HANDLES.of(hip.hipGraphInstantiate(_graph(graph, "hipGraphInstantiate"))))


def hipGraphInstantiateWithFlags(pGraphExec, graph, flags):
    api = "hipGraphInstantiateWithFlags"
    _put(pGraphExec, ctypes.c_void_p,
         HANDLES.of(hip.hipGraphInstantiateWithFlags(_graph(graph, api), int(flags))))


def hipGraphLaunch(graphExec, stream_):
    hip.hipGraphLaunch(_exec(graphExec, "hipGraphLaunch"), stream(stream_))


def hipGraphUpload(graphExec, stream_):
    hip.hipGraphUpload(_exec(graphExec, "hipGraphUpload"), stream(stream_))


def hipGraphExecDestroy(graphExec):
    hip.hipGraphExecDestroy(_exec(graphExec, "hipGraphExecDestroy"))
    HANDLES.drop(graphExec)


def hipGraphExecKernelNodeSetParams(hGraphExec, node, pNodeParams):
    api = "hipGraphExecKernelNodeSetParams"
    hip.hipGraphExecKernelNodeSetParams(_exec(hGraphExec, api), _node(node, api),
                                        _kernel_params(pNodeParams, api))


def hipGraphExecUpdate(hGraphExec, hGraph, hErrorNode_out, updateResult_out):
    """HIP's out-parameters are written on failure too (hipErrorGraphExecUpdateFailure)."""
    api = "hipGraphExecUpdate"
    try:
        result, node = hip.hipGraphExecUpdate(_exec(hGraphExec, api), _graph(hGraph, api))
    except HipError as err:
        if getattr(err, "update_result", None) is None:
            raise
        result, node = err.update_result, err.error_node
        _update_outs(hErrorNode_out, updateResult_out, result, node)
        raise
    _update_outs(hErrorNode_out, updateResult_out, result, node)


def _update_outs(node_out: int, result_out: int, result: Any, node: Any) -> None:
    if node_out:
        _put(node_out, ctypes.c_void_p, HANDLES.of(node) if node is not None else 0)
    if result_out:
        _put(result_out, ctypes.c_int, int(result))


# ---- kernels
def __gpusim_launch(kernel, stub, args, grid, block, shared, stream_):
    from gpusim.hipcc.program import current

    current().launch(_text(kernel), args, _dim3(grid), _dim3(block), int(shared),
                     stream(stream_))


def _dim3(address: int) -> tuple[int, int, int]:
    return tuple((ctypes.c_uint32 * 3).from_address(address))


def hipLaunchKernel(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream_):
    from gpusim.hipcc.program import current

    prog = current()
    prog.launch(prog.kernel_at(function_address, "hipLaunchKernel"), args, _dim3(numBlocks),
                _dim3(dimBlocks), int(sharedMemBytes), stream(stream_))


def hipLaunchCooperativeKernel(f, gridDim, blockDimX, kernelParams, sharedMemBytes, stream_):
    """``hipLaunchKernel`` as a cooperative launch: all its blocks are resident at once, so
    a grid sync (``this_grid().sync()``) can complete. As ROCm's runtime does, a grid with
    more blocks than the device holds at once (the occupancy calculator's blocks per CU
    times the CU count) is refused with ``hipErrorCooperativeLaunchTooLarge``."""
    from gpusim.hipcc.program import current

    prog = current()
    name = prog.kernel_at(f, "hipLaunchCooperativeKernel")
    grid, block = _dim3(gridDim), _dim3(blockDimX)
    threads, blocks = math.prod(block), math.prod(grid)
    per_cu = hip.hipOccupancyMaxActiveBlocksPerMultiprocessor(prog.kernel(name), threads,
                                                             int(sharedMemBytes))
    props = hip.hipGetDeviceProperties(hip.hipGetDevice())
    most = per_cu * props.multiProcessorCount
    if blocks > most:
        raise HipError(E.hipErrorCooperativeLaunchTooLarge,
                       f"hipLaunchCooperativeKernel: kernel '{name}' launched with {blocks} "
                       f"blocks of {threads} threads, but a cooperative launch needs every "
                       f"block resident at once and {props.name} holds at most {most} "
                       f"({per_cu} per CU x {props.multiProcessorCount} CUs); launch fewer "
                       "blocks (hipOccupancyMaxActiveBlocksPerMultiprocessor x "
                       "multiProcessorCount) and loop over the data in the kernel")
    prog.launch(name, kernelParams, grid, block, int(sharedMemBytes), stream(stream_))


def hipFuncGetAttributes(attr, func):
    from gpusim.hipcc.program import current
    from gpusim.hipcc.shim import write_struct

    kernel = current().kernel(current().kernel_at(func, "hipFuncGetAttributes"))
    write_struct("hipFuncAttributes", attr, func_attributes(kernel))


def hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize,
                                                 dynSharedMemPerBlk):
    from gpusim.hipcc.program import current

    api = "hipOccupancyMaxActiveBlocksPerMultiprocessor"
    kernel = current().kernel(current().kernel_at(f, api))
    _put(numBlocks, ctypes.c_int, hip.hipOccupancyMaxActiveBlocksPerMultiprocessor(
        kernel, int(blockSize), int(dynSharedMemPerBlk)))


def hipOccupancyMaxPotentialBlockSize(gridSize, blockSize, f, dynSharedMemPerBlk,
                                      blockSizeLimit):
    from gpusim.hipcc.program import current

    kernel = current().kernel(current().kernel_at(f, "hipOccupancyMaxPotentialBlockSize"))
    grid, block = hip.hipOccupancyMaxPotentialBlockSize(kernel, int(dynSharedMemPerBlk),
                                                        int(blockSizeLimit))
    _put(gridSize, ctypes.c_int, grid)
    _put(blockSize, ctypes.c_int, block)


def hipModuleLoad(module, fname):
    from gpusim.hipcc.program import load_module

    _put(module, ctypes.c_void_p, HANDLES.new(load_module(_text(fname))))


def hipModuleLoadData(module, image):
    from gpusim.hipcc.program import load_module

    _put(module, ctypes.c_void_p, HANDLES.new(load_module(image=_text(image))))


def hipModuleUnload(module):
    HANDLES.drop(module)


def hipModuleGetFunction(function, module, kname):
    from gpusim.hipcc.module import Module

    mod = HANDLES.get(module, Module, "module")
    kernel = mod.get_kernel(_text(kname))
    _put(function, ctypes.c_void_p, HANDLES.new(kernel))


def hipModuleLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                          sharedMemBytes, stream_, kernelParams, extra):
    from gpusim.hipcc.launch import CppKernel
    from gpusim.hipcc.program import launch_params

    kernel = HANDLES.get(f, CppKernel, "function")
    args = launch_params(kernel, kernelParams, extra)
    kernel.launch((gridDimX, gridDimY, gridDimZ), (blockDimX, blockDimY, blockDimZ), args,
                  stream=stream(stream_), shared_bytes=int(sharedMemBytes),
                  hidden=kernel.module.device_globals(None))


def hipModuleGetGlobal(dptr, bytes, hmod, name):  # noqa: A002 - HIP's parameter name
    from gpusim.hipcc.module import Module

    var = HANDLES.get(hmod, Module, "module").variable(_text(name))
    if dptr:
        _put(dptr, ctypes.c_void_p, var.address())
    if bytes:
        _put(bytes, ctypes.c_size_t, var.nbytes)


_FUNC_ATTRIBUTES = {0: "maxThreadsPerBlock", 1: "sharedSizeBytes", 2: "constSizeBytes",
                    3: "localSizeBytes", 4: "numRegs", 5: "ptxVersion", 6: "binaryVersion",
                    7: "cacheModeCA", 8: "maxDynamicSharedSizeBytes",
                    9: "preferredShmemCarveout"}


def hipFuncGetAttribute(value, attrib, hfunc):
    from gpusim.hipcc.launch import CppKernel

    kernel = HANDLES.get(hfunc, CppKernel, "function")
    field = _FUNC_ATTRIBUTES.get(int(attrib))
    if field is None:
        raise HipError(E.hipErrorInvalidValue, f"hipFuncGetAttribute: attribute {attrib} "
                       "is not a hipFunction_attribute")
    _put(value, ctypes.c_int, int(func_attributes(kernel)[field]))


def func_attributes(kernel: Any) -> dict[str, int]:
    """hipFuncAttributes of a kernel, from LLVM's AMDGPU compile of it."""
    res = kernel.resources()
    return {"binaryVersion": 0, "cacheModeCA": 0, "constSizeBytes": 0,
            "localSizeBytes": int(res.get("scratch_bytes", 0)),
            "maxDynamicSharedSizeBytes": 65536, "maxThreadsPerBlock": 1024,
            "numRegs": int(res.get("vgprs", 0)), "preferredShmemCarveout": 0,
            "ptxVersion": 0, "sharedSizeBytes": int(res.get("lds_bytes", 0))}


def hipModuleOccupancyMaxPotentialBlockSize(gridSize, blockSize, f, dynSharedMemPerBlk,
                                            blockSizeLimit):
    from gpusim.hipcc.launch import CppKernel

    kernel = HANDLES.get(f, CppKernel, "function")
    grid, block = hip.hipOccupancyMaxPotentialBlockSize(kernel, int(dynSharedMemPerBlk),
                                                        int(blockSizeLimit))
    _put(gridSize, ctypes.c_int, grid)
    _put(blockSize, ctypes.c_int, block)



# ---- hiprtc: run-time compilation; a program's code is a gpusim code object
class RtcProgram:
    """A hiprtcProgram: its source, in-memory headers, and after compiling, log and code."""

    def __init__(self, source: str, name: str, headers: dict[str, str]):
        self.source, self.name, self.headers = source, name or "program.hip", headers
        self.log = ""
        self.code = b""


_RTC_ERRORS = ["HIPRTC_SUCCESS", "HIPRTC_ERROR_OUT_OF_MEMORY",
               "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE", "HIPRTC_ERROR_INVALID_INPUT",
               "HIPRTC_ERROR_INVALID_PROGRAM", "HIPRTC_ERROR_INVALID_OPTION",
               "HIPRTC_ERROR_COMPILATION", "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE",
               "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
               "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
               "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID", "HIPRTC_ERROR_INTERNAL_ERROR"]


def hiprtcGetErrorString(result):
    k = int(result)
    return _c_string("rtc", k, _RTC_ERRORS[k] if 0 <= k < len(_RTC_ERRORS) else "unknown")


def hiprtcVersion(major, minor):
    _put(major, ctypes.c_int, _VERSION // 10_000_000)
    _put(minor, ctypes.c_int, _VERSION // 100_000 % 100)
    return 0


def hiprtcCreateProgram(prog, src, name, numHeaders, headers, includeNames):
    if not prog or not src:
        return 3
    texts = ctypes.cast(headers, ctypes.POINTER(ctypes.c_char_p)) if headers else None
    names = ctypes.cast(includeNames, ctypes.POINTER(ctypes.c_char_p)) if includeNames else None
    found = {names[k].decode(): texts[k].decode() for k in range(int(numHeaders))} \
        if texts and names else {}
    _put(prog, ctypes.c_void_p, HANDLES.new(RtcProgram(_text(src), _text(name), found)))
    return 0


def hiprtcDestroyProgram(prog):
    if not prog:
        return 3
    handle = ctypes.c_void_p.from_address(prog).value or 0
    if not isinstance(HANDLES.objects.get(handle), RtcProgram):
        return 4
    HANDLES.drop(handle)
    return 0


def _rtc(prog: int) -> RtcProgram | None:
    found = HANDLES.objects.get(prog)
    return found if isinstance(found, RtcProgram) else None


def hiprtcCompileProgram(prog, numOptions, options):
    """Compile the device code now (errors go to the log); headers given in memory are
    written to a folder of the cache, as files of that name."""
    import hashlib
    import json
    from pathlib import Path

    from gpusim.config import config
    from gpusim.errors import KernelCompileError
    from gpusim.hipcc.module import compile as hip_compile

    p = _rtc(prog)
    if p is None:
        return 4
    opts = ctypes.cast(options, ctypes.POINTER(ctypes.c_char_p)) if options else None
    words = [opts[k].decode() for k in range(int(numOptions))] if opts else []
    defines = [w for w in words if w.startswith("-D")]
    std = next((w.split("=", 1)[1] for w in words if w.startswith(("-std=", "--std="))),
               "c++17")
    key = hashlib.sha256(json.dumps(p.headers, sort_keys=True).encode()).hexdigest()[:16]
    folder = Path(config.cache_dir) / "hipcc" / "rtc" / key
    for name, text in p.headers.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    includes = [str(folder)] + [w[2:] for w in words if w.startswith("-I")]
    try:
        hip_compile(p.source, filename=p.name, include_dirs=includes, defines=defines, std=std,
                    host=False)
    except KernelCompileError as e:
        p.log = str(e) + "\n"
        return 6
    p.log = ""
    p.code = json.dumps({"gpusim_code_object": 1, "source": p.name,
                         "text": p.source.encode("utf-8", "surrogateescape").decode("latin-1"),
                         "include": includes, "defines": defines, "std": std,
                         "units": []}).encode() + b"\0"
    return 0


def hiprtcGetProgramLogSize(prog, logSizeRet):
    p = _rtc(prog)
    if p is None:
        return 4
    _put(logSizeRet, ctypes.c_size_t, len(p.log.encode()) + 1)
    return 0


def hiprtcGetProgramLog(prog, log):
    p = _rtc(prog)
    if p is None:
        return 4
    data = p.log.encode() + b"\0"
    ctypes.memmove(log, data, len(data))
    return 0


def hiprtcGetCodeSize(prog, codeSizeRet):
    p = _rtc(prog)
    if p is None or not p.code:
        return 4
    _put(codeSizeRet, ctypes.c_size_t, len(p.code))
    return 0


def hiprtcGetCode(prog, code):
    p = _rtc(prog)
    if p is None or not p.code:
        return 4
    ctypes.memmove(code, p.code, len(p.code))
    return 0


# ---- arrays and texture objects: gpusim/hipcc/textures.py (imported last: it reads this
# module's helpers when called)
from gpusim.hipcc.textures import (  # noqa: E402, F401 - the shim looks them up here
    hipArrayGetInfo,
    hipCreateTextureObject,
    hipDestroyTextureObject,
    hipFreeArray,
    hipGetChannelDesc,
    hipGetTextureObjectResourceDesc,
    hipGetTextureObjectTextureDesc,
    hipMalloc3DArray,
    hipMallocArray,
    hipMemcpy2DFromArray,
    hipMemcpy2DToArray,
    hipMemcpy3D,
    hipMemcpyFromArray,
    hipMemcpyToArray,
    hipMemset2D,
)
