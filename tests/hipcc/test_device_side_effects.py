"""``x++``, ``++x``, ``x--``, ``--x``, ``x += k`` and ``x = k`` used as values inside
expressions, in device code: against a model of C evaluated here (each side effect
happens where C says; values as C gives them), by hand-checked programs and by random
expressions (hypothesis). What C leaves unordered is refused with the place named."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import hip, hipcc


def run_kernel(body: str, n_out: int, *values) -> list[int]:
    mod = hipcc.compile(f"""
    #include <hip/hip_runtime.h>
    __global__ void k(int* out, const int* v, int a, int b, int c, int d) {{
    {body}
    }}""")
    out = hip.to_device(np.zeros(n_out, np.int32))
    v = hip.to_device(np.arange(10, dtype=np.int32) * 10)
    mod.get_kernel("k")[1, 1](out, v, *values)
    return out.copy_to_host().tolist()


def test_hand_checked_counters_indexes_chains_and_loop_tests(fresh_system):
    got = run_kernel("""
      int cnt = 0, j = 5, x, y;
      out[cnt++] = 10;              // out[0] = 10
      out[cnt++] = v[j--];          // out[1] = v[5] = 50, j = 4
      out[cnt++] = j;               // 4
      x = y = 7;
      out[cnt++] = x + y;           // 14
      int z = (x += 3) * 2;         // x = 10, z = 20
      out[cnt++] = z;               // 20
      out[cnt++] = ++x;             // 11
      out[cnt++] = x--;             // 11, then x = 10
      out[cnt++] = x;               // 10
      int n = 3, s = 0;
      while (n-- > 0) s += n;       // s = 2 + 1 + 0, n = -1
      out[cnt++] = s;               // 3
      out[cnt++] = n;               // -1
      int m = 0;
      for (int i = 0; i < 4; ++i, m++) { if (i == 2) continue; s += 100; }
      out[cnt++] = m;               // 4
      out[cnt++] = s;               // 303
      int q = 0;
      do { q += 2; } while (q++ < 6);  // q: 2,3 / 5,6 / 8,9
      out[cnt++] = q;               // 9
      int t = 1;
      int u = (t++, t + 10);        // the comma orders them: 12
      out[cnt++] = u;
      out[cnt++] = t++ && t;        // 1 (t was 2, then 3)
      out[cnt++] = t;               // 3
      float f = 1.5f; f++;
      out[cnt++] = (int)(f * 2);    // 5
      int* p = out + 24;
      *p++ = 1; *p++ = 2; *p = 3;   // out[24..26]
      if (j-- == 4) out[cnt++] = 99; else if (j++ == 3) out[cnt++] = 77;
      out[cnt++] = j;               // 3
      out[cnt] = cnt;               // 19 at out[19]
    """, 28, 0, 0, 0, 0)
    assert got[:20] == [10, 50, 4, 14, 20, 11, 11, 10, 3, -1, 4, 303, 9, 12, 1, 3, 5, 99, 3, 19]
    assert got[24:27] == [1, 2, 3]


def test_counter_in_a_call_argument_like_simple_convolution(fresh_system):
    mod = hipcc.compile("""
    #include <hip/hip_runtime.h>
    #define mad(a, b, c) (a * b + c)
    __global__ void row(const float* in, const float* filt, float* out, unsigned taps) {
      unsigned x = threadIdx.x;
      int cnt = 0;
      float sum = 0.0f;
      for (unsigned i = x; i < x + taps; ++i) sum = mad(in[i], filt[cnt++], sum);
      out[x] = sum;
    }""")
    rng = np.random.default_rng(5)
    data = rng.integers(-8, 8, 40).astype(np.float32)
    filt = np.array([1, -2, 3], np.float32)
    out = hip.to_device(np.zeros(32, np.float32))
    mod.get_kernel("row")[1, 32](hip.to_device(data), hip.to_device(filt), out, 3)
    want = np.array([sum(data[x + t] * filt[t] for t in range(3)) for x in range(32)])
    np.testing.assert_array_equal(out.copy_to_host(), want)


@pytest.mark.parametrize("body, construct, col", [
    ("out[0] = a + a++;", "reading `a` in the expression that changes it", 16),
    ("out[0] = a && b++;", "`++`, `--` or an assignment in the right side of `&&`", 21),
    ("out[0] = a ? b++ : 0;", "`++`, `--` or an assignment in a branch of `?:`", 20),
    ("out[a++] = a;", "reading `a` in the expression that changes it", 18),
])
def test_orders_c_leaves_open_are_refused_where_they_are(body, construct, col):
    mod = hipcc.compile("#include <hip/hip_runtime.h>\n"
                        "__global__ void k(int* out, int a, int b) {\n"
                        f"      {body}\n}}")
    err = mod.errors["k"]
    assert err.construct.startswith(construct)
    assert (err.lineno, err.col) == (3, col)
    assert "Instead:" in str(err)


# ---- random expressions against a model of C
VARS = ("a", "b", "c", "d")
START = {"a": 3, "b": -2, "c": 7, "d": 0}


def leaf(var: str | None):
    """A leaf using ``var`` (each variable at most once per statement, so no order
    questions arise), or a literal: (C text, function(state) -> value)."""
    if var is None:
        return st.integers(0, 9).map(lambda k: (str(k), lambda s, k=k: k))

    def read(s):
        return s[var]

    def post(delta):
        def f(s):
            old = s[var]
            s[var] += delta
            return old
        return f

    def pre(delta):
        def f(s):
            s[var] += delta
            return s[var]
        return f

    def compound(op, k):
        def f(s):
            s[var] = {"+=": s[var] + k, "-=": s[var] - k, "*=": s[var] * k, "=": k}[op]
            return s[var]
        return f

    def then_read(delta):  # (v++, v): the comma orders the read after the change
        def f(s):
            s[var] += delta
            return s[var]
        return f

    def and_read(s):  # v-- && v
        old = s[var]
        s[var] -= 1
        return int(old != 0 and s[var] != 0)

    simple = [(var, read), (f"{var}++", post(1)), (f"{var}--", post(-1)),
              (f"++{var}", pre(1)), (f"--{var}", pre(-1)), (f"({var}++, {var})", then_read(1)),
              (f"({var}-- && {var})", and_read)]
    return st.one_of(st.sampled_from(simple),
                     st.tuples(st.sampled_from(["+=", "-=", "*=", "="]), st.integers(0, 5)).map(
                         lambda t: (f"({var} {t[0]} {t[1]})", compound(*t))))


OPS = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
       "^": lambda x, y: x ^ y, "<": lambda x, y: int(x < y), "==": lambda x, y: int(x == y)}


@st.composite
def statement(draw):
    n = draw(st.integers(1, 4))
    names = draw(st.permutations(VARS))[:n]
    leaves = [draw(leaf(v if draw(st.booleans()) else None)) for v in names]
    while len(leaves) > 1:  # combine neighbours: the leaves stay in left-to-right order
        k = draw(st.integers(0, len(leaves) - 2))
        op = draw(st.sampled_from(sorted(OPS)))
        (xt, xf), (yt, yf) = leaves[k], leaves[k + 1]

        def f(s, xf=xf, yf=yf, op=op):
            x = xf(s)
            return OPS[op](x, yf(s))
        leaves[k:k + 2] = [(f"({xt} {op} {yt})", f)]
    return leaves[0]


@settings(max_examples=8, deadline=None)
@given(st.lists(statement(), min_size=3, max_size=6))
def test_random_side_effects_follow_c(stmts):
    body = "\n".join(f"out[{k}] = {text};" for k, (text, _) in enumerate(stmts))
    body += "\n" + "\n".join(f"out[{len(stmts) + k}] = {v};" for k, v in enumerate(VARS))
    state = dict(START)
    want = [fn(state) for _, fn in stmts] + [state[v] for v in VARS]
    assert run_kernel(body, len(want), *START.values()) == want
