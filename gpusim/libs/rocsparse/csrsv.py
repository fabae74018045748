"""Sparse triangular solve, op(T) * y = alpha * x, with T the triangle of a CSR matrix
named by the descriptor's fill mode (and a unit diagonal if its diag type says so):
``rocsparse_Xcsrsv_buffer_size``, ``_analysis``, ``_solve``, and
``rocsparse_csrsv_zero_pivot`` / ``rocsparse_csrsv_clear``.

Analysis stores in the matrix info what the solve needs (here the dependency levels
rocSPARSE schedules rows by) and the first structural zero pivot: a row whose diagonal
entry is missing. The solve finds numerical zero pivots (a stored zero on the
diagonal). ``rocsparse_csrsv_zero_pivot`` reports the first of either by raising
rocsparse_status_zero_pivot with ``.position``. As in rocSPARSE the solution is not
meaningful past a zero pivot; the emulator writes NaN there.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocsparse import *
>>> h, descr = rocsparse_create_handle(), rocsparse_create_mat_descr()
>>> info = rocsparse_create_mat_info()
>>> rp = hip.to_device(np.array([0, 1, 3], np.int32))
>>> ci = hip.to_device(np.array([0, 0, 1], np.int32))
>>> val = hip.to_device(np.array([2., 1., 4.]))
>>> args = (h, rocsparse_operation_none, 2, 3, descr, val, rp, ci, info)
>>> size = rocsparse_dcsrsv_buffer_size(*args)
>>> buf = hip.hipMalloc(size)
>>> rocsparse_dcsrsv_analysis(*args, rocsparse_analysis_policy_reuse,
...                           rocsparse_solve_policy_auto, buf)
>>> x, y = hip.to_device(np.array([2., 9.])), hip.device_array(2)
>>> rocsparse_dcsrsv_solve(h, rocsparse_operation_none, 2, 3, 1.0, descr, val, rp, ci, info,
...                        x, y, rocsparse_solve_policy_auto, buf)
>>> y.copy_to_host(), rocsparse_csrsv_zero_pivot(h, descr, info)
(array([1., 2.]), None)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from gpusim.libs.common import wait
from gpusim.libs.rocsparse import storage
from gpusim.libs.rocsparse.calls import I32, Call, typed_family
from gpusim.libs.rocsparse.handle import check_descr, check_info
from gpusim.libs.rocsparse.types import (
    rocsparse_analysis_policy,
    rocsparse_diag_type,
    rocsparse_fill_mode,
    rocsparse_operation,
    rocsparse_solve_policy,
    rocsparse_status,
)

S = rocsparse_status
LOWER = rocsparse_fill_mode.rocsparse_fill_mode_lower


class Analysis:
    """What csrsv analysis learned about one (trans, fill mode) triangle."""

    def __init__(self) -> None:
        self.levels = 0
        self.pivot: int | None = None  # first structural or numerical zero pivot
        self.op = None  # the last kernel that updates ``pivot``


def _triangle(a: sp.csr_matrix, descr: Any) -> tuple[sp.csr_matrix, bool, bool]:
    """(T, lower, unit): the referenced triangle of A, as the solve sees it."""
    lower = descr.fill_mode == LOWER
    unit = descr.diag_type == rocsparse_diag_type.rocsparse_diag_type_unit
    tri = sp.tril(a, -1 if unit else 0) if lower else sp.triu(a, 1 if unit else 0)
    return sp.csr_matrix(tri), lower, unit


def _arrays(call: Call, dtype: np.dtype, trans: int, m: int, nnz: int, descr: Any,
            csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any, info: Any) -> tuple:
    trans = call.enum(trans, rocsparse_operation, "trans")
    call.sizes(m=m, nnz=nnz)
    descr = check_descr(descr, call.function)
    check_info(info, call.function)
    val = call.view(csr_val, dtype, nnz, "csr_val")
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    ci = call.view(csr_col_ind, I32, nnz, "csr_col_ind")
    base = int(descr.index_base)
    return trans, descr, (lambda: storage.csr(m, m, base, rp, ci, val, call.function)), \
        val.nbytes + rp.nbytes + ci.nbytes


def csrsv_buffer_size(dtype: np.dtype, function: str, handle: Any, trans: int, m: int,
                      nnz: int, descr: Any, csr_val: Any, csr_row_ptr: Any,
                      csr_col_ind: Any, info: Any) -> int:
    """Bytes of temporary buffer csrsv analysis and solve need (model: one int per
    row for the level schedule, at least 4 bytes)."""
    call = Call(handle, function)
    _arrays(call, dtype, trans, m, nnz, descr, csr_val, csr_row_ptr, csr_col_ind, info)
    return max(4, 4 * int(m))


def csrsv_analysis(dtype: np.dtype, function: str, handle: Any, trans: int, m: int,
                   nnz: int, descr: Any, csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any,
                   info: Any, analysis: int, solve: int, temp_buffer: Any) -> None:
    """Analyse the triangle for csrsv_solve: levels and the structural zero pivot."""
    call = Call(handle, function)
    trans, descr, build, nbytes = _arrays(call, dtype, trans, m, nnz, descr, csr_val,
                                          csr_row_ptr, csr_col_ind, info)
    policy = call.enum(analysis, rocsparse_analysis_policy, "analysis")
    call.enum(solve, rocsparse_solve_policy, "solve")
    call.view(temp_buffer, np.uint8, max(4, 4 * int(m)) if m else 0, "temp_buffer")
    key = ("csrsv", trans, descr.fill_mode)
    if key in info.analyses and policy == rocsparse_analysis_policy.rocsparse_analysis_policy_reuse:
        return
    result = info.analyses[key] = Analysis()

    def run() -> None:
        tri, lower, unit = _triangle(build(), descr)
        if not unit:
            rows = np.repeat(np.arange(m), np.diff(tri.indptr))
            has = np.zeros(m, bool)
            has[rows[rows == tri.indices]] = True
            missing = np.flatnonzero(~has)
            result.pivot = int(missing[0]) if missing.size else None
        result.levels = _levels(tri, lower)

    result.op = call.launch(run, kernel="csrsv_analysis_kernel", rows=m, nbytes=nbytes,
                            dtype=dtype)


def _levels(tri: sp.csr_matrix, lower: bool) -> int:
    """Length of the longest dependency chain: how many waves of rows the solve needs."""
    m = tri.shape[0]
    depth = np.zeros(m, np.int64)
    order = range(m) if lower else range(m - 1, -1, -1)
    for i in order:
        deps = tri.indices[tri.indptr[i]:tri.indptr[i + 1]]
        deps = deps[deps != i]
        depth[i] = 1 + (depth[deps].max() if deps.size else 0)
    return int(depth.max()) if m else 0


def csrsv_solve(dtype: np.dtype, function: str, handle: Any, trans: int, m: int, nnz: int,
                alpha: Any, descr: Any, csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any,
                info: Any, x: Any, y: Any, policy: int, temp_buffer: Any) -> None:
    """Solve op(T) * y = alpha * x after csrsv_analysis with the same trans."""
    call = Call(handle, function)
    trans, descr, build, nbytes = _arrays(call, dtype, trans, m, nnz, descr, csr_val,
                                          csr_row_ptr, csr_col_ind, info)
    a = call.scalar(alpha, dtype, "alpha")
    call.enum(policy, rocsparse_solve_policy, "policy")
    result = info.analyses.get(("csrsv", trans, descr.fill_mode))
    if result is None:
        raise call.fail(S.rocsparse_status_invalid_pointer,
                        f"info holds no csrsv analysis for {trans.name} and "
                        f"{descr.fill_mode.name}; call csrsv_analysis first")
    call.view(temp_buffer, np.uint8, max(4, 4 * int(m)) if m else 0, "temp_buffer")
    xv, yv = call.view(x, dtype, m, "x"), call.view(y, dtype, m, "y")

    def run() -> None:
        tri, lower, unit = _triangle(build(), descr)
        opt = storage.apply(tri, trans)
        op_lower = lower == (trans == rocsparse_operation.rocsparse_operation_none)
        zeros = np.flatnonzero(opt.diagonal() == 0) if not unit else np.empty(0, int)
        pivots = [p for p in (result.pivot, *zeros[:1]) if p is not None]
        if pivots:
            result.pivot = int(min(pivots))
            yv[:] = np.nan
            return
        rhs = a() * xv
        yv[:] = spla.spsolve_triangular(sp.csr_matrix(opt), rhs, lower=op_lower,
                                        unit_diagonal=unit) if m else rhs

    result.op = call.launch(run, kernel="csrsv_kernel", rows=m, flops=2 * nnz,
                            nbytes=nbytes + xv.nbytes + yv.nbytes, dtype=dtype)


def rocsparse_csrsv_zero_pivot(handle: Any, descr: Any, info: Any) -> None:
    """Wait for the last csrsv analysis/solve; raise rocsparse_status_zero_pivot with
    ``.position`` (the row) if one met a zero pivot, else return None."""
    call = Call(handle, "rocsparse_csrsv_zero_pivot")
    descr = check_descr(descr, call.function)
    check_info(info, call.function)
    found = [r for k, r in info.analyses.items() if k[0] == "csrsv" and k[2] == descr.fill_mode]
    for result in found:
        if result.op is not None:
            wait(result.op)
    pivots = [r.pivot for r in found if r.pivot is not None]
    if pivots:
        err = call.fail(S.rocsparse_status_zero_pivot,
                        f"row {min(pivots)} has a zero (or missing) diagonal entry; the "
                        "triangular solve divides by it")
        err.position = min(pivots)
        raise err


def rocsparse_csrsv_clear(handle: Any, descr: Any, info: Any) -> None:
    """Forget csrsv analyses of this fill mode held in ``info``."""
    call = Call(handle, "rocsparse_csrsv_clear")
    descr = check_descr(descr, call.function)
    for key in [k for k in check_info(info, call.function).analyses
                if k[0] == "csrsv" and k[2] == descr.fill_mode]:
        del info.analyses[key]


ROUTINES = {**typed_family(csrsv_buffer_size, "csrsv_buffer_size"),
            **typed_family(csrsv_analysis, "csrsv_analysis"),
            **typed_family(csrsv_solve, "csrsv_solve")}
globals().update(ROUTINES)
__all__ = [*ROUTINES, "rocsparse_csrsv_clear", "rocsparse_csrsv_zero_pivot"]
