"""Cooperative launches: how many work-groups a kernel with grid syncs may have.

A grid sync (``this_grid().sync()``, ``cuda.cg`` or ``hip.cg``) waits for every work-group
of the launch, so on a GPU every work-group must be resident at once: HIP's
``hipLaunchCooperativeKernel`` refuses a grid larger than *work-groups per CU x CUs* with
``hipErrorCooperativeLaunchTooLarge`` (ROCclr checks the grid against the occupancy
calculator's active blocks per multiprocessor times ``multiProcessorCount``; numba.cuda
makes every launch of a kernel that uses a grid group cooperative, and CUDA gives
``cudaErrorCooperativeLaunchTooLarge`` in the same case). gpusim applies the same limit
from its own occupancy model (``gpusim.occupancy_model``), with the kernel's LDS (static
+ dynamic) and the register counts of a minimal kernel (the AMDGPU back end that would
give the kernel's own counts is too slow to run at every launch), so the limit is an
upper bound of the device's.

The emulator itself could run any grid phase by phase (``compile/codegen/cooperative.py``);
the limit is kept so that a program that works here works on the GPU.

>>> from gpusim.devices import get_spec
>>> spec = get_spec("mi300x")
>>> max_cooperative_blocks(spec, block_threads=256)
2432
>>> max_cooperative_blocks(spec, block_threads=256, lds_bytes=40 * 1024)   # LDS-bound: 1/CU
304

Time: a cooperative launch is not traced (a traced sample of work-groups cannot pass a
grid sync on its own, ``trace/tracer.py``), so its time is the first-order roofline of
``timing.kernel_estimate`` plus ``grid_sync_seconds`` for every grid sync it executed
(counted by the generated code in ``ctl[7]``).
"""

from __future__ import annotations

from gpusim.devices import DeviceSpec
from gpusim.errors import HipError, hipError_t
from gpusim.occupancy_model.hipapi import hipOccupancyMaxActiveBlocksPerMultiprocessor
from gpusim.occupancy_model.rules import unit
from gpusim.timing import kernel_estimate
from gpusim.timing.kernel_model import ARCH

GRID_SYNC_SLOT = 7  # ctl[7]: grid syncs the launch executed (ctl[1:7] is the first fault)


def max_cooperative_blocks(spec: DeviceSpec, *, block_threads: int, lds_bytes: int = 0) -> int:
    """Most work-groups of ``block_threads`` threads using ``lds_bytes`` of LDS each that a
    cooperative launch on ``spec`` may have (0 if one does not fit)."""
    per_unit = hipOccupancyMaxActiveBlocksPerMultiprocessor(
        {"lds_bytes": lds_bytes}, block_threads, 0, spec)
    return per_unit * (spec.cu_count // unit(spec).cus)  # HIP's multiProcessorCount


def check_cooperative(name: str, grid: tuple[int, int, int], block: tuple[int, int, int],
                      lds_bytes: int, spec: DeviceSpec) -> None:
    """Raise ``HipError(hipErrorCooperativeLaunchTooLarge)`` if this launch of a kernel with
    grid syncs has more work-groups than can be resident on ``spec`` at once."""
    threads = block[0] * block[1] * block[2]
    blocks = grid[0] * grid[1] * grid[2]
    most = max_cooperative_blocks(spec, block_threads=threads, lds_bytes=lds_bytes)
    if blocks > most:
        raise HipError(hipError_t.hipErrorCooperativeLaunchTooLarge,
                       f"kernel '{name}' uses a grid sync (this_grid().sync()), so all its "
                       f"work-groups must be resident at once: {blocks} work-groups of "
                       f"{threads} threads ({lds_bytes} bytes of LDS each) were launched, but "
                       f"{spec.name} holds at most {most}; launch at most {most} "
                       "(hipOccupancyMaxActiveBlocksPerMultiprocessor(kernel, threads) x "
                       "multiProcessorCount; numba.cuda: kernel.overloads[sig]."
                       "max_cooperative_grid_blocks(blockdim)) and loop over the data in the "
                       "kernel (a grid-stride loop)")


def grid_sync_seconds(spec: DeviceSpec, blocks: int) -> float:
    """Modeled time of one grid sync of ``blocks`` work-groups.

    HIP's ``grid.sync()`` (``amd_hip_cooperative_groups.h``) is a block barrier, then one
    thread per work-group adds to a counter in global memory and spins until every
    work-group has arrived, then a second block barrier. Modeled: two barriers (an LDS
    round trip each), the work-groups' atomics one after another at the L2 channel that
    holds the counter, and two L2 round trips (the last arrival's add, the spinners' read
    that sees it); latencies and the atomic rate from ``timing.kernel_model.ARCH``.

    >>> from gpusim.devices import get_spec
    >>> round(grid_sync_seconds(get_spec("mi300x"), 32) * 1e6, 3)   # microseconds
    0.294
    """
    arch = ARCH.get(spec.gfx_target) or ARCH["gfx942"]
    lat = arch.latency_cycles
    cycles = 2 * lat["LDS"] + 2 * lat["L2"] + blocks * arch.atomic_request_cycles
    return cycles / (spec.clock_mhz * 1e6)


def cooperative_time(spec: DeviceSpec, *, threads: int, bytes_moved: int, blocks: int,
                     grid_syncs: int) -> tuple[float, dict]:
    """(seconds, breakdown) of a cooperative launch (see the module docstring).

    >>> from gpusim.devices import get_spec
    >>> t, why = cooperative_time(get_spec("mi300x"), threads=1024, bytes_moved=4096,
    ...                           blocks=32, grid_syncs=1000)
    >>> why["estimate"], why["grid_syncs"], round(why["grid_sync"] * 1e6)
    ('first-order+grid-sync', 1000, 294)
    """
    seconds, breakdown = kernel_estimate(spec, threads=threads, bytes_moved=bytes_moved)
    syncs = grid_syncs * grid_sync_seconds(spec, blocks)
    return seconds + syncs, {**breakdown, "grid_sync": syncs, "grid_syncs": grid_syncs,
                             "estimate": "first-order+grid-sync"}
