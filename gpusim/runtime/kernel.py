"""``@hip.jit`` and kernel launch: ``kernel[grid, block, stream, shared_bytes](*args)``.

A ``Kernel`` compiles lazily, once per argument types (and wave size of the current
device), then queues the launch on a stream like hipLaunchKernelGGL does. Arguments:

- ``DeviceArray``: the kernel works on its device memory;
- a host NumPy array: copied to a temporary device array, and back after the kernel
  (numba.cuda's convenience; it costs two copies, which the profiler shows);
- numbers: passed by value.

>>> import numpy as np
>>> from gpusim.compile import lang as hip     # what `from gpusim import hip` re-exports
>>> from gpusim.runtime.darray import device_array
>>> @jit
... def scale(a, out):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = a * i
>>> d = device_array(5, np.float32)
>>> scale[1, 64](2.0, d)
>>> d.copy_to_host()
array([0., 2., 4., 6., 8.], dtype=float32)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.compile import CompiledKernel
from gpusim.compile.codegen import listing
from gpusim.compile.lang import DeviceFunction
from gpusim.compile.signature import declared_args, parse_signatures
from gpusim.config import config
from gpusim.engine import specialize
from gpusim.engine.launch_time import prepare_timed
from gpusim.errors import GpusimError, HipError, hipError_t
from gpusim.runtime import capture
from gpusim.runtime.kernel_args import check_alive, device_values, stage
from gpusim.runtime.kernel_overloads import overloads_of
from gpusim.runtime.kernel_resources import kernel_isa, kernel_resources, launch_block
from gpusim.runtime.launch_config import LaunchConfigError, Specialized, check_dims
from gpusim.runtime.managed import ManagedArray
from gpusim.runtime.streams import enqueue, synchronize_stream
from gpusim.runtime.system import current_device
from gpusim.runtime.tracebacks import install, launch_site, note_launch_site

install()  # learners' tracebacks of gpusim errors without gpusim's own frames

# numba.cuda.jit options accepted for compatibility; none changes what the emulator does
# (but `debug`, taken apart: a division by zero raises, as numba.cuda's debug kernels do).
_IGNORED_OPTIONS = {"opt", "lineinfo", "fastmath", "cache", "link", "max_registers",
                    "inline", "boundscheck"}


class Kernel:
    """A ``@hip.jit`` kernel: index it with a launch configuration, then call it.

    ``launch_bounds`` is the most threads per block the kernel accepts (HIP's
    ``__launch_bounds__``). ``check=True`` runs this kernel on the checked path (the
    sanitizer: races, uninitialised LDS; ``check=False`` never does); None follows
    ``gpusim.config.check``. Every path checks every index and barrier. ``debug=True``
    (numba.cuda's option) makes a division by zero raise ``ZeroDivisionError``.
    """

    __gpusim_kernel__ = True

    def __init__(self, py_func: Callable[..., Any], *, launch_bounds: int | None = None,
                 check: bool | None = None, signature: Any = None, debug: bool = False):
        self.py_func = py_func
        self.debug = bool(debug)
        # an explicit jit signature: scalar arguments become the declared types
        self.signatures = parse_signatures(signature) if signature is not None else None
        self.__name__ = getattr(py_func, "__name__", "kernel")
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self.launch_bounds = launch_bounds
        self.check = check
        self.specializations: list[CompiledKernel] = []
        self.last_launch: tuple | None = None  # (device name, grid, block) of the last launch
        # numba.cuda's Dispatcher.extensions: objects whose prepare_args(ty, val, stream=,
        # retr=) may replace each argument before a launch (e.g. wrap it in cuda.In)
        self.extensions: list[Any] = []

    def __repr__(self) -> str:
        return f"<gpusim kernel {self.__name__}>"

    @property
    def overloads(self) -> dict:
        """numba.cuda's ``{argument types: compiled kernel}`` (``kernel_overloads.py``)."""
        return overloads_of(self)

    def __call__(self, *args: Any) -> None:
        raise LaunchConfigError(hipError_t.hipErrorMissingConfiguration,
                                f"Kernel launch configuration was not specified: kernel "
                                f"'{self.__name__}' is launched as "
                                f"{self.__name__}[blocks, threads_per_block](...)")

    def __getitem__(self, config: Any) -> Callable[..., None]:
        """``kernel[grid, block]``, ``[grid, block, stream]``, ``[grid, block, stream, shared]``."""
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise LaunchConfigError(hipError_t.hipErrorInvalidConfiguration,
                           f"launch configuration of '{self.__name__}' must be [grid, block], "
                           "[grid, block, stream] or [grid, block, stream, shared_bytes], got "
                           f"{config!r}")
        grid, block = config[0], config[1]
        check_dims(grid, "griddim")
        check_dims(block, "blockdim")
        stream = config[2] if len(config) > 2 else 0
        shared = config[3] if len(config) > 3 else 0

        def configured(*args: Any) -> None:
            self.launch(grid, block, args, stream=stream, shared_bytes=shared)
        # what gpusim.debug(kernel[grid, block], ...) reads back
        configured.kernel, configured.config = self, (grid, block, stream, shared)
        return configured

    def forall(self, ntasks: int, tpb: int = 0, stream: Any = 0, sharedmem: int = 0
               ) -> Callable[..., None]:
        """numba.cuda's 1-d launch for ``ntasks`` tasks (one thread each, the kernel checks
        ``cuda.grid(1) < ntasks``): ``tpb`` threads per block, or 256 when 0 (numba asks
        the CUDA occupancy calculator; 256 = 4 wavefronts is a common choice here).

        >>> import numpy as np
        >>> from gpusim.compile import lang as hip
        >>> def inc(a):
        ...     i = hip.grid(1)
        ...     if i < a.size:
        ...         a[i] += 1
        >>> a = np.zeros(300)
        >>> Kernel(inc).forall(a.size)(a)
        >>> int(a.sum())
        300
        """
        if ntasks < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
        block = tpb or 256

        def configured(*args: Any) -> None:
            if ntasks:  # no work: no launch (a 0-block grid is an invalid configuration)
                self.launch((ntasks + block - 1) // block, block, args, stream=stream,
                            shared_bytes=sharedmem)
        return configured

    def _extended(self, args: tuple, stream: Any) -> tuple:
        """``args`` after every extension's ``prepare_args`` (numba.cuda's protocol; the
        numba type is given when numba can type the value, else None)."""
        if not self.extensions:
            return args
        import numba

        out, retr = [], []
        for val in args:
            try:
                ty = numba.typeof(val)
            except ValueError:
                ty = None
            for ext in self.extensions:
                ty, val = ext.prepare_args(ty, val, stream=stream, retr=retr)
            out.append(val)
        return tuple(out)

    def specialize(self, *args: Any) -> Specialized:
        """Compile for these arguments on the current device (without running): the
        compiled kernel (``.source``, ``.n_regions`` ...), which numba.cuda code can also
        launch (``k.specialize(a, b)[grid, block](a, b)``).

        >>> import numpy as np
        >>> def k(out):
        ...     out[0] = 1
        >>> Kernel(k).specialize(np.zeros(1)).n_regions
        1
        """
        views = device_values(self, self._declared(args))
        spec = current_device().spec
        ck = specialize(self.py_func, views, spec.wave_size, mode=config.launch_mode(self.check),
                        debug=self.debug, target=spec.gfx_target)
        self._remember(ck)
        return Specialized(self, ck)

    def _declared(self, args: tuple) -> tuple:
        """``args`` converted to the jit signature's types (as given without one)."""
        return args if self.signatures is None else declared_args(self.signatures, args,
                                                                   self.__name__)

    def _remember(self, ck: CompiledKernel) -> None:
        """Keep ``ck`` as the most recent specialization (what ``inspect_generated`` shows)."""
        if not self.specializations or self.specializations[-1] is not ck:
            self.specializations = [s for s in self.specializations if s is not ck] + [ck]

    def inspect_generated(self, *args: Any) -> str:
        """The generated code of this kernel (for these arguments, or the last launch's):
        a header (kernel, file, device, launch shape, types, schedule), then the kernel's
        functions, with ``# line N: ...`` comments naming your lines and your variable
        names. (``specialize(...).source`` is the whole module numba compiles.)
        """
        if args:
            return listing(self.specialize(*args).compiled.source,
                           device=_device_label(current_device().spec))
        if not self.specializations:
            raise HipError(hipError_t.hipErrorInvalidDeviceFunction,
                           f"kernel '{self.__name__}' has not been compiled yet: launch it, "
                           "or pass example arguments: kernel.inspect_generated(x, out)")
        device, grid, block = self.last_launch or (_device_label(current_device().spec), None,
                                                   None)
        return listing(self.specializations[-1].source, device=device, grid=grid, block=block)

    def resources(self, *args: Any, device: Any = None, fallback: dict | None = None,
                  block_size: int | None = None) -> dict[str, Any]:
        """VGPRs, AGPRs, SGPRs, LDS, scratch, spills and occupancy of this kernel as LLVM's
        AMDGPU backend compiles it (hipcc -O3), for these example arguments (or the last
        launch's) on ``device`` (default: the current one). ``fallback={"vgprs": 32,
        "sgprs": 24}`` is used, with ``source="fallback"``, when the kernel uses a construct
        the lowering does not support yet (otherwise that raises, naming it and its line).
        ``occupancy`` is the ``gpusim.occupancy`` record for ``block_size`` threads.

        >>> r = saxpy.resources(2.0, x, y, out, device="mi300x")   # doctest: +SKIP
        >>> r["vgprs"], r["sgprs"], r["occupancy"].waves_per_simd  # doctest: +SKIP
        (8, 18, 8)
        """
        return kernel_resources(self, args, device, fallback=fallback, block_size=block_size)

    def isa(self, *args: Any, device: Any = None, full: bool = False) -> str:
        """The GCN/CDNA/RDNA assembly of this kernel (for these example arguments, or the
        last launch's) on ``device``: its code under a one-line resource summary, or with
        ``full=True`` all LLVM printed (kernel descriptor and metadata too)."""
        return kernel_isa(self, args, device, full=full)

    def launch(self, grid: Any, block: Any, args: tuple, *, stream: Any = 0,
               shared_bytes: int = 0, recorder: Any = None) -> None:
        """Queue the kernel on ``stream`` (hipLaunchKernelGGL): checked and compiled now,
        run when the stream reaches it. ``recorder``: a ``debugger.runner``
        ``WorkgroupRecorder`` that runs one work-group under the debugger."""
        if capture.captures(stream):  # hipStreamBeginCapture: a graph node, not a launch
            capture.capture_kernel(self, grid, block, args, stream=stream,
                                   shared_bytes=shared_bytes)
            return
        device = current_device()
        spec = device.spec
        args = self._declared(self._extended(args, stream))
        staged = stage(self, args, stream, device.ordinal)
        ready = prepare_timed(self.py_func, grid=grid, block=block, args=staged.values,
                              dynamic_lds_bytes=shared_bytes, device=spec, check=self.check,
                              max_threads=self.launch_bounds, debug=self.debug,
                              addresses=staged.addresses, caches=device, recorder=recorder)
        ck = ready.kernel
        self._remember(ck)
        self.last_launch = (_device_label(spec), ready.grid, ready.block)
        launch_block(self, math.prod(ready.block))
        info = {
            "grid": ready.grid, "block": ready.block, "lds_bytes": ready.lds_bytes,
            "wave_size": spec.wave_size,
            "bytes": sum(v.nbytes for v in ready.args if isinstance(v, np.ndarray)),
            "resources": ready.timing.resources,
            "regions": ck.n_regions, "barriers": ck.n_barriers,
        }
        site = launch_site()  # where a fault found later says the kernel was launched

        def run() -> None:
            try:
                check_alive(self, args, "ran")  # hipFree'd after the launch, before it ran?
                op.info.update(ready.run().info())  # `op` is bound below, before it runs
            except GpusimError as err:
                note_launch_site(err, self.__name__, site)
                raise

        staged.copy_in(stream)
        for arg in args:  # unified memory: pages fault over before the kernel runs
            if isinstance(arg, ManagedArray):
                arg.device_touch(stream)
        op = enqueue(stream, run, name=self.__name__, kind="kernel", info=info)
        staged.copy_back(stream)
        if any(isinstance(a, np.void) for a in args):  # a record argument is copied back
            synchronize_stream(stream)                 # when the kernel ends (numba.cuda)
        elif any(s.raises is not None for s in ck.sites):  # numba.cuda raises a kernel's
            synchronize_stream(stream)                     # exception at its launch


def _device_label(spec: Any) -> str:
    """"AMD Instinct MI300X (gfx942)": how generated-code listings name the device."""
    return f"{spec.name} ({spec.gcn_arch_name.split(':')[0]})"


def jit(func: Callable[..., Any] | Any = None, *, device: bool = False, check: bool | None = None,
        launch_bounds: int | None = None, signature: Any = None, debug: bool = False,
        **options: Any) -> Any:
    """Make a kernel (``@hip.jit``) or a device function (``@hip.jit(device=True)``).

    A numba.cuda signature as first argument (``@jit("void(float32[:], int32)")``) is
    honoured as numba.cuda does: numbers passed to the kernel become the declared types.

    >>> @jit(device=True)
    ... def twice(x):
    ...     return 2 * x
    >>> twice(4)
    8
    """
    unknown = set(options) - _IGNORED_OPTIONS
    if unknown:
        raise TypeError(f"hip.jit got unknown option(s) {sorted(unknown)}; it accepts device=, "
                        "launch_bounds=, check=, debug= (and numba.cuda's opt/lineinfo/"
                        "fastmath/cache, which change nothing here)")
    if func is None or isinstance(func, (str, list, tuple)) or not callable(func):
        signature = func if func is not None else signature
        return lambda f: jit(f, device=device, check=check, launch_bounds=launch_bounds,
                             signature=signature, debug=debug, **options)
    if device:
        return DeviceFunction(func)
    return Kernel(func, launch_bounds=launch_bounds, check=check, signature=signature,
                  debug=debug)


def hipLaunchKernelGGL(kernel: Kernel, grid: Any, block: Any, shared_bytes: int, stream: Any,
                       *args: Any) -> None:  # noqa: N802 - HIP's name
    """HIP's launch macro: ``hipLaunchKernelGGL(k, grid, block, shared_bytes, stream, *args)``."""
    if not isinstance(kernel, Kernel):
        raise HipError(hipError_t.hipErrorInvalidDeviceFunction,
                       f"hipLaunchKernelGGL: {kernel!r} is not a @hip.jit kernel")
    kernel.launch(grid, block, args, stream=stream, shared_bytes=shared_bytes)
