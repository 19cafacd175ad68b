"""What the trace tells about one attempt of one pod: helpers the queue, extender, outcome and
preemption themes share."""

from __future__ import annotations

from typing import Any

from reference.probe import PROBE_NAMES
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION

from ..extender.script import ExtenderScriptError, action_for, parse_script

from .run import Run, cut_short
from .scoring import MAX_NODE_SCORE, normalized_scores


def traced_from_start(run: Run, pod: str) -> bool:
    """Whether every scheduling attempt of the pod starts with a probe record.

    True when the first PreFilter plugin of its profile is a probe and the cluster has a node:
    PreFilter is the first point of every attempt and its first plugin always runs (only an empty
    cluster fails an attempt before PreFilter; a timeline event or a vanish fault may empty it). Then probe
    cycles are exactly the scheduling attempts, and an attempt's extender calls lie between its first record
    and the next attempt's.
    """
    plugins = run.plugins_at(pod, "preFilter")
    cluster = run.cluster
    never_empty = all(cluster.manifests(k, "Node") for k in range(len(cluster.states))) \
        if run.outcome.timeline or run.outcome.faults else bool(run.node_names)
    return never_empty and bool(plugins) and plugins[0] in PROBE_NAMES


def last_attempt_seen(run: Run, pod: str) -> int | None:
    """The pod's last attempt when the trace shows it (the queue's count matches the probe cycles, or
    every attempt is traced), else None."""
    attempts = run.attempts(pod)
    if not attempts:
        return None
    result = run.outcome.pods.get(pod)
    if "queue-attempts" in run.capabilities and result is not None and result.attempts == attempts[-1]:
        return attempts[-1]
    return attempts[-1] if traced_from_start(run, pod) else None


def may_be_nominated(run: Run, pod: str, attempt: int) -> bool:
    """Whether the pod may start `attempt` with a nominated node (then upstream first tries that node
    alone and only logs its errors): DefaultPreemption deleted pods, the pod was created or ended
    nominated, or an earlier attempt nominated it at PostFilter or set it for expectation in its
    binding cycle (PreBindPreFlight Success or Permit Wait)."""
    result = run.outcome.pods.get(pod)
    if run.outcome.deleted or run.pod_objects[pod].nominated_node_name or (result and result.nominated_node_name):
        return True
    for earlier in (a for a in run.attempts(pod) if a < attempt):
        for r in run.probe_records(pod, earlier):
            if (r["point"] == "PostFilter" and r.get("nominate")) or \
                    (r["point"] == "PreBindPreFlight" and r.get("code") == "Success") or \
                    (r["point"] == "Permit" and r.get("code") == "Wait"):
                return True
    return False


def scoring_failed(run: Run, pod: str, attempt: int) -> bool:
    """A probe failed PreScore, Score or NormalizeScore, or left a final score outside [0, 100]."""
    for r in run.probe_records(pod, attempt):
        if r["point"] == "PreScore" and r.get("code") not in ("Success", "Skip"):
            return True
        if r["point"] in ("Score", "NormalizeScore") and r.get("code") != "Success":
            return True
    return any(not 0 <= s <= MAX_NODE_SCORE for scores in normalized_scores(run, pod, attempt).values()
               for s in scores.values())


def reached_reserve(run: Run, pod: str, attempt: int) -> bool:
    """Reserve ran (or Unreserve, when an earlier Reserve plugin failed), or the attempt bound the pod."""
    return any(r["point"] in ("Reserve", "Unreserve") for r in run.probe_records(pod, attempt)) \
        or run.final_attempt_bound(pod, attempt)


def failure_messages(run: Run, pod: str) -> list[str]:
    """The pod's FailedScheduling event messages and its last PodScheduled condition message."""
    out = [str(e.get("message", "")) for e in run.outcome.events
           if e.get("pod") == pod and e.get("reason") == "FailedScheduling"]
    result = run.outcome.pods.get(pod)
    if result is not None and result.condition:
        out.append(str(result.condition.get("message", "")))
    return out


def extender_config(run: Run, name: str) -> Any:
    """The config entry whose urlPrefix ends in `/<name>` (docs/scenario.md), or None."""
    return next((e for e in run.config.extenders if e.url_prefix.rstrip("/").endswith("/" + name)), None)


def ignorable(run: Run, name: str) -> bool:
    ext = extender_config(run, name)
    return bool(ext is not None and ext.ignorable)


def scripted_failure(run: Run, pod: str, extender: str, verb: str) -> bool:
    """Whether the pod's extender script makes `extender` fail `verb` (an error or a non-200 status),
    which it then does on every call, whatever the nodes."""
    text = ((run.pods[pod].get("metadata") or {}).get("annotations") or {}).get(EXTENDER_SCRIPT_ANNOTATION)
    try:
        action = action_for(parse_script(text), extender, verb)
    except ExtenderScriptError:
        return False
    return bool(action.error) or action.status != 200


__all__ = ["cut_short", "extender_config", "failure_messages", "ignorable", "last_attempt_seen", "may_be_nominated",
           "reached_reserve", "scoring_failed", "scripted_failure", "traced_from_start"]
