"""A kernel translated from HIP C++: launched like any ``@hip.jit`` kernel, with C's
argument conventions on top.

A ``float*`` parameter takes a device pointer from ``hipMalloc`` (as C code passes it),
a DeviceArray or a NumPy array of float32; a pointer becomes the array from where it
points to the end of its allocation. Scalars are converted to the C parameter's type
(``float`` -> float32), as the C call would.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.devices.spec import DeviceSpec
from gpusim.errors import GpusimError, HipError, hipError_t
from gpusim.hip import DeviceArray, DevicePointer, Kernel
from gpusim.hipcc.lines import cpp_findings, to_cpp
from gpusim.hipcc.texfetch import SLOTS
from gpusim.hipcc.textures import kernel_values
from gpusim.runtime.pointers import resolve_device


class CppKernel(Kernel):
    """A ``__global__`` function; ``params`` are (name, "array"|"scalar", dtype)."""

    def __init__(self, kernel: Kernel, cpp_name: str, params: list[tuple[str, str, str]],
                 hidden: tuple[str, ...] = ()):
        super().__init__(kernel.py_func, launch_bounds=kernel.launch_bounds, check=kernel.check)
        self.cpp_name = cpp_name
        self.params = params
        self.hidden = hidden  # dtypes of trailing parameters: the program's device variables
        self._last_args: tuple | None = None

    def __repr__(self) -> str:
        return f"<gpusim HIP C++ kernel {self.cpp_name}>"

    def c_args(self, args: tuple) -> tuple:
        """The arguments as the translated kernel takes them."""
        if len(args) != len(self.params):
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"kernel '{self.cpp_name}' takes {len(self.params)} arguments "
                           f"({', '.join(p[0] for p in self.params)}), got {len(args)}")
        out = []
        for param, arg in zip(self.params, args, strict=True):
            if param[1] == "struct":
                out += _fields(self.cpp_name, param, arg)
            elif param[1] == "texture":  # hipTextureObject_t: its texels and descriptor
                out += kernel_values(self.cpp_name, param[0], arg)
            else:
                out.append(_convert(self.cpp_name, param, arg))
        return tuple(out)

    def launch(self, grid: Any, block: Any, args: tuple, *, stream: Any = 0,
               shared_bytes: int = 0, hidden: tuple = (), recorder: Any = None) -> None:
        """Launch with C's argument conventions; ``hidden`` are the device variables'
        copies (a program passes them; from Python, a kernel that uses device variables
        is launched through its program); ``recorder`` as ``Kernel.launch``'s."""
        if len(hidden) != len(self.hidden):
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"kernel '{self.cpp_name}' uses the program's __device__/__constant__ "
                           "variables: launch it from the program's host code")
        values = (*self.c_args(args), *hidden)
        self._last_args = values
        try:
            super().launch(grid, block, values, stream=stream or 0,
                           shared_bytes=shared_bytes, recorder=recorder)
        except GpusimError as e:
            module = getattr(self, "module", None)
            if module is not None:
                e = cpp_findings(e, str(module.path), module.source)
            raise to_cpp(e) from None

    def specialize(self, *args: Any):
        return super().specialize(*self.c_args(args))

    def resources(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """As ``Kernel.resources``; without example arguments the C parameter types say
        what to compile for (the occupancy calculator calls ``resources(device_spec)``)."""
        if len(args) == 1 and isinstance(args[0], DeviceSpec):
            kwargs.setdefault("device", args[0])
            args = ()
        return super().resources(*self._examples(args), **kwargs)

    def isa(self, *args: Any, **kwargs: Any) -> str:
        return super().isa(*self._examples(args), **kwargs)

    def _examples(self, args: tuple) -> tuple:
        """The translated kernel's arguments for ``args``, or, with none, one value of each
        C parameter's type (the last launch's types, when there was one: its buffers may
        be freed since, so each array is a one-element host stand-in of its dtype)."""
        if args:
            return self.c_args(args)
        if self._last_args is not None:
            return tuple(np.zeros((1,) * max(v.ndim, 1), v.dtype)
                         if isinstance(v, DeviceArray) else v for v in self._last_args)
        out = []
        for _, kind, spec in self.params:
            if kind == "array":
                out.append(np.zeros(1, spec))
            elif kind == "scalar":
                out.append(np.dtype(spec).type(0))
            elif kind == "texture":
                out += [np.zeros(1, np.float32), np.zeros(len(SLOTS), np.float64)]
            else:
                out += [np.dtype(d).type(0) for _, d in spec]
        return (*out, *(np.zeros(1, d) for d in self.hidden))


def _fields(kernel: str, param: tuple, arg: Any) -> list:
    """A struct argument, field by field: an object with the fields as attributes (what
    translated C host code passes), a dict, or a sequence in declaration order."""
    name, _, fields = param
    values = []
    for k, (field, dtype) in enumerate(fields):
        if isinstance(arg, dict):
            value = arg.get(field)
        elif isinstance(arg, (tuple, list)):
            value = arg[k] if k < len(arg) else None
        else:
            value = getattr(arg, field, None)
        if value is None:
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"kernel '{kernel}': struct parameter '{name}' needs field "
                           f"'{field}'; pass an object or dict with fields "
                           f"{[f for f, _ in fields]}, or a tuple in that order")
        values.append(np.dtype(dtype).type(value))
    return values


def _convert(kernel: str, param: tuple[str, str, str], arg: Any) -> Any:
    name, kind, dtype = param
    dtype = np.dtype(dtype)
    if kind == "scalar":
        if isinstance(arg, (DeviceArray, np.ndarray, DevicePointer)):
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"kernel '{kernel}': parameter '{name}' is a {dtype} scalar, got "
                           f"{type(arg).__name__}")
        return dtype.type(arg)
    if isinstance(arg, (int, np.integer)) and not isinstance(arg, bool) and arg == 0:
        return np.zeros(0, dtype)  # NULL: a kernel may be passed one it does not read
    if isinstance(arg, (DevicePointer, int, np.integer)) and not isinstance(arg, bool):
        alloc, offset = resolve_device(arg, origin=f"kernel '{kernel}' argument '{name}'")
        count = (alloc.nbytes - offset) // dtype.itemsize
        return DeviceArray.from_pointer(arg, (count,), dtype)
    if isinstance(arg, (DeviceArray, np.ndarray)):
        if arg.dtype == np.uint8 and dtype != np.uint8 and arg.ndim == 1 \
                and isinstance(arg, np.ndarray):
            return arg.view(dtype)  # hipHostMalloc'd bytes, typed as the kernel reads them
        if arg.dtype != dtype:
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"kernel '{kernel}': parameter '{name}' points to {dtype}, got an "
                           f"array of {arg.dtype}; convert it with .astype(np.{dtype})")
        return arg
    raise HipError(hipError_t.hipErrorInvalidValue,
                   f"kernel '{kernel}': parameter '{name}' is a pointer; pass a device "
                   f"pointer from hipMalloc, a DeviceArray or a NumPy array, not "
                   f"{type(arg).__name__}")
