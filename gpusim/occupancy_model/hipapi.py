"""HIP's occupancy API as pure functions over ``occupancy()``.

``gpusim.hip`` re-exports these with the current device filled in. Out-parameters are
returned, and failures raise ``HipError`` with HIP's status code.

Where HIP's own estimate (``hip_platform.cpp``, ``ihipOccupancyMaxActiveBlocksPerMultiprocessor``)
is cruder than the hardware rules we use the rules, so both functions agree with
``occupancy()``: ROCclr caps gfx9 at 8 waves per SIMD ("limited by SPI 32 per CU"; gfx908
has 10 slots), rounds SGPRs to 16, ignores the 16-barrier workgroup limit and the LDS
allocation granule, and may return a block size above ``blockSizeLimit`` (it rounds the
limit up to a whole wave). Kept from HIP: a block larger than the device allows, or more
LDS than a workgroup may have, gives 0 blocks rather than an error; on RDNA in WGP mode a
"multiprocessor" is a WGP (ROCclr halves ``maxComputeUnits`` there).
"""

from __future__ import annotations

from typing import Any

from gpusim.devices import DEFAULT_DEVICE, DeviceSpec
from gpusim.errors import HipError, hipError_t
from gpusim.occupancy_model import rules
from gpusim.occupancy_model.calculator import Occupancy, kernel_resources, occupancy, resolve_device
from gpusim.occupancy_model.rules import OccupancyError


def _occupancy(kernel: Any, block_size: int, lds_total: int, spec: DeviceSpec) -> Occupancy:
    try:
        return occupancy(kernel, block_size=block_size, lds_bytes=lds_total, device=spec)
    except OccupancyError as err:
        raise HipError(hipError_t.hipErrorInvalidValue, str(err)) from None


def _total_lds(kernel: Any, dyn_shared_mem: int, spec: DeviceSpec, api: str) -> int:
    if dyn_shared_mem < 0:
        raise HipError(hipError_t.hipErrorInvalidValue, f"{api}: dynSharedMem is negative")
    return int(kernel_resources(kernel, spec).get("lds_bytes", 0)) + dyn_shared_mem


def hipOccupancyMaxActiveBlocksPerMultiprocessor(
    kernel: Any, blockSize: int, dynSharedMem: int = 0, device: str | DeviceSpec = DEFAULT_DEVICE
) -> int:
    """Workgroups of ``blockSize`` threads one CU (WGP on RDNA) holds at once.

    ``kernel`` is anything ``occupancy()`` accepts (None: a minimal kernel).

    >>> hipOccupancyMaxActiveBlocksPerMultiprocessor({"vgprs": 128}, 256)
    4
    >>> hipOccupancyMaxActiveBlocksPerMultiprocessor(None, 2048)   # too big: HIP says 0
    0
    """
    api = "hipOccupancyMaxActiveBlocksPerMultiprocessor"
    spec = resolve_device(device)
    if blockSize <= 0:
        raise HipError(hipError_t.hipErrorInvalidValue, f"{api}: blockSize must be positive")
    lds = _total_lds(kernel, dynSharedMem, spec, api)
    if blockSize > spec.max_threads_per_block or lds > spec.lds_bytes_per_workgroup_max:
        return 0
    return _occupancy(kernel, blockSize, lds, spec).workgroups_per_cu


def hipOccupancyMaxPotentialBlockSize(
    kernel: Any,
    dynSharedMem: int = 0,
    blockSizeLimit: int = 0,
    device: str | DeviceSpec = DEFAULT_DEVICE,
) -> tuple[int, int]:
    """``(minGridSize, blockSize)``: the block size with the most resident waves per CU
    (the largest such size on ties, as HIP prefers) and the grid that fills the device.

    ``blockSizeLimit`` 0 (or above the device's maximum) means the device's maximum;
    candidates are whole waves up to the limit, and the limit itself.

    >>> hipOccupancyMaxPotentialBlockSize(None)
    (608, 1024)
    >>> hipOccupancyMaxPotentialBlockSize({"vgprs": 96})   # 5 waves/SIMD: 640 fills 20 slots
    (608, 640)
    """
    api = "hipOccupancyMaxPotentialBlockSize"
    spec = resolve_device(device)
    lds = _total_lds(kernel, dynSharedMem, spec, api)
    if lds > spec.lds_bytes_per_workgroup_max:
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"{api}: {lds} bytes of LDS per block is more than the "
            f"{spec.lds_bytes_per_workgroup_max} a workgroup may allocate on {spec.key}",
        )
    limit = blockSizeLimit
    if limit <= 0 or limit > spec.max_threads_per_block:
        limit = spec.max_threads_per_block
    sizes = list(range(spec.wave_size, limit + 1, spec.wave_size))
    if limit % spec.wave_size:
        sizes.append(limit)
    best = max(
        (_occupancy(kernel, size, lds, spec) for size in sizes),
        key=lambda o: (o.waves_per_cu, o.block_size),
    )
    units = spec.cu_count // rules.unit(spec).cus
    return best.workgroups_per_cu * units, best.block_size
