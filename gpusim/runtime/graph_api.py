"""The HIP graph API under HIP's names (graphs.py has the model).

C's out-parameters are returned: ``graph = hipGraphCreate()``, ``node =
hipGraphAddKernelNode(graph, deps, params)``, ``exe = hipGraphInstantiate(graph)``.
Dependencies are a list of nodes of the same graph (``[]`` for a root). Parameter
errors raise ``HipError`` with the code ROCm's hip_graph.cpp returns.

>>> from gpusim import hip
>>> g = hip.hipGraphCreate()
>>> a = hip.hipGraphAddEmptyNode(g, [])
>>> b = hip.hipGraphAddHostNode(g, [a], hip.hipHostNodeParams(print, "hello from a graph"))
>>> [hip.hipGraphNodeGetType(n).name for n in hip.hipGraphGetNodes(g)]
['hipGraphNodeTypeEmpty', 'hipGraphNodeTypeHost']
>>> exe = hip.hipGraphInstantiate(g)
>>> hip.hipGraphLaunch(exe, 0); hip.hipDeviceSynchronize()
hello from a graph
"""

from __future__ import annotations

import enum
from typing import Any

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import streams
from gpusim.runtime.api import hip_api
from gpusim.runtime.copies import check_copy, hipMemcpyKind
from gpusim.runtime.graphs import (
    Graph,
    GraphExec,
    GraphNode,
    MemcpyParams,
    Placer,
    T,
    check_kernel,
    copy_params,
    event_arg,
    exec_arg,
    graph_arg,
    hipHostNodeParams,
    hipKernelNodeParams,
    hipMemsetParams,
    memset_rows,
    node_arg,
    noop,
    place,
)
from gpusim.runtime.scheduler import ISSUE_SECONDS
from gpusim.runtime.system import get_system

hipGraphInstantiateFlagAutoFreeOnLaunch = 1
hipGraphInstantiateFlagUpload = 2
hipGraphInstantiateFlagDeviceLaunch = 4
hipGraphInstantiateFlagUseNodePriority = 8


# graphs -----------------------------------------------------------------------------------
@hip_api
def hipGraphCreate(flags: int = 0) -> Graph:
    """An empty graph on the current device (flags must be 0, as in HIP)."""
    if flags != 0:
        raise HipError(hipError_t.hipErrorInvalidValue, "hipGraphCreate: flags must be 0")
    return Graph(get_system().current_ordinal)


@hip_api
def hipGraphDestroy(graph: Graph) -> None:
    """Destroy a graph; executable graphs made from it stay usable."""
    if isinstance(graph, Graph) and graph.destroyed:
        raise HipError(hipError_t.hipErrorIllegalState,
                       "hipGraphDestroy: the graph was already destroyed")
    graph_arg(graph, "hipGraphDestroy").destroyed = True


@hip_api
def hipGraphClone(graph: Graph) -> Graph:
    return graph_arg(graph, "hipGraphClone").clone()


# nodes ------------------------------------------------------------------------------------
@hip_api
def hipGraphAddKernelNode(graph: Graph, deps: Any, params: hipKernelNodeParams) -> GraphNode:
    """A kernel launch, checked and compiled now (as hipLaunchKernelGGL would check it)."""
    p = copy_params(check_kernel(params, "hipGraphAddKernelNode"))
    return graph_arg(graph, "hipGraphAddKernelNode").add(
        T.hipGraphNodeTypeKernel, p, deps, name=p.func.__name__, origin="hipGraphAddKernelNode")


@hip_api
def hipGraphAddMemcpyNode1D(graph: Graph, deps: Any, dst: Any, src: Any, count: int,
                            kind: hipMemcpyKind | int) -> GraphNode:
    """A copy of ``count`` bytes (checked now, as hipMemcpyAsync checks it)."""
    check_copy(dst, src, count, kind, origin="hipGraphAddMemcpyNode1D")
    return graph_arg(graph, "hipGraphAddMemcpyNode1D").add(
        T.hipGraphNodeTypeMemcpy, MemcpyParams(dst, src, int(count), hipMemcpyKind(kind)),
        deps, name="hipGraphMemcpyNode", origin="hipGraphAddMemcpyNode1D")


@hip_api
def hipGraphAddMemsetNode(graph: Graph, deps: Any, params: hipMemsetParams) -> GraphNode:
    """A fill of rows of 1-, 2- or 4-byte elements."""
    memset_rows(params, "hipGraphAddMemsetNode")
    return graph_arg(graph, "hipGraphAddMemsetNode").add(
        T.hipGraphNodeTypeMemset, copy_params(params), deps, name="hipGraphMemsetNode",
        origin="hipGraphAddMemsetNode")


@hip_api
def hipGraphAddHostNode(graph: Graph, deps: Any, params: hipHostNodeParams) -> GraphNode:
    """``params.fn(params.userData)`` on the host, in graph order."""
    if not isinstance(params, hipHostNodeParams) or not callable(params.fn):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       "hipGraphAddHostNode: pass hip.hipHostNodeParams(fn, userData) with a "
                       "callable fn")
    return graph_arg(graph, "hipGraphAddHostNode").add(
        T.hipGraphNodeTypeHost, copy_params(params), deps,
        name=getattr(params.fn, "__name__", "host_fn"), origin="hipGraphAddHostNode")


@hip_api
def hipGraphAddEmptyNode(graph: Graph, deps: Any) -> GraphNode:
    """A node that only joins its dependencies."""
    return graph_arg(graph, "hipGraphAddEmptyNode").add(
        T.hipGraphNodeTypeEmpty, None, deps, name="empty", origin="hipGraphAddEmptyNode")


@hip_api
def hipGraphAddChildGraphNode(graph: Graph, deps: Any, childGraph: Graph) -> GraphNode:
    """A copy of ``childGraph`` run as one node."""
    child = graph_arg(childGraph, "hipGraphAddChildGraphNode").clone()
    return graph_arg(graph, "hipGraphAddChildGraphNode").add(
        T.hipGraphNodeTypeGraph, child, deps, name=f"graph {childGraph.id}",
        origin="hipGraphAddChildGraphNode")


@hip_api
def hipGraphAddEventRecordNode(graph: Graph, deps: Any, event: Any) -> GraphNode:
    """Record ``event`` when the node runs (hipEventSynchronize etc. then wait for it)."""
    return graph_arg(graph, "hipGraphAddEventRecordNode").add(
        T.hipGraphNodeTypeEventRecord, event_arg(event, "hipGraphAddEventRecordNode"), deps,
        name="hipGraphEventRecordNode", origin="hipGraphAddEventRecordNode")


@hip_api
def hipGraphAddEventWaitNode(graph: Graph, deps: Any, event: Any) -> GraphNode:
    """Wait for ``event``'s latest record (made outside the graph or by a record node)."""
    return graph_arg(graph, "hipGraphAddEventWaitNode").add(
        T.hipGraphNodeTypeWaitEvent, event_arg(event, "hipGraphAddEventWaitNode"), deps,
        name="hipGraphEventWaitNode", origin="hipGraphAddEventWaitNode")


@hip_api
def hipGraphAddDependencies(graph: Graph, from_: Any, to: Any) -> None:
    """Make each ``to[i]`` wait for ``from_[i]`` (HIP's pFrom / pTo arrays)."""
    g = graph_arg(graph, "hipGraphAddDependencies")
    for a, b in zip(list(from_), list(to), strict=True):
        for n in (a, b):
            if not isinstance(n, GraphNode) or n.graph is not g:
                raise HipError(hipError_t.hipErrorInvalidValue,
                               f"hipGraphAddDependencies: {n!r} is not a node of this graph")
        if a in b.deps:
            raise HipError(hipError_t.hipErrorInvalidValue,
                           f"hipGraphAddDependencies: {b!r} already depends on {a!r}")
        b.deps.append(a)


@hip_api
def hipGraphGetNodes(graph: Graph) -> list[GraphNode]:
    """The graph's nodes, in dependency order."""
    return graph_arg(graph, "hipGraphGetNodes").ordered("hipGraphGetNodes")


@hip_api
def hipGraphGetRootNodes(graph: Graph) -> list[GraphNode]:
    return [n for n in graph_arg(graph, "hipGraphGetRootNodes").nodes if not n.deps]


@hip_api
def hipGraphNodeGetType(node: GraphNode) -> T:
    return node_arg(node, None, "hipGraphNodeGetType").type


@hip_api
def hipGraphNodeGetDependencies(node: GraphNode) -> list[GraphNode]:
    return list(node_arg(node, None, "hipGraphNodeGetDependencies").deps)


@hip_api
def hipGraphNodeGetDependentNodes(node: GraphNode) -> list[GraphNode]:
    n = node_arg(node, None, "hipGraphNodeGetDependentNodes")
    return [m for m in n.graph.nodes if n in m.deps]


@hip_api
def hipGraphChildGraphNodeGetGraph(node: GraphNode) -> Graph:
    return node_arg(node, T.hipGraphNodeTypeGraph, "hipGraphChildGraphNodeGetGraph").params


@hip_api
def hipGraphKernelNodeGetParams(node: GraphNode) -> hipKernelNodeParams:
    return copy_params(node_arg(node, T.hipGraphNodeTypeKernel, "hipGraphKernelNodeGetParams")
                       .params)


@hip_api
def hipGraphKernelNodeSetParams(node: GraphNode, params: hipKernelNodeParams) -> None:
    """New parameters for the node in its graph (executable graphs made before keep theirs)."""
    n = node_arg(node, T.hipGraphNodeTypeKernel, "hipGraphKernelNodeSetParams")
    n.params = copy_params(check_kernel(params, "hipGraphKernelNodeSetParams"))
    n.name = params.func.__name__


# executable graphs ------------------------------------------------------------------------
@hip_api
def hipGraphInstantiate(graph: Graph, pErrorNode: Any = None, pLogBuffer: Any = None,
                        bufferSize: int = 0) -> GraphExec:
    """An executable graph: the nodes copied now (later edits of ``graph`` do not change
    it), in dependency order. A cycle gives hipErrorInvalidValue."""
    return GraphExec(graph_arg(graph, "hipGraphInstantiate"))


@hip_api
def hipGraphInstantiateWithFlags(graph: Graph, flags: int = 0) -> GraphExec:
    if flags not in (0, hipGraphInstantiateFlagAutoFreeOnLaunch,
                     hipGraphInstantiateFlagUseNodePriority):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipGraphInstantiateWithFlags: flags {flags!r} is not 0, "
                       "hipGraphInstantiateFlagAutoFreeOnLaunch or "
                       "hipGraphInstantiateFlagUseNodePriority")
    return GraphExec(graph_arg(graph, "hipGraphInstantiateWithFlags"))


@hip_api
def hipGraphExecDestroy(graphExec: GraphExec) -> None:
    """Destroy an executable graph; launches already queued still complete."""
    exe = exec_arg(graphExec, "hipGraphExecDestroy")
    for s in exe.streams.values():
        if not s.destroyed:
            s.scheduler.flush(s.tail)
            s.scheduler.forget_stream(s)
    exe.destroyed = True


@hip_api
def hipGraphUpload(graphExec: GraphExec, stream: Any = None) -> None:
    """Nothing to upload in the emulator: instantiation prepared everything."""
    exec_arg(graphExec, "hipGraphUpload")
    streams.resolve_stream(stream, origin="hipGraphUpload")


@hip_api
def hipGraphExecKernelNodeSetParams(graphExec: GraphExec, node: GraphNode,
                                    params: hipKernelNodeParams) -> None:
    """New parameters for ``node`` in this executable graph only, from its next launch."""
    _exec_step(graphExec, node, T.hipGraphNodeTypeKernel,
               "hipGraphExecKernelNodeSetParams").params = copy_params(
        check_kernel(params, "hipGraphExecKernelNodeSetParams"))


@hip_api
def hipGraphExecMemcpyNodeSetParams1D(graphExec: GraphExec, node: GraphNode, dst: Any,
                                      src: Any, count: int, kind: hipMemcpyKind | int) -> None:
    step = _exec_step(graphExec, node, T.hipGraphNodeTypeMemcpy,
                      "hipGraphExecMemcpyNodeSetParams1D")
    check_copy(dst, src, count, kind, origin="hipGraphExecMemcpyNodeSetParams1D")
    step.params = MemcpyParams(dst, src, int(count), hipMemcpyKind(kind))


@hip_api
def hipGraphExecMemsetNodeSetParams(graphExec: GraphExec, node: GraphNode,
                                    params: hipMemsetParams) -> None:
    step = _exec_step(graphExec, node, T.hipGraphNodeTypeMemset,
                      "hipGraphExecMemsetNodeSetParams")
    memset_rows(params, "hipGraphExecMemsetNodeSetParams")
    step.params = copy_params(params)


@hip_api
def hipGraphExecHostNodeSetParams(graphExec: GraphExec, node: GraphNode,
                                  params: hipHostNodeParams) -> None:
    step = _exec_step(graphExec, node, T.hipGraphNodeTypeHost, "hipGraphExecHostNodeSetParams")
    step.params = copy_params(params)


class hipGraphExecUpdateResult(enum.IntEnum):  # noqa: N801 - HIP's names and values
    hipGraphExecUpdateSuccess = 0
    hipGraphExecUpdateError = 1
    hipGraphExecUpdateErrorTopologyChanged = 2
    hipGraphExecUpdateErrorNodeTypeChanged = 3
    hipGraphExecUpdateErrorFunctionChanged = 4
    hipGraphExecUpdateErrorParametersChanged = 5
    hipGraphExecUpdateErrorNotSupported = 6
    hipGraphExecUpdateErrorUnsupportedFunctionChange = 7


U = hipGraphExecUpdateResult


@hip_api
def hipGraphExecUpdate(hGraphExec: GraphExec, hGraph: Graph) -> tuple[U, GraphNode | None]:
    """Give ``hGraphExec`` the parameters of ``hGraph``, a graph of the same shape (the
    usual loop: capture the step again with new arguments, update, launch): the same
    nodes in the same order, of the same types, with the same dependencies, each kernel
    node running the same kernel. Returns (hipGraphExecUpdateSuccess, None); otherwise
    raises hipErrorGraphExecUpdateFailure whose ``update_result`` and ``error_node`` are
    HIP's out-parameters, and the executable graph is unchanged.

    >>> from gpusim import hip
    >>> def graph_printing(text):
    ...     g = hip.hipGraphCreate()
    ...     hip.hipGraphAddHostNode(g, [], hip.hipHostNodeParams(print, text))
    ...     return g
    >>> exe = hip.hipGraphInstantiate(graph_printing("first"))
    >>> hip.hipGraphExecUpdate(exe, graph_printing("second"))[0].name
    'hipGraphExecUpdateSuccess'
    >>> hip.hipGraphLaunch(exe, 0); hip.hipDeviceSynchronize()
    second
    """
    exe = exec_arg(hGraphExec, "hipGraphExecUpdate")
    fresh = GraphExec(graph_arg(hGraph, "hipGraphExecUpdate"))
    result, node, why = _update_mismatch(exe, fresh)
    if result != U.hipGraphExecUpdateSuccess:
        err = HipError(hipError_t.hipErrorGraphExecUpdateFailure,
                       f"hipGraphExecUpdate: {result.name}: {why}; the executable graph is "
                       "unchanged (instantiate the new graph instead)")
        err.update_result, err.error_node = result, node
        raise err
    for old, new in zip(exe.steps, fresh.steps, strict=True):
        old.node, old.params = new.node, new.params  # by_node keeps the original nodes
    exe.source = fresh.source
    return U.hipGraphExecUpdateSuccess, None


def _update_mismatch(exe: GraphExec, fresh: GraphExec) -> tuple[U, GraphNode | None, str]:
    """Why ``fresh`` (the new graph, flattened) cannot update ``exe``, or success."""
    if len(fresh.steps) != len(exe.steps):
        return (U.hipGraphExecUpdateErrorTopologyChanged, None,
                f"{len(fresh.steps)} nodes to run instead of {len(exe.steps)}")
    where = {id(s): i for i, s in enumerate(exe.steps)}
    where_new = {id(s): i for i, s in enumerate(fresh.steps)}
    for k, (old, new) in enumerate(zip(exe.steps, fresh.steps, strict=True)):
        n = new.node
        if n.type != old.node.type:
            return (U.hipGraphExecUpdateErrorNodeTypeChanged, n,
                    f"node {k} is a {n.type.name}, was a {old.node.type.name}")
        if sorted(where_new[id(d)] for d in new.deps) != sorted(where[id(d)] for d in old.deps):
            return U.hipGraphExecUpdateErrorTopologyChanged, n, f"node {k}'s dependencies differ"
        if n.device != old.node.device:
            return (U.hipGraphExecUpdateErrorParametersChanged, n,
                    f"node {k} runs on device {n.device}, was on {old.node.device}")
        if (n.op is None) != (old.node.op is None):
            return (U.hipGraphExecUpdateErrorNotSupported, n,
                    f"node {k} was {'captured' if old.node.op else 'added'}, now "
                    f"{'captured' if n.op else 'added'}")
        if n.type == T.hipGraphNodeTypeKernel and _kernel_of(n, new) != _kernel_of(
                old.node, old):
            return (U.hipGraphExecUpdateErrorFunctionChanged, n,
                    f"node {k} runs kernel '{n.name}', was '{old.node.name}'")
    return U.hipGraphExecUpdateSuccess, None, ""


def _kernel_of(node: GraphNode, step: Any) -> Any:
    """The kernel a kernel node runs: its function (added nodes), its name (captured)."""
    return node.name if node.op is not None else step.params.func


def _exec_step(exe: Any, node: Any, type_: T, origin: str) -> Any:
    step = exec_arg(exe, origin).by_node.get(node_arg(node, type_, origin))
    if step is None or step.node.op is not None:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: {node!r} is not a node this executable graph was "
                       "instantiated from" + (" with parameters to set" if step else ""))
    return step


@hip_api
def hipGraphLaunch(graphExec: GraphExec, stream: Any = None) -> None:
    """Queue every node's work after the work already on ``stream``; ``stream``'s later
    work waits for the whole graph. One host issue for the call, GRAPH_NODE_S per node.
    On a stream under capture, the graph becomes a child graph node of that capture."""
    exe = exec_arg(graphExec, "hipGraphLaunch")
    target = streams.resolve_stream(stream, origin="hipGraphLaunch")
    if getattr(target.capture, "capturing", False):
        target.capture.add_child(target, exe.source)
        return
    exe.launches += 1
    root = streams.submit(target, noop, name="hipGraphLaunch", kind="event", info={},
                          issue_cost=ISSUE_SECONDS)
    system = get_system()
    current, done = system.current_ordinal, {}
    try:
        for i, step in enumerate(exe.steps):
            s = exe.stream_for(step, target)
            placer = Placer([op for d in step.deps for op in done[d]] or [root],
                             f"graph {exe.id} #{exe.launches} node {i}")
            s.capture = placer
            try:
                system.set_current(step.node.device)
                place(step, s)
            finally:
                s.capture = None
            done[step] = placer.ops[-1:] or placer.waits
    finally:
        system.set_current(current)
    exits = [op for step in exe.exits for op in done[step]]
    streams.submit(target, noop, name="hipGraphLaunch", kind="event", info={},
                   waits=exits, issue_cost=0.0)
