"""NumPy scalar types passed to array methods in kernels (part of the ``resolve`` pass).

numba lets a kernel pass a type to an array method: ``a[i:j].view(np.int32)``
reinterprets the bytes of a view as another dtype (numba checks the sizes). Elsewhere a
type is not a value in a kernel; here it becomes the attribute ``np.int32`` (the generated
module's own ``np``) marked with its ``type_value``, which ``infer`` types as numba does
(``NumberClass(int32)``).

>>> import ast, numba, numpy as np
>>> node = type_argument(ast.Name(id="i4"), True, np.int32)
>>> ast.unparse(node), str(node.type_value)
('np.int32', 'int32')
>>> type_argument(ast.Name(id="f"), True, numba.float32).attr
'float32'
>>> type_argument(ast.Name(id="n"), True, 3) is None
True
"""

from __future__ import annotations

import ast
from typing import Any

import numba
import numpy as np


def type_argument(node: ast.expr, found: bool, value: Any) -> ast.Attribute | None:
    """``np.<dtype>`` (with ``.type_value``) for a method argument that names a NumPy or
    numba number type (``np.int32``, ``numba.float32``), else None."""
    if not found:
        return None
    if isinstance(value, numba.types.Number | numba.types.Boolean):
        dtype = numba.np.numpy_support.as_dtype(value)
    elif isinstance(value, type) and issubclass(value, np.number | np.bool_):
        dtype = np.dtype(value)
    else:
        return None
    out = ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), ctx=ast.Load(),
                        attr="bool_" if dtype.kind == "b" else dtype.name)
    out.type_value = dtype
    return ast.copy_location(out, node)
