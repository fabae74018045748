"""Open ncclGroupStart/End groups: the calls and communicator joins they hold.

Kept apart from matching.py so that comm.py (joins) and matching.py (calls) can both use
it.
"""

from __future__ import annotations

from typing import Any

stack: list[list[Any]] = []  # one list of held calls per open group
joins: list[Any] = []  # cliques joined inside the open group (finished at GroupEnd)


def is_open() -> bool:
    return bool(stack)
