"""HIP graphs: work recorded once as nodes and dependencies, launched many times.

    hipGraphCreate / hipGraphAdd*Node      build a graph (Graph, GraphNode), or record
                                           one with stream capture (capture.py)
    hipGraphInstantiate                    a GraphExec: the nodes copied, flattened
                                           (child graphs inlined) and put in order
    hipGraphLaunch(exec, stream)           every node's work queued on the scheduler

A launch is ordinary queued work, timed by the same scheduler as streams (scheduler.py):
it starts after the work already on ``stream``; each node waits for the nodes it depends
on; a chain of nodes shares one in-order queue and independent branches get streams of
their own (as ROCm clr does, hip_graph_internal.cpp: GetRunList, parallel streams), so
they may overlap as streams do; ``stream`` then waits for the whole graph. Each node's
work runs at every launch, never at capture or instantiation.

What a graph saves is host time: the hipGraphLaunch call costs one host issue
(scheduler.ISSUE_SECONDS) and each node gpusim.timing.costs.GRAPH_NODE_S, where each
launch through a stream costs ISSUE_SECONDS; kernels keep their GPU launch cost. Records
of a graph's work carry ``graph="graph G #L node N"`` (launch L of graph G), which the
timeline shows.

>>> import numpy as np
>>> from gpusim import hip
>>> g = hip.hipGraphCreate()
>>> d = hip.hipMalloc(16)
>>> fill = hip.hipGraphAddMemsetNode(g, [], hip.hipMemsetParams(d, 7, 4, 4))
>>> out = hip.pinned_array(4, np.int32)
>>> back = hip.hipGraphAddMemcpyNode1D(g, [fill], out, d, 16, hip.hipMemcpyDeviceToHost)
>>> exe = hip.hipGraphInstantiate(g)
>>> hip.hipGraphLaunch(exe, 0); hip.hipDeviceSynchronize(); out
array([7, 7, 7, 7], dtype=int32)
"""

from __future__ import annotations

import copy
import enum
import heapq
import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import pointers, streams
from gpusim.runtime.api_async import Event
from gpusim.runtime.copies import hipMemcpyKind, submit_copy
from gpusim.runtime.launch_config import check_dims
from gpusim.runtime.scheduler import Op, Stream
from gpusim.runtime.system import get_system
from gpusim.timing.costs import GRAPH_NODE_S

_ids = itertools.count(1)


class hipGraphNodeType(enum.IntEnum):  # noqa: N801 - HIP's spelling and values
    hipGraphNodeTypeKernel = 0
    hipGraphNodeTypeMemcpy = 1
    hipGraphNodeTypeMemset = 2
    hipGraphNodeTypeHost = 3
    hipGraphNodeTypeGraph = 4
    hipGraphNodeTypeEmpty = 5
    hipGraphNodeTypeWaitEvent = 6
    hipGraphNodeTypeEventRecord = 7
    hipGraphNodeTypeMemAlloc = 10
    hipGraphNodeTypeMemFree = 11


T = hipGraphNodeType
# the node a captured operation becomes, by its kind (streams.enqueue)
TYPE_OF_KIND = {"kernel": T.hipGraphNodeTypeKernel, "memset": T.hipGraphNodeTypeMemset,
                "host": T.hipGraphNodeTypeHost, **{k: T.hipGraphNodeTypeMemcpy for k in (
                    "HtoD", "DtoH", "DtoD", "PtoP", "HtoH", "migration")}}


@dataclass
class hipKernelNodeParams:  # noqa: N801
    """A kernel node: ``func`` (a @hip.jit kernel) on gridDim x blockDim with the
    arguments ``kernelParams`` (C's void** array: here the arguments themselves)."""

    func: Any
    gridDim: Any = 1  # noqa: N815 - HIP's field names
    blockDim: Any = 1  # noqa: N815
    kernelParams: tuple = ()  # noqa: N815
    sharedMemBytes: int = 0  # noqa: N815
    extra: Any = None


@dataclass
class hipMemsetParams:  # noqa: N801
    """A memset node: ``height`` rows of ``width`` elements of ``elementSize`` bytes (1,
    2 or 4), rows ``pitch`` bytes apart, set to ``value``."""

    dst: Any
    value: int
    elementSize: int = 1  # noqa: N815
    width: int = 0
    height: int = 1
    pitch: int = 0


@dataclass
class hipHostNodeParams:  # noqa: N801
    """A host node: ``fn(userData)`` runs on the host in graph order."""

    fn: Any
    userData: Any = None  # noqa: N815


@dataclass
class hipMemAllocNodeParams:  # noqa: N801
    """A memory allocation node: ``bytesize`` bytes on ``device``, at ``dptr`` (filled
    when the node is added). Simplification: the memory is allocated when the node is
    made (so ``dptr`` is fixed, as HIP's graph allocations are) and kept while the
    process runs (HIP allocates it at each launch and frees it at the free node, or at
    the next launch with hipGraphInstantiateFlagAutoFreeOnLaunch); the node itself only
    orders the graph's work."""

    bytesize: int
    device: int = 0
    dptr: int = 0


@dataclass
class MemcpyParams:
    """A 1-D copy node (hipGraphAddMemcpyNode1D's arguments)."""

    dst: Any
    src: Any
    count: int
    kind: hipMemcpyKind


class GraphNode:
    """hipGraphNode_t: one operation of a graph and the nodes it waits for. A node
    recorded by stream capture holds the operation the stream would have queued (``op``:
    its function, kind and info)."""

    def __init__(self, graph: Graph, type_: hipGraphNodeType, params: Any, deps: list,
                 *, name: str, device: int, op: tuple | None = None) -> None:
        self.graph, self.type, self.params, self.deps = graph, type_, params, list(deps)
        self.name, self.device, self.op = name, device, op
        self.capture: Any = None  # the active capture that recorded it (capture.py)

    def __repr__(self) -> str:
        kind = self.type.name.removeprefix("hipGraphNodeType")
        return f"<hipGraphNode {kind} {self.name!r} of graph {self.graph.id}>"


class Graph:
    """hipGraph_t: nodes and their dependencies. ``instantiate()`` is hipGraphInstantiate."""

    def __init__(self, device: int) -> None:
        self.id, self.device = next(_ids), device
        self.nodes: list[GraphNode] = []
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<hipGraph {self.id}: {len(self.nodes)} nodes>"

    def add(self, type_: hipGraphNodeType, params: Any, deps: Any, *, name: str,
            device: int | None = None, op: tuple | None = None,
            origin: str = "hipGraphAddNode") -> GraphNode:
        deps = list(deps or [])
        for d in deps:
            if not isinstance(d, GraphNode) or d.graph is not self:
                raise HipError(hipError_t.hipErrorInvalidValue,
                               f"{origin}: dependency {d!r} is not a node of this graph")
        if len(set(map(id, deps))) != len(deps):
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"{origin}: a dependency is listed twice")
        node = GraphNode(self, type_, params, deps, name=name, op=op,
                         device=get_system().current_ordinal if device is None else device)
        self.nodes.append(node)
        return node

    def ordered(self, origin: str = "hipGraphInstantiate") -> list[GraphNode]:
        """The nodes in dependency order (ties in the order they were added)."""
        index = {n: i for i, n in enumerate(self.nodes)}
        waiting = {n: len(n.deps) for n in self.nodes}
        after: dict[GraphNode, list[GraphNode]] = {n: [] for n in self.nodes}
        for n in self.nodes:
            for d in n.deps:
                after[d].append(n)
        ready = [index[n] for n in self.nodes if not n.deps]
        heapq.heapify(ready)
        out = []
        while ready:
            n = self.nodes[heapq.heappop(ready)]
            out.append(n)
            for m in after[n]:
                waiting[m] -= 1
                if not waiting[m]:
                    heapq.heappush(ready, index[m])
        if len(out) != len(self.nodes):
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"{origin}: the graph's dependencies form a cycle")
        return out

    def clone(self) -> Graph:
        """hipGraphClone: the same nodes (parameters copied) and edges."""
        twin, made = Graph(self.device), {}
        for n in self.ordered("hipGraphClone"):
            made[n] = twin.add(n.type, copy_params(n.params), [made[d] for d in n.deps],
                               name=n.name, device=n.device, op=n.op)
        return twin

    def instantiate(self) -> GraphExec:
        """hipGraphInstantiate(self)."""
        return GraphExec(graph_arg(self, "hipGraphInstantiate"))


def copy_params(params: Any) -> Any:
    """A node's parameters as a copy keeps them: its own parameter record, the same
    event or child graph."""
    return params if params is None or isinstance(params, (Event, Graph)) else copy.copy(
        params)


@dataclass(eq=False)
class _Step:
    """One node of an executable graph, with its own copy of the parameters."""

    node: GraphNode
    params: Any
    deps: list
    chain: tuple = (0, 0)  # (device, k): the k-th in-order chain of nodes on that device


class GraphExec:
    """hipGraphExec_t: an instantiated graph. ``launch(stream)`` is hipGraphLaunch."""

    def __init__(self, graph: Graph) -> None:
        self.id, self.steps = graph.id, []
        self.exits = self._flatten(graph, [])
        self.source = graph.clone()  # what a launch on a captured stream records
        self.by_node = {s.node: s for s in self.steps}
        self._chains()
        self.streams: dict[tuple, Stream] = {}
        self.launches = 0
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<hipGraphExec of graph {self.id}: {len(self.steps)} nodes>"

    def _flatten(self, graph: Graph, entry: list) -> list:
        """Add ``graph``'s nodes as steps (child graphs inlined, empty nodes passing their
        dependencies on); its roots wait for ``entry``. Returns its exit steps."""
        made: dict[GraphNode, list] = {}
        for n in graph.ordered():
            deps = list(dict.fromkeys(x for d in n.deps for x in made[d])) or list(entry)
            if n.type == T.hipGraphNodeTypeGraph:
                made[n] = self._flatten(n.params, deps) or deps
            elif n.type == T.hipGraphNodeTypeEmpty:
                made[n] = deps
            else:
                self.steps.append(_Step(n, copy_params(n.params), deps))
                made[n] = [self.steps[-1]]
        used = {id(d) for n in graph.nodes for d in n.deps}
        return list(dict.fromkeys(x for n in graph.nodes if id(n) not in used
                                  for x in made[n]))

    def _chains(self) -> None:
        """A step continues the chain of its first dependency on the same device that
        nothing has continued yet, else starts a new one (clr's parallel lists)."""
        ends: dict[tuple, _Step] = {}
        count: dict[int, int] = {}
        for step in self.steps:
            dev = step.node.device
            key = next((d.chain for d in step.deps
                        if d.chain[0] == dev and ends.get(d.chain) is d), None)
            if key is None:
                key = (dev, count.get(dev, 0))
                count[dev] = key[1] + 1
            step.chain, ends[key] = key, step

    def stream_for(self, step: _Step, launch: Stream) -> Stream:
        """The launch stream runs the first chain of its device; others get streams of
        their own, made at the first launch (HIP's parallel streams)."""
        if step.chain == (launch.device, 0):
            return launch
        s = self.streams.get(step.chain)
        if s is None or s.scheduler is not launch.scheduler:
            s = launch.scheduler.new_stream(step.chain[0], blocking=False)
            self.streams[step.chain] = s
        return s

    def launch(self, stream: Any = 0) -> None:
        """hipGraphLaunch(self, stream)."""
        from gpusim.runtime.graph_api import hipGraphLaunch  # (the API module imports this)
        hipGraphLaunch(self, stream)


class Placer:
    """Stands in for a stream's queue while a launch queues one node's work: its first
    operation waits for the node's dependencies, each costs GRAPH_NODE_S of host time,
    and each record is labelled with the node."""

    capturing = False

    def __init__(self, waits: list[Op], label: str) -> None:
        self.waits, self.label, self.ops = waits, label, []

    def enqueue(self, target: Stream, fn: Any, *, name: str, kind: str, info: dict,
                waits: list[Op] | None) -> Op:
        info["graph"] = self.label
        op = streams.submit(target, fn, name=name, kind=kind, info=info,
                            waits=list(waits or []) + ([] if self.ops else self.waits),
                            issue_cost=GRAPH_NODE_S)
        self.ops.append(op)
        return op


def noop() -> None:
    pass


def place(step: _Step, stream: Stream) -> None:
    """Queue one node's work on ``stream`` (a Placer takes it). A captured operation
    whose function has ``place_on(stream)`` queues itself: an RCCL collective's part
    counts its launches to meet its peers' (gpusim/libs/rccl/captured.py)."""
    n, p = step.node, step.params
    if n.op is not None:  # recorded by stream capture: the operation itself
        fn, kind, info = n.op
        if hasattr(fn, "place_on"):  # a library's work that queues itself (an RCCL part)
            fn.place_on(stream)
        else:
            streams.enqueue(stream, fn, name=n.name, kind=kind, info=dict(info))
    elif n.type == T.hipGraphNodeTypeKernel:
        # kernelParams are the kernel's own launch values, after any front end converted
        # them (a HIP C++ kernel's C arguments, captured or from hipGraphAddKernelNode):
        # launched as a Kernel, not converted again by a subclass's launch
        from gpusim.runtime.kernel import Kernel  # (kernel.py imports capture, which imports this)
        Kernel.launch(p.func, p.gridDim, p.blockDim, tuple(p.kernelParams), stream=stream,
                      shared_bytes=p.sharedMemBytes)
    elif n.type == T.hipGraphNodeTypeMemcpy:
        submit_copy(p.dst, p.src, p.count, p.kind, stream=stream, blocking=False,
                    origin=n.name)
    elif n.type == T.hipGraphNodeTypeMemset:
        rows = memset_rows(p, n.name)
        streams.enqueue(stream, lambda: [fill() for fill in rows], name=n.name,
                        kind="memset", info={"bytes": p.width * p.elementSize * p.height})
    elif n.type == T.hipGraphNodeTypeHost:
        streams.enqueue(stream, lambda: p.fn(p.userData), name=n.name, kind="host")
    elif n.type == T.hipGraphNodeTypeEventRecord:
        p.op = streams.enqueue(stream, noop, name=n.name, kind="event")
    elif n.type in (T.hipGraphNodeTypeMemAlloc, T.hipGraphNodeTypeMemFree):
        streams.enqueue(stream, noop, name=n.name, kind="event")  # the memory is there
    elif n.type == T.hipGraphNodeTypeWaitEvent:
        waits = [p.op] if p.op is not None and p.op.node is None else []
        streams.enqueue(stream, noop, name=n.name, kind="event", waits=waits)


# checking parameters ---------------------------------------------------------------------
def check_kernel(p: Any, origin: str) -> hipKernelNodeParams:
    """A kernel node's parameters, checked and compiled as a launch would be."""
    from gpusim.engine import prepare
    from gpusim.runtime.kernel_args import device_values

    if not isinstance(p, hipKernelNodeParams):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: pass a hip.hipKernelNodeParams(func, gridDim, blockDim, "
                       f"kernelParams), got {type(p).__name__}")
    k = p.func
    if not getattr(k, "__gpusim_kernel__", False):
        raise HipError(hipError_t.hipErrorInvalidDeviceFunction,
                       f"{origin}: func {k!r} is not a @hip.jit kernel")
    check_dims(p.gridDim, "gridDim")
    check_dims(p.blockDim, "blockDim")
    system = get_system()
    prepare(k.py_func, grid=p.gridDim, block=p.blockDim,
            args=device_values(k, k._declared(tuple(p.kernelParams))),
            device=system.devices[system.current_ordinal].spec,
            dynamic_lds_bytes=p.sharedMemBytes, check=k.check, max_threads=k.launch_bounds,
            debug=k.debug)
    return p


def memset_rows(p: hipMemsetParams, origin: str) -> list:
    """One fill per row of a memset node (checked now: the memory must be alive)."""
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}.get(p.elementSize)
    if dtype is None:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: elementSize must be 1, 2 or 4, got {p.elementSize!r}")
    row = p.width * p.elementSize
    if p.width < 0 or p.height < 1 or (p.height > 1 and p.pitch < row):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: width {p.width}, height {p.height} and pitch {p.pitch} "
                       "do not describe rows (pitch must be at least width x elementSize)")
    region = pointers.resolve(p.dst, origin=origin)
    need = (p.height - 1) * p.pitch + row
    if not region.is_device or need > region.data.size:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: dst must be device memory with {need} bytes from there; "
                       f"it is a {region.describe} with {region.data.size}")
    value = int(p.value) & ((1 << (8 * p.elementSize)) - 1)
    views = [region.data[r * p.pitch:r * p.pitch + row].view(dtype) for r in range(p.height)]
    return [lambda v=v: v.fill(value) for v in views]


def allocate(nbytes: int, device: int, origin: str) -> hipMemAllocNodeParams:
    """A memory allocation node's memory, made now (see hipMemAllocNodeParams)."""
    if int(nbytes) <= 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: bytesize must be positive, got {nbytes!r}")
    system = get_system()
    if not 0 <= int(device) < len(system.devices):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: device {device} does not exist (poolProps.location.id)")
    ptr = system.devices[int(device)].memory.allocate(int(nbytes), origin=origin)
    return hipMemAllocNodeParams(int(nbytes), int(device), int(ptr))


def allocation_of(graph: Graph, address: int) -> GraphNode | None:
    """The memory allocation node of ``graph`` (or of its child graphs) whose memory
    starts at ``address``, if any."""
    for n in graph.nodes:
        if n.type == T.hipGraphNodeTypeMemAlloc and n.params.dptr == int(address):
            return n
        if n.type == T.hipGraphNodeTypeGraph and (found := allocation_of(n.params, address)):
            return found
    return None


def graph_arg(graph: Any, origin: str) -> Graph:
    if not isinstance(graph, Graph) or graph.destroyed:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: {graph!r} is not a graph (hipGraphCreate, or "
                       "hipStreamEndCapture) that still exists")
    return graph


def exec_arg(exe: Any, origin: str) -> GraphExec:
    if not isinstance(exe, GraphExec) or exe.destroyed:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: {exe!r} is not an executable graph from "
                       "hipGraphInstantiate that still exists")
    return exe


def node_arg(node: Any, type_: hipGraphNodeType | None, origin: str) -> GraphNode:
    if not isinstance(node, GraphNode) or (type_ is not None and node.type != type_):
        want = "a graph node" if type_ is None else f"a {type_.name} node"
        raise HipError(hipError_t.hipErrorInvalidValue, f"{origin}: {node!r} is not {want}")
    if type_ == T.hipGraphNodeTypeKernel and node.op is not None:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: {node!r} is a library's kernel recorded by stream "
                       "capture; only kernels launched from Python have parameters to set")
    return node


def event_arg(event: Any, origin: str) -> Event:
    if not isinstance(event, Event) or event.destroyed:
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       f"{origin}: expected an event from hipEventCreate, got {event!r}")
    return event
