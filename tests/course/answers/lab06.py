"""Lab 06 (memory), exercise 06.1: the student's ``transpose_padded(a, out)``, a 32 x 32
tile transpose through LDS without bank conflicts, launched in blocks of (32, 32)."""

from __future__ import annotations

import numpy as np

from answers import right, wrong
from gpusim import hip

TILE = 32


@hip.jit
def tp_literal(a, out):  # rows of 33 words, typed in
    tile = hip.shared.array((32, 33), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    bx, by = hip.blockIdx.x, hip.blockIdx.y
    tile[ty, tx] = a[by * 32 + ty, bx * 32 + tx]
    hip.syncthreads()
    out[bx * 32 + ty, by * 32 + tx] = tile[tx, ty]


@hip.jit
def tp_flat(a, out):  # a 1D tile indexed by hand: word r * 33 + c
    tile = hip.shared.array(TILE * (TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty * (TILE + 1) + tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx * (TILE + 1) + ty]


@hip.jit
def tp_swizzle(a, out):  # no padding: columns XOR-swizzled by the row
    tile = hip.shared.array((TILE, TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx ^ ty] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty ^ tx]


@hip.jit
def tp_pad_three(a, out):  # rows of 35 words: any odd row length is conflict-free
    tile = hip.shared.array((TILE, TILE + 3), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def tp_column_write(a, out):  # writes the tile by columns, reads it by rows
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[tx, ty] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[ty, tx]


@hip.jit
def tp_starter(a, out):  # the starter: rows of 32 words
    tile = hip.shared.array((TILE, TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def tp_pad_two(a, out):  # rows of 34 words: 2-way
    tile = hip.shared.array((TILE, TILE + 2), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def tp_pad_rows(a, out):  # one more row instead of longer rows
    tile = hip.shared.array((TILE + 1, TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def tp_double_width(a, out):  # rows of 64 words: still one bank per column
    tile = hip.shared.array((TILE, 2 * TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def tp_no_barrier(a, out):  # padded, but reads before the others have written
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def tp_copy(a, out):  # padded, but copies the tile instead of transposing it
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx] = tile[ty, tx]


@hip.jit
def tp_blocks_not_swapped(a, out):  # transposes inside each tile, not the tiles
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx] = tile[tx, ty]


ANSWERS = [
    right("06.1", "33 typed in", lambda: (tp_literal,)),
    right("06.1", "flat tile indexed by hand", lambda: (tp_flat,)),
    right("06.1", "XOR swizzle", lambda: (tp_swizzle,)),
    right("06.1", "rows of 35 words", lambda: (tp_pad_three,)),
    right("06.1", "column write, row read", lambda: (tp_column_write,)),
    wrong("06.1", "starter: no padding", ["the load at line", "32-way bank conflicts"],
          lambda: (tp_starter,)),
    wrong("06.1", "padded by two", ["2-way bank conflicts"], lambda: (tp_pad_two,)),
    wrong("06.1", "an extra row, not a longer row", ["32-way bank conflicts"],
          lambda: (tp_pad_rows,)),
    wrong("06.1", "rows twice as long", ["32-way bank conflicts"],
          lambda: (tp_double_width,)),
    wrong("06.1", "barrier forgotten", ["lds race on tile", "write at line", "read at line"],
          lambda: (tp_no_barrier,)),
    wrong("06.1", "copies instead of transposing", ["a copy of a", "not its transpose"],
          lambda: (tp_copy,)),
    wrong("06.1", "tiles not swapped", ["tiles stay where they were"],
          lambda: (tp_blocks_not_swapped,)),
]
