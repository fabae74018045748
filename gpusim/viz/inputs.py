"""What views accept: a kernel record, a list of them, or a ``Profile``; and the device.

Views read profile records only (``gpusim.profiler``). A view that draws the memory
model needs a kernel traced under ``gpusim.profile(memory=True)``; given anything else
it says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpusim.devices import DeviceSpec, get_spec
from gpusim.profiler import KernelRecord, Profile, Record
from gpusim.viz.base import ViewError, dropdown

TRACE_HINT = ("record the launch inside `with gpusim.profile(memory=True) as prof:` and pass "
              "prof or prof.kernels[i]")


def records_of(obj: Any) -> list[Record]:
    """Every record in a Profile, a list of records, or one record.

    >>> from gpusim.profiler import MemsetRecord
    >>> len(records_of(MemsetRecord(name="hipMemset", device=0, stream=0)))
    1"""
    if isinstance(obj, Profile):
        return list(obj.records)
    if isinstance(obj, Record):
        return [obj]
    if isinstance(obj, Iterable) and not isinstance(obj, (str, bytes)):
        found = list(obj)
        if all(isinstance(r, Record) for r in found):
            return found
    raise ViewError(f"expected a profile record, a list of records or a Profile, got "
                    f"{type(obj).__name__}; {TRACE_HINT}")


def traced_kernels(obj: Any, view: str) -> list[KernelRecord]:
    """Kernel records that carry the memory model's results (``record.memory``).

    >>> from gpusim.profiler import KernelRecord
    >>> traced_kernels([KernelRecord(name="k", device=0, stream=0)], "roofline")
    Traceback (most recent call last):
    ...
    gpusim.viz.base.ViewError: roofline needs a traced kernel, got kernels that were not ..."""
    kernels = [r for r in records_of(obj) if isinstance(r, KernelRecord)]
    traced = [k for k in kernels if k.memory.get("device")]
    if not traced:
        what = "no kernel records" if not kernels else "kernels that were not traced"
        raise ViewError(f"{view} needs a traced kernel, got {what}: {TRACE_HINT}")
    return traced


def spec_of(record: KernelRecord) -> DeviceSpec:
    """The device profile a traced kernel was modelled on."""
    return get_spec(record.memory["device"])


def kernel_label(i: int, k: KernelRecord) -> str:
    """How a kernel is listed in a view's dropdown.

    >>> kernel_label(0, KernelRecord(name="k", device=0, stream=0, grid=(4, 1, 1)))
    '0: k grid 4x1 block 1x1'
    """
    return f"{i}: {k.name} grid {k.grid[0]}x{k.grid[1]} block {k.block[0]}x{k.block[1]}"


def site_options(record: KernelRecord, space: str) -> list[tuple[str, int]]:
    """(label, site index) of a kernel's memory instructions in one space, by line."""
    out = []
    for i, s in enumerate(record.memory["sites"]):
        if s["space"] == space:
            out.append((f"line {s['line']}: {s['text']} ({s['array']} {s['kind']})", i))
    return out


def pick_site(record: KernelRecord, space: str, line: int | None, view: str,
              array: str | None = None) -> int:
    """The site index for ``line`` and ``array`` (the first one in ``space`` that
    matches the ones given)."""
    options = site_options(record, space)
    if not options:
        raise ViewError(f"{view}: kernel {record.name!r} has no {space} memory instruction")
    sites = record.memory["sites"]
    for _, i in options:
        if line in (None, sites[i]["line"]) and array in (None, sites[i]["array"]):
            return i
    if line is None:
        arrays = sorted({sites[i]["array"] for _, i in options})
        raise ViewError(f"{view}: kernel {record.name!r} has no {space} access to {array!r}; "
                        f"it accesses {arrays}")
    lines = sorted({sites[i]["line"] for _, i in options})
    raise ViewError(f"{view}: kernel {record.name!r} has no {space} access on line {line}; "
                    f"its {space} accesses are on lines {lines}")


class KernelSite:
    """A kernel dropdown and an instruction dropdown that follows it (coalescing, banks)."""

    def __init__(self, kernels: list[KernelRecord], space: str, line: int | None, view: str,
                 kernel: int = 0, array: str | None = None) -> None:
        self.kernels, self.space = kernels, space
        with_space = [(kernel_label(i, k), i) for i, k in enumerate(kernels)
                      if site_options(k, space)]
        if not with_space:
            what = "an LDS access (hip.shared.array)" if space == "lds" else "a global access"
            raise ViewError(f"{view}: none of these traced kernels has {what}")
        first = kernel if any(i == kernel for _, i in with_space) else with_space[0][1]
        self.kernel = dropdown("kernel", with_space, first)
        self.site = dropdown("instruction", site_options(kernels[first], space),
                             pick_site(kernels[first], space, line, view, array))

    def current(self) -> tuple[KernelRecord, dict[str, Any]]:
        """The chosen kernel and site (re-listing the sites when the kernel changed)."""
        k = self.kernels[self.kernel.value]
        options = site_options(k, self.space)
        if list(self.site.options) != options:  # keep the n-th instruction of the new kernel
            old = [v for _, v in self.site.options]
            n = old.index(self.site.value) if self.site.value in old else 0
            self.site.options = options
            self.site.value = options[min(n, len(options) - 1)][1]
        return k, k.memory["sites"][self.site.value]
