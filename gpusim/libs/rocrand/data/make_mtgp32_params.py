"""Extract MTGP32's 512 parameter sets from rocRAND's ``rocrand_mtgp32_11213.h`` (the
``mtgp32dc_params_fast_11213`` table of Saito and Matsumoto's MTGP 1.1, as rocRAND ships
it; github.com/ROCm/rocRAND at dc3656f1) into ``mtgp32_11213.npz``.

Usage: python make_mtgp32_params.py path/to/rocrand_mtgp32_11213.h
"""

import re
import sys
from pathlib import Path

import numpy as np

FIELDS = 4 + 3 * 16 + 1 + 21  # mexp, pos, sh1, sh2, tbl, tmp_tbl, flt_tmp_tbl, mask, sha1


def main(header: str) -> None:
    text = Path(header).read_text()
    body = text[text.index("mtgp32dc_params_fast_11213[]"):text.index("};")]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    numbers = [int(v, 0) for v in re.findall(r"0x[0-9a-fA-F]+|\b\d+\b", body.split("=", 1)[1])]
    rows = np.array(numbers, np.uint64).reshape(-1, FIELDS)
    assert rows.shape[0] == 512 and (rows[:, 0] == 11213).all()
    np.savez_compressed(Path(__file__).parent / "mtgp32_11213.npz",
                        pos=rows[:, 1].astype(np.uint32), sh1=rows[:, 2].astype(np.uint32),
                        sh2=rows[:, 3].astype(np.uint32),
                        tbl=rows[:, 4:20].astype(np.uint32),
                        tmp_tbl=rows[:, 20:36].astype(np.uint32),
                        flt_tmp_tbl=rows[:, 36:52].astype(np.uint32),
                        mask=rows[:, 52].astype(np.uint32))


if __name__ == "__main__":
    main(sys.argv[1])
