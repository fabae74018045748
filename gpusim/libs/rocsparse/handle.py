"""rocSPARSE handles, matrix descriptors and matrix info objects.

A handle (a libs.common LibraryHandle) belongs to the device current at its creation and
carries the stream every call queues its kernels on (``rocsparse_set_stream`` refuses a
stream of another device, as every library does) and the pointer mode of scalar
arguments (alpha, beta, nnz totals). A matrix descriptor says how to read a
sparse matrix: index base, matrix type, fill mode, diagonal type, storage mode
(defaults as rocSPARSE: zero base, general, lower, non-unit, sorted). A matrix info
holds what analysis routines learn (csrsv's levels and zero pivot).

>>> h = rocsparse_create_handle()
>>> descr = rocsparse_create_mat_descr()
>>> rocsparse_set_mat_index_base(descr, rocsparse_index_base.rocsparse_index_base_one)
>>> rocsparse_get_mat_index_base(descr)
<rocsparse_index_base.rocsparse_index_base_one: 1>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpusim.libs.common import LibraryHandle, check_enum
from gpusim.libs.rocsparse.errors import RocsparseError
from gpusim.libs.rocsparse.types import (
    rocsparse_diag_type,
    rocsparse_fill_mode,
    rocsparse_index_base,
    rocsparse_matrix_type,
    rocsparse_pointer_mode,
    rocsparse_status,
    rocsparse_storage_mode,
)

S = rocsparse_status


class rocsparse_handle(LibraryHandle):  # noqa: N801 - the C type's name
    """The library context: device and stream (LibraryHandle), pointer mode."""

    def __init__(self) -> None:
        super().__init__()
        self.pointer_mode = rocsparse_pointer_mode.rocsparse_pointer_mode_host
        self.destroyed = False

    def __repr__(self) -> str:
        return (f"rocsparse_handle(device={self.device}, stream={self.stream!r}, "
                f"pointer_mode={self.pointer_mode!r})")


@dataclass
class rocsparse_mat_descr:  # noqa: N801
    index_base: rocsparse_index_base = rocsparse_index_base.rocsparse_index_base_zero
    type: rocsparse_matrix_type = rocsparse_matrix_type.rocsparse_matrix_type_general
    fill_mode: rocsparse_fill_mode = rocsparse_fill_mode.rocsparse_fill_mode_lower
    diag_type: rocsparse_diag_type = rocsparse_diag_type.rocsparse_diag_type_non_unit
    storage_mode: rocsparse_storage_mode = rocsparse_storage_mode.rocsparse_storage_mode_sorted


@dataclass
class rocsparse_mat_info:  # noqa: N801
    """Analysis results keyed by what was analysed (e.g. ("csrsv", trans, fill))."""

    analyses: dict = field(default_factory=dict)


def rocsparse_create_handle() -> rocsparse_handle:
    """A handle on the current device, on its null stream, pointer mode host."""
    return rocsparse_handle()


def rocsparse_destroy_handle(handle: rocsparse_handle) -> None:
    """Free the handle; later calls with it raise rocsparse_status_invalid_handle."""
    check_handle(handle, "rocsparse_destroy_handle").destroyed = True


def rocsparse_set_stream(handle: rocsparse_handle, stream: Any) -> None:
    """Queue the handle's kernels on ``stream`` (0/None: the null stream)."""
    name = "rocsparse_set_stream"
    check_handle(handle, name).set_stream(stream, function=name, error=RocsparseError)


def rocsparse_get_stream(handle: rocsparse_handle) -> Any:
    """The handle's stream (None: the null stream)."""
    return check_handle(handle, "rocsparse_get_stream").stream


def rocsparse_set_pointer_mode(handle: rocsparse_handle, mode: int) -> None:
    """Host: scalars are numbers read at the call; device: device pointers read by the
    kernel, and results (nnz totals) written to device memory."""
    name = "rocsparse_set_pointer_mode"
    check_handle(handle, name).pointer_mode = check_enum(
        mode, rocsparse_pointer_mode, function=name, arg="mode", error=RocsparseError)


def rocsparse_get_pointer_mode(handle: rocsparse_handle) -> rocsparse_pointer_mode:
    """The handle's pointer mode (rocsparse_pointer_mode)."""
    return check_handle(handle, "rocsparse_get_pointer_mode").pointer_mode


def rocsparse_create_mat_descr() -> rocsparse_mat_descr:
    """A matrix descriptor: zero base, general, lower fill, non-unit diagonal, sorted."""
    return rocsparse_mat_descr()


def rocsparse_destroy_mat_descr(descr: rocsparse_mat_descr) -> None:
    """Free a matrix descriptor."""
    check_descr(descr, "rocsparse_destroy_mat_descr")


def rocsparse_copy_mat_descr(dest: rocsparse_mat_descr, src: rocsparse_mat_descr) -> None:
    """Copy every property of ``src`` into ``dest``."""
    name = "rocsparse_copy_mat_descr"
    check_descr(dest, name, "dest").__dict__.update(check_descr(src, name, "src").__dict__)


def _setter(attribute: str, kind: type) -> tuple:
    def set_(descr: rocsparse_mat_descr, value: int) -> None:
        name = f"rocsparse_set_mat_{attribute}"
        setattr(check_descr(descr, name), attribute,
                check_enum(value, kind, function=name, arg=attribute, error=RocsparseError))

    def get(descr: rocsparse_mat_descr) -> Any:
        return getattr(check_descr(descr, f"rocsparse_get_mat_{attribute}"), attribute)

    set_.__name__, get.__name__ = f"rocsparse_set_mat_{attribute}", \
        f"rocsparse_get_mat_{attribute}"
    set_.__doc__ = f"Set the descriptor's {attribute.replace('_', ' ')} ({kind.__name__})."
    get.__doc__ = f"The descriptor's {attribute.replace('_', ' ')} ({kind.__name__})."
    return set_, get


rocsparse_set_mat_index_base, rocsparse_get_mat_index_base = _setter(
    "index_base", rocsparse_index_base)
rocsparse_set_mat_type, rocsparse_get_mat_type = _setter("type", rocsparse_matrix_type)
rocsparse_set_mat_fill_mode, rocsparse_get_mat_fill_mode = _setter(
    "fill_mode", rocsparse_fill_mode)
rocsparse_set_mat_diag_type, rocsparse_get_mat_diag_type = _setter(
    "diag_type", rocsparse_diag_type)
rocsparse_set_mat_storage_mode, rocsparse_get_mat_storage_mode = _setter(
    "storage_mode", rocsparse_storage_mode)


def rocsparse_create_mat_info() -> rocsparse_mat_info:
    """An empty matrix info, filled by analysis routines (csrsv, csrmv)."""
    return rocsparse_mat_info()


def rocsparse_destroy_mat_info(info: rocsparse_mat_info) -> None:
    """Free a matrix info and the analyses it holds."""
    check_info(info, "rocsparse_destroy_mat_info").analyses.clear()


def check_handle(handle: Any, function: str) -> rocsparse_handle:
    """The handle, or rocsparse_status_invalid_handle."""
    if not isinstance(handle, rocsparse_handle) or handle.destroyed:
        raise RocsparseError(S.rocsparse_status_invalid_handle, function,
                             f"{handle!r} is not a live handle; make one with "
                             "rocsparse_create_handle")
    return handle


def check_descr(descr: Any, function: str, arg: str = "descr") -> rocsparse_mat_descr:
    """The matrix descriptor, or rocsparse_status_invalid_pointer."""
    if not isinstance(descr, rocsparse_mat_descr):
        raise RocsparseError(S.rocsparse_status_invalid_pointer, function,
                             f"argument '{arg}' is {descr!r}, not a matrix descriptor; make "
                             "one with rocsparse_create_mat_descr")
    return descr


def check_info(info: Any, function: str) -> rocsparse_mat_info:
    """The matrix info, or rocsparse_status_invalid_pointer."""
    if not isinstance(info, rocsparse_mat_info):
        raise RocsparseError(S.rocsparse_status_invalid_pointer, function,
                             f"argument 'info' is {info!r}, not a matrix info; make one with "
                             "rocsparse_create_mat_info")
    return info
