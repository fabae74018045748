"""The CUDA -> HIP mapping, loaded from data generated from HIPIFY (see data/README.md).

The table is data, not code: ``data/cuda2hip.json`` is produced by
``tools/hipify_table.py`` from ROCm/HIPIFY's ``bin/hipify-perl`` at the commit recorded
in its ``source`` entry. Nothing here is written by hand except NCCL's one header,
which HIPIFY does not cover (marked in the data's ``supplement``).

>>> t = load_table()
>>> t.lookup("cudaMalloc")
('hipMalloc', 'memory')
>>> t.lookup("cublasSaxpy", roc=True)
('rocblas_saxpy', 'library')
>>> t.unsupported_kind("cudaInitDevice")
'device'
>>> t.dropped_arguments["hipModuleOccupancyMaxPotentialBlockSize"]  # the B2D callback
(3,)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).with_name("data") / "cuda2hip.json"
INCLUDE_KINDS = ("include", "include_cuda_main_header", "include_cuda_main_header_v2")


@dataclass(frozen=True)
class Table:
    """HIPIFY's mapping: names to (replacement, kind), and what has no HIP equivalent."""

    source: dict
    names: dict[str, tuple[str, str]]
    roc_names: dict[str, tuple[str, str]]
    headers: dict[str, tuple[str, str]]
    roc_headers: dict[str, tuple[str, str]]
    unsupported: frozenset[str]
    unsupported_hip: frozenset[str]
    unsupported_roc: frozenset[str]
    unsupported_kinds: dict[str, str]
    device_functions: frozenset[str]
    unsupported_device_functions: frozenset[str]
    deprecated: dict[str, str]
    removed: dict[str, str]
    whitelist: frozenset[str]
    symbol_arguments: dict[str, tuple[int, str]]
    dropped_arguments: dict[str, tuple[int, ...]]

    def lookup(self, name: str, roc: bool = False) -> tuple[str, str] | None:
        """``(replacement, kind)`` for an identifier; ``roc`` prefers rocBLAS-style names."""
        return (roc and self.roc_names.get(name)) or self.names.get(name)

    def header(self, name: str, roc: bool = False) -> tuple[str, str] | None:
        """``(replacement, kind)`` for an ``#include``'d file name."""
        return (roc and self.roc_headers.get(name)) or self.headers.get(name)

    def is_unsupported(self, name: str, roc: bool = False) -> bool:
        """HIPIFY marks the name unsupported for the chosen target (HIP or roc*)."""
        return name in self.unsupported or name in (
            self.unsupported_roc if roc else self.unsupported_hip)

    def unsupported_kind(self, name: str) -> str:
        """HIPIFY's conversion kind of an unsupported name ("graph", "library", ...)."""
        return self.unsupported_kinds.get(name, "unknown")

    @property
    def hip_version(self) -> str:
        """The HIP version the HIPIFY snapshot targets."""
        return self.source.get("hip_version") or "?"


def _split(entries: dict[str, list]) -> tuple[dict, dict]:
    names, headers = {}, {}
    for cuda, (hip, kind, *_) in entries.items():
        (headers if kind in INCLUDE_KINDS else names)[cuda] = (hip, kind)
    return names, headers


@lru_cache(maxsize=1)
def load_table(path: Path = DATA) -> Table:
    """Read the generated table once per process."""
    raw = json.loads(Path(path).read_text())
    names, headers = _split({**raw["map"], **raw["supplement"]})
    roc_names, roc_headers = _split(raw["roc"])
    return Table(
        source=raw["source"], names=names, roc_names=roc_names, headers=headers,
        roc_headers=roc_headers, unsupported=frozenset(raw["unsupported"]),
        unsupported_hip=frozenset(raw["unsupported_hip"]),
        unsupported_roc=frozenset(raw["unsupported_roc"]),
        unsupported_kinds=raw["unsupported_kinds"],
        device_functions=frozenset(raw["device_functions"]),
        unsupported_device_functions=frozenset(raw["unsupported_device_functions"]),
        deprecated=raw["deprecated"], removed=raw["removed"],
        whitelist=frozenset(raw["whitelist"]),
        symbol_arguments={k: (v[0], v[1]) for k, v in raw["symbol_arguments"].items()},
        dropped_arguments={k: tuple(v) for k, v in raw["dropped_arguments"].items()},
    )
