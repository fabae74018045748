"""The debugger's recorded steps against Python running the kernel one thread at a time.

Independent reference: the kernel's own Python function, called once per thread with a
stand-in ``hip`` that answers that thread's coordinates, under ``sys.settrace``; the
values each line leaves in the thread's locals are what that lane must show, in the same
order. Kernels are generated (hypothesis) with branches and loops whose trip counts
differ between lanes, so the SIMT replay must interleave divergent lanes correctly; with
a barrier (an LDS round trip) or a shuffle between two such phases, Python runs the
first phase for every thread, swaps the values as the hardware would, then the second.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpusim
from gpusim import hip
from gpusim.debugger.recorder import RecordingBudgetError


@pytest.fixture(autouse=True)
def one_gpu():
    gpusim.set_system(device="mi300x", ngpus=1)


def _make(source: str):
    """A @hip.jit kernel from source text (its lines are the text's lines)."""
    ns = {"hip": hip, "np": np}
    exec(compile(source, f"<debugger kernel {abs(hash(source))}>", "exec"), ns)  # noqa: S102
    return hip.jit(ns["k"])


class _Thread:
    """What ``hip`` answers to one thread in the per-thread reference run."""

    def __init__(self, t: int, b: int, nt: int):
        self.threadIdx = types.SimpleNamespace(x=t, y=0, z=0)
        self.blockIdx = types.SimpleNamespace(x=b, y=0, z=0)
        self.blockDim = types.SimpleNamespace(x=nt, y=1, z=1)
        self._g = b * nt + t

    def grid(self, n: int) -> int:
        return self._g


def _per_thread_assignments(func, args, t: int, b: int, nt: int) -> list[tuple]:
    """(name, value) in the order thread t's locals change, by Python's own interpreter."""
    fn = types.FunctionType(func.__code__, {**func.__globals__, "hip": _Thread(t, b, nt)})
    seen: dict = {}
    out: list[tuple] = []

    def note(frame):
        for name, value in frame.f_locals.items():
            if name in func.__code__.co_varnames[func.__code__.co_argcount:] and (
                    name not in seen or seen[name] != value):
                seen[name] = value
                out.append((name, value))

    def tracer(frame, event, arg):
        if frame.f_code is not func.__code__:
            return None
        if event in ("line", "return"):
            note(frame)
        return tracer

    sys.settrace(tracer)
    try:
        fn(*args)
    finally:
        sys.settrace(None)
    return out


def _lane_assignments(rec, t: int) -> list[tuple]:
    """(name, value) in the order the debugger shows thread t's variables change."""
    wave, lane = divmod(t, rec.wave_size)
    seen: dict = {}
    out = []
    for step in rec.wave_steps(wave):
        for name, value in step.values.get(lane, {}).items():
            if name not in seen or seen[name] != value:
                seen[name] = value
                out.append((name, value))
    return out


TEMPLATES = {
    "if": "if t % {m} == {r}:\n{body}\nelse:\n{other}",
    "if_only": "if t < {n}:\n{body}",
    "for": "for j in range(t % {m}):\n{body}",
    "while": "c = t % {m}\nwhile c > 0:\n{body}\n    c = c - 1",
}
LEAVES = ["x = x + {c}", "x = x * 2 - {c}", "y = x % {m} + t", "x = y * {c}"]


@st.composite
def kernels(draw, depth=2):
    def block(level):
        lines = []
        for _ in range(draw(st.integers(1, 2))):
            kind = draw(st.sampled_from(list(TEMPLATES) + ["leaf"] * 2)) if level else "leaf"
            fill = dict(m=draw(st.integers(2, 5)), r=draw(st.integers(0, 1)),
                        n=draw(st.integers(1, 63)), c=draw(st.integers(1, 9)))
            if kind == "leaf":
                lines.append(draw(st.sampled_from(LEAVES)).format(**fill))
                continue
            body = _indent(block(level - 1))
            other = _indent(block(level - 1))
            lines += TEMPLATES[kind].format(body=body, other=other, **fill).splitlines()
        return lines

    body = block(depth)
    return "\n".join(["def k(out):", "    t = hip.threadIdx.x", "    x = t", "    y = 0",
                      *("    " + line for line in body),
                      "    out[hip.blockIdx.x * hip.blockDim.x + t] = x + y"]) + "\n"


def _indent(lines: list[str]) -> str:
    return "\n".join("    " + line for line in lines)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=kernels(), threads=st.sampled_from([16, 64, 96]))
def test_every_lane_shows_what_python_computes_for_its_thread(source, threads):
    k = _make(source)
    out = np.zeros(2 * threads, np.int64)
    rec = gpusim.debug(k[2, threads], out, block=(1, 0, 0)).recording
    for t in range(threads):
        want = _per_thread_assignments(k.py_func, (np.zeros(2 * threads, np.int64),), t, 1,
                                       threads)
        assert _lane_assignments(rec, t) == want, (source, t)


@settings(max_examples=8, deadline=None)  # each example compiles a fast kernel (~1 s)
@given(source=kernels())
def test_a_debugged_launch_gives_the_normal_launch_results(source):
    k = _make(source)
    plain, debugged = np.zeros(256, np.int64), np.zeros(256, np.int64)
    k[4, 64](plain)
    gpusim.debug(k[4, 64], debugged, block=(2, 0, 0))
    np.testing.assert_array_equal(debugged, plain)


def test_divergent_if_runs_both_sides_under_exec_masks_then_reconverges():
    k = _make("def k(out):\n"
              "    t = hip.threadIdx.x\n"
              "    if t < 40:\n"
              "        v = 1\n"
              "    else:\n"
              "        v = 2\n"
              "    out[t] = v\n")
    out = np.zeros(128, np.int64)
    rec = gpusim.debug(k[1, 128], out).recording
    wave1 = [(s.line, int(s.exec.sum())) for s in rec.wave_steps(1)]
    assert [(s.line, int(s.exec.sum())) for s in rec.wave_steps(0)] == [
        (2, 64), (3, 64), (4, 40), (6, 24), (7, 64)]
    assert wave1 == [(2, 64), (3, 64), (6, 64), (7, 64)]  # lanes 64..127: all take else
    assert rec.steps[3].exec[40:].all() and not rec.steps[3].exec[:40].any()


def test_loop_runs_until_its_last_lane_leaves():
    k = _make("def k(out):\n"
              "    t = hip.threadIdx.x\n"
              "    s = 0\n"
              "    for j in range(t % 4):\n"
              "        s += j\n"
              "    out[t] = s\n")
    rec = gpusim.debug(k[1, 64], np.zeros(64, np.int64)).recording
    body = [int(s.exec.sum()) for s in rec.steps if s.line == 5]
    assert body == [48, 32, 16]  # iteration j runs in the lanes with t % 4 > j
    assert rec.lanes(len(rec.steps) - 1)["s"][:8] == [0, 0, 1, 3, 0, 0, 1, 3]


def test_barrier_is_a_step_of_every_wave_and_lds_values_cross_it():
    k = _make("def k(out):\n"
              "    s = hip.shared.array(128, np.int64)\n"
              "    t = hip.threadIdx.x\n"
              "    s[t] = t * 10\n"
              "    hip.syncthreads()\n"
              "    v = s[127 - t]\n"
              "    out[t] = v\n")
    out = np.zeros(128, np.int64)
    rec = gpusim.debug(k[1, 128], out).recording
    barriers = [s for s in rec.steps if s.kind == "barrier"]
    assert [b.wave for b in barriers] == [0, 1] and all(b.exec.all() for b in barriers)
    last0 = rec.wave_steps(0)[-1].index
    assert rec.lanes(last0)["v"][:3] == [1270, 1260, 1250]  # wave 0's lanes 0, 1, 2
    assert rec.lanes(len(rec.steps) - 1)["v"][:2] == [630, 620]  # wave 1: threads 64, 65
    np.testing.assert_array_equal(out, (127 - np.arange(128)) * 10)
    reads = [s for s in rec.steps if s.line == 6 and s.wave == 0][0]
    assert reads.access[0][2] == (127,)  # lane 0 read element 127 of s
    first_store = [s for s in rec.steps if s.line == 4][0]  # wave 0 wrote s[0:64]
    writers = rec.lds_writers(first_store.index)["s"]
    assert writers[:64].tolist() == list(range(64)) and (writers[64:] == -1).all()
    np.testing.assert_array_equal(rec.lds_writers(last0)["s"], np.arange(128))


def test_a_recording_past_its_budget_says_how_to_narrow_it():
    k = _make("def k(out):\n"
              "    t = hip.threadIdx.x\n"
              "    for j in range(1000):\n"
              "        out[t] += 1\n")
    with pytest.raises(RecordingBudgetError, match="smaller work-group"):
        gpusim.debug(k[1, 64], np.zeros(64, np.int64), budget=500)
    out = np.zeros(64, np.int64)  # the emulator stays usable
    k[1, 64](out)
    assert out[0] == 1000
    rec = gpusim.debug(k[1, 64], np.zeros(64, np.int64), budget=500, lines=(2, 2)).recording
    assert {s.line for s in rec.steps} == {2}  # only line 2: within the budget


def test_a_block_outside_the_grid_is_refused():
    k = _make("def k(out):\n    out[0] = 1\n")
    with pytest.raises(ValueError, match="not in the grid"):
        gpusim.debug(k[2, 64], np.zeros(1), block=(2, 0, 0))
    with pytest.raises(TypeError, match=r"kernel\[grid, block\]"):
        gpusim.debug(k, np.zeros(1))


def test_numba_cuda_kernels_are_debugged_through_the_facade():
    from gpusim import cuda

    @cuda.jit
    def twice(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = i * 2

    out = np.zeros(100, np.int32)
    rec = gpusim.debug(twice[2, 64], out, block=(1, 0, 0)).recording
    np.testing.assert_array_equal(out, np.arange(100) * 2)
    assert [int(s.exec.sum()) for s in rec.steps] == [64, 64, 36]  # 100 - 64 pass the if


def test_hip_cpp_kernels_step_on_their_cpp_lines():
    from gpusim import hipcc

    mod = hipcc.compile(
        "#include <hip/hip_runtime.h>\n"
        "__global__ void parity(int* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i % 2 == 0) {\n"
        "        out[i] = 1;\n"
        "    } else {\n"
        "        out[i] = -1;\n"
        "    }\n"
        "}\n")
    out = np.zeros(128, np.int32)
    view = gpusim.debug(mod.get_kernel("parity")[2, 64], out, 128, block=(1, 0, 0))
    rec = view.recording
    assert [(s.line, int(s.exec.sum())) for s in rec.steps] == [(3, 64), (4, 64), (5, 32),
                                                                 (7, 32)]
    assert rec.source[rec.steps[2].line - rec.first_line].strip() == "out[i] = 1;"
    assert out[64:68].tolist() == [1, -1, 1, -1]


def test_the_stepper_view_moves_by_its_buttons():
    k = _make("def k(out):\n"
              "    t = hip.threadIdx.x\n"
              "    if t < 8:\n"
              "        out[t] = 1\n"
              "    hip.syncthreads()\n"
              "    out[t] += 1\n")
    view = gpusim.debug(k[1, 128], np.zeros(128, np.int64))
    back, forward, divergence, barrier, run_to, line = view.children[2].children
    divergence.click()
    assert dict(view.summary)["EXEC"] == "8 of 64 lanes (lanes switched off)"
    barrier.click()
    assert dict(view.summary)["barrier"] == "waves arrived: [0] of [0, 1]"
    forward.click()
    assert dict(view.summary)["line"] == "6: out[t] += 1"
    back.click()
    assert "barrier" in dict(view.summary)
    view.controls["step"].value = 0
    line.value = 6
    run_to.click()
    assert dict(view.summary)["line"] == "6: out[t] += 1"
    view.controls["wave"].value = 1
    view.controls["step"].value = 2
    assert dict(view.summary)["barrier"] == "waves arrived: [0, 1] of [0, 1]"
    assert "budget 200,000" in dict(view.summary)["step"]


def test_a_sanitizer_finding_marks_both_lines_and_jumps_to_its_step():
    k = _make("def k(x, out):\n"
              "    s = hip.shared.array(128, np.float32)\n"
              "    t = hip.threadIdx.x\n"
              "    s[t] = x[t]\n"
              "    v = s[(t + 1) % 128]\n"
              "    out[t] = v\n")
    x, out = np.arange(128, dtype=np.float32), np.zeros(128, np.float32)
    view = gpusim.debug(k[1, 128], x, out)
    (race,) = view.recording.findings
    assert race.kind == "LDS race" and sorted(race.lines) == [4, 5]
    plain = np.zeros(128, np.float32)
    k[1, 128](x, plain)
    np.testing.assert_array_equal(out, plain)  # the real launch: what a normal one gives
    view.controls["sanitizer"].value = 0
    assert dict(view.summary)["line"].startswith(f"{race.first.line}:")
    marked = [c for c in view.sources["code"].data["color"] if c != "white"]
    assert len(marked) == 2  # the current line and the other access's line
    clean = gpusim.debug(k[1, 128], x, out, sanitize=False)
    assert clean.recording.findings == [] and clean.controls["sanitizer"].options == (("-", -1),)


def test_a_wave_collective_inside_an_if_runs_on_that_sides_lanes():
    k = _make("def k(out):\n"
              "    lane = hip.laneid\n"
              "    if lane % 3 == 0:\n"
              "        out[0] = hip.ballot(lane > 40)\n"
              "    else:\n"
              "        out[1] = hip.activemask()\n")
    out = np.zeros(2, np.uint64)
    rec = gpusim.debug(k[1, 64], out).recording
    then, other = np.arange(64) % 3 == 0, np.arange(64) % 3 != 0
    for s in rec.steps:
        if s.line == 4:
            np.testing.assert_array_equal(s.exec, then)
        elif s.line == 6:
            np.testing.assert_array_equal(s.exec, other)
    assert {s.kind for s in rec.steps} >= {"ballot", "activemask"}
    assert int(out[1]) == sum(1 << k for k in range(64) if k % 3)


EXCHANGES = {  # how lanes swap x across a barrier (LDS) or a shuffle: (kernel text, y_t)
    "barrier": ("s[t] = x\nhip.syncthreads()\ny = s[(t + {d}) % {n}]",
                lambda xs, t, d, n: xs[(t + d) % n]),
    "shuffle": ("y = hip.shfl_xor(x, {m})", lambda xs, t, m, n: xs[t ^ m]),
}
SHOWN = ("t", "x", "y", "c", "j")  # the generated kernels' variables (not the compiler's)


@st.composite
def exchanging_kernels(draw):
    """(kernel source, phase A source, exchange kind and parameters, phase B source, n)."""
    n = draw(st.sampled_from([64, 128]))
    kind = draw(st.sampled_from(list(EXCHANGES)))
    params = dict(d=draw(st.integers(1, n - 1)), m=draw(st.integers(1, 63)), n=n)
    a = draw(kernels(depth=1)).splitlines()[4:-1]  # a body, without header and store
    b = draw(kernels(depth=1)).splitlines()[4:-1]
    middle = ["    " + line for line in EXCHANGES[kind][0].format(**params).splitlines()]
    source = "\n".join(["def k(out):", f"    s = hip.shared.array({n}, np.int64)",
                        "    t = hip.threadIdx.x", "    x = t", "    y = 0", *a, *middle, *b,
                        "    out[hip.blockIdx.x * hip.blockDim.x + t] = x + y"]) + "\n"
    return source, a, kind, params, b, n


def _phase(body: list[str], params: str) -> types.FunctionType:
    ns: dict = {}
    exec("def phase(" + params + "):\n" + "\n".join(body or ["    pass"])  # noqa: S102
         + "\n    return x, y\n", ns)
    return ns["phase"]


def _assignments(func, args) -> tuple[list[tuple], tuple]:
    """(name, value) as ``func``'s locals change (arguments at entry count as set), and
    what it returns."""
    code = func.__code__
    seen = dict(zip(code.co_varnames[:code.co_argcount], args, strict=True))
    out: list[tuple] = []

    def tracer(frame, event, arg):
        if frame.f_code is not code:
            return None
        if event in ("line", "return"):
            for name, value in frame.f_locals.items():
                if name not in seen or seen[name] != value:
                    seen[name] = value
                    out.append((name, value))
        return tracer

    sys.settrace(tracer)
    try:
        result = func(*args)
    finally:
        sys.settrace(None)
    return out, result


def _dedupe(pairs: list[tuple]) -> list[tuple]:
    seen: dict = {}
    out = []
    for name, value in pairs:
        if name in SHOWN and (name not in seen or seen[name] != value):
            seen[name] = value
            out.append((name, value))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=exchanging_kernels())
def test_lanes_across_a_barrier_or_a_shuffle_show_what_python_computes(case):
    """Barriers and shuffles: Python runs phase A for every thread, swaps x between lanes
    as the LDS round trip or the shuffle does, then runs phase B from there."""
    source, a, kind, params, b, n = case
    k = _make(source)
    out = np.zeros(n, np.int64)
    rec = gpusim.debug(k[1, n], out, sanitize=False).recording
    first = [_assignments(_phase(["    x = t", "    y = 0", *a], "t"), (t,)) for t in range(n)]
    xs = [x for _, (x, _) in first]
    for t in range(n):
        y = EXCHANGES[kind][1](xs, t, params["d" if kind == "barrier" else "m"], n)
        later, _ = _assignments(_phase(b, "t, x, y"), (t, xs[t], y))
        want = _dedupe([("t", t), *first[t][0], ("y", y), *later])
        assert _dedupe(_lane_assignments(rec, t)) == want, (source, t)
    plain = np.zeros(n, np.int64)
    k[1, n](plain)
    np.testing.assert_array_equal(out, plain)


def test_the_lanes_table_shows_each_lanes_last_element():
    k = _make("def k(x, out):\n"
              "    t = hip.threadIdx.x\n"
              "    v = x[t] * 2\n"
              "    w = v + 1\n"
              "    out[t] = w\n")
    view = gpusim.debug(k[1, 64], np.arange(64.0), np.zeros(64), sanitize=False)
    rec = view.recording
    at_w = next(s for s in rec.steps if s.line == 4)
    assert rec.last_access(at_w.index)[5][2] == (5,)  # lane 5 last read x[5], at line 3
    view.controls["step"].value = at_w.index
    assert "<td>x[5] read</td>" in view.table.value  # not at this step: no *
    view.controls["step"].value = at_w.index + 1
    assert "<td>out[5] wrote*</td>" in view.table.value
