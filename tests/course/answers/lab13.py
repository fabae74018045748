"""Lab 13 (matrix cores), exercise 13.1: the student's ``mfma_gemm(A, B, C)``, C = A @ B
from bf16 bit patterns (uint16) into float32, one wavefront per 32 x 32 tile of C,
launched ``[(N // 32, M // 32), 64]``."""

from __future__ import annotations

import numpy as np

from answers import right, wrong
from gpusim import hip

# ---- right answers, written differently


@hip.jit
def g_solution(A, B, C):  # the lab's solution
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    i = t % 32
    kq = 4 * (t // 32)
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + i, k0 + kq + e]
            b[e] = B[k0 + kq + e, col0 + i]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + kq + e % 4, col0 + i] = acc[e]


@hip.jit
def g_zero_first(A, B, C):  # (a, b, 0.0, acc) starts the accumulator; nested store loops
    lane = hip.laneid
    half = lane // 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    K = A.shape[1]
    for step in range(K // 8):
        k = 8 * step + 4 * half
        for e in range(4):
            a[e] = A[32 * hip.blockIdx.y + lane % 32, k + e]
            b[e] = B[k + e, 32 * hip.blockIdx.x + lane % 32]
        if step == 0:
            hip.mfma_f32_32x32x8bf16_1k(a, b, 0.0, acc)
        else:
            hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for group in range(4):
        for r in range(4):
            C[32 * hip.blockIdx.y + 8 * group + 4 * half + r,
              32 * hip.blockIdx.x + lane % 32] = acc[4 * group + r]


@hip.jit
def g_16x16(A, B, C):  # four 16x16x16 MFMAs per K step, one per quarter of the tile
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    i = t % 16
    kq = 4 * (t // 16)
    a0 = hip.local.array(4, np.uint16)  # rows 0-15 of the tile
    a1 = hip.local.array(4, np.uint16)  # rows 16-31
    b0 = hip.local.array(4, np.uint16)  # columns 0-15
    b1 = hip.local.array(4, np.uint16)  # columns 16-31
    c00 = hip.local.array(4, np.float32)
    c01 = hip.local.array(4, np.float32)
    c10 = hip.local.array(4, np.float32)
    c11 = hip.local.array(4, np.float32)
    for e in range(4):
        c00[e] = 0.0
        c01[e] = 0.0
        c10[e] = 0.0
        c11[e] = 0.0
    for k0 in range(0, A.shape[1], 16):
        for e in range(4):
            a0[e] = A[row0 + i, k0 + kq + e]
            a1[e] = A[row0 + 16 + i, k0 + kq + e]
            b0[e] = B[k0 + kq + e, col0 + i]
            b1[e] = B[k0 + kq + e, col0 + 16 + i]
        hip.mfma_f32_16x16x16bf16_1k(a0, b0, c00)
        hip.mfma_f32_16x16x16bf16_1k(a0, b1, c01)
        hip.mfma_f32_16x16x16bf16_1k(a1, b0, c10)
        hip.mfma_f32_16x16x16bf16_1k(a1, b1, c11)
    for e in range(4):  # 16x16 D: lane holds column t % 16, rows 4 * (t // 16) + e
        C[row0 + kq + e, col0 + i] = c00[e]
        C[row0 + kq + e, col0 + 16 + i] = c01[e]
        C[row0 + 16 + kq + e, col0 + i] = c10[e]
        C[row0 + 16 + kq + e, col0 + 16 + i] = c11[e]


@hip.jit
def g_lds(A, B, C):  # stages 32 x 32 slices of A and B in LDS, K step 32
    sA = hip.shared.array((32, 32), np.uint16)
    sB = hip.shared.array((32, 32), np.uint16)
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 32):
        for j in range(16):  # 1024 elements each, 64 threads: 16 each, rows coalesced
            r = (64 * j + t) // 32
            c = (64 * j + t) % 32
            sA[r, c] = A[row0 + r, k0 + c]
            sB[r, c] = B[k0 + r, col0 + c]
        hip.syncthreads()
        for kk in range(0, 32, 8):
            for e in range(4):
                a[e] = sA[t % 32, kk + 4 * (t // 32) + e]
                b[e] = sB[kk + 4 * (t // 32) + e, t % 32]
            hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
        hip.syncthreads()
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_while_table(A, B, C):  # a while loop, the store through d_lane_element's rule
    t = hip.threadIdx.x
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = np.float32(0)
    k0 = 0
    while k0 < A.shape[1]:
        for e in range(4):
            a[e] = A[hip.blockIdx.y * 32 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, hip.blockIdx.x * 32 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc, acc)
        k0 += 8
    for e in range(16):
        group = (e // 4) * 2 + t // 32  # groups of 4 rows, dealt to the two lane halves
        C[hip.blockIdx.y * 32 + 4 * group + e % 4, hip.blockIdx.x * 32 + t % 32] = acc[e]


# ---- wrong answers


@hip.jit
def g_starter(A, B, C):  # the starter: the store left as TODO
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    i = t % 32
    kq = 4 * (t // 32)
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + i, k0 + kq + e]
            b[e] = B[k0 + kq + e, col0 + i]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)


@hip.jit
def g_row_e(A, B, C):  # acc[e] stored at row e
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + e, col0 + t % 32] = acc[e]


@hip.jit
def g_halves(A, B, C):  # lanes 0-31 rows 0-15, lanes 32-63 rows 16-31
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 16 * (t // 32) + e, col0 + t % 32] = acc[e]


@hip.jit
def g_transposed_store(A, B, C):  # the lane picks the row, the register the column
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + t % 32, col0 + 8 * (e // 4) + 4 * (t // 32) + e % 4] = acc[e]


@hip.jit
def g_no_zero(A, B, C):  # the accumulator is never zeroed
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_a_transposed(A, B, C):  # A loaded with B's layout
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[k0 + 4 * (t // 32) + e, row0 + t % 32]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_step4(A, B, C):  # the K loop steps by 4
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 4):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_step4_same_k(A, B, C):  # steps by 4, both lane halves load the same 4 k
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 4):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + e]
            b[e] = B[k0 + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_a_same_k(A, B, C):  # A's k offset of the upper lane half forgotten
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_restart(A, B, C):  # (a, b, 0.0, acc) at every step
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, 0.0, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit(device=True)
def bf16_value(bits):  # decode a bf16 bit pattern by hand (no subnormals here)
    exponent = (bits >> 7) & 0xFF
    if exponent == 0:
        return np.float32(0.0)
    v = np.float32((1.0 + (bits & 0x7F) / 128.0) * 2.0 ** (exponent - 127))
    return -v if bits >> 15 else v


@hip.jit
def g_valu(A, B, C):  # float32 multiply-adds on the vector ALUs, no MFMA
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    for e in range(16):
        r = row0 + 2 * e + t // 32
        s = np.float32(0.0)
        for k in range(A.shape[1]):
            s += bf16_value(A[r, k]) * bf16_value(B[k, col0 + t % 32])
        C[r, col0 + t % 32] = s


@hip.jit
def g_half_wave(A, B, C):  # written for 32 threads: the MFMA under `if t < 32`
    t = hip.threadIdx.x
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    if t < 32:
        for e in range(16):
            acc[e] = 0.0
        for k0 in range(0, A.shape[1], 8):
            for e in range(4):
                a[e] = A[hip.blockIdx.y * 32 + t, k0 + e]
                b[e] = B[k0 + e, hip.blockIdx.x * 32 + t]
            hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
        for e in range(16):
            C[hip.blockIdx.y * 32 + 8 * (e // 4) + e % 4, hip.blockIdx.x * 32 + t] = acc[e]


@hip.jit
def g_bits_as_numbers(A, B, C):  # float32 private arrays: the bit patterns become numbers
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.float32)
    b = hip.local.array(4, np.float32)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


@hip.jit
def g_square_k(A, B, C):  # K taken from C's width: right only when K = N
    t = hip.threadIdx.x
    row0 = hip.blockIdx.y * 32
    col0 = hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):
        acc[e] = 0.0
    for k0 in range(0, C.shape[1], 8):
        for e in range(4):
            a[e] = A[row0 + t % 32, k0 + 4 * (t // 32) + e]
            b[e] = B[k0 + 4 * (t // 32) + e, col0 + t % 32]
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row0 + 8 * (e // 4) + 4 * (t // 32) + e % 4, col0 + t % 32] = acc[e]


ANSWERS = [
    right("13.1", "the lab's solution", lambda: (g_solution,)),
    right("13.1", "(a, b, 0.0, acc) first, nested store loops", lambda: (g_zero_first,)),
    right("13.1", "four 16x16x16 MFMAs per step", lambda: (g_16x16,)),
    right("13.1", "A and B staged in LDS", lambda: (g_lds,)),
    right("13.1", "while loop, 4-operand form, row groups", lambda: (g_while_table,)),
    wrong("13.1", "starter: store missing", ["C[0, 0] was never written"],
          lambda: (g_starter,)),
    wrong("13.1", "acc[e] stored at row e", ["wrong rows", "row 0 holds row 4",
                                             "rows 16-31 were never written", "D layout"],
          lambda: (g_row_e,)),
    wrong("13.1", "lane halves hold rows 0-15 and 16-31", ["wrong rows", "row 4 holds row 8",
                                                           "D layout"],
          lambda: (g_halves,)),
    wrong("13.1", "tile stored transposed", ["transpose", "rows of one column"],
          lambda: (g_transposed_store,)),
    wrong("13.1", "accumulator never zeroed", ["never set to zero", "previous tile"],
          lambda: (g_no_zero,)),
    wrong("13.1", "A loaded with B's layout", ["Aᵀ @ B", "A is loaded with B's layout"],
          lambda: (g_a_transposed,)),
    wrong("13.1", "K loop steps by 4", ["out-of-bounds read of global array 'A'",
                                        "8 values of k"],
          lambda: (g_step4,)),
    wrong("13.1", "steps by 4, halves load the same k", ["exactly twice", "steps by 8"],
          lambda: (g_step4_same_k,)),
    wrong("13.1", "upper lane half loads A's lower k", ["lanes 32-63 load the same",
                                                        "of A"],
          lambda: (g_a_same_k,)),
    wrong("13.1", "accumulator restarted every step", ["only the last step",
                                                       "restarted at every step"],
          lambda: (g_restart,)),
    wrong("13.1", "float32 VALU math, no MFMA", ["never used the matrix core",
                                                 "SQ_INSTS_MFMA is 0"],
          lambda: (g_valu,)),
    wrong("13.1", "written for 32 threads", ["needs all 64 lanes", "only 32 of its 64"],
          lambda: (g_half_wave,)),
    wrong("13.1", "bit patterns read as numbers", ["bit patterns", "16,256"],
          lambda: (g_bits_as_numbers,)),
    wrong("13.1", "K taken from C's width", ["right for m = n = k = 64",
                                             "96, 64, 32"],
          lambda: (g_square_k,)),
]
