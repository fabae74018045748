"""Where a rocFFT plan reads and writes: array type, lengths, strides, distance, offsets.

Element ``(i0, i1, i2)`` of transform ``b`` (``i0`` in the fastest dimension,
``lengths[0]``) sits at ``offset + b * distance + i0 * strides[0] + i1 * strides[1] +
...`` in units of the array type's element: a real number for ``real`` and planar
arrays, a complex number (two reals) for interleaved arrays. Defaults follow rocFFT's
``rocfft_plan_description_t::init_defaults`` (library/src/plan.cpp): packed data, except
that an in-place real-to-complex transform pads each real row to ``2 * (n0 // 2 + 1)``
elements so the ``n0 // 2 + 1`` complex outputs of the row fit where the row was.

NumPy sees the data with axes ``(batch, n[rank-1], ..., n[0])``: the fastest dimension
last, so ``scipy.fft`` can transform the last ``rank`` axes.

>>> lay = Layout(rocfft_array_type.rocfft_array_type_real, (4,), (1,), 6, (0,), 2)
>>> lay.indices()
array([[0, 1, 2, 3],
       [6, 7, 8, 9]])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.libs.rocfft.types import INTERLEAVED, PLANAR, rocfft_array_type


@dataclass(frozen=True)
class Layout:
    """One side (input or output) of a plan, as rocFFT resolves it at plan creation."""

    array_type: rocfft_array_type
    lengths: tuple[int, ...]  # fastest first, in this side's elements
    strides: tuple[int, ...]
    distance: int
    offsets: tuple[int, ...]  # one per buffer: two for planar arrays
    batch: int

    @property
    def buffers(self) -> int:
        """Pointers this side takes in rocfft_execute: two for planar arrays."""
        return 2 if self.array_type in PLANAR else 1

    @property
    def is_complex(self) -> bool:
        return self.array_type != rocfft_array_type.rocfft_array_type_real

    def indices(self) -> np.ndarray:
        """Element index of every value, shaped (batch, n[rank-1], ..., n[0]), offset 0."""
        index = np.arange(self.batch, dtype=np.int64).reshape(-1, *[1] * len(self.lengths))
        index = index * self.distance
        for dim, (n, stride) in enumerate(zip(self.lengths, self.strides, strict=True)):
            shape = [1] * (len(self.lengths) + 1)
            shape[-1 - dim] = n
            index = index + np.arange(n, dtype=np.int64).reshape(shape) * stride
        return index

    def components(self, buffer: int = 0) -> np.ndarray:
        """Index of the first real component of every value in its buffer."""
        per = 2 if self.array_type in INTERLEAVED else 1
        return (self.offsets[buffer] + self.indices()) * per

    def extent(self, buffer: int = 0) -> int:
        """Real components a buffer must hold for this side to fit."""
        last = self.offsets[buffer] + int(self.indices().max())
        return (last + 1) * (2 if self.array_type in INTERLEAVED else 1)


def default_strides(lengths: tuple[int, ...], row: int) -> tuple[int, ...]:
    """Packed strides, fastest first, where a row (the fastest dimension) takes ``row``
    elements (``lengths[0]`` when packed, more when padded)."""
    strides, step = [1], row
    for n in lengths[1:]:
        strides.append(step)
        step *= n
    return tuple(strides)


def default_distance(lengths: tuple[int, ...], strides: tuple[int, ...], padded_1d: int
                     ) -> int:
    """rocFFT's default batch distance: the slowest length times its stride, except a
    padded 1-D in-place real side, whose rows take ``padded_1d`` elements."""
    if len(lengths) == 1 and padded_1d:
        return padded_1d * strides[0]
    return lengths[-1] * strides[-1]


def gather(views: list[np.ndarray], layout: Layout) -> np.ndarray:
    """Read one side's values (complex or real) from component views of its buffers."""
    if layout.array_type in INTERLEAVED:
        at = layout.components()
        return views[0][at] + 1j * views[0][at + 1]
    if layout.array_type in PLANAR:
        return views[0][layout.components(0)] + 1j * views[1][layout.components(1)]
    return views[0][layout.components()].copy()


def scatter(views: list[np.ndarray], layout: Layout, values: np.ndarray) -> None:
    """Write one side's values into component views of its buffers."""
    if layout.array_type in INTERLEAVED:
        at = layout.components()
        views[0][at], views[0][at + 1] = values.real, values.imag
    elif layout.array_type in PLANAR:
        views[0][layout.components(0)] = values.real
        views[1][layout.components(1)] = values.imag
    else:
        views[0][layout.components()] = values.real


def first_collision(layout: Layout) -> tuple[str, int] | None:
    """Where two outputs of ``layout`` land on the same element, if anywhere:
    ("strides", transform) when they collide within a transform, ("distance", 0) when
    two transforms overlap. Overlapping outputs would race on a GPU."""
    index = np.sort(layout.indices().reshape(layout.batch, -1), axis=1)
    within = np.flatnonzero((np.diff(index, axis=1) == 0).any(axis=1))
    if within.size:
        return "strides", int(within[0])
    if np.unique(index).size != index.size:
        return "distance", 0
    return None
