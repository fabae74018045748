"""hipDeviceProp_t: a device's properties under HIP's field names and units.

Built from the device profile, so every figure traces back to a cited source in
``gpusim/devices/profiles``. Units are HIP's: clock rates in kHz, sizes in bytes.

>>> from gpusim.runtime.system import get_system
>>> p = device_properties(get_system().devices[0])
>>> p.name, p.multiProcessorCount, p.clockRate
('AMD Instinct MI300X', 304, 2100000)
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from gpusim.occupancy_model.rules import unit

# Values ROCm reports the same way on every AMD GPU (clr, device properties): each CU
# hosts at most 2048 resident work-items and offers a 64K 32-bit register budget to a
# block; there is no separate constant memory, so its "size" is the 2 GiB ROCm reports.
_MAX_THREADS_PER_CU = 2048
_REGS_PER_BLOCK = 65536
_CONST_MEM_BYTES = 2**31


@dataclass(frozen=True)
class hipDeviceProp_t:  # noqa: N801 - HIP's spelling
    """Device properties, field for field as in ``hipDeviceProp_t`` (hip_runtime_api.h)."""

    name: str
    gcnArchName: str
    totalGlobalMem: int
    sharedMemPerBlock: int
    regsPerBlock: int
    warpSize: int
    maxThreadsPerBlock: int
    maxThreadsDim: tuple[int, int, int]
    maxGridSize: tuple[int, int, int]
    clockRate: int
    memoryClockRate: int
    memoryBusWidth: int
    totalConstMem: int
    major: int
    minor: int
    multiProcessorCount: int
    l2CacheSize: int
    maxThreadsPerMultiProcessor: int
    sharedMemPerMultiprocessor: int
    maxSharedMemoryPerMultiProcessor: int
    regsPerMultiprocessor: int
    pciDomainID: int
    pciBusID: int
    pciDeviceID: int
    isMultiGpuBoard: int
    canMapHostMemory: int
    concurrentKernels: int
    managedMemory: int
    concurrentManagedAccess: int
    unifiedAddressing: int
    cooperativeLaunch: int
    asyncEngineCount: int
    integrated: int
    ECCEnabled: int
    computeMode: int

    def as_dict(self) -> dict[str, object]:
        """All fields by name (for tables in notebooks)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def device_properties(device) -> hipDeviceProp_t:
    """hipDeviceProp_t of an emulated ``Device`` (runtime.system.Device)."""
    spec = device.spec
    return hipDeviceProp_t(
        name=spec.name,
        gcnArchName=spec.gcn_arch_name,
        totalGlobalMem=spec.memory_bytes,
        sharedMemPerBlock=spec.lds_bytes_per_workgroup_max,
        regsPerBlock=_REGS_PER_BLOCK,
        warpSize=spec.wave_size,
        maxThreadsPerBlock=spec.max_threads_per_block,
        maxThreadsDim=tuple(spec.max_block_dims),
        maxGridSize=tuple(spec.max_grid_dims),
        clockRate=spec.clock_mhz * 1000,
        memoryClockRate=spec.memory_clock_mhz * 1000,
        memoryBusWidth=spec.memory_bus_width_bits,
        totalConstMem=_CONST_MEM_BYTES,
        major=spec.compute_capability[0],
        minor=spec.compute_capability[1],
        # RDNA in WGP mode: HIP counts a WGP (2 CUs) as a multiprocessor (ROCclr)
        multiProcessorCount=spec.cu_count // unit(spec).cus,
        l2CacheSize=spec.l2_bytes,
        maxThreadsPerMultiProcessor=_MAX_THREADS_PER_CU,
        sharedMemPerMultiprocessor=spec.lds_bytes_per_cu,
        maxSharedMemoryPerMultiProcessor=spec.lds_bytes_per_cu,
        regsPerMultiprocessor=_REGS_PER_BLOCK,
        pciDomainID=0,
        pciBusID=device.ordinal + 1,  # emulated bus numbers, one per GPU
        pciDeviceID=0,
        isMultiGpuBoard=0,
        canMapHostMemory=1,
        concurrentKernels=1,
        managedMemory=1,
        concurrentManagedAccess=1,
        unifiedAddressing=1,
        cooperativeLaunch=1,
        asyncEngineCount=2,  # one copy engine per direction
        integrated=0,
        ECCEnabled=int(spec.family.startswith("CDNA")),
        computeMode=0,
    )
