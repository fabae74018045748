"""The oracle of the MFMA tests: AMD's matrix instruction calculator's tables, as data."""

import json
import re
from functools import cache
from pathlib import Path

import pytest

import gpusim.devices.mfma as mfma

DATA = Path(mfma.__file__).parent / "data" / "mfma_layouts.json"
ENTRY = re.compile(r"^([ABD])\[(\d+)\]\[(\d+)\](?:\.B(\d+))?$")


@cache
def calculator_tables() -> dict:
    return json.loads(DATA.read_text())


@cache
def calculator_layout(arch: str, name: str, operand: str) -> dict:
    """(lane, column) -> (block, first index, second index) as the calculator prints
    A[i][k], B[k][j] or D[i][j] of ``name`` on ``arch``."""
    table = calculator_tables()[arch]["instructions"][name][operand]
    held = {}
    for lane, row in enumerate(table["lanes"]):
        for column, text in enumerate(row.split(",")):
            found = ENTRY.match(text)
            assert found and found.group(1) == operand, text
            held[lane, column] = (int(found.group(4) or 0), int(found.group(2)),
                                  int(found.group(3)))
    return held


@pytest.fixture
def calculator():
    return calculator_tables()


@pytest.fixture
def calc_layout():
    return calculator_layout
