"""LDS bank conflicts from the learner's transpose, with and without padding."""

import kernels
import numpy as np

import gpusim
from gpusim import hip

K = kernels.jitted("transpose_lds", "transpose_lds_padded")


def test_padding_removes_the_bank_conflicts_of_a_column_read():
    n = 128
    host = np.arange(n * n, dtype=np.float32).reshape(n, n)
    a = hip.to_device(host)
    outs = [hip.device_array((n, n), np.float32) for _ in range(2)]
    with gpusim.profile(memory=True) as prof:
        K.transpose_lds[(n // 32, n // 32), (32, 32)](a, outs[0])
        K.transpose_lds_padded[(n // 32, n // 32), (32, 32)](a, outs[1])
    plain, padded = prof.kernels
    for out in outs:
        np.testing.assert_array_equal(out.copy_to_host(), host.T)
    assert plain.counters["SQ_LDS_BANK_CONFLICT"] > 0
    assert padded.counters["SQ_LDS_BANK_CONFLICT"] == 0
    assert plain.counters["SQ_INSTS_LDS"] == padded.counters["SQ_INSTS_LDS"] == 2 * n * n // 64

    def lds(record, kind):
        return next(s for s in record.memory["sites"] if s["space"] == "lds" and s["kind"] == kind)

    # tile[tx, ty]: a wave's lanes read one column, 32 rows apart: every 32-lane phase
    # hits one bank (32-way), unless a row is 33 words long.
    assert lds(plain, "load")["max_degree"] == 32
    assert lds(padded, "load")["max_degree"] == 1
    assert lds(plain, "store")["max_degree"] == lds(padded, "store")["max_degree"] == 1
    assert lds(plain, "load")["bank_conflict_cycles"] > 0 == lds(padded, "load")[
        "bank_conflict_cycles"]
    assert padded.duration_ns < plain.duration_ns  # the conflicts cost LDS time
