"""Streams: where kernels, copies and memsets are queued.

This is the synchronous first version: every operation runs when it is enqueued, which
is a legal schedule of HIP's stream semantics (stream order is kept; nothing overlaps).
The interface -- ``enqueue`` with a name, a kind and an info dict -- is what the real
queues with modeled time will keep, so callers do not change when they arrive.

>>> out = []
>>> enqueue(None, lambda: out.append(1), name="demo", kind="kernel", info={})
>>> out
[1]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def enqueue(stream: Any, fn: Callable[[], None], *, name: str, kind: str = "kernel",
            info: dict | None = None) -> None:
    """Queue ``fn`` on ``stream`` (None or 0 is the null stream); runs it now for now."""
    fn()

