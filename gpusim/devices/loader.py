"""Read device profile files (TOML) into ``DeviceSpec`` records, checking every field.

A profile is a TOML file with one table per field group; each field is an inline
table holding its value and the public source of that value::

    [compute]
    cu_count = { value = 304, source = "ROCm docs 'GPU hardware specifications' ..." }

A profile may also start with ``extends = "mi300x"`` (a shipped key, or a path
relative to the file) and give only the fields it changes: a variant is a base plus
overrides. Anything wrong (not TOML, unknown or missing field, wrong type, missing
source, non-positive size, inconsistent fields) raises ``DeviceProfileError`` naming
the file and the field.
"""

from __future__ import annotations

import difflib
import functools
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpusim.devices.spec import GROUPS, DeviceSpec, field_group, profile_field_names
from gpusim.devices.validate import check_values
from gpusim.errors import DeviceProfileError

PROFILES_DIR = Path(__file__).parent / "profiles"
DEFAULT_DEVICE = "mi300x"
# Shipped profiles newest first, the consumer card last; other files follow by name.
_LISTING_ORDER = ("mi300x", "mi250x", "mi100", "rx7900xtx")
CALIBRATION_TARGETS = ("h200",)  # real GPUs the timing model is held to, not course devices

# Raw profile content after parsing: field name -> (value, source, origin it came from).
_Entries = dict[str, tuple[Any, str, str]]


def load_profile(path: str | Path) -> DeviceSpec:
    """Load and check one profile file.

    >>> from gpusim.devices import load_profile, profile_path
    >>> load_profile(profile_path("mi250x")).cu_count
    110
    """
    path = Path(path)
    entries = _read_entries(path, chain=())
    return _build(entries, origin=str(path))


def spec_from_dict(data: Mapping[str, Any], origin: str = "<dict>") -> DeviceSpec:
    """Check and build a spec from already-parsed profile content (``tomllib.loads`` output).

    ``origin`` names the content in error messages. ``extends`` is resolved against
    the shipped profiles.

    >>> import tomllib
    >>> from gpusim.devices import profile_path
    >>> data = tomllib.loads(profile_path("mi100").read_text())
    >>> spec_from_dict(data, origin="mi100 copy").gfx_target
    'gfx908'
    """
    entries = _entries_from_data(data, origin, base_dir=PROFILES_DIR, chain=())
    return _build(entries, origin)


def profile_path(key: str) -> Path:
    """Path of a shipped profile file.

    >>> profile_path("mi300x").name
    'mi300x.toml'
    """
    norm = _normalize_key(key)
    path = PROFILES_DIR / f"{norm}.toml"
    if not path.is_file():
        devices = list_devices()
        raise DeviceProfileError(
            f"unknown device {key!r}{_suggest(norm, devices)}; valid devices: {', '.join(devices)}"
        )
    return path


def list_devices(calibration: bool = False) -> list[str]:
    """Keys of the shipped device profiles, the default (mi300x) first.

    ``calibration=True`` adds the calibration targets: non-AMD GPUs profiled only so the
    timing model can be checked against real hardware (``h200``, an NVIDIA H200 SXM;
    benchmarks/calibration). They load with ``get_spec`` like any device but are not
    course devices, so the plain listing leaves them out.

    >>> list_devices()
    ['mi300x', 'mi250x', 'mi100', 'rx7900xtx']
    >>> list_devices(calibration=True)[-1]
    'h200'
    """
    keys = [p.stem for p in PROFILES_DIR.glob("*.toml")]
    if not calibration:
        keys = [k for k in keys if k not in CALIBRATION_TARGETS]
    rank = {key: i for i, key in enumerate(_LISTING_ORDER)}
    return sorted(keys, key=lambda k: (rank.get(k, len(rank)), k))


def get_spec(device: str | DeviceSpec = DEFAULT_DEVICE) -> DeviceSpec:
    """The spec of a shipped device, by key (case-insensitive); loaded once, then cached.

    A ``DeviceSpec`` passed in is returned unchanged, so callers may accept either.

    >>> get_spec("MI300X").name
    'AMD Instinct MI300X'
    >>> get_spec("mi300x") is get_spec("mi300x")
    True
    """
    if isinstance(device, DeviceSpec):
        return device
    if not isinstance(device, str):
        raise DeviceProfileError(
            f"device must be a key such as 'mi300x' or a DeviceSpec, got {type(device).__name__}"
        )
    return _load_shipped(_normalize_key(device))


@functools.cache
def _load_shipped(key: str) -> DeviceSpec:
    path = profile_path(key)
    spec = load_profile(path)
    if spec.key != key:
        raise DeviceProfileError(
            f"{path}: [identity] field 'key': is {spec.key!r} but the file is named {key}.toml"
        )
    return spec


def _normalize_key(key: str) -> str:
    return key.strip().lower()


# ---- parsing ----------------------------------------------------------------------


def _read_entries(path: Path, chain: tuple[Path, ...]) -> _Entries:
    origin = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeviceProfileError(f"{origin}: profile file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DeviceProfileError(f"{origin}: cannot read profile: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeviceProfileError(f"{origin}: not valid TOML: {exc}") from None
    return _entries_from_data(data, origin, base_dir=path.parent, chain=chain + (path,))


def _entries_from_data(
    data: Mapping[str, Any], origin: str, base_dir: Path, chain: tuple[Path, ...]
) -> _Entries:
    entries: _Entries = {}
    base = data.get("extends")
    if base is not None:
        entries.update(_base_entries(base, origin, base_dir, chain))
    valid_fields = set(profile_field_names())
    seen: set[str] = set()
    for group, table in data.items():
        if group == "extends":
            continue
        if group not in GROUPS:
            raise DeviceProfileError(
                f"{origin}: unknown table or key {group!r}{_suggest(group, GROUPS)}; "
                f"expected tables: {', '.join(f'[{g}]' for g in GROUPS)} and optional 'extends'"
            )
        if not isinstance(table, dict):
            raise DeviceProfileError(f"{origin}: [{group}] must be a table of fields")
        for name, entry in table.items():
            where = f"{origin}: [{group}] field '{name}'"
            if name not in valid_fields:
                raise DeviceProfileError(f"{where}: unknown field{_suggest(name, valid_fields)}")
            if field_group(name) != group:
                raise DeviceProfileError(f"{where}: belongs in [{field_group(name)}]")
            if name in seen:  # pragma: no cover - TOML itself forbids duplicate keys
                raise DeviceProfileError(f"{where}: given twice")
            seen.add(name)
            entries[name] = (*_value_and_source(entry, where), origin)
    return entries


def _value_and_source(entry: Any, where: str) -> tuple[Any, str]:
    form = '{ value = ..., source = "..." }'
    if not isinstance(entry, dict):
        raise DeviceProfileError(f"{where}: must be written as {form}, got {entry!r}")
    extra = sorted(set(entry) - {"value", "source"})
    if extra:
        raise DeviceProfileError(f"{where}: unexpected key(s) {extra}; write {form}")
    if "value" not in entry:
        raise DeviceProfileError(f"{where}: missing 'value'; write {form}")
    source = entry.get("source")
    if source is None:
        raise DeviceProfileError(
            f"{where}: missing 'source': cite the public document for this figure, "
            "or write 'model assumption: <why>'"
        )
    if not isinstance(source, str) or not source.strip():
        raise DeviceProfileError(f"{where}: 'source' must be a non-empty string")
    return entry["value"], source.strip()


def _base_entries(base: Any, origin: str, base_dir: Path, chain: tuple[Path, ...]) -> _Entries:
    if not isinstance(base, str) or not base.strip():
        raise DeviceProfileError(f"{origin}: 'extends' must name a device key or a .toml path")
    if base.endswith(".toml"):
        path = (base_dir / base).resolve()
    else:
        try:
            path = profile_path(base).resolve()
        except DeviceProfileError as exc:
            raise DeviceProfileError(f"{origin}: extends: {exc}") from None
    if path in {p.resolve() for p in chain}:
        raise DeviceProfileError(f"{origin}: extends {base!r} forms a cycle")
    return _read_entries(path, chain)


def _suggest(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


# ---- building -------------------------------------------------------------------


def _build(entries: _Entries, origin: str) -> DeviceSpec:
    missing = [n for n in profile_field_names() if n not in entries]
    if missing:
        listed = ", ".join(f"[{field_group(n)}] '{n}'" for n in missing)
        raise DeviceProfileError(
            f"{origin}: missing field(s) {listed}; every field is written as "
            'name = { value = ..., source = "..." }'
        )
    values = {name: value for name, (value, _, _) in entries.items()}
    # Blame the file a bad value came from (the base when a variant inherited it).
    blame = {name: src_origin for name, (_, _, src_origin) in entries.items()}
    try:
        check_values(values, origin)
    except DeviceProfileError as exc:
        raise _reblame(exc, origin, blame) from None
    sources = {name: source for name, (_, source, _) in entries.items()}
    return DeviceSpec(**values, sources=sources)


def _reblame(exc: DeviceProfileError, origin: str, blame: Mapping[str, str]) -> DeviceProfileError:
    message = str(exc)
    for name, src_origin in blame.items():
        if f"field '{name}'" in message and src_origin != origin:
            return DeviceProfileError(f"{message} (value inherited from {src_origin})")
    return exc
