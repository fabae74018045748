"""Errors as a learner reads them: gpusim's own frames hidden, the launch site named.

A kernel fault surfaces at a later synchronising call (as on a GPU), so its traceback
ran through the runtime, the scheduler and the engine: a learner had to scroll past six
gpusim frames to the message. Two things make it short and useful:

- ``visible(tb)`` drops the frames of gpusim's own files from a traceback; ``install()``
  applies it to every ``GpusimError`` shown by IPython/Jupyter (a custom exception
  handler) or by plain Python (``sys.excepthook``). ``gpusim.config.internal_frames =
  True`` (``GPUSIM_INTERNAL_FRAMES=1``) keeps them, for developers.
- ``launch_site()`` remembers where the user's code launched a kernel (cell or file, and
  line); ``note_launch_site`` adds it to the error as a note, printed under the message.

>>> site = LaunchSite("/tmp/ipykernel_4242/3002312983.py", 3)
>>> site.describe()
'notebook cell, line 3'
"""

from __future__ import annotations

import linecache
import os
import sys
import types
from dataclasses import dataclass
from typing import Any

from gpusim.compile import shown_filename
from gpusim.config import config
from gpusim.errors import GpusimError

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def is_internal(filename: str) -> bool:
    """Whether ``filename`` is one of gpusim's own source files."""
    return os.path.abspath(filename).startswith(_PACKAGE)


@dataclass(frozen=True)
class LaunchSite:
    """Where user code launched a kernel."""

    filename: str
    lineno: int

    def describe(self) -> str:
        """"In [5], line 3" for a notebook cell IPython knows, "notebook cell, line 3" or
        "file.py, line 12" otherwise."""
        cell = _cell_number(self.filename)
        if cell is not None:
            return f"In [{cell}], line {self.lineno}"
        return f"{shown_filename(self.filename)}, line {self.lineno}"

    def text(self) -> str:
        return linecache.getline(self.filename, self.lineno).strip()


def _cell_number(filename: str) -> int | None:
    shell = _ipython()
    mapping = getattr(getattr(shell, "compile", None), "_filename_map", None)
    return mapping.get(filename) if isinstance(mapping, dict) else None


def launch_site() -> LaunchSite | None:
    """The innermost frame of the caller's own code (outside gpusim)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    return LaunchSite(frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


def note_launch_site(err: BaseException, kernel: str, site: LaunchSite | None) -> None:
    """Add "kernel 'k' was launched at In [5], line 3: k[4, 64](x)" to ``err``."""
    if site is None or any("was launched at" in n for n in getattr(err, "__notes__", [])):
        return
    text = site.text()
    err.add_note(f"(kernel '{kernel}' was launched at {site.describe()}"
                 + (f": {text})" if text else ")"))


def visible(tb: types.TracebackType | None) -> types.TracebackType | None:
    """``tb`` without gpusim's own frames (all of it when ``config.internal_frames``)."""
    if config.internal_frames:
        return tb
    frames = []
    while tb is not None:
        if not is_internal(tb.tb_frame.f_code.co_filename):
            frames.append(tb)
        tb = tb.tb_next
    out = None
    for entry in reversed(frames):
        out = types.TracebackType(out, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return out


def _ipython() -> Any:
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    return get() if get is not None else None


def _show_in_ipython(shell: Any, etype: type, value: BaseException, tb: Any,
                     tb_offset: int | None = None) -> None:
    tb = visible(tb)
    shell.showtraceback((etype, value.with_traceback(tb), tb), tb_offset=tb_offset)


def _excepthook(etype: type, value: BaseException, tb: Any) -> None:
    if issubclass(etype, GpusimError):
        tb = visible(tb)
        value = value.with_traceback(tb)  # what the default hook prints
    sys.__excepthook__(etype, value, tb)


def install() -> None:
    """Show ``GpusimError`` tracebacks without gpusim's frames, in IPython/Jupyter (unless
    another custom handler is set) and in plain Python (unless a hook is set)."""
    shell = _ipython()
    if shell is not None and not getattr(shell, "custom_exceptions", ()):
        shell.set_custom_exc((GpusimError,), _show_in_ipython)
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook
