"""How many regions of the kernels a run compiled can run without per-access bounds checks.

    python tools/unchecked_share.py [CACHE_DIR]   # default: gpusim.config.cache_dir

Reads the generated modules in ``CACHE_DIR/kernels`` (one per kernel specialization; fast
path only: trace- and check-mode modules are skipped) and sorts every thread region:
*proved* (pass ``ranges`` wrote an unchecked copy behind a once-per-work-group test),
*checked* (some index it could not bound: every access checked, as before), or *no index*
(nothing to check). Run it on the cache of a test-suite run to see how the course's,
AMD's sample programs' and hipified CUDA samples' kernels fare.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

REGION = re.compile(r"^\s*# region \d+: .*run by every thread in turn$", re.M)
MODES = ("gpusim.trace", "gpusim.compile.trace", "gpusim.compile.sanitize", "gpusim.debugger")


def classify(module: str) -> Counter:
    """Counts of proved / checked / no-index thread regions in one generated module.

    >>> text = "# region 1: line 3, run by every thread in turn\\n  x[_ix(i, 4, 0)]\\n"
    >>> dict(classify(text))
    {'checked': 1}
    """
    heads = [m.start() for m in REGION.finditer(module)] + [len(module)]
    out: Counter = Counter()
    for start, end in zip(heads, heads[1:], strict=False):
        body = module[start:end]
        out["proved" if "every index below is in bounds" in body
            else "checked" if "_ix(" in body else "no index"] += 1
    return out


def main(cache: Path) -> None:
    total: Counter = Counter()
    kernels: Counter = Counter()
    for path in sorted((cache / "kernels").glob("*.py")):
        text = path.read_text()
        if any(f"from {m}" in text for m in MODES):
            continue
        c = classify(text)
        total += c
        kernels["all proved" if c["proved"] and not c["checked"]
                else "some checked" if c["checked"] else "no index"] += 1
    indexed = total["proved"] + total["checked"]
    print(f"{sum(kernels.values())} fast-path kernel modules in {cache}: "
          f"{dict(kernels)}")
    print(f"thread regions with array indices: {indexed}, proved in bounds per work-group: "
          f"{total['proved']} ({100 * total['proved'] / max(indexed, 1):.0f}%); "
          f"regions without any index: {total['no index']}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        from gpusim.config import config

        main(Path(config.cache_dir))
