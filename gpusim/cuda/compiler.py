"""numba.cuda's ahead-of-time compiler entry points, which produce NVIDIA PTX/LTO-IR.

gpusim emulates AMD GPUs, so there is no PTX to give. The names exist so that numba.cuda
code importing them still loads; calling one says what to use instead: a kernel's AMD
assembly is ``kernel.isa(*example_args)``, its generated code
``kernel.inspect_generated(*example_args)``.

>>> compile_ptx(lambda x: None, "void(float32[:])")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
NotImplementedError: compile_ptx produces NVIDIA PTX; gpusim emulates AMD GPUs. For ...
"""

from __future__ import annotations

from typing import Any


def _no_ptx(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"{name} produces NVIDIA PTX; gpusim emulates AMD GPUs. For a kernel's AMDGPU "
        "assembly call kernel.isa(*example_args); for its generated code "
        "kernel.inspect_generated(*example_args)")


def compile_ptx(pyfunc: Any, sig: Any, **options: Any) -> tuple[str, Any]:
    """numba.cuda.compile_ptx: not available (NVIDIA PTX)."""
    raise _no_ptx("compile_ptx")


def compile_ptx_for_current_device(pyfunc: Any, sig: Any, **options: Any) -> tuple[str, Any]:
    """numba.cuda.compile_ptx_for_current_device: not available (NVIDIA PTX)."""
    raise _no_ptx("compile_ptx_for_current_device")


def compile(pyfunc: Any, sig: Any, **options: Any) -> tuple[Any, Any]:  # noqa: A001
    """numba.cuda.compile: not available (NVIDIA PTX / LTO-IR)."""
    raise _no_ptx("compile")


def compile_for_current_device(pyfunc: Any, sig: Any, **options: Any) -> tuple[Any, Any]:
    """numba.cuda.compile_for_current_device: not available (NVIDIA PTX / LTO-IR)."""
    raise _no_ptx("compile_for_current_device")
