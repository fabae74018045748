"""``gpusim.config``: the knobs a course needs, each overridable by a ``GPUSIM_*`` variable.

Read once at import from the environment, then changed by assignment in a notebook:

>>> from gpusim import config
>>> config.watchdog_seconds
30.0
>>> config.check = True   # run kernels on the checked (sanitizer) path
>>> config.check = False

A wrong value raises ``ConfigError`` naming the knob, the value and what is accepted,
whether it came from code or from the environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

from gpusim.errors import ConfigError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(base) / "gpusim")


@dataclass
class Config:
    """Emulator settings. Each field ``name`` also reads ``GPUSIM_NAME`` at start-up."""

    check: bool = False  # run every kernel on the checked path (bounds, races, LDS init)
    watchdog_seconds: float = 30.0  # stop a runaway kernel after this long
    trace: bool = False  # record memory traces for the memory model
    cold_caches: bool = False  # model every kernel from cold caches (no warm-up effect)
    parallel: bool = True  # run independent workgroups on all host cores
    cache_dir: str = ""  # where compiled kernels are kept between processes
    debug: str = ""  # "ir", "source", "llvm" or e.g. "ir,source": print compiler stages
    internal_frames: bool = False  # keep gpusim's own frames in tracebacks (developers)
    # once a kernel has launched this many work-groups in all, its launches run regions
    # without per-access checks where their bounds test passes (a second compile);
    # 0: every launch, a negative number: never (one copy, every access checked)
    unchecked_from_groups: int = 64

    def __setattr__(self, name: str, value: object) -> None:
        known = {f.name: f for f in fields(Config)}
        if name not in known:
            raise ConfigError(
                f"gpusim.config has no setting {name!r}; the settings are: {', '.join(known)}"
            )
        super().__setattr__(name, _coerce(name, known[name].type, value))

    def launch_mode(self, check: bool | None = None, *, traced: bool = False) -> str:
        """The path a kernel launch takes: ``"check"`` (the sanitizer) when the kernel's
        own ``check=`` says so, or, when that is None, this config's ``check``; else
        ``"trace"`` when the caller traces it (``trace``, or a memory profile is open);
        else ``"fast"``. The checked path is never traced: its shadow memory would time
        the sanitizer, not the kernel.

        >>> c = Config()
        >>> c.launch_mode(), c.launch_mode(True), c.launch_mode(traced=True)
        ('fast', 'check', 'trace')
        >>> c.check = True; c.launch_mode(traced=True), c.launch_mode(False)
        ('check', 'fast')
        """
        if self.check if check is None else check:
            return "check"
        return "trace" if traced else "fast"

    def load_environment(self, environ: dict[str, str] | None = None) -> None:
        """Apply every ``GPUSIM_*`` variable that names a setting.

        >>> c = Config(); c.load_environment({"GPUSIM_CHECK": "1"}); c.check
        True
        """
        environ = os.environ if environ is None else environ
        for f in fields(Config):
            var = "GPUSIM_" + f.name.upper()
            if var in environ:
                try:
                    setattr(self, f.name, environ[var])
                except ConfigError as exc:
                    raise ConfigError(f"environment variable {var}: {exc}") from None


def _coerce(name: str, kind: str, value: object) -> object:
    """Turn ``value`` (possibly an environment string) into the setting's type."""
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise ConfigError(f"{name} must be True/False (or 1/0), got {value!r}")
    if kind == "float":
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ConfigError(f"{name} must be a number of seconds, got {value!r}") from None
        if not number > 0:
            raise ConfigError(f"{name} must be positive, got {value!r}")
        return number
    if kind == "int":
        try:
            return int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ConfigError(f"{name} must be a whole number, got {value!r}") from None
    if not isinstance(value, str):
        raise ConfigError(f"{name} must be a string, got {value!r}")
    return value


config = Config()
config.load_environment()
if not config.cache_dir:
    config.cache_dir = _default_cache_dir()
