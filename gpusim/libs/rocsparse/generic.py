"""rocSPARSE's generic products: ``rocsparse_spmv`` (y := alpha op(A) x + beta y) and
``rocsparse_spmm`` (C := alpha op(A) op(B) + beta C) on descriptors, each run in stages.

    rocsparse_spmv_stage_buffer_size  returns the temporary buffer size in bytes: 0 for
                                      every format in this rocSPARSE (rocsparse_spmv.cpp,
                                      commit 1c69e40); analysis data lives in the
                                      descriptor
    rocsparse_spmv_stage_preprocess   analysis for the algorithms that use it (CSR
                                      default/adaptive/LRB, COO atomic, BSR default);
                                      blocks the host, as documented
    rocsparse_spmv_stage_compute      the product, queued on the handle's stream

Checks follow rocSPARSE's order: handle, enums, null pointers, then the type dispatch
(an unsupported combination of matrix, vector and compute types is
rocsparse_status_not_implemented) and the algorithm's format (rocsparse_status_invalid_value).
The emulator also checks that the vectors fit op(A) (rocsparse_status_invalid_size).

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocsparse import *
>>> h = rocsparse_create_handle()
>>> rp = hip.to_device(np.array([0, 1, 2], np.int32))
>>> ci = hip.to_device(np.array([1, 0], np.int32))
>>> A = rocsparse_create_csr_descr(2, 2, 2, rp, ci, hip.to_device(np.array([1., 2.])),
...     rocsparse_indextype_i32, rocsparse_indextype_i32, rocsparse_index_base_zero,
...     rocsparse_datatype_f64_r)
>>> d_x, d_y = hip.to_device(np.array([3., 4.])), hip.device_array(2)
>>> x = rocsparse_create_dnvec_descr(2, d_x, rocsparse_datatype_f64_r)
>>> y = rocsparse_create_dnvec_descr(2, d_y, rocsparse_datatype_f64_r)
>>> args = (h, rocsparse_operation_none, 1.0, A, x, 0.0, y, rocsparse_datatype_f64_r,
...         rocsparse_spmv_alg_csr_adaptive)
>>> size = rocsparse_spmv(*args, rocsparse_spmv_stage_buffer_size, None, None)
>>> rocsparse_spmv(*args, rocsparse_spmv_stage_preprocess, size, None)
>>> rocsparse_spmv(*args, rocsparse_spmv_stage_compute, size, None)
>>> size, d_y.copy_to_host()
(0, array([4., 6.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.common import wait
from gpusim.libs.rocsparse import storage
from gpusim.libs.rocsparse.calls import Call
from gpusim.libs.rocsparse.descriptors import (
    check_dnmat,
    check_dnvec,
    check_spmat,
    dense_matrix,
    dense_vector,
    sparse_reader,
)
from gpusim.libs.rocsparse.level2 import matvec
from gpusim.libs.rocsparse.types import (
    DATA_DTYPE,
    rocsparse_datatype,
    rocsparse_format,
    rocsparse_operation,
    rocsparse_spmm_alg,
    rocsparse_spmm_stage,
    rocsparse_spmv_alg,
    rocsparse_spmv_stage,
    rocsparse_status,
)

S = rocsparse_status
D = rocsparse_datatype
FMT = rocsparse_format
ALG = rocsparse_spmv_alg
# (compute, A, x, y) combinations rocsparse_spmv dispatches (spmv_dynamic_dispatch).
SPMV_TYPES = {
    (D.rocsparse_datatype_f32_r,) * 4, (D.rocsparse_datatype_f64_r,) * 4,
    (D.rocsparse_datatype_f32_c,) * 4, (D.rocsparse_datatype_f64_c,) * 4,
    (D.rocsparse_datatype_f32_r, D.rocsparse_datatype_i8_r, D.rocsparse_datatype_i8_r,
     D.rocsparse_datatype_f32_r),
    (D.rocsparse_datatype_i32_r, D.rocsparse_datatype_i8_r, D.rocsparse_datatype_i8_r,
     D.rocsparse_datatype_i32_r),
    (D.rocsparse_datatype_f64_r, D.rocsparse_datatype_f32_r, D.rocsparse_datatype_f64_r,
     D.rocsparse_datatype_f64_r),
    (D.rocsparse_datatype_f32_c, D.rocsparse_datatype_f32_r, D.rocsparse_datatype_f32_c,
     D.rocsparse_datatype_f32_c),
    (D.rocsparse_datatype_f64_c, D.rocsparse_datatype_f64_r, D.rocsparse_datatype_f64_c,
     D.rocsparse_datatype_f64_c),
    (D.rocsparse_datatype_f64_c, D.rocsparse_datatype_f32_c, D.rocsparse_datatype_f64_c,
     D.rocsparse_datatype_f64_c),
}
# Algorithms each format accepts, and the kernel each runs (rocsparse_spmv.cpp).
SPMV_KERNELS = {
    FMT.rocsparse_format_csr: {ALG.rocsparse_spmv_alg_default: "csrmvn_adaptive_kernel",
                               ALG.rocsparse_spmv_alg_csr_adaptive: "csrmvn_adaptive_kernel",
                               ALG.rocsparse_spmv_alg_csr_stream: "csrmvn_general_kernel",
                               ALG.rocsparse_spmv_alg_csr_lrb: "csrmvn_lrb_kernel"},
    FMT.rocsparse_format_coo: {ALG.rocsparse_spmv_alg_default: "coomvn_segmented_kernel",
                               ALG.rocsparse_spmv_alg_coo: "coomvn_segmented_kernel",
                               ALG.rocsparse_spmv_alg_coo_atomic: "coomvn_atomic_kernel"},
    FMT.rocsparse_format_ell: {ALG.rocsparse_spmv_alg_default: "ellmvn_kernel",
                               ALG.rocsparse_spmv_alg_ell: "ellmvn_kernel"},
    FMT.rocsparse_format_bsr: {ALG.rocsparse_spmv_alg_default: "bsrmvn_general_kernel",
                               ALG.rocsparse_spmv_alg_bsr: "bsrmvn_general_kernel"},
}
PREPROCESSED = {(FMT.rocsparse_format_csr, ALG.rocsparse_spmv_alg_default),
                (FMT.rocsparse_format_csr, ALG.rocsparse_spmv_alg_csr_adaptive),
                (FMT.rocsparse_format_csr, ALG.rocsparse_spmv_alg_csr_lrb),
                (FMT.rocsparse_format_coo, ALG.rocsparse_spmv_alg_coo_atomic),
                (FMT.rocsparse_format_bsr, ALG.rocsparse_spmv_alg_default)}


def _pointers(call: Call, **args: Any) -> None:
    for name, value in args.items():
        if value is None:
            raise call.fail(S.rocsparse_status_invalid_pointer,
                            f"argument '{name}' is a null pointer")


def rocsparse_spmv(handle: Any, trans: int, alpha: Any, mat: Any, x: Any, beta: Any, y: Any,
                   compute_type: int, alg: int, stage: int, buffer_size: int | None,
                   temp_buffer: Any) -> int | None:
    """One stage of y := alpha * op(A) * x + beta * y; the buffer-size stage returns the
    size in bytes (C's ``*buffer_size``), the others return None."""
    call = Call(handle, "rocsparse_spmv")
    trans = call.enum(trans, rocsparse_operation, "trans")
    _pointers(call, alpha=alpha, mat=mat, x=x, beta=beta, y=y)
    compute = call.enum(compute_type, rocsparse_datatype, "compute_type")
    alg = call.enum(alg, rocsparse_spmv_alg, "alg")
    stage = call.enum(stage, rocsparse_spmv_stage, "stage")
    mat, x, y = (check_spmat(mat, call.function, "mat"), check_dnvec(x, call.function, "x"),
                 check_dnvec(y, call.function, "y"))
    types = (compute, mat.data_type, x.data_type, y.data_type)
    if types not in SPMV_TYPES:
        raise call.fail(S.rocsparse_status_not_implemented,
                        "no SpMV for compute/A/x/y types "
                        f"{', '.join(t.name.removeprefix('rocsparse_datatype_') for t in types)}; "
                        "use one type throughout (or a mixed combination rocSPARSE lists)")
    kernels = SPMV_KERNELS.get(mat.format, {})
    if alg not in kernels:
        raise call.fail(S.rocsparse_status_invalid_value,
                        f"{alg.name} does not apply to {mat.format.name}; use one of "
                        f"{', '.join(a.name for a in kernels) or 'none'}")
    rows, cols = storage.operated_shape(mat.rows, mat.cols, trans)
    if (x.size, y.size) != (cols, rows):
        raise call.fail(S.rocsparse_status_invalid_size,
                        f"op(A) is {rows} x {cols} but x has {x.size} and y {y.size} elements")
    build, matrix_bytes = sparse_reader(call, mat)
    if stage == rocsparse_spmv_stage.rocsparse_spmv_stage_buffer_size:
        return 0
    if stage == rocsparse_spmv_stage.rocsparse_spmv_stage_preprocess:
        if (mat.format, alg) in PREPROCESSED and not mat.analysed:
            wait(call.launch(build, kernel="csrmv_analysis_kernel" if mat.format ==
                             FMT.rocsparse_format_csr else f"{mat.format.name[17:]}mv_analysis",
                             rows=mat.rows, nbytes=matrix_bytes))
            mat.analysed = True
        return None
    ctype = DATA_DTYPE[compute]
    kernel = kernels[alg]
    if kernel == "csrmvn_adaptive_kernel" and not mat.analysed:
        kernel = "csrmvn_general_kernel"  # rocSPARSE falls back without the analysis
    matvec(call, trans, (mat.rows, mat.cols), mat.nnz * mat.block_dim ** 2, build,
           call.scalar(alpha, ctype, "alpha"), call.scalar(beta, ctype, "beta"),
           dense_vector(call, x), dense_vector(call, y), kernel=kernel,
           matrix_bytes=matrix_bytes, dtype=ctype)
    return None


def rocsparse_spmm(handle: Any, trans_A: int, trans_B: int, alpha: Any, mat_A: Any,  # noqa: N803
                   mat_B: Any, beta: Any, mat_C: Any, compute_type: int, alg: int,  # noqa: N803
                   stage: int, buffer_size: int | None, temp_buffer: Any) -> int | None:
    """One stage of C := alpha * op(A) * op(B) + beta * C, A sparse (CSR, COO or BSR),
    B and C dense matrices; the buffer-size stage returns bytes (model: 0, as spmv)."""
    call = Call(handle, "rocsparse_spmm")
    trans_a = call.enum(trans_A, rocsparse_operation, "trans_A")
    trans_b = call.enum(trans_B, rocsparse_operation, "trans_B")
    _pointers(call, alpha=alpha, mat_A=mat_A, mat_B=mat_B, beta=beta, mat_C=mat_C)
    compute = call.enum(compute_type, rocsparse_datatype, "compute_type")
    call.enum(alg, rocsparse_spmm_alg, "alg")
    stage = call.enum(stage, rocsparse_spmm_stage, "stage")
    a = check_spmat(mat_A, call.function, "mat_A")
    b, c = check_dnmat(mat_B, call.function, "mat_B"), check_dnmat(mat_C, call.function,
                                                                     "mat_C")
    if len({compute, a.data_type, b.data_type, c.data_type}) != 1:
        raise call.fail(S.rocsparse_status_not_implemented,
                        "the emulator's spmm takes one data type for A, B, C and compute")
    if a.format not in (FMT.rocsparse_format_csr, FMT.rocsparse_format_coo,
                        FMT.rocsparse_format_bsr):
        raise call.fail(S.rocsparse_status_not_implemented,
                        f"spmm on {a.format.name}: the emulator implements CSR, COO and BSR")
    m, k = storage.operated_shape(a.rows, a.cols, trans_a)
    kb, n = storage.operated_shape(b.rows, b.cols, trans_b)
    if kb != k or (c.rows, c.cols) != (m, n):
        raise call.fail(S.rocsparse_status_invalid_size,
                        f"op(A) is {m} x {k}, op(B) {kb} x {n}, C {c.rows} x {c.cols}; "
                        f"C must be {m} x {n} and the inner sizes equal")
    build, matrix_bytes = sparse_reader(call, a)
    if stage != rocsparse_spmm_stage.rocsparse_spmm_stage_compute:
        return 0 if stage == rocsparse_spmm_stage.rocsparse_spmm_stage_buffer_size else None
    dtype = DATA_DTYPE[compute]
    alpha_r, beta_r = call.scalar(alpha, dtype, "alpha"), call.scalar(beta, dtype, "beta")
    bv, cv = dense_matrix(call, b), dense_matrix(call, c)

    def run() -> None:
        product = storage.apply(build(), trans_a) @ np.asarray(storage.apply(bv, trans_b))
        scale = beta_r()
        cv[:, :] = alpha_r() * product + (scale * cv if scale != 0 else 0)

    call.launch(run, kernel=f"{a.format.name[17:]}mmnn_kernel", rows=m,
                nbytes=matrix_bytes + bv.size * bv.itemsize + 2 * cv.size * cv.itemsize,
                flops=2 * a.nnz * a.block_dim ** 2 * n, dtype=dtype)
    return None
