"""Warp-size-32 assumptions: what to flag when CUDA code moves to 64-lane wavefronts.

HIPIFY renames code but does not read it; the commonest silent bug of a port is code
that "knows" a warp has 32 lanes. The checks here (used for C++ tokens here, and with
the same messages on Python's ``ast`` in python.py):

- a literal 32 or 31 in a statement that calls a warp intrinsic, or in the header of a
  loop around one (and 16 there: a tree reduction starting at half of 32);
- a ``*_sync`` intrinsic whose mask is 0xffffffff (lanes 0-31 only);
- a ballot or active mask stored in a 32-bit variable, or counted with 32-bit ``__popc``;
- a lane or warp index computed with 32 (``threadIdx.x % 32``, ``& 31``, ``/ 32``, ``>> 5``);
- arithmetic on ``warpSize`` (right only if everything it sizes follows it).

>>> from gpusim.hipify.lexer import tokenize
>>> [f.line for f in check_tokens(tokenize("v += __shfl_down_sync(0xffffffff, v, 16);"))]
[1]
"""

from __future__ import annotations

from gpusim.hipify.lexer import Token
from gpusim.hipify.report import Finding

SHUFFLES = {"shfl", "shfl_up", "shfl_down", "shfl_xor"}
VOTES = {"ballot", "any", "all", "activemask"}
REDUCES = {"reduce_add", "reduce_min", "reduce_max", "reduce_and", "reduce_or",
           "reduce_xor", "match_any", "match_all"}
# C++ spellings: __shfl_down, __shfl_down_sync, __ballot_sync, __syncwarp ...
CPP_INTRINSICS = ({f"__{n}" for n in SHUFFLES | VOTES} | {f"__{n}_sync" for n in
                  SHUFFLES | VOTES | REDUCES} | {"__syncwarp", "__lane_id"})
FULL_32_BIT_MASK = 0xFFFFFFFF
NARROW_TYPES = {"unsigned", "int", "uint32_t", "int32_t", "uint", "unsigned int"}


def literal_value(text: str) -> int | None:
    """The value of a C integer literal (``0xFFFFFFFFu``, ``1'000``, ``0b101``), else None."""
    digits = text.replace("'", "").rstrip("uUlL")
    if digits[:2].lower() in ("0x", "0b"):
        base = 16 if digits[1] in "xX" else 2
    else:
        base, digits = (8, digits[1:]) if len(digits) > 1 and digits[0] == "0" else (10, digits)
    try:
        return int(digits, base)
    except ValueError:
        return None


def literal_message(value: int, where: str) -> str | None:
    """Why a literal near a warp intrinsic assumes 32 lanes (None when it does not)."""
    if value == 32:
        return f"wave64: literal 32 {where} assumes a 32-lane warp; use warpSize"
    if value == 31:
        return f"wave64: literal 31 {where} is a 32-lane mask/last lane; use warpSize - 1"
    return None


def mask_message(intrinsic: str, instead: str = "0xffffffffffffffff or __activemask()") -> str:
    """The 0xffffffff mask warning; ``instead`` says what to write in this language."""
    return (f"wave64: {intrinsic} with mask 0xffffffff names lanes 0-31 only; a 64-lane "
            f"wavefront needs a 64-bit mask ({instead})")


HALF_WARP = ("wave64: a reduction starting at 16 (half of a 32-lane warp) skips lanes 32-63; "
             "start at warpSize / 2")
LANE_INDEX = ("wave64: lane or warp index computed with a 32-lane warp ({op}); "
              "use warpSize (threadIdx.x % warpSize, threadIdx.x / warpSize)")
NARROW_BALLOT = ("wave64: a 64-lane ballot/active mask stored or counted in 32 bits loses "
                 "lanes 32-63; use unsigned long long and __popcll")
WARPSIZE_ARITHMETIC = ("wave64: arithmetic on warpSize is 64-lane on CDNA (256 threads = 4 "
                       "wavefronts, not 8); check that arrays, masks and loops it sizes agree")


def _statements(tokens: list[Token]) -> list[tuple[list[Token], list[list[Token]]]]:
    """Statements (split at ; { } outside parentheses), each with the headers of the loops
    around it and the statement just before each such loop."""
    result, current, stack, depth = [], [], [], 0
    previous: list[Token] = []
    for token in tokens:
        if token.kind in ("space", "comment"):
            continue
        current.append(token)
        depth += (token.text == "(") - (token.text == ")")
        if depth or token.text not in (";", "{", "}"):
            continue
        is_loop = current[0].text in ("for", "while")
        if token.text == "{":
            stack.append((current + previous) if is_loop else [])
        elif token.text == "}" and stack:
            stack.pop()
        context = [h for h in stack if h] + ([previous] if is_loop else [])
        result.append((current, context))
        previous, current = current, []
    if current:
        result.append((current, [h for h in stack if h]))
    return result


def check_tokens(tokens: list[Token]) -> list[Finding]:
    """Warp-size findings for C/C++ tokens (CUDA or HIP spellings)."""
    findings: dict[tuple[int, str], Finding] = {}

    def flag(token: Token, message: str) -> None:
        findings.setdefault((token.line, message), Finding(token.line, "warp", token.text,
                                                           message))

    for statement, loops in _statements(tokens):
        texts = [t.text for t in statement]
        intrinsics = [t for t in statement if t.text in CPP_INTRINSICS]
        for i, token in enumerate(statement):
            nxt = texts[i + 1] if i + 1 < len(texts) else ""
            prev = texts[i - 1] if i else ""
            value = literal_value(token.text) if token.kind == "number" else None
            if token.text.endswith("_sync") and token in intrinsics and nxt == "(":
                mask = statement[i + 2] if i + 2 < len(statement) else None
                if mask and mask.kind == "number" and literal_value(mask.text) == \
                        FULL_32_BIT_MASK and texts[i + 3:i + 4] in ([","], [")"]):
                    flag(mask, mask_message(token.text))
            elif value is not None and intrinsics and literal_message(value, "") and \
                    value != FULL_32_BIT_MASK:
                flag(token, literal_message(value, f"next to {intrinsics[0].text}"))
            elif value == 16 and intrinsics and texts[0] in ("for", "while"):
                flag(token, HALF_WARP)
            elif value is not None and "threadIdx" in texts and (prev, value) in (
                    ("%", 32), ("/", 32), ("&", 31), (">>", 5)):
                flag(token, LANE_INDEX.format(op=f"{prev} {token.text}"))
            elif token.text == "warpSize" and {prev, nxt} & {"/", "%", "*", "+", "-", ">>",
                                                             "<<"}:
                flag(token, WARPSIZE_ARITHMETIC)
        if intrinsics:
            for header in loops:
                for token in header:
                    value = literal_value(token.text) if token.kind == "number" else None
                    if value == 16:
                        flag(token, HALF_WARP)
                    elif value is not None and literal_message(value, ""):
                        flag(token, literal_message(value, "in a loop around "
                                                    f"{intrinsics[0].text}"))
        if any(t in ("__ballot", "__ballot_sync", "__activemask") for t in texts) and (
                (texts[0] in NARROW_TYPES and "long" not in texts[:3]) or "__popc" in texts):
            flag(statement[0], NARROW_BALLOT)
    return sorted(findings.values(), key=lambda f: f.line)
