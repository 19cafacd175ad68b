"""Timeline faults fired in the reference (format: docs/scenario.md, Faults; parsing: reference/faults.py).

`FaultInjector` holds the armed faults. The API server (`ClusterStore`) asks it before each of the
scheduler's own calls (`call`: a `fail` fault answers with an error); the scheduler and the preemption
executor tell it when a pod reaches a point (`reached`: a `vanish` deletes an object through the API server,
a `restart` raises `Restarted`, which unwinds the old scheduler so it makes no further call). The timeline
runner asks it about each node watch event (`lag_of`: a `lag` delivers it late).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..faults import Fault
from ..types import Pod

# Errors whose retry the client helpers do (pkg/scheduler/util/utils.go: `Retriable`, `RetriableWithConflict`,
# retry.DefaultBackoff's 4 steps); the other calls are not retried.
RETRIES = 4
RETRIABLE = {"bind": ("internal",), "status": ("internal", "conflict")}
# retry.DefaultBackoff's sleeps before the 2nd, 3rd and 4th try (10 ms, x5 each; upstream adds up to 10 %
# random jitter, left out). Spaced for the binding, whose cycle waits (util.BindPod in DefaultBinder); a
# status patch's retries stay instant (they run in the scheduling loop or another call's binding cycle: a
# simplification).
BACKOFF = (0.01, 0.05, 0.25)
SPACED = ("bind",)


class Restarted(Exception):
    """The scheduler process restarted (a `restart` fault fired): the runner starts a new one."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"restart fault timeline[{fault.index}]")
        self.fault = fault


def error_text(error: str, pod: Pod, call: str) -> str:
    """The API error's text, as apimachinery's StatusError words it (NewConflict, NewInternalError,
    NewTimeoutError; `timeout-applied` answers as `timeout` does)."""
    resource = "pods/binding" if call == "bind" else "pods"
    if error == "conflict":
        return f'Operation cannot be fulfilled on {resource} "{pod.name}": injected conflict'
    if error == "internal":
        return "Internal error occurred: injected internal error"
    return "Timeout: injected timeout"


@dataclass
class _Armed:
    fault: Fault
    seen: int = 0   # matching calls since arming (fail)
    fired: int = 0


class FaultInjector:
    """The armed faults of one run; `fired` holds one `{"index", "at", "pod", "fault", "detail"}` per firing
    (vanish firings also name the deleted object: `"object": "Kind/key"`)."""

    def __init__(self, now: Callable[[], float], start: float = 0.0) -> None:
        self.now = now
        self.start = start
        self.armed: list[_Armed] = []
        self.fired: list[dict[str, Any]] = []
        # Set by the runner: delete a pod / node as someone else does through the API server.
        self.delete_pod: Callable[[str], None] = lambda key: None
        self.delete_node: Callable[[str], None] = lambda name: None

    def arm(self, fault: Fault) -> None:
        self.armed.append(_Armed(fault))

    def call(self, call: str, pod: Pod, retry: bool = False) -> str | None:
        """One API call of the scheduler about `pod`, with `retry` as its client helper retries (BindPod,
        PatchPodStatus): the error text of the last try, or None (the call went through)."""
        return self.call_applied(call, pod, retry)[0]

    def call_applied(self, call: str, pod: Pod, retry: bool = False) -> tuple[str | None, bool, float]:
        """`call`, whether the server applied the call that answered the error (`timeout-applied`), and the
        virtual seconds the client slept between its tries (the last try is that late; its firings are
        recorded at their tries' times)."""
        slept = 0.0
        for i in range(RETRIES if retry else 1):
            if i and call in SPACED:
                slept += BACKOFF[i - 1]
            error = self._try(call, pod, slept)
            if error is None or error not in RETRIABLE.get(call, ()):
                break
        if not error:
            return None, False, slept
        return error_text(error, pod, call), error == "timeout-applied", slept

    def _try(self, call: str, pod: Pod, later: float = 0.0) -> str | None:
        for armed in self.armed:
            f = armed.fault
            if f.op != "fail" or f.call != call or (f.pod and f.pod != pod.key) or armed.fired >= f.times:
                continue
            armed.seen += 1
            if armed.seen >= f.occurrence:
                armed.fired += 1
                self._record(f, pod.key, call, later)
                return f.error
        return None

    def lag_of(self, node: str) -> Fault | None:
        """The armed lag fault on `node`'s watch events, if any (the first armed)."""
        return next((a.fault for a in self.armed if a.fault.op == "lag" and a.fault.node == node), None)

    def lagged(self, fault: Fault, node: str, op: str) -> None:
        """One of `node`'s watch events (`op`: add, update, delete) is delivered `fault.delay` late."""
        at = self.now() - self.start
        self.fired.append({"index": fault.index, "at": at, "pod": "", "fault": "lag", "detail": op,
                           "object": f"Node/{node}", "seen": at + fault.delay})

    def listed(self) -> None:
        """A restart: the new scheduler lists the API server, so what a lag still held back is seen now."""
        at = self.now() - self.start
        for firing in self.fired:
            if firing.get("seen", at) > at:
                firing["seen"] = at

    def reached(self, point: str, pod: Pod, node: str, victim: Pod | None = None) -> None:
        """`pod`'s cycle reached `point` (on `node`; at preempt with its first `victim`)."""
        for armed in self.armed:
            f = armed.fault
            if f.op in ("fail", "lag") or f.point != point or f.pod != pod.key or armed.fired >= 1:
                continue
            armed.fired += 1
            if f.op == "restart":
                self._record(f, pod.key, point)
                raise Restarted(f)
            target = {"pod": ("Pod", pod.key), "node": ("Node", node),
                      "victim": ("Pod", victim.key if victim is not None else "")}[f.object]
            self._record(f, pod.key, point, object=f"{target[0]}/{target[1]}")
            if target[0] == "Node":
                self.delete_node(target[1])
            else:
                self.delete_pod(target[1])

    def _record(self, fault: Fault, pod: str, detail: str, later: float = 0.0, **extra: str) -> None:
        self.fired.append({"index": fault.index, "at": self.now() + later - self.start, "pod": pod,
                           "fault": fault.op, "detail": detail, **extra})


__all__ = ["FaultInjector", "Restarted", "error_text"]
