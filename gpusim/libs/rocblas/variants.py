"""One implementation, one C name per precision: ``rocblas_saxpy``, ``rocblas_daxpy``, ...

rocBLAS spells each precision as its own C function. Here each routine family is one
private implementation taking the C name and element type first; ``variants`` binds
them and gives every public function its own name, signature and docstring (with a
runnable example written for its element type).

>>> import numpy as np
>>> def _scale(name, dtype, x, a):
...     '''{name}: multiply by a ({ctype}).'''
...     return np.asarray(x, dtype) * a
>>> table = variants(_scale, {"s": np.float32, "d": np.float64}, "rocblas_{p}scale")
>>> f = table["rocblas_sscale"]
>>> f.__name__, f.__doc__, f([1, 2], 3).dtype
('rocblas_sscale', 'rocblas_sscale: multiply by a (float).', dtype('float32'))
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.libs.rocblas.blas_time import ctype


def variants(impl: Callable[..., Any], dtypes: dict[str, Any], pattern: str,
             **fixed: Any) -> dict[str, Callable[..., Any]]:
    """{C name: function} for each prefix p in ``dtypes`` (``pattern`` has ``{p}``).

    A value of ``dtypes`` may be a tuple (data dtype, extra...) passed as the second
    argument as is; the docstring template gets ``{name}``, ``{dtype}`` (NumPy name of
    the data type) and ``{ctype}``.
    """
    table = {}
    for prefix, dtype in dtypes.items():
        name = pattern.format(p=prefix)
        table[name] = _bind(impl, name, dtype, fixed)
    return table


def _bind(impl: Callable[..., Any], name: str, dtype: Any, fixed: dict) -> Callable[..., Any]:
    def routine(*args: Any, **kwargs: Any) -> Any:
        return impl(name, dtype, *args, **fixed, **kwargs)

    # Give the function the implementation's globals, so it belongs to that module
    # (doctest then finds and runs the example of every C name).
    routine = types.FunctionType(routine.__code__, impl.__globals__, name,
                                 routine.__defaults__, routine.__closure__)
    data = np.dtype(dtype[0] if isinstance(dtype, tuple) else dtype)
    signature = inspect.signature(impl)
    params = [p for p in list(signature.parameters.values())[2:] if p.name not in fixed]
    routine.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    routine.__name__ = routine.__qualname__ = name
    routine.__module__ = impl.__module__
    template = getattr(impl, "__template__", impl.__doc__ or "")
    routine.__doc__ = template.format(name=name, dtype=data.name,
                                                 ctype=ctype(data))
    routine.__wrapped_impl__ = impl  # type: ignore[attr-defined]
    return routine


def with_example(setup: str, lines: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the docstring of each C name is ``fn``'s plus ``setup`` and ``lines``
    (doctest text with ``{name}``/``{dtype}`` placeholders), so routines of one module
    share their set-up lines. The template is kept apart (``__template__``) so the
    private implementation itself carries no example that cannot run."""
    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__template__ = (fn.__doc__ or "") + setup + lines.strip("\n") + "\n"
        return fn
    return decorate
