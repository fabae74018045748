"""Device profiles: the hardware numbers every other layer of the emulator reads.

The lowest layer of ``gpusim`` after ``gpusim.errors``: it imports nothing else from
the package, and the runtime, occupancy, memory and timing models all read it.

Data flow::

    profiles/<key>.toml   one file per GPU; every figure is { value, source }
          |  tomllib
          v
    loader.py            tables -> fields; unknown / missing / mistyped / unsourced
          |              fields rejected with DeviceProfileError naming file + field
          v
    validate.py          types, signs, powers of two, relations between fields
          |              (also run by DeviceSpec.__post_init__ / dataclasses.replace)
          v
    spec.py DeviceSpec   frozen dataclass, units in field names, derived values as
          |              properties, spec.sources[field] = the cited document
          v
    get_spec(key)        cached; used by runtime (hipGetDeviceProperties),
                         occupancy, memsim (cache geometry) and timing

Matrix cores: ``mfma.py`` holds each MFMA of gfx90a and gfx942 (shape, blocks, passes,
FLOPs, clang builtin) and which lane and register element hold A[i][k], B[k][j] and
D[i][j]; ``mfma_math.py`` is the NumPy reference of what one computes. Their oracle,
AMD's matrix instruction calculator's tables, is ``data/mfma_layouts.json``.

Shipped profiles (``list_devices()``): ``mi300x`` (default; gfx942, CDNA3),
``mi250x`` (one GCD, as HIP sees it; gfx90a, CDNA2), ``mi100`` (gfx908, CDNA) and
``rx7900xtx`` (gfx1100, RDNA3, wave32). To model another GPU, copy a file, or write a
short one that starts with ``extends = "mi300x"`` and overrides a few fields, then
``load_profile(path)``.

>>> from gpusim.devices import get_spec, list_devices
>>> list_devices()
['mi300x', 'mi250x', 'mi100', 'rx7900xtx']
>>> spec = get_spec("mi300x")
>>> spec.cu_count, spec.xcd_count, spec.cus_per_xcd, spec.l2_bytes // 2**20
(304, 8, 38, 4)
>>> get_spec("rx7900xtx").is_wave32
True
"""

from gpusim.devices.loader import (
    DEFAULT_DEVICE,
    PROFILES_DIR,
    get_spec,
    list_devices,
    load_profile,
    profile_path,
    spec_from_dict,
)
from gpusim.devices.spec import DeviceSpec, profile_field_names

__all__ = [
    "DEFAULT_DEVICE",
    "PROFILES_DIR",
    "DeviceSpec",
    "get_spec",
    "list_devices",
    "load_profile",
    "profile_field_names",
    "profile_path",
    "spec_from_dict",
]
