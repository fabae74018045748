"""RCCL calls made while their streams are captured (hipStreamBeginCapture).

Each local rank's part of a matched collective (or send/receive pair) becomes a kernel
node of the graph its stream is captured into; nothing moves at capture. At every graph
launch, the k-th part that each rank queues belongs to the k-th *instance* of the
collective, and the instance moves its data when its last part runs (parts run in the
order they were queued, so every rank's earlier work has run by then). One process
drives several GPUs, in any of the ways HIP and RCCL allow:

- every rank's stream in one capture (forked from the origin stream with events and
  joined back): one graph holds all the parts, in the order of the calls;
- each rank's stream captured into a graph of its own, as rccl-tests' ``-G`` does:
  graph r holds rank r's part; launch every rank's graph (as many times each);
- some ranks captured, others not (RCCL allows it across communicators): the
  uncaptured ranks' parts are queued at the call, once.

What the emulator cannot do is hold a rank's kernel back until its peers arrive, as a
GPU does. So (``ncclInvalidUsage``, raised where the host synchronises, as stream
errors are):

- a part that runs before some peer has queued its part: on a GPU it would wait for
  ever (say, a rank's graph was launched fewer times than the others');
- work queued after a rank's part but before its instance's last part that depends on
  that part (on the same stream, or through events): it would see the result before
  it exists. Launch every rank's graph before queuing such work, or capture all the
  ranks' streams into one graph.

Modeled time: each part is a kernel of the collective's modeled duration. In one graph
a part waits for every rank's earlier captured work (the parts start together, as the
uncaptured ranks' kernels do); parts in separate graphs start when their own stream
reaches them. Each completed instance emits one ``CollectiveRecord`` when its last part
is queued, completed when it runs.

>>> import numpy as np
>>> from gpusim import hip, rccl
>>> comms = rccl.ncclCommInitAll(2)
>>> bufs, streams = [], []
>>> for r in range(2):
...     hip.hipSetDevice(r)
...     bufs.append(hip.to_device(np.full(2, r + 1.0, np.float32)))
...     streams.append(hip.hipStreamCreate())
>>> for s in streams:                      # each rank's stream captured into its own graph
...     hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
>>> rccl.ncclGroupStart()
>>> for r in range(2):
...     rccl.ncclAllReduce(bufs[r], bufs[r], 2, rccl.ncclFloat, rccl.ncclSum, comms[r],
...                        streams[r])
>>> rccl.ncclGroupEnd()
>>> execs = [hip.hipGraphInstantiate(hip.hipStreamEndCapture(s)) for s in streams]
>>> for _ in range(2):                     # two launches of every rank's graph
...     for r in range(2):
...         hip.hipGraphLaunch(execs[r], streams[r])
>>> hip.hipStreamSynchronize(streams[0]); hip.hipStreamSynchronize(streams[1])
>>> hip.hipSetDevice(0); bufs[1].copy_to_host()    # (1 + 2) x 2
array([6., 6.], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpusim.libs.rccl import group
from gpusim.libs.rccl.comm import _cliques
from gpusim.libs.rccl.enums import NcclError, ncclResult_t
from gpusim.profiler import CollectiveRecord, emit
from gpusim.runtime import capture as hip_capture
from gpusim.runtime import streams
from gpusim.runtime.scheduler import Op, Stream


def capture_of(stream: Stream | None) -> Any:
    """The capture recording ``stream``'s work, or None."""
    return stream.capture if stream is not None and hip_capture.captures(stream) else None


def _op_capture(op: Op) -> Any:
    """The capture an operation (or a captured stand-in) belongs to, or None."""
    return getattr(op.node, "capture", None) if op.node is not None else None


@dataclass(eq=False)
class _Instance:
    """One run of the collective: each rank's queued part."""

    ops: dict[int, Op] = field(default_factory=dict)  # part index -> its queued op
    last: Op | None = None  # the part queued last: it moves the data


class Part:
    """One rank's kernel of a captured collective: what its graph node holds. Graph
    launches queue it with ``place_on`` (gpusim.runtime.graphs.place), the scheduler
    runs it by calling it."""

    def __init__(self, collective: CapturedCollective, index: int, rank: int) -> None:
        self.collective, self.index, self.rank = collective, index, rank

    def __repr__(self) -> str:
        return f"<rank {self.rank}'s part of {self.collective.name}>"

    def place_on(self, stream: Stream, waits: list[Op] | None = None) -> Op:
        """Queue this part on ``stream`` (a graph launch's, or an uncaptured rank's)."""
        op = streams.enqueue(stream, self, name=self.collective.name, kind="kernel",
                             info=dict(self.collective.info), waits=waits)
        self.collective.queued(self.index, op)
        return op

    def __call__(self) -> None:
        self.collective.arrive(self.index)


class CapturedCollective:
    """A matched collective recorded by stream capture, and its launches' instances."""

    def __init__(self, name: str, calls: list[Any], run: Callable[[], None], info: dict,
                 make_record: Callable[[], CollectiveRecord],
                 complete: Callable[[CollectiveRecord, list[Op]], None]) -> None:
        self.name, self.run, self.info = name, run, info
        self.make_record, self.complete = make_record, complete
        self.parts = [Part(self, i, c.comm.rank) for i, c in enumerate(calls)]
        self.queued_count = [0] * len(calls)
        self.run_count = [0] * len(calls)
        self.instances: dict[int, _Instance] = {}

    def record_calls(self, calls: list[Any]) -> None:
        """At the call: each captured rank's part becomes a node of its stream's graph
        (waiting for the earlier work of every rank in the same capture); uncaptured
        ranks' parts are queued now."""
        tails = [c.stream.tail for c in calls if c.stream.tail is not None]
        for part, call in zip(self.parts, calls, strict=True):
            cap = capture_of(call.stream)
            waits = [t for t in tails if _op_capture(t) is cap]
            if cap is None:
                part.place_on(call.stream, waits)
            else:
                streams.enqueue(call.stream, part, name=self.name, kind="kernel",
                                info=dict(self.info), waits=waits)

    def queued(self, index: int, op: Op) -> None:
        """Part ``index`` was queued (a launch placed it): the next instance of its rank."""
        k = self.queued_count[index]
        self.queued_count[index] += 1
        inst = self.instances.setdefault(k, _Instance())
        inst.ops[index] = op
        if len(inst.ops) == len(self.parts):
            inst.last = op
            record = self.make_record()
            emit(record)
            previous = op.on_done
            ops = list(inst.ops.values())

            def done(o: Op) -> None:
                if previous is not None:
                    previous(o)
                self.complete(record, ops)
                self.instances.pop(k, None)

            op.on_done = done

    def arrive(self, index: int) -> None:
        """Part ``index`` runs: the instance's last part moves the data; an earlier one
        checks that the rest will come and that nothing reads the result before."""
        k = self.run_count[index]
        self.run_count[index] += 1
        inst = self.instances.get(k)
        rank = self.parts[index].rank
        if inst is None or inst.last is None:
            waiting = [p.rank for p in self.parts if inst is None or p.index not in inst.ops]
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"{self.name}: rank {rank}'s part (launch {k + 1}) ran, but rank(s) "
                            f"{waiting} have not queued theirs; on a GPU rank {rank}'s kernel "
                            "would wait for them for ever. Launch every rank's graph (as many "
                            "times as the others) before synchronising")
        if inst.ops[index] is inst.last:
            self.run()
        else:
            self._check_readers(inst, index)

    def _check_readers(self, inst: _Instance, index: int) -> None:
        """No work that depends on this part may run before the instance's last part."""
        mine, last = inst.ops[index], inst.last
        if last is None:  # (arrive checked that every part is queued)
            return
        after = {id(mine)}
        for op in mine.stream.scheduler.pending:
            if op.seq >= last.seq:
                break
            if not any(id(w) in after for w in op.waits) or isinstance(op.run, Part):
                continue  # unrelated, or a later collective (checked when it runs)
            if op.kind == "event":  # a marker or event: what waits for it depends too
                after.add(id(op))
                continue
            late = self.parts[next(i for i, o in inst.ops.items() if o is last)].rank
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"{op.name} on {op.stream!r} was queued after rank "
                            f"{self.parts[index].rank}'s part of {self.name} but before "
                            f"rank {late}'s, and depends on it: it would run before the "
                            "collective's result exists (a GPU would hold it back; the "
                            "emulator moves the data when the last rank's part runs). "
                            "Launch every rank's graph before queuing work that follows "
                            "the collective, or capture all the ranks' streams into one "
                            "graph")


# hipStreamEndCapture: calls on the captured streams that never became a collective --------
def _unmatched(cap: Any) -> list[str]:
    """Calls on streams of ``cap`` still waiting for their peers (or in an open group):
    they cannot be in the graph. They are dropped, so the ended streams stay usable."""
    problems = []
    for held in group.stack:
        mine = [c for c in held if capture_of(c.stream) is cap]
        problems += [f"nccl{c.collective} on rank {c.comm.rank} is in a group that "
                     "ncclGroupEnd has not closed" for c in mine]
        held[:] = [c for c in held if c not in mine]
    for clique in _cliques.values():
        for rank, calls in clique.pending.items():
            mine = [c for c in calls if capture_of(c.stream) is cap]
            waiting = sorted(r for r in clique.comms if not clique.pending.get(r))
            problems += [f"nccl{c.collective} on rank {rank} waits for rank(s) {waiting} "
                         "to call it" for c in mine]
            calls[:] = [c for c in calls if c not in mine]
        for (kind, src, dst), calls in clique.p2p.items():
            mine = [c for c in calls if capture_of(c.stream) is cap]
            problems += [f"nccl{kind} from rank {src} to rank {dst} has no matching "
                         f"nccl{'Recv' if kind == 'Send' else 'Send'}" for _ in mine]
            calls[:] = [c for c in calls if c not in mine]
    return problems


hip_capture.register_end_check(
    _unmatched, "were made on the captured streams, but their peers' calls never came, so "
    "they are not in the graph (RCCL queues each rank's kernel at its call; the emulator "
    "builds a collective once every local rank has called it). Call every rank's "
    "collective while capturing, inside one ncclGroupStart/ncclGroupEnd")
