"""Compiled programs kept between processes, found without parsing (ccache's "direct
mode"): the key hashes what the compile was asked (source text, file names, -I, -D,
-std, the device macros, gpusim's headers); the entry lists every user header the parse
read, with its hash, and is used only while all of them are unchanged.

A cached compile of a sample program takes ~0.1 s instead of ~3 s of libclang parsing
(benchmarks/hipcc_bench.py), which is what re-running a ``%%hip`` cell or ``./app`` costs.

>>> k = key("int main() {}", "a.hip")
>>> store(k, {"value": 1}, ["/nonexistent/header.h"]) is None, load(k) is None
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path
from typing import Any

from gpusim.config import config

_VERSION = 1  # bump when what an entry holds changes


def key(*what: Any) -> str:
    from gpusim.hipcc.toolchain import _header_stamp

    text = json.dumps([_VERSION, _header_stamp(), *what], default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _folder() -> Path:
    return Path(config.cache_dir) / "hipcc" / "direct"


def _digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def load(k: str) -> dict | None:
    """The entry stored under ``k``, if every file it depends on is as it was."""
    path = _folder() / f"{k}.pkl"
    try:
        entry = pickle.loads(path.read_bytes())
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError):
        return None
    if any(_digest(p) != h for p, h in entry["deps"].items()):
        return None
    return entry["value"]


def store(k: str, value: dict, deps: list[str]) -> None:
    """Keep ``value`` under ``k``; a dependency that cannot be read means no entry."""
    hashes = {p: _digest(p) for p in deps}
    if any(h is None for h in hashes.values()):
        return
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{k}.{os.getpid()}.tmp"
    tmp.write_bytes(pickle.dumps({"deps": hashes, "value": value}))
    tmp.replace(folder / f"{k}.pkl")
