"""From what the API server and the collector saw to an Outcome (format: docs/scenario.md)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..core.outcome import PodOutcome
from .collector import ARRIVAL
from .naming import NamespaceMap

# A pod whose last probe record is one of these (and not Unreserve) is inside its binding cycle.
_BINDING_POINTS = ("Reserve", "Permit", "PreBindPreFlight", "PreBind", "Bind")


def key_of(obj: Mapping[str, Any]) -> str:
    meta = obj.get("metadata") or {}
    return f"{meta.get('namespace', '')}/{meta.get('name', '')}"


def pod_scheduled(pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
    for cond in (pod.get("status") or {}).get("conditions") or []:
        if cond.get("type") == "PodScheduled":
            return cond
    return None


def phase_of(pod: Mapping[str, Any], trace: list[Mapping[str, Any]]) -> str:
    """Bound, then what the probes show (waiting at Permit/binding, gated at PreEnqueue), then the condition."""
    if (pod.get("spec") or {}).get("nodeName"):
        return "bound"
    last = trace[-1] if trace else None
    if last is not None and last.get("point") in _BINDING_POINTS and not (
            last.get("point") in ("Reserve", "Permit") and last.get("code") not in (None, "Success", "Wait")):
        return "waiting"
    cond = pod_scheduled(pod)
    reason = (cond or {}).get("reason") if (cond or {}).get("status") == "False" else None
    if reason == "SchedulingGated" or (last is not None and last.get("point") == "PreEnqueue"
                                       and last.get("code") not in (None, "Success")):
        return "gated"
    if reason == "Unschedulable":
        return "unschedulable"
    if reason == "SchedulerError":
        return "error"
    return "pending"


def settled(pod: Mapping[str, Any]) -> bool:
    """Bound, or the scheduler (or the API server, for gates) has said why not."""
    cond = pod_scheduled(pod)
    return bool((pod.get("spec") or {}).get("nodeName")) or (
        cond is not None and cond.get("status") == "False"
        and cond.get("reason") in ("Unschedulable", "SchedulerError", "SchedulingGated"))


def pod_outcome(pod: Mapping[str, Any], trace: list[Mapping[str, Any]], nsmap: NamespaceMap) -> PodOutcome:
    phase = phase_of(pod, trace)
    cond = pod_scheduled(pod)
    condition = None
    # Only conditions the scheduler writes count; SchedulingGated comes from the API server.
    if phase != "bound" and cond and cond.get("status") == "False" and cond.get("reason") != "SchedulingGated":
        condition = {"status": "False", "reason": str(cond.get("reason", "")),
                     "message": nsmap.text_to_scenario(str(cond.get("message", "")))}
    attempts = max((int(r.get("attempt") or 0) for r in trace), default=0)
    return PodOutcome(phase, (pod.get("spec") or {}).get("nodeName") or "", attempts, condition,
                      (pod.get("status") or {}).get("nominatedNodeName") or "")


def awaited_events(final: Mapping[str, Mapping[str, Any]],
                   records: Mapping[str, list[Mapping[str, Any]]]) -> dict[str, tuple[str, str | None]]:
    """Pod key -> the event its end calls for: (`Scheduled`, None) when bound, (`FailedScheduling`, the
    condition's message) when the scheduler gave up on it; an attempt after a timeline event may end
    with a new message whose event comes after the pod's condition."""
    out: dict[str, tuple[str, str | None]] = {}
    for key, pod in final.items():
        phase = phase_of(pod, list(records.get(key, [])))
        if phase == "bound":
            out[key] = ("Scheduled", None)
        elif phase in ("unschedulable", "error"):
            out[key] = ("FailedScheduling", str((pod_scheduled(pod) or {}).get("message", "")))
    return out


def have_events(events: Iterable[Mapping[str, Any]], wanted: Mapping[str, tuple[str, str | None]]) -> bool:
    """Whether `events` hold each wanted one (a note truncated with " ..." matches its message's start)."""
    notes: dict[tuple[str, str], list[str]] = {}
    for e in events:
        regarding = e.get("regarding") or {}
        key = f"{regarding.get('namespace', '')}/{regarding.get('name', '')}"
        notes.setdefault((key, str(e.get("reason", ""))), []).append(str(e.get("note", "")))
    def carries(note: str, message: str) -> bool:
        return note == message or (note.endswith(" ...") and message.startswith(note[:-4]))
    return all((key, reason) in notes
               and (message is None or any(carries(n, message) for n in notes[(key, reason)]))
               for key, (reason, message) in wanted.items())


def _time(event: Mapping[str, Any]) -> str:
    return str(event.get("eventTime") or event.get("deprecatedFirstTimestamp")
               or (event.get("metadata") or {}).get("creationTimestamp") or "")


def events_of(events: Iterable[Mapping[str, Any]], pods: set[str], reporters: set[str],
              nsmap: NamespaceMap) -> list[dict[str, Any]]:
    """events.k8s.io/v1 events a scheduler profile reported about `pods` (cluster keys), oldest first.

    The event recorder folds repeats into one Event with `series.count`; each occurrence is
    listed, as the reference lists every event it records.
    """
    out = []
    for e in sorted(events, key=_time):
        regarding = e.get("regarding") or {}
        key = f"{regarding.get('namespace', '')}/{regarding.get('name', '')}"
        if regarding.get("kind") != "Pod" or key not in pods or e.get("reportingController") not in reporters:
            continue
        record = {"pod": nsmap.key_to_scenario(key), "type": e.get("type", ""), "reason": e.get("reason", ""),
                  "message": nsmap.text_to_scenario(str(e.get("note", "")))}
        out.extend(dict(record) for _ in range(max(1, int((e.get("series") or {}).get("count") or 1))))
    return out


def trace_of(probe: Iterable[Mapping[str, Any]], extender: Iterable[Mapping[str, Any]], nsmap: NamespaceMap,
             start: float) -> list[dict[str, Any]]:
    """One scenario's trace: probe records (collector, stamped with arrival time) in the scheduler's
    `seq` order, merged by time with extender records (whose `t` is wall time); then scenario pod
    keys, `seq` from 0 and `t` in seconds since `start`, never decreasing along probe order."""
    probes = [dict(r) for r in sorted(probe, key=lambda r: (r.get("seq", 0), r.get(ARRIVAL, 0.0)))]
    # Concurrent POSTs may arrive out of seq order; a record happened before every later one arrived.
    earliest = float("inf")
    for r in reversed(probes):
        earliest = min(earliest, float(r.get(ARRIVAL, earliest)))
        r[ARRIVAL] = earliest
    calls = [{**r, ARRIVAL: float(r.get("t", start))} for r in sorted(extender, key=lambda r: r.get("seq", 0))]
    merged: list[Mapping[str, Any]] = []
    i = j = 0
    while i < len(probes) or j < len(calls):
        if j >= len(calls) or (i < len(probes) and probes[i].get(ARRIVAL, 0.0) <= calls[j][ARRIVAL]):
            merged.append(probes[i])
            i += 1
        else:
            merged.append(calls[j])
            j += 1
    out = []
    for n, r in enumerate(merged):
        rec = {k: v for k, v in r.items() if k != ARRIVAL}
        rec.update(seq=n, t=round(max(0.0, float(r.get(ARRIVAL, start)) - start), 6),
                   pod=nsmap.key_to_scenario(str(r.get("pod", ""))))
        out.append(rec)
    return out


__all__ = ["awaited_events", "events_of", "have_events", "key_of", "phase_of", "pod_outcome", "pod_scheduled", "settled",
           "trace_of"]
