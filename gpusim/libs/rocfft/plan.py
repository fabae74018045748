"""rocFFT plans: setup, plan creation with its checks, and the work-buffer size.

A plan fixes everything about a transform but the buffers: placement, transform type,
precision, lengths (``lengths[0]`` is the fastest dimension), batch, and from an
optional description the array types, strides, distances, offsets and scale factor.
Checks at creation follow rocFFT (``rocfft_plan_create_internal`` and
``check_array_type_validity`` in library/src/plan.cpp); the layout checks marked
"emulator" are stricter than rocFFT, which does not look and lets the kernels write
outside the intended elements.

>>> from gpusim.rocfft import *
>>> plan = rocfft_plan_create(rocfft_placement_notinplace, rocfft_transform_type_real_forward,
...                           rocfft_precision_double, 1, [8], 1, None)
>>> plan.output.lengths, plan.output.array_type.name
((5,), 'rocfft_array_type_hermitian_interleaved')
>>> rocfft_plan_get_work_buffer_size(plan)
0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from gpusim.libs.common import check_enum
from gpusim.libs.rocfft.description import check_description, rocfft_plan_description
from gpusim.libs.rocfft.errors import RocfftError
from gpusim.libs.rocfft.layout import Layout, default_distance, default_strides, first_collision
from gpusim.libs.rocfft.types import (
    COMPLEX_TYPES,
    COMPONENT_DTYPE,
    HERMITIAN_TYPES,
    PLANAR,
    rocfft_array_type,
    rocfft_precision,
    rocfft_result_placement,
    rocfft_status,
    rocfft_transform_type,
)
from gpusim.runtime.system import get_system

S = rocfft_status
T = rocfft_transform_type
A = rocfft_array_type
INPLACE = rocfft_result_placement.rocfft_placement_inplace
# Radices rocFFT's kernels factor a length into; other lengths use Bluestein's algorithm
# (NodeFactory::SupportedLength, library/src/node_factory.cpp).
RADICES = (2, 3, 5, 7, 11, 13, 17)
# Array types an unset description gets (init_defaults in plan.cpp).
DEFAULT_TYPES = {
    T.rocfft_transform_type_complex_forward: (A.rocfft_array_type_complex_interleaved,) * 2,
    T.rocfft_transform_type_complex_inverse: (A.rocfft_array_type_complex_interleaved,) * 2,
    T.rocfft_transform_type_real_forward: (A.rocfft_array_type_real,
                                           A.rocfft_array_type_hermitian_interleaved),
    T.rocfft_transform_type_real_inverse: (A.rocfft_array_type_hermitian_interleaved,
                                           A.rocfft_array_type_real),
}


@dataclass
class rocfft_plan:  # noqa: N801
    """A created plan: the transform and both resolved layouts."""

    placement: rocfft_result_placement
    transform_type: rocfft_transform_type
    precision: rocfft_precision
    lengths: tuple[int, ...]  # the transform's lengths, fastest first (real lengths for r2c/c2r)
    batch: int
    input: Layout
    output: Layout
    scale_factor: float
    work_buffer_bytes: int
    destroyed: bool = field(default=False, repr=False)
    # The device current at creation: the plan's kernels run there (rocfft_execute
    # refuses a stream of another device, as every library does: libs.common.handle).
    device: int = field(default_factory=lambda: get_system().current_ordinal)


_state = {"setup": False}


def rocfft_setup() -> None:
    """Initialise the library (rocFFT asks for it once before use; plans work without it
    here, as they do in rocFFT).

    >>> rocfft_setup()
    """
    _state["setup"] = True


def rocfft_cleanup() -> None:
    """Release the library's resources (the counterpart of ``rocfft_setup``)."""
    _state["setup"] = False


def rocfft_plan_create(placement: int, transform_type: int, precision: int,
                       dimensions: int, lengths: Any, number_of_transforms: int,
                       description: rocfft_plan_description | None) -> rocfft_plan:
    """Create a plan for ``number_of_transforms`` transforms of ``lengths`` (fastest
    dimension first); the plan handle is returned."""
    name = "rocfft_plan_create"
    if not 1 <= int(dimensions) <= 3:
        raise RocfftError(S.rocfft_status_invalid_dimensions, name,
                          f"dimensions={dimensions}; rocFFT transforms 1, 2 or 3 dimensions "
                          "(batch the rest with number_of_transforms)")
    lengths = tuple(int(n) for n in lengths)
    if len(lengths) != int(dimensions) or min(lengths) < 1:
        raise RocfftError(S.rocfft_status_invalid_arg_value, name,
                          f"lengths={list(lengths)} must be {dimensions} positive lengths, "
                          "fastest dimension first")
    if int(number_of_transforms) < 1:
        raise RocfftError(S.rocfft_status_invalid_arg_value, name,
                          f"number_of_transforms={number_of_transforms} must be at least 1")
    placement = check_enum(placement, rocfft_result_placement,
                           function=name, arg="placement", error=RocfftError)
    transform_type = check_enum(transform_type, T,
                                function=name, arg="transform_type", error=RocfftError)
    precision = check_enum(precision, rocfft_precision,
                           function=name, arg="precision", error=RocfftError)
    desc = description if description is not None else rocfft_plan_description()
    check_description(desc, name)
    inp, out = _layouts(placement, transform_type, lengths, int(number_of_transforms), desc)
    _check_array_types(placement, transform_type, inp.array_type, out.array_type)
    if placement == INPLACE:
        _check_in_place(transform_type, inp, out)
    else:
        _check_no_overlap(out)
    work = _work_buffer_bytes(lengths, int(number_of_transforms), precision)
    return rocfft_plan(placement, transform_type, precision, lengths,
                       int(number_of_transforms), inp, out, desc.scale_factor, work)


def rocfft_plan_destroy(plan: rocfft_plan) -> None:
    """Free a plan; using it afterwards raises rocfft_status_failure."""
    check_plan(plan, "rocfft_plan_destroy")
    plan.destroyed = True


def rocfft_plan_get_work_buffer_size(plan: rocfft_plan) -> int:
    """Bytes of work buffer the plan needs (0: none). Model: only Bluestein transforms
    (a length with a prime factor rocFFT has no kernel radix for) ask for one here."""
    return check_plan(plan, "rocfft_plan_get_work_buffer_size").work_buffer_bytes


def rocfft_plan_get_print(plan: rocfft_plan) -> None:
    """Print the plan's transform and layouts (rocFFT prints its plan tree to stdout).

    >>> from gpusim.rocfft import *
    >>> rocfft_plan_get_print(rocfft_plan_create(
    ...     rocfft_placement_inplace, rocfft_transform_type_real_forward,
    ...     rocfft_precision_single, 2, [6, 3], 1, None))
    real_forward single in-place lengths [6, 3] batch 1 scale 1.0 work buffer 0 B
      input:  real lengths [6, 3] strides [1, 8] distance 24 offsets [0]
      output: hermitian_interleaved lengths [4, 3] strides [1, 4] distance 12 offsets [0]
    """
    plan = check_plan(plan, "rocfft_plan_get_print")
    kind = plan.transform_type.name.removeprefix("rocfft_transform_type_")
    place = "in-place" if plan.placement == INPLACE else "out-of-place"
    print(f"{kind} {plan.precision.name.removeprefix('rocfft_precision_')} {place} "
          f"lengths {list(plan.lengths)} batch {plan.batch} scale {plan.scale_factor} "
          f"work buffer {plan.work_buffer_bytes} B")
    for side, lay in (("input: ", plan.input), ("output:", plan.output)):
        print(f"  {side} {lay.array_type.name.removeprefix('rocfft_array_type_')} lengths "
              f"{list(lay.lengths)} strides {list(lay.strides)} distance {lay.distance} "
              f"offsets {list(lay.offsets[:lay.buffers])}")


def check_plan(plan: Any, function: str) -> rocfft_plan:
    """The plan, or rocfft_status_failure if it is not a live plan."""
    if not isinstance(plan, rocfft_plan):
        raise RocfftError(S.rocfft_status_failure, function,
                          f"{plan!r} is not a plan; make one with rocfft_plan_create")
    if plan.destroyed:
        raise RocfftError(S.rocfft_status_failure, function,
                          "the plan was destroyed by rocfft_plan_destroy; create a new one")
    return plan


def _layouts(placement: rocfft_result_placement, kind: rocfft_transform_type,
             lengths: tuple[int, ...], batch: int, desc: rocfft_plan_description
             ) -> tuple[Layout, Layout]:
    """Both sides with rocFFT's defaults filled in (plan.cpp, init_defaults)."""
    half = (lengths[0] // 2 + 1,) + lengths[1:]
    in_lengths = half if kind == T.rocfft_transform_type_real_inverse else lengths
    out_lengths = half if kind == T.rocfft_transform_type_real_forward else lengths
    pad_in = placement == INPLACE and kind == T.rocfft_transform_type_real_forward
    pad_out = placement == INPLACE and kind == T.rocfft_transform_type_real_inverse
    in_row = 2 * out_lengths[0] if pad_in else in_lengths[0]
    out_row = 2 * in_lengths[0] if pad_out else out_lengths[0]
    in_strides = desc.in_strides or default_strides(in_lengths, in_row)
    out_strides = desc.out_strides or default_strides(out_lengths, out_row)
    default_type = DEFAULT_TYPES[kind]
    in_type = default_type[0] if desc.in_array_type == A.rocfft_array_type_unset \
        else desc.in_array_type
    out_type = default_type[1] if desc.out_array_type == A.rocfft_array_type_unset \
        else desc.out_array_type
    for side, strides in (("in", in_strides), ("out", out_strides)):
        if len(strides) != len(lengths) or min(strides) < 1:
            raise RocfftError(S.rocfft_status_invalid_strides, "rocfft_plan_create",
                              f"{side}_strides={list(strides)} must be {len(lengths)} positive "
                              "strides, fastest dimension first")
    in_dist = desc.in_distance or default_distance(in_lengths, in_strides,
                                                   2 * out_lengths[0] if pad_in else 0)
    out_dist = desc.out_distance or default_distance(out_lengths, out_strides,
                                                     2 * in_lengths[0] if pad_out else 0)
    return (Layout(in_type, in_lengths, in_strides, in_dist, desc.in_offsets, batch),
            Layout(out_type, out_lengths, out_strides, out_dist, desc.out_offsets, batch))


def _check_array_types(placement: rocfft_result_placement, kind: rocfft_transform_type,
                       in_type: rocfft_array_type, out_type: rocfft_array_type) -> None:
    """rocFFT's check_array_type_validity: which array types fit which transform."""
    complex_kind = kind in (T.rocfft_transform_type_complex_forward,
                            T.rocfft_transform_type_complex_inverse)
    if complex_kind:
        ok = in_type in COMPLEX_TYPES and out_type in COMPLEX_TYPES and (
            placement != INPLACE or in_type == out_type)
        need = "complex input and output (the same type in place)"
    elif kind == T.rocfft_transform_type_real_forward:
        ok = in_type == A.rocfft_array_type_real and out_type in HERMITIAN_TYPES and (
            placement != INPLACE or out_type not in PLANAR)
        need = "real input and hermitian output (interleaved in place)"
    else:
        ok = out_type == A.rocfft_array_type_real and in_type in HERMITIAN_TYPES and (
            placement != INPLACE or in_type not in PLANAR)
        need = "hermitian input (interleaved in place) and real output"
    if not ok:
        raise RocfftError(S.rocfft_status_invalid_array_type, "rocfft_plan_create",
                          f"{kind.name} cannot take {in_type.name} -> {out_type.name}; it "
                          f"needs {need}")


def _check_in_place(kind: rocfft_transform_type, inp: Layout, out: Layout) -> None:
    """Emulator check: in place, each output must land where its transform's input
    was. Complex: identical layouts. Real: rows of contiguous elements, each real row
    starting at twice the component offset of its complex row (the padded layout)."""
    function = "rocfft_plan_create"
    if kind in (T.rocfft_transform_type_complex_forward, T.rocfft_transform_type_complex_inverse):
        for name, a, b, status in _sides(inp, out, 1):
            if a != b:
                raise RocfftError(status, function,
                                  f"in place, the output {name} must equal the input's: "
                                  f"input {a}, output {b}")
    else:
        real, cplx = (inp, out) if kind == T.rocfft_transform_type_real_forward else (out, inp)
        if real.strides[0] != 1 or cplx.strides[0] != 1:
            raise RocfftError(S.rocfft_status_invalid_strides, function,
                              "in-place real transforms need unit strides in the fastest "
                              f"dimension; got real {real.strides[0]}, complex "
                              f"{cplx.strides[0]}")
        row = 2 * cplx.lengths[0]
        for name, a, b, status in _sides(real, cplx, 2):
            if a != b:
                raise RocfftError(status, function,
                                  f"in place, each real row must be padded to {row} elements "
                                  f"(2 * (n0 // 2 + 1)) so its {cplx.lengths[0]} complex "
                                  f"values fit where it was: real {name} {a} needs {b}; "
                                  "leave the layout unset for rocFFT's padded defaults")
    _check_no_overlap(out)


def _sides(a: Layout, b: Layout, scale: int) -> list[tuple[str, list, list, rocfft_status]]:
    """(name, a's value, scale x b's value, status) for strides, distance, offsets."""
    first = 0 if scale == 1 else 1  # real rows: the fastest stride is checked apart
    return [("strides", list(a.strides[first:]), [scale * s for s in b.strides[first:]],
             S.rocfft_status_invalid_strides),
            ("distance", [a.distance], [scale * b.distance], S.rocfft_status_invalid_distance),
            ("offsets", list(a.offsets[:a.buffers]), [scale * o for o in b.offsets[:a.buffers]],
             S.rocfft_status_invalid_offset)]


def _check_no_overlap(out: Layout) -> None:
    """Emulator check: no two outputs may land on the same element."""
    clash = first_collision(out)
    if clash is None:
        return
    if clash[0] == "strides":
        raise RocfftError(S.rocfft_status_invalid_strides, "rocfft_plan_create",
                          f"output strides {list(out.strides)} for lengths "
                          f"{list(out.lengths)} put two outputs of transform {clash[1]} on "
                          "the same element; strides must separate every element")
    raise RocfftError(S.rocfft_status_invalid_distance, "rocfft_plan_create",
                      f"output distance {out.distance} makes transforms overlap (each spans "
                      f"{int(out.indices()[0].max()) + 1} elements); use a larger distance")


def is_bluestein(n: int) -> bool:
    """True when ``n`` does not factor into rocFFT's kernel radices."""
    for radix in RADICES:
        while n % radix == 0:
            n //= radix
    return n != 1


def _work_buffer_bytes(lengths: tuple[int, ...], batch: int, precision: rocfft_precision
                       ) -> int:
    """Model of rocFFT's work buffer: a Bluestein dimension of length n runs as FFTs of
    the power of two M >= 2n - 1 (BluesteinNode::FindBlue), needing the chirp plus two
    padded sequences, 3 M complex elements, for each of its 1-D transforms."""
    complex_bytes = 2 * COMPONENT_DTYPE[precision].itemsize
    total = math.prod(lengths) * batch
    work = 0
    for n in lengths:
        if is_bluestein(n):
            m = 1 << (2 * n - 2).bit_length()
            work = max(work, 3 * m * (total // n) * complex_bytes)
    return work
