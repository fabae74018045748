"""Device printf prints what C's printf prints: the format applied on the host by
``hip.printf`` (gpusim/compile/device/printf.py), compared with the C library's own
``snprintf`` (through ctypes) on random conversions, and end to end from HIP C++ and
Python kernels, compiled and on the pure-Python reference path."""

import ctypes
import ctypes.util
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import hip, hipcc
from gpusim.compile.device.printf import c_format
from gpusim.devices import get_spec
from gpusim.engine import launch
from gpusim.errors import KernelCompileError

_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None)


def libc_snprintf(fmt: str, *args) -> str:
    buf = ctypes.create_string_buffer(1024)
    _LIBC.snprintf(buf, ctypes.c_size_t(len(buf)), fmt.encode(), *args)
    return buf.value.decode()


INT_TYPES = {"hh": (ctypes.c_int, 8), "h": (ctypes.c_int, 16), "": (ctypes.c_int, 32),
             "l": (ctypes.c_long, 64), "ll": (ctypes.c_longlong, 64)}


@st.composite
def conversion(draw):
    """(C format, the value as Python passes it, the value as ctypes passes it)."""
    conv = draw(st.sampled_from("diuxXocfFeEgGaAs"))
    flags = draw(st.sets(st.sampled_from("-+ #0")))
    if conv in "dics":
        flags.discard("#")
    if conv in "cs":
        flags -= {"0", "+", " "}
    if conv in "uxXo":
        flags -= {"+", " "}
    if conv in "aA":
        flags.discard("0")
    if conv in "gG":  # glibc's %#g of 999999.5 is "1.e+06", not C's "1.00000e+06"
        flags.discard("#")
    width = draw(st.one_of(st.none(), st.integers(0, 14)))
    prec = None if conv == "c" else draw(st.one_of(st.none(), st.integers(0, 9)))
    length = ""
    if conv in "diuxXo":
        length = draw(st.sampled_from(sorted(INT_TYPES)))
        ctype, bits = INT_TYPES[length]
        value = draw(st.integers(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1))
        cval = ctype(value)
    elif conv == "c":
        value = draw(st.integers(32, 126))
        cval = ctypes.c_int(value)
    elif conv == "s":
        value = draw(st.text(alphabet="abcXYZ 019_", max_size=12))
        cval = ctypes.c_char_p(value.encode())
    else:
        value = draw(st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=32),
                               st.floats(-1e6, 1e6), st.sampled_from([0.5, 2.5, -0.0, 1e-7])))
        cval = ctypes.c_double(value)
    spec = "%" + "".join(sorted(flags)) + (str(width) if width is not None else "") + \
        ("." + str(prec) if prec is not None else "") + length + conv
    return spec, value, cval


@settings(max_examples=400, deadline=None)
@given(st.lists(conversion(), min_size=1, max_size=3), st.sampled_from(["", "x=", " | "]))
def test_formatting_matches_the_c_library(parts, sep):
    fmt = sep.join(spec for spec, _, _ in parts) + "\n"
    values = tuple(v for _, v, _ in parts)
    assert c_format(fmt, values) == libc_snprintf(fmt, *(c for _, _, c in parts))


@pytest.mark.parametrize("fmt, values, text", [
    ("block %d thread %d!\n", (1, 0), "block 1 thread 0!\n"),
    ("%u %x %hhu %hd\n", (-1, -1, 300, 70000), "4294967295 ffffffff 44 4464\n"),
    ("%5.2f|%-6.1e|%g|%G\n", (math.pi, 12345.678, 1e-5, 1e20), " 3.14|1.2e+04|1e-05|1E+20\n"),
    ("%*d|%-*d|%.*f\n", (4, 7, 3, 8, 2, 0.125), "   7|8  |0.12\n"),
    ("%#o %#x %#X %#x %#g\n", (8, 255, 255, 0, 1.5), "010 0xff 0XFF 0 1.50000\n"),
    ("%c%c %s %.2s %%\n", (72, 105, "text", "text"), "Hi text te %\n"),
    ("%f %f %e\n", (math.inf, -math.nan, -math.inf), "inf -nan -inf\n"),
    ("%a %a %A\n", (1.0, 0.1, -3.5), "0x1p+0 0x1.999999999999ap-4 -0X1.CP+1\n"),
    ("no newline", (), "no newline"),
])
def test_hand_checked_formats(fmt, values, text):
    assert c_format(fmt, values) == text


def test_cpp_kernel_printf_is_exact(capsys, fresh_system):
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    __device__ void hello() { printf("Hello world from device or host!\n"); }
    __global__ void greet(const float* x) {
      hello();
      printf("block %u thread %u!\n", blockIdx.x, threadIdx.x);
      if (threadIdx.x == 0) printf("x = %6.3f, as int %d, hex %#x, %s\n", x[blockIdx.x],
                                   (int)x[blockIdx.x], 255, "ok");
      printf("%d;", -(int)threadIdx.x);   // no newline: the next output continues the line
    }""")
    mod.get_kernel("greet")[2, 2](hip.to_device(np.array([1.5, -2.25], np.float32)))
    hip.synchronize()
    out = capsys.readouterr().out
    assert "block 1 thread 1!\n" in out and "block 0 thread 0!\n" in out
    assert "x =  1.500, as int 1, hex 0xff, ok\n" in out
    assert "x = -2.250, as int -2, hex 0xff, ok\n" in out
    assert out.count("Hello world from device or host!\n") == 4
    assert out.count("-1;") == 2 and out.count("0;") == 2


def _py_kernel(a):
    i = hip.threadIdx.x
    hip.printf("%d:%.1f%c", i, a[i], 10)


@pytest.mark.parametrize("reference", [False, True])
def test_python_kernels_printf_compiled_and_reference(capsys, reference):
    kernel = hip.jit(_py_kernel)
    a = np.arange(4, dtype=np.float32) / 2
    launch(kernel.py_func, grid=1, block=4, args=(a,), device=get_spec("mi300x"),
           reference=reference)
    lines = sorted(capsys.readouterr().out.splitlines())
    assert lines == ["0:0.0", "1:0.5", "2:1.0", "3:1.5"]


def test_printf_needs_a_format_constant():
    def bad(a):
        fmt = "x"
        hip.printf(fmt, a[0])
    with pytest.raises(KernelCompileError, match="format string constant"):
        launch(bad, grid=1, block=1, args=(np.zeros(1),), device=get_spec("mi300x"))


def test_printf_of_a_string_that_is_not_a_literal_is_refused():
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    __global__ void k(const char* name) { printf("%s\n", name); }""")
    err = mod.errors["k"]
    assert err.construct == "printing a string that is not a literal"
    assert (err.lineno, err.col) == (3, 58)
