"""``DeviceSpec``: one emulated GPU as an immutable record, units in the field names.

A spec is plain data read from a profile file (``profiles/<key>.toml``). Derived
numbers (SIMDs per device, waves per CU, cache sets, ...) are properties computed
from the stored fields, never stored themselves, so a profile cannot contradict itself.

Every field carries its public source in ``spec.sources[field_name]``.

Constructing a ``DeviceSpec`` directly (or through ``dataclasses.replace``) runs the
same value checks as loading a file, so a hand-made "tiny GPU" for a test is held to
the same rules as a shipped profile:

>>> from gpusim.devices import get_spec
>>> import dataclasses
>>> tiny = dataclasses.replace(get_spec("mi300x"), key="tiny", cu_count=2, xcd_count=1)
>>> tiny.simd_count
8
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Profile files are grouped into these TOML tables, in this order.
GROUPS: tuple[str, ...] = (
    "identity",
    "compute",
    "registers",
    "lds",
    "launch",
    "caches",
    "memory",
    "links",
)

_GFX_TARGET = re.compile(r"^gfx(?P<major>[0-9]{1,2})(?P<minor>[0-9a-f])(?P<stepping>[0-9a-f])$")


def _f(group: str, doc: str) -> Any:
    """A profile field: which TOML table it lives in and what it means."""
    return field(metadata={"group": group, "doc": doc})


@dataclass(frozen=True)
class DeviceSpec:
    """Hardware description of one emulated GPU (one HIP device).

    Field names carry their units (``_bytes``, ``_mhz``, ``_gbs`` = GB/s,
    ``_tflops``); counts are plain. ``sources`` maps each field name to the public
    document it was taken from, or to ``"model assumption: ..."``.

    >>> from gpusim.devices import get_spec
    >>> spec = get_spec("mi300x")
    >>> spec.cu_count, spec.wave_size, spec.max_waves_per_cu
    (304, 64, 32)
    >>> spec.sources["cu_count"].startswith("ROCm docs")
    True
    """

    # identity
    key: str = _f("identity", "profile key used by get_spec / set_system, e.g. 'mi300x'")
    name: str = _f("identity", "marketing name, as hipDeviceProp_t.name")
    gcn_arch_name: str = _f("identity", "LLVM target ID, as hipDeviceProp_t.gcnArchName")
    gfx_target: str = _f("identity", "LLVM processor name, e.g. gfx942")
    family: str = _f("identity", "architecture family: CDNA, CDNA2, CDNA3, RDNA3, ...")
    compute_capability: tuple[int, int] = _f(
        "identity", "(major, minor) as hipDeviceProp_t.major / .minor"
    )
    # compute
    cu_count: int = _f("compute", "compute units (hipDeviceProp_t.multiProcessorCount)")
    xcd_count: int = _f("compute", "accelerator complex dies (1 when not a chiplet design)")
    simds_per_cu: int = _f("compute", "SIMD units per compute unit")
    wave_size: int = _f("compute", "lanes per wavefront (hipDeviceProp_t.warpSize)")
    max_waves_per_simd: int = _f("compute", "wavefront slots per SIMD")
    clock_mhz: int = _f("compute", "peak engine clock (hipDeviceProp_t.clockRate / 1000)")
    fp32_tflops: float = _f("compute", "peak FP32 vector throughput")
    fp64_tflops: float = _f("compute", "peak FP64 vector throughput")
    matrix_fp64_tflops: float = _f(
        "compute", "peak FP64 matrix-core (MFMA) throughput; 0 when there is none"
    )
    matrix_fp32_tflops: float = _f(
        "compute", "peak FP32 matrix-core (MFMA) throughput; 0 when there is none"
    )
    matrix_fp16_tflops: float = _f("compute", "peak FP16 matrix throughput (MFMA / WMMA)")
    matrix_bf16_tflops: float = _f("compute", "peak BF16 matrix throughput (MFMA / WMMA)")
    matrix_int8_tops: float = _f("compute", "peak INT8 matrix throughput (MFMA / WMMA), TOPS")
    mfma_load_clock_mhz: int = _f(
        "compute", "engine clock under a dense 16-bit matrix-core GEMM (median, power-capped); "
        "clock_mhz where no measurement is published"
    )
    # registers
    vgprs_per_simd_lane: int = _f(
        "registers", "VGPRs per lane in one SIMD's register file (VGPR+AGPR when unified)"
    )
    agprs_per_simd_lane: int = _f(
        "registers", "separate AGPR file per lane (0 when unified or absent)"
    )
    unified_agprs: bool = _f("registers", "AGPRs are allocated from the VGPR file")
    vgpr_alloc_granule: int = _f("registers", "VGPRs are allocated in blocks of this many")
    max_vgprs_per_wave_lane: int = _f("registers", "most VGPRs (incl. AGPRs) one wave may use")
    sgprs_per_simd: int = _f("registers", "SGPRs in one SIMD's scalar register file")
    sgpr_limit_per_wave: int = _f("registers", "most addressable SGPRs per wave")
    # lds
    lds_bytes_per_cu: int = _f("lds", "LDS capacity per compute unit")
    lds_bytes_per_workgroup_max: int = _f(
        "lds", "most LDS one workgroup may allocate (hipDeviceProp_t.sharedMemPerBlock)"
    )
    lds_alloc_granule_bytes: int = _f("lds", "LDS is allocated per workgroup in these blocks")
    lds_banks: int = _f("lds", "LDS banks")
    lds_bank_width_bytes: int = _f("lds", "bytes per LDS bank")
    lds_bytes_per_clock_per_cu: int = _f("lds", "peak LDS bandwidth per CU per clock")
    # launch
    max_threads_per_block: int = _f("launch", "hipDeviceProp_t.maxThreadsPerBlock")
    max_block_dims: tuple[int, int, int] = _f("launch", "hipDeviceProp_t.maxThreadsDim")
    max_grid_dims: tuple[int, int, int] = _f("launch", "hipDeviceProp_t.maxGridSize")
    max_workgroups_per_cu: int = _f(
        "launch", "resident multi-wave workgroups per CU (barrier resources)"
    )
    # caches
    l1_bytes: int = _f("caches", "vector L1 data cache per CU (L0 on RDNA)")
    l1_line_bytes: int = _f("caches", "vector L1 cache line")
    l1_ways: int = _f("caches", "vector L1 associativity")
    l2_bytes: int = _f("caches", "L2 per XCD (hipDeviceProp_t.l2CacheSize)")
    l2_line_bytes: int = _f("caches", "L2 cache line")
    l2_ways: int = _f("caches", "L2 associativity")
    l2_channels: int = _f("caches", "L2 channels per XCD")
    infinity_cache_bytes: int = _f("caches", "Infinity Cache (MALL), 0 when absent")
    infinity_cache_line_bytes: int = _f("caches", "Infinity Cache line, 0 when absent")
    l1_bytes_per_clock_per_cu: int = _f("caches", "peak vector L1 bandwidth per CU per clock")
    l2_bytes_per_clock_per_channel: int = _f("caches", "peak L2 bandwidth per channel per clock")
    infinity_cache_gbs: float = _f("caches", "peak Infinity Cache bandwidth, GB/s; 0 if absent")
    # memory
    memory_bytes: int = _f("memory", "device memory (hipDeviceProp_t.totalGlobalMem)")
    memory_bandwidth_gbs: float = _f("memory", "peak device memory bandwidth, GB/s")
    memory_clock_mhz: int = _f("memory", "memory clock (hipDeviceProp_t.memoryClockRate / 1000)")
    memory_bus_width_bits: int = _f("memory", "memory interface width")
    # links
    host_link: str = _f("links", "host interface, e.g. 'PCIe 5.0 x16'")
    host_link_pinned_gbs: float = _f("links", "host<->device copy rate from pinned memory")
    host_link_pageable_gbs: float = _f("links", "host<->device copy rate from pageable memory")
    peer_link_gbs: float = _f(
        "links", "GPU<->GPU link (Infinity Fabric / xGMI), per link, per direction; 0 if none"
    )
    peer_links_per_gpu: int = _f(
        "links", "Infinity Fabric links from one GPU to other GPUs (in and out of its package)"
    )
    gpus_per_package: int = _f("links", "HIP devices per package (2 GCDs on MI250X, else 1)")
    in_package_links: int = _f("links", "Infinity Fabric links between the GPUs of one package")
    hive_gpus: int = _f("links", "GPUs one Infinity Fabric hive joins (the platform's GPUs)")
    fully_connected: bool = _f(
        "links", "every GPU of a hive has a direct link to every other (else: package ring)"
    )
    sdma_engines: int = _f(
        "links", "SDMA (copy) engines of one HIP device, PCIe and xGMI together: how many "
        "streams can each have a copy engine of their own"
    )

    # Not a profile field: where each value came from.
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, repr=False, metadata={"group": None}
    )

    def __post_init__(self) -> None:
        from gpusim.devices.validate import check_values  # validate imports this module

        values = {name: getattr(self, name) for name in profile_field_names()}
        check_values(values, origin=f"DeviceSpec({self.key!r})")
        # Freeze the containers a caller may have passed as lists / dicts.
        for name in ("compute_capability", "max_block_dims", "max_grid_dims"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "sources", types.MappingProxyType(dict(self.sources)))

    # ---- derived values (computed, never stored) -------------------------------

    @property
    def simd_count(self) -> int:
        """SIMD units on the device."""
        return self.cu_count * self.simds_per_cu

    @property
    def cus_per_xcd(self) -> int:
        """Compute units per XCD (all of them when not a chiplet design)."""
        return self.cu_count // self.xcd_count

    @property
    def is_chiplet(self) -> bool:
        """True when the device is built from several XCDs (MI300X)."""
        return self.xcd_count > 1

    @property
    def is_wave32(self) -> bool:
        """True when kernels run in 32-lane wavefronts (RDNA under HIP)."""
        return self.wave_size == 32

    @property
    def max_waves_per_cu(self) -> int:
        """Wavefront slots per CU."""
        return self.max_waves_per_simd * self.simds_per_cu

    @property
    def max_threads_per_cu(self) -> int:
        """Resident threads per CU (hipDeviceProp_t.maxThreadsPerMultiProcessor)."""
        return self.max_waves_per_cu * self.wave_size

    @property
    def max_waves_per_block(self) -> int:
        """Wavefronts in the largest workgroup."""
        return -(-self.max_threads_per_block // self.wave_size)

    @property
    def vgpr_file_bytes_per_simd(self) -> int:
        """Bytes of vector registers (VGPR + AGPR files) in one SIMD."""
        lanes_bytes = self.wave_size * 4
        return (self.vgprs_per_simd_lane + self.agprs_per_simd_lane) * lanes_bytes

    @property
    def lds_banks_bytes(self) -> int:
        """Bytes the LDS banks serve per clock (banks x bank width)."""
        return self.lds_banks * self.lds_bank_width_bytes

    @property
    def l1_sets(self) -> int:
        """Sets in one vector L1 cache."""
        return self.l1_bytes // (self.l1_line_bytes * self.l1_ways)

    @property
    def l2_sets(self) -> int:
        """Sets in one XCD's L2 (all channels together)."""
        return self.l2_bytes // (self.l2_line_bytes * self.l2_ways)

    @property
    def l2_bytes_per_channel(self) -> int:
        """Capacity of one L2 channel."""
        return self.l2_bytes // self.l2_channels

    @property
    def l2_bytes_total(self) -> int:
        """L2 summed over all XCDs."""
        return self.l2_bytes * self.xcd_count

    @property
    def has_infinity_cache(self) -> bool:
        """True when the device has an Infinity Cache (MALL)."""
        return self.infinity_cache_bytes > 0

    @property
    def memory_gib(self) -> float:
        """Device memory in GiB."""
        return self.memory_bytes / 2**30

    @property
    def fp32_flops_per_clock_per_cu(self) -> float:
        """Peak FP32 FLOPs per clock per CU implied by fp32_tflops and clock_mhz."""
        return self.fp32_tflops * 1e12 / (self.cu_count * self.clock_mhz * 1e6)

    @property
    def fp64_flops_per_clock_per_cu(self) -> float:
        """Peak FP64 FLOPs per clock per CU implied by fp64_tflops and clock_mhz."""
        return self.fp64_tflops * 1e12 / (self.cu_count * self.clock_mhz * 1e6)

    @property
    def arch_version(self) -> tuple[int, int, int]:
        """(major, minor, stepping) decoded from gfx_target: gfx90a -> (9, 0, 10); a
        calibration target's CUDA name: sm_90 -> (9, 0, 0)."""
        if self.gfx_target.startswith("sm_"):
            return parse_sm_target(self.gfx_target)
        return parse_gfx_target(self.gfx_target)

    @property
    def is_calibration_target(self) -> bool:
        """True for a non-AMD GPU profiled only to calibrate the timing model (h200)."""
        return self.gfx_target.startswith("sm_")

    # ---- presentation --------------------------------------------------------

    def rows(self) -> list[tuple[str, str, Any, str]]:
        """(group, field, value, source) for every profile field, for docs and tables.

        >>> from gpusim.devices import get_spec
        >>> get_spec("mi100").rows()[6][1:3]
        ('cu_count', 120)
        """
        return [
            (_FIELD_GROUP[name], name, getattr(self, name), self.sources.get(name, ""))
            for name in profile_field_names()
        ]


# ---- field tables -------------------------------------------------------------

_PROFILE_FIELDS: tuple[dataclasses.Field, ...] = tuple(
    f for f in dataclasses.fields(DeviceSpec) if f.metadata.get("group") is not None
)
_FIELD_GROUP: dict[str, str] = {f.name: f.metadata["group"] for f in _PROFILE_FIELDS}
_FIELD_DOC: dict[str, str] = {f.name: f.metadata["doc"] for f in _PROFILE_FIELDS}
_FIELD_TYPE: dict[str, Any] = {
    name: tp for name, tp in typing.get_type_hints(DeviceSpec).items() if name in _FIELD_GROUP
}


def profile_field_names() -> tuple[str, ...]:
    """Names of the fields a profile file must give, in file order.

    >>> profile_field_names()[:3]
    ('key', 'name', 'gcn_arch_name')
    """
    return tuple(f.name for f in _PROFILE_FIELDS)


def field_group(name: str) -> str:
    """The TOML table a field belongs in.

    >>> field_group("cu_count")
    'compute'
    """
    return _FIELD_GROUP[name]


def field_doc(name: str) -> str:
    """One-line meaning of a field.

    >>> field_doc("l2_bytes")
    'L2 per XCD (hipDeviceProp_t.l2CacheSize)'
    """
    return _FIELD_DOC[name]


def field_type(name: str) -> Any:
    """The Python type a field holds.

    >>> field_type("cu_count"), field_type("max_grid_dims")
    (<class 'int'>, tuple[int, int, int])
    """
    return _FIELD_TYPE[name]


def parse_gfx_target(target: str) -> tuple[int, int, int]:
    """Decode an LLVM processor name into (major, minor, stepping).

    >>> parse_gfx_target("gfx942"), parse_gfx_target("gfx90a"), parse_gfx_target("gfx1100")
    ((9, 4, 2), (9, 0, 10), (11, 0, 0))
    """
    m = _GFX_TARGET.match(target)
    if m is None:
        raise ValueError(f"{target!r} is not an LLVM AMDGPU processor name like 'gfx942'")
    return int(m["major"]), int(m["minor"], 16), int(m["stepping"], 16)


def parse_sm_target(target: str) -> tuple[int, int, int]:
    """Decode a CUDA target name (a calibration target's gfx_target) into (major, minor, 0).

    >>> parse_sm_target("sm_90")
    (9, 0, 0)
    """
    m = re.fullmatch(r"sm_(\d)(\d)a?", target)
    if m is None:
        raise ValueError(f"{target!r} is not a CUDA target name like 'sm_90'")
    return int(m[1]), int(m[2]), 0
