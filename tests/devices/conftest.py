"""Fixtures for the device-profile tests: shipped profile content and a TOML writer."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from gpusim.devices import list_devices, profile_path
from gpusim.devices.loader import tomllib  # stdlib tomllib, or tomli on Python 3.10

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _raw_profile(key: str) -> dict[str, Any]:
    return copy.deepcopy(_parsed(key))


_CACHE: dict[str, dict[str, Any]] = {}


def _parsed(key: str) -> dict[str, Any]:
    if key not in _CACHE:
        _CACHE[key] = tomllib.loads(profile_path(key).read_text(encoding="utf-8"))
    return _CACHE[key]


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _to_toml(data: dict[str, Any]) -> str:
    lines = [
        f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)
    ]
    for section, table in data.items():
        if isinstance(table, dict):
            lines.append(f"\n[{_toml_key(section)}]")
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="session")
def raw_profile():
    """``raw_profile(key)``: a fresh, mutable copy of a shipped profile as tomllib parses it."""
    return _raw_profile


@pytest.fixture(scope="session")
def to_toml():
    """``to_toml(data)``: write parsed profile content back as TOML text."""
    return _to_toml


@pytest.fixture(params=list_devices(calibration=True))
def device_key(request: pytest.FixtureRequest) -> str:
    """Each shipped device key in turn, the calibration target (h200) included."""
    return request.param


@pytest.fixture
def write_profile(tmp_path: Path):
    """Write profile content (a dict, or raw text) to a .toml file under tmp_path."""

    def write(content: dict[str, Any] | str, name: str = "device.toml") -> Path:
        path = tmp_path / name
        text = content if isinstance(content, str) else _to_toml(content)
        path.write_text(text, encoding="utf-8")
        return path

    return write
