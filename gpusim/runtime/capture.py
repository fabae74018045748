"""Stream capture: hipStreamBeginCapture ... hipStreamEndCapture records a graph.

While a stream is captured, the work submitted to it (kernels, copies, memsets, host
functions, library calls such as RCCL collectives) becomes graph nodes and does not run;
it runs at each hipGraphLaunch of the instantiated graph. As in HIP (ROCm clr,
hipamd/src/hip_graph.cpp, hip_stream.cpp, hip_event.cpp):

- An event recorded on a captured stream marks the nodes captured so far; another stream
  that waits for it (hipStreamWaitEvent) joins the capture, and its next work depends on
  those nodes. hipStreamEndCapture on the stream that began the capture ends it on every
  joined stream; work of a joined stream that the origin never waited for (through an
  event) fails it with hipErrorStreamCaptureUnjoined.
- Synchronising with captured work (hipStreamSynchronize or hipStreamQuery on a captured
  stream, hipEventSynchronize on an event recorded in the capture) fails with
  hipErrorStreamCaptureUnsupported (hipErrorCapturedEvent for events) and invalidates the
  capture, so hipStreamEndCapture then fails with hipErrorStreamCaptureInvalidated.
  hipDeviceSynchronize (and hipFree, which synchronises the device) does so during any
  capture. Calls that are unsafe during capture (host synchronisation on other streams,
  hipMalloc) fail likewise under hipStreamCaptureModeGlobal (any thread's capture) or
  ThreadLocal (this thread's); hipStreamCaptureModeRelaxed allows them. The calling
  thread's mode is set with hipThreadExchangeStreamCaptureMode (default Global).
- The null stream synchronises with every blocking stream, so using it while a blocking
  stream is captured fails with hipErrorStreamCaptureImplicit.

>>> import numpy as np
>>> from gpusim import hip
>>> s = hip.hipStreamCreate()
>>> d = hip.to_device(np.zeros(4, np.uint8))
>>> hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
>>> hip.hipMemsetAsync(d, 7, 4, s)              # recorded, not run
>>> graph = hip.hipStreamEndCapture(s)
>>> d.copy_to_host()
array([0, 0, 0, 0], dtype=uint8)
>>> hip.hipGraphLaunch(hip.hipGraphInstantiate(graph), s); d.copy_to_host()
array([7, 7, 7, 7], dtype=uint8)
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import sys
import threading
from collections.abc import Iterator
from typing import Any

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import streams
from gpusim.runtime.api import hip_api
from gpusim.runtime.graphs import (
    TYPE_OF_KIND,
    Graph,
    GraphNode,
    T,
    allocate,
    allocation_of,
    check_kernel,
)
from gpusim.runtime.graphs import hipKernelNodeParams as _KernelParams
from gpusim.runtime.scheduler import Op, Scheduler, Stream, _spent


class hipStreamCaptureMode(enum.IntEnum):  # noqa: N801 - HIP's spelling and values
    hipStreamCaptureModeGlobal = 0
    hipStreamCaptureModeThreadLocal = 1
    hipStreamCaptureModeRelaxed = 2


class hipStreamCaptureStatus(enum.IntEnum):  # noqa: N801
    hipStreamCaptureStatusNone = 0
    hipStreamCaptureStatusActive = 1
    hipStreamCaptureStatusInvalidated = 2


M, S = hipStreamCaptureMode, hipStreamCaptureStatus
_ids = itertools.count(1)
_thread = threading.local()  # .mode: this host thread's mode (hipThreadExchange...)


class _Marker:
    """A point in a captured stream that is no node (capture start, event record or
    wait): the nodes before it, which whatever comes after depends on."""

    def __init__(self, deps: list, capture: Capture) -> None:
        self.deps, self.capture = deps, capture


class Capture:
    """One stream capture: the graph being recorded and the streams taking part."""

    capturing = True

    def __init__(self, origin: Stream, mode: hipStreamCaptureMode) -> None:
        self.origin, self.mode, self.id = origin, mode, next(_ids)
        self.graph = Graph(origin.device)
        self.thread = threading.get_ident()
        self.tails: dict[Stream, Op | None] = {}  # joined stream -> its queue's tail
        self.markers: list[_Marker] = []
        self.invalidated: str | None = None  # why
        self.join(origin)

    def describe(self) -> str:
        return (f"the capture of {self.origin!r} ({self.mode.name}, begun by "
                "hipStreamBeginCapture)")

    def join(self, stream: Stream) -> None:
        self.tails[stream] = stream.tail
        stream.capture = self
        self._stand_in(stream, self._marker([]))

    def invalidate(self, why: str) -> None:
        self.invalidated = self.invalidated or why

    def _marker(self, deps: list) -> _Marker:
        self.markers.append(_Marker(deps, self))
        return self.markers[-1]

    def _stand_in(self, stream: Stream, node: Any, kind: str = "event",
                  name: str = "capture", info: dict | None = None) -> Op:
        """The operation a captured call returns: it stands for ``node`` and never runs."""
        stream.tail = Op(-1, stream, kind, name, _spent, _spent, info=info or {}, node=node)
        return stream.tail

    def _deps(self, stream: Stream, waits: list[Op] | None) -> list[GraphNode]:
        """The nodes new work of ``stream`` depends on: what its captured work so far and
        the captured work it waits for end with (markers resolved to their nodes)."""
        found: list[GraphNode] = []

        def add(x: Any) -> None:
            if isinstance(x, _Marker):
                for d in x.deps:
                    add(d)
            elif x not in found:
                found.append(x)
        for op in [stream.tail, *(waits or [])]:
            if op is not None and op.node is not None and op.node.capture is self:
                add(op.node)
        return found

    def _check_open(self, origin: str) -> None:
        if self.invalidated:
            raise HipError(hipError_t.hipErrorStreamCaptureInvalidated,
                           f"{origin}: {self.describe()} was invalidated by "
                           f"{self.invalidated}; end it with hipStreamEndCapture and "
                           "capture again")

    def enqueue(self, target: Stream, fn: Any, *, name: str, kind: str, info: dict,
                waits: list[Op] | None) -> Op:
        """What streams.enqueue does with work for a captured stream: a node."""
        self._check_open(name)
        if kind == "event" and any(w.node is not None and w.node.capture not in (None, self)
                                   for w in waits or []):
            raise HipError(hipError_t.hipErrorStreamCaptureMerge,
                           f"{name}: the event was recorded in another capture; two "
                           "captures cannot be merged")
        if target.capture is not self:
            self.join(target)
        deps = self._deps(target, waits)
        if kind == "event":  # an event record or wait: a point, not a node
            return self._stand_in(target, self._marker(deps), kind, name, info)
        params = _KernelParams(name, info.get("grid", 1), info.get("block", 1)) if (
            kind == "kernel") else None
        node = self.graph.add(TYPE_OF_KIND.get(kind, T.hipGraphNodeTypeEmpty), params, deps,
                              name=name, device=target.device, op=(fn, kind, dict(info)))
        node.capture = self
        return self._stand_in(target, node, kind, name, info)

    def add_node(self, target: Stream, type_: Any, params: Any, name: str,
                 origin: str) -> GraphNode:
        """A node made from a call on a captured stream (not from queued work), after
        the stream's captured work so far."""
        self._check_open(origin)
        if target.capture is not self:
            self.join(target)
        node = self.graph.add(type_, params, self._deps(target, None), name=name,
                              device=target.device)
        node.capture = self
        self._stand_in(target, node, "kernel" if type_ == T.hipGraphNodeTypeKernel else
                       "event", name)
        return node

    def add_kernel(self, target: Stream, params: _KernelParams) -> None:
        """A kernel launched on a captured stream (kernel.py): a kernel node."""
        name = params.func.__name__
        self.add_node(target, T.hipGraphNodeTypeKernel, params, name, name)

    def add_child(self, target: Stream, graph: Graph) -> None:
        """hipGraphLaunch on a captured stream: a child graph node."""
        self.add_node(target, T.hipGraphNodeTypeGraph, graph.clone(), f"graph {graph.id}",
                      "hipGraphLaunch")

    def end(self) -> None:
        """Every joined stream goes back to its queue; stand-ins become stale."""
        for stream, tail in self.tails.items():
            stream.tail, stream.capture = tail, None
        for x in [*self.graph.nodes, *self.markers]:
            x.capture = None
        self.origin.scheduler.captures.remove(self)

    def unjoined(self) -> list[GraphNode]:
        """Captured nodes that the origin stream's last work does not depend on."""
        seen: set[int] = set()
        todo = self._deps(self.origin, None)
        while todo:
            n = todo.pop()
            if id(n) not in seen:
                seen.add(id(n))
                todo.extend(n.deps)
        return [n for n in self.graph.nodes if id(n) not in seen]


# host calls that capture forbids ----------------------------------------------------------
def _api_name() -> str:
    """The gpusim function the user called (the outermost public one on the stack)."""
    frame, name = sys._getframe(2), "this call"
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("gpusim."):
            if name != "this call":
                break
        elif not frame.f_code.co_name.startswith(("_", "<")) and (
                frame.f_code.co_name != "wrapper"):
            name = frame.f_code.co_name
        frame = frame.f_back
    return name


def thread_mode() -> hipStreamCaptureMode:
    return getattr(_thread, "mode", M.hipStreamCaptureModeGlobal)


def _guard(sched: Scheduler, op: Op | None, scope: str) -> None:
    """Scheduler.check_capture: HIP's checks of host calls during capture."""
    api = _api_name()
    owner = op.node.capture if op is not None and op.node is not None else None
    if owner is not None:
        owner.invalidate(api)
        event = api in ("hipEventSynchronize", "hipEventQuery")
        raise HipError(hipError_t.hipErrorCapturedEvent if event else
                       hipError_t.hipErrorStreamCaptureUnsupported,
                       f"{api}: waits for work that {owner.describe()} records into a "
                       "graph, which runs only at hipGraphLaunch. The capture is now "
                       "invalidated (hipStreamEndCapture returns "
                       "hipErrorStreamCaptureInvalidated); synchronise after "
                       "hipStreamEndCapture instead")
    if scope == "device":
        hit = list(sched.captures)
    elif thread_mode() == M.hipStreamCaptureModeRelaxed:
        hit = []
    else:
        me = threading.get_ident()
        hit = [c for c in sched.captures
               if c.thread == me and c.mode != M.hipStreamCaptureModeRelaxed]
        if not hit and thread_mode() == M.hipStreamCaptureModeGlobal:
            hit = [c for c in sched.captures if c.mode == M.hipStreamCaptureModeGlobal]
    if hit:
        for c in hit:
            c.invalidate(api)
        fix = ("do it before hipStreamBeginCapture or after hipStreamEndCapture" +
               ("" if scope == "device" else ", or capture in hipStreamCaptureModeRelaxed"))
        raise HipError(hipError_t.hipErrorStreamCaptureUnsupported,
                       f"{api}: not allowed during {hit[0].describe()}; the capture is now "
                       f"invalidated (hipStreamEndCapture returns "
                       f"hipErrorStreamCaptureInvalidated): {fix}")


# Checks that libraries register (RCCL: calls on captured streams still waiting for their
# peers): each takes the capture being ended and returns what is wrong, [] if nothing.
_end_checks: list[tuple[Any, str]] = []


def register_end_check(check: Any, consequence: str) -> None:
    """Have hipStreamEndCapture call ``check(capture)``, which returns a list of
    problems (strings naming calls) and drops what it reports; if any, the capture ends
    and hipErrorStreamCaptureUnjoined says "<problems> <consequence>". For libraries
    above the runtime (this layer cannot import them).

    >>> register_end_check(lambda cap: [], "never happens") is None
    True
    >>> _end_checks.pop()[1]
    'never happens'
    """
    _end_checks.append((check, consequence))


def _capture_of(stream: Any, origin: str) -> tuple[Stream, Capture | None]:
    target = streams.resolve_stream(stream, origin=origin)
    cap = target.capture
    return target, cap if isinstance(cap, Capture) else None


def captures(stream: Any) -> bool:
    """Is ``stream`` (a launch's stream argument) under capture? (The null stream never
    is; an invalid argument is reported by the launch.)"""
    return isinstance(stream, Stream) and isinstance(stream.capture, Capture)


def capture_kernel(kernel: Any, grid: Any, block: Any, args: tuple, *, stream: Any,
                   shared_bytes: int = 0) -> None:
    """``kernel[grid, block, stream](*args)`` on a captured stream: checked and compiled
    now, recorded as a kernel node (the arguments are kept as they are: arrays by
    reference, numbers by value)."""
    target, cap = _capture_of(stream, kernel.__name__)
    params = _KernelParams(kernel, grid, block, tuple(args), shared_bytes)
    cap.add_kernel(target, check_kernel(params, f"kernel '{kernel.__name__}'"))


def capture_alloc(stream: Any, nbytes: int) -> int:
    """hipMallocAsync on a captured stream: a memory allocation node, whose memory (made
    now, at a fixed address) the graph's work uses at every launch; returns its address
    (graphs.hipMemAllocNodeParams says what is simplified).

    >>> from gpusim import hip
    >>> s = hip.hipStreamCreate()
    >>> hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    >>> ptr = capture_alloc(s, 256)
    >>> capture_free(s, ptr)
    True
    >>> [n.type.name for n in hip.hipGraphGetNodes(hip.hipStreamEndCapture(s))]
    ['hipGraphNodeTypeMemAlloc', 'hipGraphNodeTypeMemFree']
    """
    target, cap = _capture_of(stream, "hipMallocAsync")
    if cap is None:
        raise HipError(hipError_t.hipErrorIllegalState,
                       f"hipMallocAsync: {target!r} is not being captured")
    params = allocate(nbytes, target.device, "hipMallocAsync")
    cap.add_node(target, T.hipGraphNodeTypeMemAlloc, params, "hipMallocAsync",
                 "hipMallocAsync")
    return params.dptr


def capture_free(stream: Any, address: int) -> bool:
    """hipFreeAsync on a captured stream of memory that this capture's graph allocated:
    a memory free node (True). False for other memory (the caller frees it as usual)."""
    target, cap = _capture_of(stream, "hipFreeAsync")
    if cap is None or allocation_of(cap.graph, address) is None:
        return False
    cap.add_node(target, T.hipGraphNodeTypeMemFree, int(address), "hipFreeAsync",
                 "hipFreeAsync")
    return True


# the API ----------------------------------------------------------------------------------
@hip_api
def hipStreamBeginCapture(stream: Any, mode: int = M.hipStreamCaptureModeGlobal) -> None:
    """Record the work submitted to ``stream`` (and streams that join) into a graph."""
    target, cap = _capture_of(stream, "hipStreamBeginCapture")
    if target.null:
        raise HipError(hipError_t.hipErrorStreamCaptureUnsupported,
                       "hipStreamBeginCapture: the null stream cannot be captured; capture a "
                       "stream from hipStreamCreate")
    if mode not in list(M):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipStreamBeginCapture: mode {mode!r} is not a hipStreamCaptureMode")
    if target.capture is not None:
        raise HipError(hipError_t.hipErrorIllegalState,
                       f"hipStreamBeginCapture: {target!r} is already being captured")
    cap = Capture(target, M(mode))
    target.scheduler.captures.append(cap)
    target.scheduler.capture_guard = _guard


@hip_api
def hipStreamEndCapture(stream: Any) -> Graph:
    """End the capture begun on ``stream``; returns the recorded graph."""
    target, cap = _capture_of(stream, "hipStreamEndCapture")
    if cap is None:
        raise HipError(hipError_t.hipErrorIllegalState,
                       f"hipStreamEndCapture: {target!r} is not being captured")
    if cap.origin is not target:
        raise HipError(hipError_t.hipErrorStreamCaptureUnmatched,
                       f"hipStreamEndCapture: {target!r} joined {cap.describe()}; end it on "
                       f"{cap.origin!r}")
    if cap.mode != M.hipStreamCaptureModeRelaxed and cap.thread != threading.get_ident():
        raise HipError(hipError_t.hipErrorStreamCaptureWrongThread,
                       "hipStreamEndCapture: the capture was begun by another host thread "
                       "(only hipStreamCaptureModeRelaxed captures may end elsewhere)")
    left = cap.unjoined()
    unmatched = [(problems, why) for check, why in _end_checks if (problems := check(cap))]
    cap.end()
    if cap.invalidated:
        raise HipError(hipError_t.hipErrorStreamCaptureInvalidated,
                       f"hipStreamEndCapture: {cap.describe()} was invalidated by "
                       f"{cap.invalidated}; no graph. Capture again without that call")
    if unmatched:
        problems, why = unmatched[0]
        raise HipError(hipError_t.hipErrorStreamCaptureUnjoined,
                       f"hipStreamEndCapture: {'; '.join(problems[:3])}: these calls {why}")
    if left:
        names = ", ".join(f"{n.name} on device {n.device}" for n in left[:3])
        raise HipError(hipError_t.hipErrorStreamCaptureUnjoined,
                       f"hipStreamEndCapture: {names} ran on a stream that joined the "
                       f"capture, but {target!r} never waited for it. Record an event on "
                       "that stream and hipStreamWaitEvent on this one before ending")
    return cap.graph


@hip_api
def hipStreamIsCapturing(stream: Any) -> hipStreamCaptureStatus:
    cap = _capture_of(stream, "hipStreamIsCapturing")[1]
    if cap is None:
        return S.hipStreamCaptureStatusNone
    return S.hipStreamCaptureStatusInvalidated if cap.invalidated else (
        S.hipStreamCaptureStatusActive)


@hip_api
def hipStreamGetCaptureInfo(stream: Any) -> tuple[hipStreamCaptureStatus, int]:
    """(status, capture id); the id is 0 when the stream is not captured."""
    cap = _capture_of(stream, "hipStreamGetCaptureInfo")[1]
    return hipStreamIsCapturing(stream), cap.id if cap else 0


@hip_api
def hipStreamGetCaptureInfo_v2(stream: Any) -> tuple:  # noqa: N802
    """(status, capture id, graph, the nodes the stream's next work will depend on)."""
    target, cap = _capture_of(stream, "hipStreamGetCaptureInfo_v2")
    if cap is None:
        return S.hipStreamCaptureStatusNone, 0, None, []
    return hipStreamIsCapturing(target), cap.id, cap.graph, cap._deps(target, None)


def hipThreadExchangeStreamCaptureMode(mode: int) -> hipStreamCaptureMode:
    """Set this host thread's capture mode; returns the previous one."""
    if mode not in list(M):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipThreadExchangeStreamCaptureMode: {mode!r} is not a mode")
    old, _thread.mode = thread_mode(), M(mode)
    return old


class CaptureBlock:
    """What ``with hip.capture(stream) as c:`` gives: ``c.graph`` once the block ends."""

    graph: Graph | None = None

    def instantiate(self) -> Any:
        from gpusim.runtime.graph_api import hipGraphInstantiate
        return hipGraphInstantiate(self.graph)


@contextlib.contextmanager
def capture(stream: Any, mode: int = M.hipStreamCaptureModeGlobal) -> Iterator[CaptureBlock]:
    """``with hip.capture(s) as c: ...`` is hipStreamBeginCapture(s) ... c.graph =
    hipStreamEndCapture(s); an exception in the block ends the capture and is re-raised."""
    block = CaptureBlock()
    hipStreamBeginCapture(stream, mode)
    try:
        yield block
    except BaseException:
        with contextlib.suppress(HipError):
            hipStreamEndCapture(stream)
        raise
    block.graph = hipStreamEndCapture(stream)
