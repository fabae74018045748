"""What the trace holds: real device addresses, lanes, kinds, spaces, sampling."""

import kernels
import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.engine import launch
from gpusim.errors import HipError, hipError_t
from gpusim.trace import tracer as tracing
from gpusim.trace.record import ATOMIC, GLOBAL, LDS, LOAD, STORE
from gpusim.trace.tracer import TraceLimits, Tracer

K = kernels.jitted("accumulate", "copy_strided", "histogram", "out_of_bounds", "private_scratch",
                   "transpose_lds")

MI300X = get_spec("mi300x")


def site(record, array, kind):
    return next(s for s in record.memory["sites"] if s["array"] == array and s["kind"] == kind)


def test_addresses_are_the_device_arrays_pointers_plus_offsets():
    n = 1000  # not a multiple of 64: the last wave has inactive lanes
    a = hip.to_device(np.arange(n + 16, dtype=np.float32))
    view = a[16:]  # a view: its own pointer, 64 bytes into a's buffer
    b = hip.device_array(n, np.float32)
    with gpusim.profile(memory=True) as prof:
        K.copy_strided[4, 256](view, b, 1)
    k = prof.kernels[0]
    lanes = np.arange(64)
    load, store = site(k, "a", "load")["example"], site(k, "b", "store")["example"]
    assert view.ptr.value == a.ptr.value + 64
    assert load["addr"] == (view.ptr.value + 4 * lanes).tolist()  # wave 0, lanes 0..63
    assert store["addr"] == (b.ptr.value + 4 * lanes).tolist()
    assert all(load["active"])
    np.testing.assert_array_equal(b.copy_to_host(), np.arange(16, n + 16, dtype=np.float32))


def test_engine_trace_rows_lanes_and_2d_offsets():
    n = 96
    A = np.arange(n * n, dtype=np.float32).reshape(n, n)
    out = np.zeros((n, n), np.float32)
    tracer = Tracer(addresses=(1 << 32, 1 << 33))
    launch(K.transpose_lds.py_func, grid=(3, 3), block=(32, 32), args=(A, out), device=MI300X,
           tracer=tracer)
    np.testing.assert_array_equal(out, A.T)
    tr = tracer.result.trace
    assert len(np.unique(tr.wave)) == 9 * 16 and tr.launch.waves_per_workgroup == 16
    rows = tr.wave == 16 * 4 + 1  # workgroup 4 = blockIdx (1, 1), its second wave
    load = np.flatnonzero(rows & (tr.space == GLOBAL) & (tr.kind == LOAD))[0]
    ty, tx = np.divmod(64 + np.arange(64), 32)  # threads 64..127 of the workgroup
    assert tr.addr[load].tolist() == ((1 << 32) + 4 * ((32 + ty) * n + 32 + tx)).tolist()
    lds_read = np.flatnonzero(rows & (tr.space == LDS) & (tr.kind == LOAD))[0]
    assert tr.addr[lds_read].tolist() == (4 * (tx * 32 + ty)).tolist()  # tile[tx, ty]
    assert tr.bytes_per_lane.tolist() == [4] * len(tr)
    # program order within a wave: global load, LDS store | barrier | LDS load, store
    order = [(int(s), int(k)) for s, k in zip(tr.space[rows], tr.kind[rows], strict=True)]
    assert order == [(GLOBAL, LOAD), (LDS, STORE), (LDS, LOAD), (GLOBAL, STORE)]


def test_update_atomic_and_private_accesses():
    n = 256
    x = np.arange(n, dtype=np.int32)
    tracer = Tracer()
    launch(K.accumulate.py_func, grid=1, block=n, args=(x, np.ones(n, np.int32)),
           device=MI300X, tracer=tracer)
    tr = tracer.result.trace
    # `out[i] += a[i]`: out's load and store are recorded when its index is, before a[i]
    assert [int(k) for k in tr.kind[tr.wave == 0]] == [LOAD, STORE, LOAD]
    assert tr.addr[0].tolist() == tr.addr[1].tolist() != tr.addr[2].tolist()
    tracer = Tracer()
    bins = np.zeros(4, np.int64)
    launch(K.histogram.py_func, grid=1, block=n, args=(x, bins), device=MI300X, tracer=tracer)
    assert bins.tolist() == [64] * 4
    assert tracer.result.counts.vmem_atomic == 4 and ATOMIC in tracer.result.trace.kind
    tracer = Tracer()
    launch(K.private_scratch.py_func, grid=1, block=64, device=MI300X, tracer=tracer,
           args=(np.ones(64, np.float32), np.zeros(64, np.float32)))
    tr = tracer.result.trace
    assert len(tr) == 5 and set(tr.space.tolist()) == {GLOBAL}  # 4 loads of a[i] + 1 store


def test_a_big_launch_is_sampled_and_says_so(monkeypatch):
    monkeypatch.setattr(tracing, "LIMITS", TraceLimits(max_workgroups=4))
    n = 64 * 256
    a, b = hip.to_device(np.arange(n, dtype=np.float32)), hip.device_array(n, np.float32)
    with gpusim.profile(memory=True) as prof:
        K.copy_strided[64, 256](a, b, 1)
    k = prof.kernels[0]
    assert k.memory["sampled"] and k.memory["traced_workgroups"] == 4
    assert k.memory["total_workgroups"] == 64 and k.memory["scale"] == 16.0
    assert k.counters["GPUSIM_SAMPLED"] == 1 and k.counters["GPUSIM_TRACE_SCALE"] == 16.0
    assert k.counters["SQ_WAVES"] == 256 and k.counters["SQ_INSTS_VMEM_RD"] == 256  # scaled
    np.testing.assert_array_equal(b.copy_to_host(), np.arange(n))  # the rest ran untraced


def test_config_trace_traces_without_a_memory_profile():
    n = 4096
    a, b = hip.to_device(np.ones(n, np.float32)), hip.device_array(n, np.float32)
    gpusim.config.trace = True
    with gpusim.profile() as prof:
        K.copy_strided[n // 256, 256](a, b, 1)
    assert prof.kernels[0].counters["SQ_WAVES"] == n // 64
    assert prof.kernels[0].memory["requests_per_instruction"] == 2.0


def test_a_fault_in_a_traced_launch_is_the_fast_paths_error():
    a = hip.device_array(256, np.float32)
    with pytest.raises(HipError) as err, gpusim.profile(memory=True):
        K.out_of_bounds[1, 256](a)
        hip.hipDeviceSynchronize()
    assert err.value.code == hipError_t.hipErrorIllegalAddress
    assert "a[i + 1] = 1.0" in str(err.value) and "255" in str(err.value)
