"""Accel-Sim-style error table: gpusim's modeled times vs the stored H200 measurements.

    python benchmarks/calibration/calibrate.py            # print the table
    python benchmarks/calibration/calibrate.py --update   # also rewrite the marked
                                                          # sections of README.md,
                                                          # benchmarks/calibration/
                                                          # README.md, docs/timing_model.md
    python benchmarks/calibration/calibrate.py --heldout  # the held-out kernels instead
                                                          # (heldout.py, h200_heldout.json)

Per kernel: measured (h200_measured.json, median of 20 CUDA-event timings), modeled
(model_gpusim.py: the same suite through gpusim's default model with the ``h200``
profile), error = modeled / measured - 1. Then Spearman's rank correlation over the
suite, and each within-family ratio (a member's time / the family's first member's),
modeled vs measured, with the factor between them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MEASURED = HERE / "h200_measured.json"
HELDOUT = HERE / "h200_heldout.json"  # kernels no model constant was chosen on
BEGIN, END = "<!-- calibration table: begin -->", "<!-- calibration table: end -->"


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties).

    >>> round(spearman([1, 2, 3, 4], [10, 30, 20, 40]), 2)
    0.8
    """
    def ranks(v: list[float]) -> np.ndarray:
        a = np.asarray(v, float)
        order = np.argsort(a, kind="stable")
        r = np.empty(len(a))
        r[order] = np.arange(len(a), dtype=float)
        for value in np.unique(a):  # ties share their average rank
            r[a == value] = r[a == value].mean()
        return r

    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def compare(measured: list[dict], modeled: list[dict]) -> dict:
    """Rows (name, family, measured, modeled, error), family ratios and Spearman."""
    model = {r["name"]: r for r in modeled}
    rows = [{"name": m["name"], "family": m["family"], "measured_us": m["median_us"],
             "modeled_us": model[m["name"]]["modeled_us"],
             "estimate": model[m["name"]].get("estimate", "")}
            for m in measured if m["name"] in model]
    for r in rows:
        r["error"] = r["modeled_us"] / r["measured_us"] - 1
    ratios, first = [], {}
    for r in rows:
        base = first.setdefault(r["family"], r)
        if base is r:
            continue
        meas = r["measured_us"] / base["measured_us"]
        mod = r["modeled_us"] / base["modeled_us"]
        ratios.append({"ratio": f"{r['name']} / {base['name']}", "measured": meas,
                       "modeled": mod, "factor": max(mod / meas, meas / mod)})
    rho = spearman([r["measured_us"] for r in rows], [r["modeled_us"] for r in rows])
    return {"rows": rows, "ratios": ratios, "spearman": rho}


def markdown(result: dict) -> str:
    """The table as Markdown (what --update writes between the markers)."""
    rows, ratios = result["rows"], result["ratios"]
    within = sum(r["factor"] <= 1.5 for r in ratios)
    mape = float(np.mean([abs(r["error"]) for r in rows]))
    out = [f"Spearman rank correlation {result['spearman']:.3f} over {len(rows)} kernels; "
           f"{within} of {len(ratios)} within-family ratios within 1.5x of the H200's; "
           f"mean absolute error {mape:.0%}. Regenerate with "
           "`python benchmarks/calibration/calibrate.py --update`.", "",
           "| kernel | family | measured (us) | modeled (us) | error |",
           "|---|---|---:|---:|---:|"]
    out += [f"| {r['name']} | {r['family']} | {r['measured_us']:.1f} | {r['modeled_us']:.1f} "
            f"| {r['error']:+.0%} |" for r in rows]
    out += ["", "| ratio | measured | modeled | factor |", "|---|---:|---:|---:|"]
    out += [f"| {r['ratio']} | {r['measured']:.2f} | {r['modeled']:.2f} | "
            f"{r['factor']:.2f}{'' if r['factor'] <= 1.5 else ' (over 1.5)'} |"
            for r in ratios]
    return "\n".join(out)


def replace_section(path: Path, text: str) -> None:
    """Put ``text`` between the markers in ``path`` (appending them when absent)."""
    doc = path.read_text()
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc:
        head, rest = doc.split(BEGIN, 1)
        doc = head + block + rest.split(END, 1)[1]
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    path.write_text(doc)


def main(update: bool, heldout: bool = False) -> dict:
    sys.path.insert(0, str(HERE))
    from model_gpusim import modeled_times

    measured = json.loads((HELDOUT if heldout else MEASURED).read_text())["cases"]
    result = compare(measured, modeled_times("h200", source="heldout" if heldout else "suite"))
    text = markdown(result)
    print(text)
    if update and not heldout:
        for path in (ROOT / "README.md", ROOT / "docs" / "timing_model.md",
                     HERE / "README.md"):
            replace_section(path, text)
    return result


if __name__ == "__main__":
    os.chdir(ROOT)
    main("--update" in sys.argv[1:], heldout="--heldout" in sys.argv[1:])
