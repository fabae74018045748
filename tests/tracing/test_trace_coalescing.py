"""Coalescing seen from the learner's own kernels: requests per wavefront instruction."""

import kernels
import numpy as np
import pytest

import gpusim
from gpusim import hip

K = kernels.jitted("copy_gather", "copy_strided")

N = 1 << 16


@pytest.fixture()
def copies():
    """The same copy three ways, traced: records by pattern, and the data."""
    a = hip.to_device(np.arange(N, dtype=np.float32))
    idx = np.random.default_rng(7).permutation(N).astype(np.int32)
    outs = {k: hip.device_array(N, np.float32) for k in ("coalesced", "strided", "random")}
    with gpusim.profile(memory=True) as prof:
        K.copy_strided[N // 256, 256](a, outs["coalesced"], 1)
        K.copy_strided[N // 256, 256](a, outs["strided"], 32)
        K.copy_gather[N // 256, 256](a, outs["random"], hip.to_device(idx))
    records = dict(zip(outs, prof.kernels, strict=True))
    return records, {k: v.copy_to_host() for k, v in outs.items()}, idx


def load_of(record, array="a"):
    return next(s for s in record.memory["sites"] if s["array"] == array and s["kind"] == "load")


def test_requests_per_instruction_follow_the_access_pattern(copies):
    records, _, _ = copies
    # MI300X, wave64, 4-byte lanes: 256 contiguous bytes = 2 lines of 128 B ...
    assert load_of(records["coalesced"])["requests_per_instruction"] == 2.0
    assert load_of(records["coalesced"])["efficiency"] == 1.0
    # ... a 128-byte stride puts every lane in its own line ...
    assert load_of(records["strided"])["requests_per_instruction"] == 64.0
    assert load_of(records["strided"])["efficiency"] == pytest.approx(1 / 32)
    # ... and a random gather almost always does too; its index load is coalesced.
    assert load_of(records["random"])["requests_per_instruction"] > 60
    assert load_of(records["random"], "idx")["requests_per_instruction"] == 2.0
    for r in records.values():  # the store b[i] is coalesced in all three
        store = next(s for s in r.memory["sites"] if s["kind"] == "store")
        assert store["requests_per_instruction"] == 2.0 and store["line"] > 0


def test_counters_are_the_profilers(copies):
    records, _, _ = copies
    waves = N // 64
    c = records["coalesced"].counters
    assert c["SQ_WAVES"] == waves
    assert c["SQ_INSTS_VMEM_RD"] == c["SQ_INSTS_VMEM_WR"] == waves
    assert c["SQ_INSTS_VALU"] > 0 and c["SQ_INSTS_LDS"] == 0
    assert c["TCP_TOTAL_CACHE_ACCESSES_sum"] == 2 * (4 * N // 128)  # load + store lines
    s = records["strided"].counters
    assert s["TCP_TOTAL_CACHE_ACCESSES_sum"] > 10 * c["TCP_TOTAL_CACHE_ACCESSES_sum"]
    assert s["TCC_HIT_sum"] + s["TCC_MISS_sum"] > c["TCC_HIT_sum"] + c["TCC_MISS_sum"]
    assert records["random"].counters["SQ_INSTS_VMEM_RD"] == 2 * waves  # idx[i], a[...]
    assert not records["coalesced"].memory["sampled"]


def test_tracing_leaves_the_results_exact(copies):
    _, out, idx = copies
    a = np.arange(N, dtype=np.float32)
    np.testing.assert_array_equal(out["coalesced"], a)
    np.testing.assert_array_equal(out["strided"], a[(np.arange(N) * 32) % N])
    np.testing.assert_array_equal(out["random"], a[idx])
