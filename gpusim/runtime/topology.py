"""The node's wiring: which GPUs share an Infinity Fabric link, and how fast it is.

Built from the device profile's ``[links]`` figures (see gpusim/devices/profiles):

    MI300X platform   8 OAMs, fully connected: 7 links per GPU, one to each peer,
                      64 GB/s per direction each; PCIe Gen5 x16 to the host
    MI250X node       4 packages x 2 GCDs: 4 links between the GCDs of a package;
                      packages on a ring, one link between same-index GCDs of
                      neighbouring packages (a simplification of the Frontier node
                      map); other pairs go over PCIe through the host
    MI100             hives of 4, fully connected (1 link per pair); hives over PCIe
    RX 7900 XTX       no peer links: every pair goes over PCIe

>>> import gpusim
>>> _ = gpusim.set_system("mi300x", ngpus=8)
>>> link_between(0, 5)
Link(kind='xGMI', links=1, gbs=64.0)
>>> _ = gpusim.set_system("mi250x", ngpus=8)
>>> link_between(0, 1), link_between(0, 2).kind, link_between(0, 4).kind
(Link(kind='xGMI', links=4, gbs=200.0), 'xGMI', 'PCIe')
>>> _ = gpusim.set_system()
"""

from __future__ import annotations

from dataclasses import dataclass

from gpusim.devices import DeviceSpec
from gpusim.runtime.system import get_system


@dataclass(frozen=True)
class Link:
    """The path between two GPUs: 'xGMI' (direct Infinity Fabric links), 'PCIe'
    (through the host) or 'local' (the same GPU); ``gbs`` per direction."""

    kind: str
    links: int
    gbs: float


def direct_links(spec: DeviceSpec, a: int, b: int) -> int:
    """Infinity Fabric links joining GPUs ``a`` and ``b`` of a node of ``spec`` GPUs.

    >>> from gpusim.devices import get_spec
    >>> direct_links(get_spec("mi300x"), 0, 7), direct_links(get_spec("mi100"), 0, 4)
    (1, 0)
    """
    hive = spec.hive_gpus
    if a == b or spec.peer_links_per_gpu == 0 or a // hive != b // hive:
        return 0
    per = spec.gpus_per_package
    pa, pb = (a % hive) // per, (b % hive) // per
    if pa == pb:
        return spec.in_package_links
    off_package = spec.peer_links_per_gpu - spec.in_package_links
    if spec.fully_connected:
        return off_package // (hive - per)
    packages = hive // per
    neighbours = (pa - pb) % packages in (1, packages - 1)
    return 1 if neighbours and a % per == b % per else 0


def link_between(a: int, b: int) -> Link:
    """How device ``a`` of the current system reaches device ``b``."""
    spec = get_system().devices[a].spec
    if a == b:
        return Link("local", 0, spec.memory_bandwidth_gbs)
    n = direct_links(spec, a, b)
    if n:
        return Link("xGMI", n, n * spec.peer_link_gbs)
    return Link("PCIe", 0, spec.host_link_pinned_gbs)


def topology_table() -> list[list[str]]:
    """rocm-smi --showtopo style matrix of the current system: 'XGMIxN', 'PCIE' or '0'.

    >>> import gpusim
    >>> _ = gpusim.set_system("mi250x", ngpus=4)
    >>> topology_table()[0]
    ['0', 'XGMIx4', 'XGMIx1', 'PCIE']
    >>> _ = gpusim.set_system()
    """
    n = len(get_system().devices)
    rows = []
    for a in range(n):
        row = []
        for b in range(n):
            link = link_between(a, b)
            row.append("0" if link.kind == "local" else
                       f"XGMIx{link.links}" if link.kind == "xGMI" else "PCIE")
        rows.append(row)
    return rows
