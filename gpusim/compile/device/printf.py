"""``hip.printf(fmt, *values)``: device printf with C's formatting.

The kernel passes the format (a string constant) and the values; the host formats them as
C's ``printf`` does and writes the text to ``sys.stdout`` in one piece: no separator or
newline is added. Conversions: ``d i u o x X c s f F e E g G a A p %``, with flags
``- + space # 0``, width and precision (``*`` takes them from the values), and length
modifiers ``hh h l ll j z t L`` that give integers their C width (``%u`` of -1 is
4294967295, ``%hhd`` of 300 is 44). Compiled, the call leaves numba's code for the
interpreter (``numba.objmode``), as numba's own ``print`` does.

>>> c_format("block %d thread %u!\\n", (1, -1))
'block 1 thread 4294967295!\\n'
>>> c_format("%5.2f|%-4d|%04x|%e|%g|%#o|%c|%s|%%", (3.14159, 7, 255, 12345.678, 1e-5, 8, 65, "hi"))
' 3.14|7   |00ff|1.234568e+04|1e-05|010|A|hi|%'
"""

from __future__ import annotations

import math
import re
import sys

import numba
from numba.extending import overload

_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d*))?"
                   r"(?P<len>hh|h|ll|l|j|z|t|L|q)?(?P<conv>[diouxXcsfFeEgGaApn%])")
_BITS = {"hh": 8, "h": 16, None: 32, "l": 64, "ll": 64, "q": 64, "j": 64, "z": 64, "t": 64,
         "L": 64}


def _int(value, length: str | None, signed: bool) -> int:
    bits = _BITS.get(length, 32)
    v = int(value) & ((1 << bits) - 1)
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def _hex_float(x: float, upper: bool, prec: int | None) -> str:
    """C's %a: 0x1.8p+1 (the shortest exact digits unless a precision is given)."""
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if math.isnan(x) or math.isinf(x):
        text = sign + ("nan" if math.isnan(x) else "inf")
    else:
        h = float.hex(abs(x))  # 0x1.8000000000000p+1
        mant, exp = h[2:].split("p")
        lead, _, frac = mant.partition(".")
        if prec is None:
            frac = frac.rstrip("0")
        else:
            full = int(lead + frac, 16)
            drop = (len(frac) - prec) * 4
            if drop > 0:
                q, r = divmod(full, 1 << drop)
                half = 1 << (drop - 1)
                q += r > half or (r == half and q & 1)
                digits = f"{q:x}".rjust(prec + 1, "0")  # 0x1.f8p+0 may round to 0x2.0p+0
                lead, frac = (digits[:-prec], digits[-prec:]) if prec else (digits, "")
            else:
                frac = frac + "0" * (prec - len(frac))
        text = f"{sign}0x{lead}{'.' + frac if frac else ''}p{int(exp):+d}"
    return text.upper() if upper else text


def c_format(fmt: str, values: tuple) -> str:
    """``fmt % values`` with C's printf rules."""
    out, k = [], 0
    pos = 0
    for m in _SPEC.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        conv, flags, length = m["conv"], m["flags"], m["len"]
        if conv == "%":
            out.append("%")
            continue
        width, prec = m["width"], m["prec"]
        if width == "*":
            width = int(values[k])
            k += 1
            if width < 0:
                flags, width = flags + "-", -width
        if prec == "*":
            prec = int(values[k])
            k += 1
            prec = None if prec < 0 else prec
        elif prec is not None:
            prec = int(prec or 0)
        width = int(width) if width not in (None, "") else None
        if k >= len(values):
            out.append(m.group())  # C reads garbage; show the conversion
            continue
        value = values[k]
        k += 1
        out.append(_one(conv, flags, width, prec, length, value))
    out.append(fmt[pos:])
    return "".join(out)


def _one(conv: str, flags: str, width: int | None, prec: int | None, length: str | None,
         value) -> str:
    spec = "%" + flags + (str(width) if width is not None else "") + \
        ("." + str(prec) if prec is not None else "")
    if conv in "diuoxX":
        return _format_int(_int(value, length, conv in "di"), conv, flags, width, prec)
    if conv == "c":
        return _pad(chr(int(value) & 0xFF), flags, width)
    if conv == "s":
        text = value if isinstance(value, str) else str(value)
        return _pad(text[:prec] if prec is not None else text, flags, width)
    if conv == "p":
        return _pad(f"0x{int(value) & (2 ** 64 - 1):x}", flags, width)
    if conv in "aA":
        text = _hex_float(float(value), conv == "A", prec)
        if "#" in flags and "." not in text and "n" not in text.lower():  # 0x1.p+0
            text = text.replace("p", ".p").replace("P", ".P")
        if "+" in flags and not text.startswith("-"):
            text = "+" + text
        elif " " in flags and not text.startswith("-"):
            text = " " + text
        return _pad(text, flags, width)
    if conv == "n":
        return ""
    x = float(value)
    if math.isnan(x) or math.isinf(x):  # C: no zero padding, nan keeps its sign
        sign = "-" if math.copysign(1.0, x) < 0 else \
            "+" if "+" in flags else " " if " " in flags else ""
        text = sign + ("nan" if math.isnan(x) else "inf")
        return _pad(text.upper() if conv.isupper() else text, flags.replace("0", ""), width)
    return (spec + conv) % x


def _format_int(v: int, conv: str, flags: str, width: int | None, prec: int | None) -> str:
    """C's integer conversions: a precision is a minimum digit count (``%.0d`` of 0
    prints nothing), ``#`` gives octal a leading 0 and non-zero hex its 0x."""
    sign = "-" if v < 0 else ("+" if "+" in flags else " " if " " in flags else "") \
        if conv in "di" else ""
    mag = abs(v)
    digits = "" if prec == 0 and mag == 0 else \
        format(mag, {"o": "o", "x": "x", "X": "X"}.get(conv, "d"))
    if prec is not None:
        digits = digits.rjust(prec, "0")
    if conv == "o" and "#" in flags and not digits.startswith("0"):
        digits = "0" + digits
    if conv in "xX" and "#" in flags and mag:
        sign += "0" + conv
    if width and "0" in flags and "-" not in flags and prec is None:
        digits = digits.rjust(width - len(sign), "0")
    return _pad(sign + digits, flags, width)


def _pad(text: str, flags: str, width: int | None) -> str:
    if width is None or len(text) >= width:
        return text
    return text.ljust(width) if "-" in flags else text.rjust(width)


def printf(fmt, *values) -> None:
    """C's printf, run on the host: the kernel's ``hip.printf(...)``."""
    sys.stdout.write(c_format(fmt, values))


@overload(printf)
def _printf_compiled(fmt, *values):
    def impl(fmt, *values):  # pragma: no cover - numba compiles it
        with numba.objmode():
            printf(fmt, *values)
    return impl
