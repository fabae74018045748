"""Generate gpusim/devices/data/mfma_layouts.json from AMD's matrix instruction calculator.

The source is ``matrix_calculator.py`` of https://github.com/ROCm/amd_matrix_instruction_calculator
(MIT licence): AMD's own tool that prints, for every matrix instruction of CDNA1-3 and
RDNA3-4, which A/B/C/D matrix entry each (lane, register) holds. This script *runs* it
(``--detail-instruction`` and ``--matrix-layout --csv`` for A, B, C and D) for every dense
MFMA of CDNA2 (gfx90a) and CDNA3 (gfx942) and stores its printed tables as data, with the
commit they came from. None of its code is carried over; gpusim's own layout formulas
(gpusim/devices/mfma.py) are tested against this data (tests/mfma/).

    python tools/mfma_table.py --git /path/to/amd_matrix_instruction_calculator.git [--commit SHA]

The calculator needs ``tabulate`` (pip) on the path. Sparse SMFMAC instructions are left
out (gpusim has no SMFMAC); so is the C matrix, after checking it equals D entry for entry.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "gpusim" / "devices" / "data" / "mfma_layouts.json"
REPOSITORY = "https://github.com/ROCm/amd_matrix_instruction_calculator"
ARCHS = {"gfx90a": "cdna2", "gfx942": "cdna3"}
DETAIL = {
    "m": r"^\s+M: (\d+)$", "n": r"^\s+N: (\d+)$", "k": r"^\s+K: (\d+)$",
    "blocks": r"^\s+blocks: (\d+)$", "flops": r"^\s+(?:FLOPs|Ops): (\d+)$",
    "cycles": r"^\s+Execution cycles: (\d+)$", "opcode": r"^\s+VOP3P Opcode: (0x[0-9a-f]+)$",
    "gprs_a": r"GPRs required for A: (\d+)", "gprs_b": r"GPRs required for B: (\d+)",
    "gprs_d": r"GPRs required for D: (\d+)",
    "type_a": r"Src0: (.+)$", "type_b": r"Src1: (.+)$", "type_d": r"Vdst: (.+)$",
}


def _load(script: Path):
    spec = importlib.util.spec_from_file_location("matrix_calculator", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(module, *argv: str) -> str:
    out = io.StringIO()
    sys.argv = ["matrix_calculator.py", *argv]
    with contextlib.redirect_stdout(out):
        status = module.parse_and_run()
    if status != 0:
        raise RuntimeError(f"matrix_calculator {' '.join(argv)} exited with {status}")
    return out.getvalue()


def _table(module, arch: str, inst: str, matrix: str) -> dict:
    text = _run(module, "-a", arch, "-i", inst, "--matrix-layout", f"-{matrix}", "--csv")
    rows = [line for line in text.splitlines() if line and line[0].isdigit() or
            line.startswith("lane,")]
    header = rows[0].split(",")[1:]
    lanes = []
    for lane, row in enumerate(rows[1:]):
        first, rest = row.split(",", 1)
        assert int(first) == lane, (inst, matrix, row)
        lanes.append(rest)
    assert len(lanes) == 64, (inst, matrix, len(lanes))
    return {"registers": header, "lanes": lanes}


def _detail(module, arch: str, inst: str) -> dict:
    text = _run(module, "-a", arch, "-i", inst, "--detail-instruction")
    info = {}
    for key, pattern in DETAIL.items():
        found = re.search(pattern, text, re.M)
        value = found.group(1).strip()
        info[key] = value if key.startswith("type_") else int(value, 0)
    return info


def build(script: Path, commit: str, date: str) -> dict:
    module = _load(script)
    table: dict = {
        "source": {"repository": REPOSITORY, "commit": commit, "date": date,
                   "file": "matrix_calculator.py", "version": module.VERSION,
                   "how": "python tools/mfma_table.py --git <clone> (runs the calculator)"},
        "format": ("arch -> instruction -> {detail, A, B, D}; each matrix: registers (column "
                   "names as the calculator prints them) and lanes[64] (that lane's entries, "
                   "comma-separated, 'A[i][k]' or 'A[i][k].B<block>'). C's layout equals D's "
                   "(checked at generation)."),
    }
    for gfx, arch in ARCHS.items():
        insts = [name for name, info in module.dict_insts[arch].items()
                 if name.startswith("v_mfma_") and not info["sparse"]]
        entries = {}
        for inst in insts:
            tables = {m: _table(module, arch, inst, m) for m in "ABCD"}
            c_as_d = [row.replace("C[", "D[") for row in tables["C"]["lanes"]]
            assert c_as_d == tables["D"]["lanes"], inst
            entries[inst] = {"detail": _detail(module, arch, inst),
                             "A": tables["A"], "B": tables["B"], "D": tables["D"]}
        table[gfx] = {"calculator_arch": arch, "instructions": entries}
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git", required=True, help="git dir of the calculator's repository")
    parser.add_argument("--commit", default="HEAD")
    args = parser.parse_args()
    git = ["git", f"--git-dir={args.git}"]
    commit = subprocess.check_output([*git, "rev-parse", args.commit], text=True).strip()
    date = subprocess.check_output([*git, "show", "-s", "--format=%cs", commit], text=True).strip()
    source = subprocess.check_output([*git, "show", f"{commit}:matrix_calculator.py"])
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "matrix_calculator.py"
        script.write_bytes(source)
        table = build(script, commit, date)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {OUT} from {REPOSITORY}@{commit}")


if __name__ == "__main__":
    main()
