"""CUDA C/C++ -> HIP, token by token, with HIPIFY's table.

What it does, in hipify-perl's order: rename identifiers (runtime and driver API, types,
enums, error codes, library calls: cuBLAS -> hipBLAS or, with ``roc=True``, rocBLAS ...),
rename ``#include``'d headers, optionally rewrite ``k<<<g, b, shm, s>>>(args)`` as
``hipLaunchKernelGGL(k, g, b, shm, s, args)``, wrap symbol arguments in
``HIP_SYMBOL(...)``, ``cub::`` -> ``hipcub::``, and add ``#include "hip/hip_runtime.h"``
to a file with device code, and drop the arguments HIP's counterpart does not take (the
``CUoccupancyB2DSize`` callback of ``cuOccupancyMaxPotentialBlockSize``: HIPIFY's
``dropped_arguments``). Everything it leaves alone is reported with its line.

Where it differs from hipify-perl, deliberately:
- comments and string literals are never rewritten (hipify-perl rewrites them;
  hipify-clang does not), nor members after ``.``/``->`` (``s.cudaStream``);
- names HIPIFY maps to themselves (``texture``) are not counted as conversions;
- ``hip/hip_runtime.h`` is not added a second time, so hipifying HIP output is a no-op;
- an unknown name is reported as hipify-perl finds one (``\\bcuda[A-Z]\\w+`` that its table
  does not map), but not where the file declares it itself (``#define cudaCheckError()``,
  ``cudaParams`` as an argument, ``struct cudaResObj``: see declarations.py): those are
  the program's own names, not CUDA API that HIPIFY lacks;
- an argument is dropped whatever it holds (``f(a, b)``, a comment, a new line):
  hipify-perl's regex stops at the first ``,`` or ``)`` and garbles such calls; it is
  dropped once, as HIPIFY's tests say (hipify-perl lists
  ``hipModuleOccupancyMaxPotentialBlockSizeWithFlags`` twice and drops two), and only from a
  call it renamed from CUDA, so HIP code keeps its arguments; dropping a callback that
  is not null is reported (as hipify-clang does: "possible data loss");
- a header name is looked up whole: ``<curand.h>`` becomes ``<hiprand/hiprand.h>`` as
  HIPIFY's table says (hipify-perl's regex for the function ``curand`` gets there first
  and writes ``<hiprand.h>``);
- every launch whose kernel can be named is rewritten, also ``k<<<(n + 255) / 256, b>>>``
  (hipify-perl's launch regex skips a configuration that starts with a parenthesis);
- ``<nccl.h>`` becomes ``<rccl/rccl.h>`` (HIPIFY has no NCCL table; RCCL keeps the names).
tests/hipify/test_hipify_perl_reference.py holds these to hipify-perl's own output.

>>> r = hipify_cpp('cudaMalloc(&p, n); // cudaMalloc stays in comments')
>>> r.text
'hipMalloc(&p, n); // cudaMalloc stays in comments'
"""

from __future__ import annotations

import re
from collections import Counter

from gpusim.hipify.declarations import declared_names
from gpusim.hipify.lexer import Token, tokenize
from gpusim.hipify.report import Conversion, Finding, Result
from gpusim.hipify.table import Table, load_table
from gpusim.hipify.warp import check_tokens

# hipify-perl's test for "remaining code that looks like cuda API calls": /\bcuda[A-Z]\w+/
CUDA_IDENTIFIER = re.compile(r"cuda[A-Z]\w+")
# A header name that looks like CUDA's (cuda_gl_interop.h, cublasXt.h, cudaEGL.h, ...).
CUDA_HEADER = re.compile(
    r"(cuda[A-Z_]|cu[A-Z][a-z]|(cublas|curand|cufft|cusparse|cusolver|cudnn|nvrtc)[A-Z_]"
    r"|(CUBLAS|CURAND|CUFFT|CUSPARSE|CUSOLVER|CUDNN|CUDA|NVRTC)_)\w*")
NULL_POINTERS = ("0", "NULL", "nullptr", "0L", "(void*)0")
# What a dropped argument did in CUDA, for the report (HIPIFY's data says which go, not why).
DROPPED_WHY = {
    name: "CUDA called it for the dynamic shared memory of each block size it tried; HIP "
          "uses the one dynSharedMemPerBlk you pass for every block size"
    for name in ("hipModuleOccupancyMaxPotentialBlockSize",
                 "hipModuleOccupancyMaxPotentialBlockSizeWithFlags")
}
HIP_RUNTIME = "hip/hip_runtime.h"
CUDA_HEADER_DIRS = ("cuda/", "nv/", "cooperative_groups/")  # libcu++ and CG headers
_SKIP = ("space", "comment")


def _significant(tokens: list[Token]) -> list[int]:
    return [i for i, t in enumerate(tokens) if t.kind not in _SKIP]


def _close(tokens: list[Token], sig: list[int], k: int, opening: str, closing: str) -> int:
    """Position in ``sig`` of the bracket closing the one at ``sig[k]`` (or -1)."""
    depth = 0
    for j in range(k, len(sig)):
        text = tokens[sig[j]].text
        depth += (text == opening) - (text == closing)
        if depth == 0:
            return j
    return -1


def _arguments(tokens: list[Token], sig: list[int], start: int, end: int) -> list[list[int]]:
    """Split ``sig[start:end]`` at top-level commas into lists of token indices."""
    args: list[list[int]] = [[]]
    depth = 0
    for j in range(start, end):
        text = tokens[sig[j]].text
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
        if text == "," and depth == 0:
            args.append([])
        else:
            args[-1].append(sig[j])
    return args if args != [[]] else []


class _Translation:
    def __init__(self, source: str, table: Table, roc: bool):
        self.tokens = tokenize(source)
        self.out = [t.text for t in self.tokens]
        self.sig = _significant(self.tokens)
        self.table, self.roc = table, roc
        self.conversions: list[Conversion] = []
        self.findings: list[Finding] = []
        self.extra: Counter = Counter()
        self.declared = declared_names(
            self.tokens, wanted=CUDA_IDENTIFIER.fullmatch,
            is_type=lambda name: (table.lookup(name) or ("", ""))[1] == "type")

    def text_of(self, indices: list[int]) -> str:
        return "".join(self.out[indices[0]:indices[-1] + 1]).strip() if indices else ""

    def rename(self) -> None:
        tokens, sig = self.tokens, self.sig
        for k, i in enumerate(sig):
            token = tokens[i]
            before = tokens[sig[k - 1]].text if k else ""
            after = tokens[sig[k + 1]].text if k + 1 < len(sig) else ""
            if token.kind == "header":
                self.header(i, token)
            elif token.kind == "ident" and before not in (".", "->"):
                if token.text == "cub" and (after == "::" or before == "namespace"):
                    self.out[i] = "hipcub"
                else:
                    self.identifier(i, token, after == "(")

    def header(self, i: int, token: Token) -> None:
        name = token.text[1:-1]
        found = self.table.header(name, self.roc)
        if found and found[0] != name:
            self.out[i] = token.text[0] + found[0] + token.text[-1]
            self.conversions.append(Conversion(token.line, name, found[0], found[1]))
        elif not found and (self.table.is_unsupported(name, self.roc) or
                            CUDA_HEADER.match(name) or name.startswith(CUDA_HEADER_DIRS)):
            self.findings.append(Finding(token.line, "unknown", name,
                                         f"CUDA header with no HIP counterpart: {name}",
                                         "include"))

    def identifier(self, i: int, token: Token, called: bool) -> None:
        name, table = token.text, self.table
        if name in table.whitelist:
            return
        found = table.lookup(name, self.roc)
        for status, versions in (("deprecated", table.deprecated), ("removed", table.removed)):
            if name in versions:
                self.findings.append(Finding(token.line, status, name,
                                             f"{status} CUDA identifier: {name} since CUDA "
                                             f"{versions[name]}"))
        if found:
            if found[0] != name:
                self.out[i] = found[0]
                self.conversions.append(Conversion(token.line, name, found[0], found[1]))
        elif table.is_unsupported(name, self.roc):
            # hipify-perl's wording: "ROCm HIP" = neither HIP nor roc* has it
            target = "ROCm HIP" if name in table.unsupported else "ROC" if self.roc else "HIP"
            self.findings.append(Finding(
                token.line, "unsupported", name,
                f"unsupported {target} identifier: {name} (HIPIFY: no equivalent in "
                f"{target} {table.hip_version}; left as is)", table.unsupported_kind(name)))
        elif called and name in table.unsupported_device_functions:
            self.findings.append(Finding(
                token.line, "unsupported", name,
                f'unsupported device function "{name}" (HIPIFY: no HIP equivalent in HIP '
                f"{table.hip_version}; left as is)", "device_function"))
        elif called and name in table.device_functions:
            self.extra["device_function"] += 1
        elif CUDA_IDENTIFIER.fullmatch(name) and name not in self.declared:
            self.findings.append(Finding(
                token.line, "unknown", name,
                f"unknown CUDA identifier: {name} (not in HIPIFY's table; left as is)",
                "unknown"))

    def kernel_name(self, k: int) -> tuple[int, str] | None:
        """Where the kernel named before the ``<<<`` at ``sig[k]`` starts, and its name as
        hipLaunchKernelGGL takes it (``ns::k``, or ``HIP_KERNEL_NAME(k<T, 4>)``)."""
        tokens, sig = self.tokens, self.sig
        first, templated = k - 1, tokens[sig[k - 1]].text == ">"
        depth = 0
        while templated and first > 0:  # back over kern<T, U>
            depth += (tokens[sig[first]].text == ">") - (tokens[sig[first]].text == "<")
            if depth == 0:
                first -= 1
                break
            first -= 1
        while first >= 2 and tokens[sig[first - 1]].text == "::":
            first -= 2
        if tokens[sig[first]].kind != "ident":
            return None
        name = self.text_of(sig[first:k])
        return first, f"HIP_KERNEL_NAME({name})" if templated else name

    def launches(self) -> None:
        """``k<<<g, b[, shm[, s]]>>>(args)`` -> ``hipLaunchKernelGGL(k, g, b, shm, s, args)``."""
        tokens, sig = self.tokens, self.sig
        for k, i in enumerate(sig):
            if tokens[i].text != "<<<" or k == 0:
                continue
            end = _close(tokens, sig, k, "<<<", ">>>")
            if end < 0 or end + 1 >= len(sig) or tokens[sig[end + 1]].text != "(":
                continue
            found = self.kernel_name(k)
            if not found:
                continue
            first, name = found
            config = [self.text_of(a) for a in _arguments(tokens, sig, k + 1, end)]
            config += ["0"] * (4 - len(config))
            has_args = _close(tokens, sig, end + 1, "(", ")") > end + 2
            for j in range(sig[first], sig[end + 1] + 1):
                self.out[j] = ""
            self.out[sig[first]] = (f"hipLaunchKernelGGL({name}, {', '.join(config)}"
                                    + (", " if has_args else ""))
            self.extra["kernel_launch"] += 1

    def symbol_arguments(self) -> None:
        """hipMemcpyToSymbol(sym, ...) -> hipMemcpyToSymbol(HIP_SYMBOL(sym), ...)."""
        tokens, sig = self.tokens, self.sig
        for k, i in enumerate(sig[:-1]):
            wrap = self.table.symbol_arguments.get(self.out[i])
            if not wrap or tokens[sig[k + 1]].text != "(":
                continue
            args = _arguments(tokens, sig, k + 2, _close(tokens, sig, k + 1, "(", ")"))
            if wrap[0] < len(args) and args[wrap[0]]:
                arg = args[wrap[0]]
                if not self.text_of(arg).startswith(wrap[1]):
                    self.out[arg[0]] = f"{wrap[1]}({self.out[arg[0]]}"
                    self.out[arg[-1]] += ")"

    def dropped_arguments(self) -> None:
        """cuOccupancyMaxPotentialBlockSize(g, b, f, callback, shm, limit) ->
        hipModuleOccupancyMaxPotentialBlockSize(g, b, f, shm, limit)."""
        tokens, sig = self.tokens, self.sig
        for k, i in enumerate(sig[:-1]):
            drop = self.table.dropped_arguments.get(self.out[i])
            if not drop or self.out[i] == tokens[i].text or tokens[sig[k + 1]].text != "(":
                continue  # only calls renamed from CUDA: HIP code keeps its arguments
            args = _arguments(tokens, sig, k + 2, _close(tokens, sig, k + 1, "(", ")"))
            for index in sorted(drop, reverse=True):
                if index >= len(args) or not args[index]:
                    continue
                text = self.text_of(args[index])
                if index + 1 < len(args) and args[index + 1]:  # up to the next argument
                    span = range(args[index][0], args[index + 1][0])
                elif index > 0:  # the last one: from the end of the one before
                    span = range(args[index - 1][-1] + 1, args[index][-1] + 1)
                else:
                    span = range(args[index][0], args[index][-1] + 1)
                for j in span:
                    self.out[j] = ""
                if text.replace(" ", "") in NULL_POINTERS:
                    continue  # nothing lost
                why = DROPPED_WHY.get(self.out[i], "check what it did in CUDA")
                self.findings.append(Finding(
                    tokens[i].line, "dropped", tokens[i].text,
                    f"argument {index + 1} of {tokens[i].text} ({text}) dropped: "
                    f"{self.out[i]} has no such parameter (possible data loss: {why})",
                    (self.table.lookup(tokens[i].text, self.roc) or ("", ""))[1]))

    def has_device_code(self) -> bool:
        return bool(self.extra["kernel_launch"]) or any(
            self.tokens[i].text in ("__global__", "__shared__") for i in self.sig)

    def runtime_header(self) -> str:
        """hipify-perl adds hip_runtime.h to files with device code (``__global__``,
        ``__shared__``, a launch), whether or not it renamed anything; once is enough."""
        included = any(self.tokens[i].kind == "header" and HIP_RUNTIME in self.out[i]
                       for i in self.sig)
        if not self.has_device_code() or included:
            return ""
        return f'#include "{HIP_RUNTIME}"' + ("\r\n" if "\r\n" in "".join(self.out) else "\n")


def hipify_cpp(source: str, *, hip_kernel_syntax: bool = False, roc: bool = False,
               table: Table | None = None) -> Result:
    """Translate CUDA C/C++ source text to HIP.

    ``hip_kernel_syntax``: rewrite ``<<<...>>>`` launches as ``hipLaunchKernelGGL`` (off by
    default: hip-clang compiles the triple-chevron syntax, and hipify-perl keeps it).
    ``roc``: translate library calls to the roc* libraries (rocBLAS, rocRAND, ...) instead
    of the hip* wrappers, as hipify-perl's ``-roc``.

    >>> r = hipify_cpp("k<<<g, b>>>(x);", hip_kernel_syntax=True)
    >>> print(r.text)
    #include "hip/hip_runtime.h"
    hipLaunchKernelGGL(k, g, b, 0, 0, x);
    """
    work = _Translation(source, table or load_table(), roc)
    work.rename()
    if hip_kernel_syntax:
        work.launches()
    work.symbol_arguments()
    work.dropped_arguments()
    if not work.has_device_code():
        work.extra.pop("device_function", None)  # hipify-perl counts them only in device code
    findings = work.findings + check_tokens(work.tokens)
    text = work.runtime_header() + "".join(work.out)
    return Result(source, text, work.conversions, findings, lines=source.count("\n"),
                  extra_converted=+work.extra)
