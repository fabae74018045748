"""Random integer expressions: C++ through hipcc on the emulator == C semantics evaluated
here (truncating division, C precedence, comparisons as 0/1, the conditional operator)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import hip, hipcc

VARS = {"a": 37, "b": -12, "c": 5}


def c_div(x, y):
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def leaf():
    return st.one_of(st.sampled_from(sorted(VARS)).map(lambda v: (v, VARS[v])),
                     st.integers(0, 9).map(lambda k: (str(k), k)))


def combine(children):
    def binary(op):
        return st.tuples(children, children).map(lambda p: _apply(op, *p))
    ops = [binary(op) for op in ("+", "-", "*", "/", "%", "<", ">=", "==", "!=", "&", "|", "^",
                                 "&&", "||")]
    cond = st.tuples(children, children, children).map(
        lambda t: (f"({t[0][0]} ? {t[1][0]} : {t[2][0]})", t[1][1] if t[0][1] else t[2][1]))
    neg = children.map(lambda e: (f"(-({e[0]}))", -e[1]))
    lnot = children.map(lambda e: (f"(!({e[0]}))", int(not e[1])))
    return st.one_of(*ops, cond, neg, lnot)


def _apply(op, x, y):
    (xs, xv), (ys, yv) = x, y
    if op in ("/", "%"):  # divide by something never zero: (y * y + 1)
        ys, yv = f"({ys} * {ys} + 1)", yv * yv + 1
        value = c_div(xv, yv) if op == "/" else xv - c_div(xv, yv) * yv
    else:
        value = {"+": xv + yv, "-": xv - yv, "*": xv * yv, "<": int(xv < yv),
                 ">=": int(xv >= yv), "==": int(xv == yv), "!=": int(xv != yv),
                 "&": xv & yv, "|": xv | yv, "^": xv ^ yv,
                 "&&": int(bool(xv) and bool(yv)), "||": int(bool(xv) or bool(yv))}[op]
    return f"({xs} {op} {ys})", value


EXPRESSIONS = st.recursive(leaf(), combine, max_leaves=6)


@settings(max_examples=6, deadline=None)
@given(st.lists(EXPRESSIONS, min_size=8, max_size=8))
def test_integer_expressions_follow_c(exprs):
    body = "\n".join(f"  out[{k}] = (long long)({text});" for k, (text, _) in enumerate(exprs))
    mod = hipcc.compile(f"""
    __global__ void eval(long long* out, int a, int b, int c) {{
    if (threadIdx.x == 0) {{
    {body}
    }}
    }}""")
    out = hip.to_device(np.zeros(len(exprs), np.int64))
    mod.get_kernel("eval")[1, 1](out, VARS["a"], VARS["b"], VARS["c"])
    assert out.copy_to_host().tolist() == [value for _, value in exprs]


MACRO_EXPRESSIONS = ["NEG", "-NEG", "- -NEG", "POS - NEG", "NEG * 2", "NEG / 7", "NEG % 7",
                     "NEGF", "-NEGF * 2", "NEG + NEGF", "NEGX", "(NEG)"]


def test_negative_macro_constants_match_the_host_compiler(capsys, fresh_system):
    # `#define NEG -99` expands to `-` applied to `99`, both at the macro's place: the
    # device translation must negate once. The reference is the same expressions compiled
    # natively in main (clang's C++), not values written here.
    values = ", ".join(f"(double)({e})" for e in MACRO_EXPRESSIONS)
    n = len(MACRO_EXPRESSIONS)
    mod = hipcc.compile(f"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    #define NEG -99
    #define NEGF -2.5f
    #define NEGX -0x10
    #define POS 7
    __global__ void eval(double* out) {{
      double v[] = {{{values}}};
      for (int k = 0; k < {n}; k++) out[k] = v[k];
    }}
    int main() {{
      double host[] = {{{values}}}, dev[{n}];
      double* d;
      hipMalloc(&d, sizeof(dev));
      hipLaunchKernelGGL(eval, dim3(1), dim3(1), 0, 0, d);
      hipMemcpy(dev, d, sizeof(dev), hipMemcpyDeviceToHost);
      for (int k = 0; k < {n}; k++) printf("%g %g\\n", host[k], dev[k]);
      return 0;
    }}""")
    assert mod.run() == 0
    pairs = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert len(pairs) == n
    for expr, (host, dev) in zip(MACRO_EXPRESSIONS, pairs, strict=True):
        assert dev == host, f"{expr}: device {dev}, C {host}"
    assert pairs[0] == ["-99", "-99"]
