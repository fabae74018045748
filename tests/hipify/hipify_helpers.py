"""Shared by the hipify tests: where the samples and golden files are."""

import os
from pathlib import Path

SAMPLES = Path(__file__).with_name("samples")
GOLDEN = Path(__file__).with_name("golden")
# GPUSIM_UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing).
UPDATE = os.environ.get("GPUSIM_UPDATE_GOLDEN") == "1"


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual)
    assert path.exists(), f"{path} missing: run with GPUSIM_UPDATE_GOLDEN=1 and review it"
    assert actual == path.read_text(), f"{name} differs from its golden file"
