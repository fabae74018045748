"""A compiled HIP program, loaded into this process: its host code runs natively, its
kernels on the emulator.

The shared library (host C++ + the shim) is loaded with ``ctypes``; every slot of its
``__gpusim_api`` table gets a callback into ``hostapi``. ``run(argv)`` calls ``main``
through the shim, which turns ``exit``/``abort``/``assert`` into main's status. While
it runs, the program's stdout/stderr (C's file descriptors 1 and 2) go to temporary files
that are copied into Python's ``sys.stdout``/``sys.stderr`` at every HIP call and at the
end, so host output, device ``printf`` and gpusim's messages arrive in program order in a
notebook cell, under pytest's capture and in a terminal.

>>> import gpusim.hipcc as hipcc
>>> prog = hipcc.compile('int main(int argc, char** argv) { return argc; }')
>>> prog.run(["a", "b"])
3
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import os
import re
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gpusim import hip
from gpusim.errors import GpusimError, HipError, KernelCompileError, hipError_t
from gpusim.hipcc import hostapi, shim
from gpusim.runtime import api as runtime_api
from gpusim.runtime import capture

E = hipError_t
# Faults a GPU program does not survive: a real one is killed ("Memory access fault by
# GPU"), so main ends with SIGABRT's status instead of the call returning an error.
FATAL = {E.hipErrorIllegalAddress, E.hipErrorLaunchFailure, E.hipErrorAssert}
ABORTED = 134
_current: contextvars.ContextVar[Program] = contextvars.ContextVar("gpusim_hip_program")
_libc = ctypes.CDLL(None)


def current() -> Program:
    """The program whose HIP call is being served."""
    try:
        return _current.get()
    except LookupError:
        raise HipError(E.hipErrorNotInitialized, "no HIP program is running") from None


@dataclass
class DeviceVariable:
    """A ``__device__``/``__constant__`` variable: its host shadow and its device copy
    (one per device, made on first use from the shadow's initial bytes)."""

    name: str
    shadow: int
    nbytes: int
    initial: bytes
    copies: dict[int, int] = field(default_factory=dict)

    def address(self) -> int:
        dev = int(hip.hipGetDevice())
        if dev not in self.copies:
            ptr = int(hip.hipMalloc(max(self.nbytes, 1)))
            hip.hipMemcpy(ptr, np.frombuffer(self.initial, np.uint8).copy(), self.nbytes,
                          hip.hipMemcpyHostToDevice)
            self.copies[dev] = ptr
        return self.copies[dev]


_PRETTY = re.compile(r"(?P<name>[\w:~]+)\((?P<params>.*)\)(?:\s*\[(?P<targs>.*)\])?\s*$")


def kernel_name(pretty: str) -> str:
    """The kernel a stub's ``__PRETTY_FUNCTION__`` names, template arguments included.

    >>> kernel_name("void scale(T *, T) [T = float]"), kernel_name("void k(int *)")
    ('scale<float>', 'k')
    >>> kernel_name("void tile(float *) [N = 16U, B = true]")
    'tile<16, 1>'
    """
    m = _PRETTY.search(pretty)
    if m is None:
        return pretty
    name = m.group("name")
    if not m.group("targs"):
        return name
    values = []
    for part in _split_top(m.group("targs")):
        value = part.split("=", 1)[1].strip()
        value = {"true": "1", "false": "0"}.get(value, value)
        if re.fullmatch(r"-?\d+[uUlL]*", value):
            value = value.rstrip("uUlL")
        values.append(value)
    return f"{name}<{', '.join(values)}>"


def _mangled_function(symbol: str) -> str | None:
    """The unqualified name of the function an Itanium-mangled ``symbol`` names.

    >>> _mangled_function("_Z20vector_reduce_kernelILj16EEvPKjPjS2_")
    'vector_reduce_kernel'
    >>> _mangled_function("_ZN2ns5scaleIfEEvPT_S1_"), _mangled_function("main")
    ('scale', None)
    """
    m = re.match(r"_ZN?", symbol)
    if m is None:
        return None
    at, name = m.end(), None
    while (n := re.match(r"\d+", symbol[at:])) is not None:
        start = at + n.end()
        name, at = symbol[start:start + int(n.group())], start + int(n.group())
    return name


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "<([" and 1 or 0
        depth -= ch in ">)]" and 1 or 0
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [*parts, cur] if cur.strip() else parts


class Program:
    """The loaded program: ``run(argv)``, its kernels, its device variables."""

    def __init__(self, library: Path, modules: list, tu_count: int = 1):
        self.library = library
        self.modules = modules  # the device half of each translation unit (hipcc Module)
        self.variables: dict[int, DeviceVariable] = {}
        self.kernel_stubs: dict[int, str] = {}
        self._sync = _flush_c
        self._interrupt: BaseException | None = None
        self._lib = ctypes.CDLL(str(library), mode=getattr(os, "RTLD_LOCAL", 0))
        self._callbacks = [self._callback(d) for d in shim.declarations()]
        table = (ctypes.c_void_p * len(self._callbacks)).in_dll(self._lib, "__gpusim_api")
        for k, cb in enumerate(self._callbacks):
            table[k] = ctypes.cast(cb, ctypes.c_void_p).value
        self._fatal = ctypes.c_int.in_dll(self._lib, "__gpusim_fatal")
        self._run = getattr(self._lib, "__gpusim_run")
        self._kernel_name = getattr(self._lib, "__gpusim_kernel_name")
        self._run.restype = ctypes.c_int
        self._run.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
        with self._serving():
            for k in range(tu_count):
                getattr(self._lib, f"__gpusim_registrations_{k}")()
        self.has_main = True

    @contextlib.contextmanager
    def _serving(self):
        token = _current.set(self)
        try:
            yield
        finally:
            _current.reset(token)

    def _callback(self, decl: shim.Decl) -> Any:
        impl = getattr(hostapi, decl.name, None)
        status = decl.restype == "hipError_t"
        # what a call that failed in gpusim returns: its hipError_t, or for hiprtc
        # HIPRTC_ERROR_INTERNAL_ERROR; a call returning a pointer returns NULL
        failed = (lambda code: int(code)) if status else \
            (lambda code: 11) if decl.restype == "hiprtcResult" else (lambda code: 0)

        def call(*args: Any) -> Any:
            self._sync()
            try:
                if impl is None:
                    raise HipError(E.hipErrorNotSupported,
                                   f"{decl.name} is declared by HIP but not modelled by gpusim")
                result = impl(*args)
            except HipError as e:
                e = self._in_cpp(e)
                runtime_api._last_error = e.code
                if e.code in FATAL or e.code == E.hipErrorNotSupported:
                    self._die(f"{decl.name}: {e}")
                return failed(e.code)
            except KernelCompileError as e:
                self._die(str(e))
                return failed(E.hipErrorInvalidDeviceFunction)
            except GpusimError as e:
                self._die(f"{decl.name}: {e}")
                return failed(E.hipErrorLaunchFailure)
            except BaseException as e:  # Ctrl-C, or a fault in gpusim itself
                if not isinstance(e, KeyboardInterrupt):
                    sys.stderr.write(traceback.format_exc())
                self._interrupt = e if isinstance(e, KeyboardInterrupt) else None
                self._fatal.value = 1
                return failed(E.hipErrorLaunchFailure)
            finally:
                sys.stdout.flush()
            return 0 if result is None else int(result)

        return ctypes.CFUNCTYPE(*decl.prototype)(call)

    def _in_cpp(self, err: HipError) -> HipError:
        """A sanitizer error with its findings told in the C++ source."""
        from gpusim.hipcc.lines import cpp_findings

        kernel = getattr(err, "findings", None) and err.findings[0].kernel
        for mod in self.modules:
            if kernel in mod.kernels:
                return cpp_findings(err, str(mod.path), mod.source)
        return err

    def _die(self, message: str) -> None:
        """A fault the program does not survive: say why on stderr, end main with 134."""
        from gpusim.hipcc.lines import to_cpp_text

        sys.stdout.flush()
        sys.stderr.write(f"program aborted: {to_cpp_text(message)}\n")
        sys.stderr.flush()
        self._fatal.value = 1

    # ---- what hostapi asks of the program
    def register_variable(self, shadow: int, name: str, nbytes: int) -> None:
        self.variables[shadow] = DeviceVariable(name, shadow, nbytes,
                                                ctypes.string_at(shadow, nbytes))

    def variable(self, address: int, api: str) -> DeviceVariable:
        var = self.variables.get(address)
        if var is None:
            raise HipError(E.hipErrorInvalidSymbol,
                           f"{api}: {address:#x} is not a __device__ or __constant__ variable "
                           "of this program; pass the variable itself: HIP_SYMBOL(name)")
        return var

    def kernel_at(self, stub: int, api: str) -> str:
        """The kernel (``name`` or ``name<args>``) whose host stub is at ``stub``: a
        registered kernel, or an instance of a template kernel, asked for its name."""
        name = self.kernel_stubs.get(stub)
        if name is None and stub and self._names_a_kernel(stub):
            self._kernel_name.restype = ctypes.c_char_p
            self._kernel_name.argtypes = [ctypes.c_void_p]
            pretty = self._kernel_name(stub)
            if pretty is not None:
                name = self.kernel_stubs[stub] = kernel_name(pretty.decode())
        if name is None:
            raise HipError(E.hipErrorInvalidDeviceFunction,
                           f"{api}: {stub:#x} is not a __global__ function of this program")
        return name

    def _names_a_kernel(self, address: int) -> bool:
        """``address`` starts a function of the program whose (mangled) symbol names one
        of its kernels: only such a function is called to ask for its name."""
        info = _DlInfo()
        if not _dladdr(ctypes.c_void_p(address), ctypes.byref(info)) or \
                info.dli_saddr != address or not info.dli_sname:
            return False
        bases = {k.cpp_name.split("<")[0].rsplit("::", 1)[-1]
                 for mod in self.modules for k in mod.kernels.values()}
        return _mangled_function(info.dli_sname.decode(errors="replace")) in bases

    def kernel(self, name: str) -> Any:
        return self._find(name)[1]

    def _find(self, name: str) -> tuple[Any, Any]:
        """(module, kernel) of a kernel of any of the program's translation units."""
        for mod in self.modules[1:]:
            if any(k.cpp_name == name or k.cpp_name.split("<")[0] == name.split("<")[0]
                   for k in mod.kernels.values()) or name in mod.errors:
                return mod, mod.get_kernel(name)
        return self.modules[0], self.modules[0].get_kernel(name)

    def launch(self, name: str, args: int, grid: tuple, block: tuple, shared: int,
               stream: Any) -> None:
        mod, kernel = self._find(kernel_name(name) if "(" in name else name)
        values = kernel_arguments(kernel, args)
        kernel.launch(grid, block, values, stream=stream, shared_bytes=shared,
                      hidden=mod.device_globals(self))

    # ---- running main
    def run(self, argv: list[str] | tuple[str, ...] = (), program: str = "a.out") -> int:
        """Run ``main(argc, argv)`` (``argv[0]`` is ``program``); return its exit status."""
        if not self.has_main:
            raise HipError(E.hipErrorInvalidValue,
                           "this program has no main() to run; launch its kernels with "
                           "mod.get_kernel(name)[grid, block](...)")
        words = [program, *map(str, argv)]
        c_argv = (ctypes.c_char_p * (len(words) + 1))(*[w.encode() for w in words], None)
        self._interrupt = None
        runtime_api._last_error = E.hipSuccess  # a program starts with no error to report
        # a program is a process: the capture mode it gives its thread
        # (hipThreadExchangeStreamCaptureMode) ends with it, as its thread does
        mode = capture.hipThreadExchangeStreamCaptureMode(capture.M.hipStreamCaptureModeGlobal)
        with self._serving(), _captured() as sync:
            self._sync = sync
            try:
                status = self._run(len(words), c_argv)
            finally:
                self._sync = _flush_c
                capture.hipThreadExchangeStreamCaptureMode(mode)
        if self._interrupt is not None:
            raise self._interrupt
        return status & 0xFF  # what the shell sees of exit(-1): 255


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


_dladdr = ctypes.CDLL(None).dladdr
_dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]


def kernel_arguments(kernel: Any, args: int) -> tuple:
    """The values behind a stub's ``void* args[]``, as the kernel's parameters take them."""
    table = ctypes.cast(args, ctypes.POINTER(ctypes.c_void_p))
    values = []
    for k, (pname, kind, spec) in enumerate(kernel.params):
        where = f"kernel '{kernel.cpp_name}' argument '{pname}'"
        at = table[k]
        if at is None:  # an unnamed parameter: the kernel cannot read it
            values.append(0 if kind != "array" else 0)
            continue
        if kind == "texture":  # a hipTextureObject_t: the handle (textures.kernel_values)
            values.append(ctypes.c_void_p.from_address(at).value or 0)
        elif kind == "array":
            values.append(hostapi.kernel_pointer(ctypes.c_void_p.from_address(at).value or 0,
                                                 np.dtype(spec), where))
        elif kind == "scalar":
            values.append(np.frombuffer(hostapi.host_bytes(at, np.dtype(spec).itemsize),
                                        spec)[0])
        else:  # a struct of scalars, in C's layout
            dtype = np.dtype([(f, d) for f, d in spec], align=True)
            record = np.frombuffer(hostapi.host_bytes(at, dtype.itemsize), dtype)[0]
            values.append({f: record[f] for f, _ in spec})
    return tuple(values)


def launch_params(kernel: Any, params: int, extra: int) -> tuple:
    """hipModuleLaunchKernel's arguments: ``kernelParams`` (an array of addresses, as a
    stub's) or ``extra`` (HIP_LAUNCH_PARAM_BUFFER_POINTER: one buffer of packed values)."""
    if params:
        return kernel_arguments(kernel, params)
    if not extra:
        if kernel.params:
            raise HipError(E.hipErrorInvalidValue,
                           f"hipModuleLaunchKernel: kernel '{kernel.cpp_name}' takes "
                           f"{len(kernel.params)} arguments; pass kernelParams or extra")
        return ()
    words = ctypes.cast(extra, ctypes.POINTER(ctypes.c_void_p))
    buffer = size = None
    k = 0
    while words[k] not in (None, 3):  # HIP_LAUNCH_PARAM_END
        if words[k] == 1:
            buffer = words[k + 1]
        elif words[k] == 2:
            size = ctypes.c_size_t.from_address(words[k + 1]).value
        k += 2
    if buffer is None or size is None:
        raise HipError(E.hipErrorInvalidValue, "hipModuleLaunchKernel: extra needs "
                       "HIP_LAUNCH_PARAM_BUFFER_POINTER and HIP_LAUNCH_PARAM_BUFFER_SIZE")
    offsets, off = [], 0
    for _, kind, spec in kernel.params:
        dtype = np.dtype("uint64") if kind in ("array", "texture") else np.dtype(spec) \
            if kind == "scalar" else np.dtype([(f, d) for f, d in spec], align=True)
        off = -(-off // dtype.alignment) * dtype.alignment
        offsets.append(buffer + off)
        off += dtype.itemsize
    table = (ctypes.c_void_p * max(len(offsets), 1))(*offsets)
    return kernel_arguments(kernel, ctypes.addressof(table))


def load_module(path: str = "", image: str = "") -> Any:
    """hipModuleLoad: a code object written by ``gpusim-hipcc --genco`` (the kernel
    source, compiled here on load)."""
    from gpusim.hipcc.cli import read_code_object

    return read_code_object(path=path, text=image)


def _flush_c() -> None:
    _libc.fflush(None)
    sys.stdout.flush()
    sys.stderr.flush()


def _fd(stream: Any) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


@contextlib.contextmanager
def _captured():
    """Route C's stdout/stderr into Python's streams when those are not the process's
    own fds (a notebook cell, pytest's capture); otherwise share the fds, flushing C's
    buffers at every HIP call so the order is kept."""
    if _fd(sys.stdout) == 1 and _fd(sys.stderr) == 2:
        yield _flush_c
        _flush_c()
        return
    _libc.fflush(None)
    saved = [os.dup(1), os.dup(2)]
    files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    for fd, f in zip((1, 2), files, strict=True):
        os.dup2(f.fileno(), fd)
    read = [0, 0]

    def sync() -> None:
        _libc.fflush(None)
        for k, (f, out) in enumerate(zip(files, (sys.stdout, sys.stderr), strict=True)):
            f.seek(read[k])
            data = f.read()
            if data:
                read[k] += len(data)
                out.write(data.decode(errors="replace"))
                out.flush()

    try:
        yield sync
    finally:
        sync()
        for fd, old in zip((1, 2), saved, strict=True):
            os.dup2(old, fd)
            os.close(old)
        for f in files:
            f.close()
