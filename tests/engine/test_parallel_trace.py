"""Traced work-groups split over host threads give the trace one thread gives."""

import numpy as np
import pytest

from gpusim.compile import lang as hip
from gpusim.config import config
from gpusim.devices import get_spec
from gpusim.engine import launch
from gpusim.trace.tracer import TraceLimits, Tracer, plan_spans


def stencil(a, out, hist):
    i = hip.grid(1)
    if 0 < i < a.size - 1:
        out[i] = a[i - 1] + a[i + 1]
        hip.atomic.add(hist, i % 7, 1)


def traced(parallel: bool, sample: int = 0, limits: TraceLimits | None = None,
           groups: int = 96):
    a = np.arange(64 * groups, dtype=np.float32)
    out, hist = np.zeros_like(a), np.zeros(7, np.int64)
    tracer = Tracer(addresses=(1 << 20, 1 << 24, 1 << 28), sample=sample, limits=limits)
    before = config.parallel
    config.parallel = parallel
    try:
        launch(stencil, grid=groups, block=64, args=(a, out, hist), device=get_spec("mi300x"),
               tracer=tracer)
    finally:
        config.parallel = before
    want = np.zeros_like(a)
    want[1:-1] = a[:-2] + a[2:]
    assert np.array_equal(out, want)  # every work-group ran exactly once
    assert hist.sum() == a.size - 2
    return tracer.result


@pytest.mark.parametrize("sample", [0, 32])
def test_parallel_trace_equals_one_thread(sample):
    one, many = traced(False, sample), traced(True, sample)
    assert one.traced_workgroups == many.traced_workgroups
    assert one.counts == many.counts
    for name in ("addr", "active", "kind", "space", "site", "wave", "workgroup"):
        assert np.array_equal(getattr(one.trace, name), getattr(many.trace, name)), name


@pytest.mark.parametrize("groups", [2, 3, 5])
def test_few_work_groups_over_more_workers(groups, monkeypatch):
    # each worker's share of the event buffers must leave the first work-group's events
    # (traced alone first) in place, also when it is the first group's only work-group
    import gpusim.trace.tracer as tracing

    monkeypatch.setattr(tracing, "host_cores", lambda: 4)
    one, many = traced(False, groups=groups), traced(True, groups=groups)
    assert not many.truncated and many.traced_workgroups == groups
    assert one.counts == many.counts and one.counts.vmem_read > 0
    assert np.array_equal(one.trace.addr, many.trace.addr)


def test_sample_traces_the_planned_spans_and_the_rest_runs_fast():
    r = traced(True, sample=32)
    ids = np.unique(r.trace.workgroup)
    planned = np.concatenate([np.arange(s, e) for s, e in plan_spans(96, 32)])
    assert np.array_equal(ids, planned) and r.sampled


def test_event_limit_keeps_whole_work_groups_of_each_worker():
    small = TraceLimits(max_workgroups=2048, max_events=64 * 3 * 10)  # ~10 work-groups
    r = traced(True, limits=small)
    assert 1 <= r.traced_workgroups <= 12 and r.sampled
    per_wg = np.bincount(r.trace.workgroup)
    assert set(per_wg[per_wg > 0]) <= {4, 5, 6}  # whole work-groups only (64 lanes)


def test_uniform_compares_every_work_groups_events_and_instruction_counts():
    from gpusim.trace.tracer import _uniform

    def part(starts, end, counts, spans):  # a worker's buffers: tr[2][0], tr[5], tr[6]
        tr = [None] * 7
        tr[2], tr[5] = np.array([end, 0, 0, 0]), np.array(starts + [end])
        tr[6] = np.array(counts)
        return (tr, spans)

    same = [[3, 1, 0, 0, 0, 0]] * 3
    assert _uniform([part([0, 10, 20], 30, same, [(1, 3)])], 0)
    assert not _uniform([part([0, 10, 21], 30, same, [(1, 3)])], 0)  # events differ
    other = [[3, 1, 0, 0, 0, 0], [3, 1, 0, 0, 0, 0], [3, 2, 0, 0, 0, 0]]
    assert not _uniform([part([0, 10, 20], 30, other, [(1, 3)])], 0)  # branches differ
    second = part([0, 0, 0, 5, 15], 25, [[0] * 6] * 3 + [[3, 1, 0, 0, 0, 0]] * 2, [(3, 5)])
    assert _uniform([part([0, 10, 20], 30, same, [(1, 3)]), second], 0)
    second[0][6][4, 0] = 4  # a second worker's work-group differs from the first's
    assert not _uniform([part([0, 10, 20], 30, same, [(1, 3)]), second], 0)


def test_a_loop_free_sample_runs_on_the_launching_thread_a_loop_hands_off(monkeypatch):
    import gpusim.trace.tracer as tracing

    def looped(a, out, hist):  # the stencil with a loop: a runaway one needs the watchdog
        i = hip.grid(1)
        if 0 < i < a.size - 1:
            s = 0.0
            for k in range(2):
                s += a[i - 1 + 2 * k]
            out[i] = s
            hip.atomic.add(hist, i % 7, 1)

    seen = []
    real = tracing.Tracer._build

    def build(self, *args):  # the trace is built from the events: whose thread ran them?
        seen.append(handed)
        return real(self, *args)

    handed = False
    real_run = tracing.run_workers

    def run_workers(*args, **kw):
        nonlocal handed
        handed = True
        return real_run(*args, **kw)

    monkeypatch.setattr(tracing, "run_workers", run_workers)
    monkeypatch.setattr(tracing.Tracer, "_build", build)
    for kernel in (stencil, looped):
        handed = False
        a = np.arange(64 * 96, dtype=np.float32)
        out, hist = np.zeros_like(a), np.zeros(7, np.int64)
        tracer = Tracer(addresses=(1 << 20, 1 << 24, 1 << 28), sample=32)
        launch(kernel, grid=96, block=64, args=(a, out, hist), device=get_spec("mi300x"),
               tracer=tracer)
        assert np.array_equal(out[1:-1], a[:-2] + a[2:]) and tracer.result is not None
    assert seen == [False, True]
