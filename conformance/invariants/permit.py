"""Permit and waiting pods."""

from __future__ import annotations

from dataclasses import dataclass

from reference.duration import format_duration
from reference.probe import PROBE_NAMES

from ..recipes.first_pod import REJECT, pick, wait
from ..recipes.situations import Situation
from .base import invariant
from .faults import cut_by_restart
from .preemption import preempted_on
from .run import Run, is_rejection

MAX_PERMIT_TIMEOUT = 15 * 60.0
BINDING_POINTS = ("PreBindPreFlight", "PreBind", "Bind", "PostBind")
LATE_TOLERANCE = 1.0  # seconds a real-time backend may lag behind a timer


@invariant("permit-reject-wins",
           "If a Permit plugin rejects, later Permit plugins do not run, no waiting pod is created and the pod "
           "does not reach binding.", "framework.go RunPermitPlugins (spec §2.13, §11.12)",
           situation=Situation(
               {"permit": ["Probe0", "Probe1"]},
               lambda draw, nodes: ({"Probe0": {"Permit": wait(draw)},
                                     "Probe1": {"Permit": {"code": pick(draw, (*REJECT, "Error"))}}}, {})),
           rules=("code-matrix-reserve-permit", "permit-reject-wins"))
def permit_reject_wins(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = run.records(pod, attempt, "Permit")
            first = next((i for i, r in enumerate(records) if is_rejection(r.get("code")) or r.get("code") == "Error"),
                         None)
            if first is None:
                continue
            run.exercise()
            failing = records[first]
            if records[first + 1:]:
                raise run.violation("a Permit plugin ran after an earlier one rejected", pod=pod,
                                    plugin=records[first + 1]["plugin"], status=failing.get("code"),
                                    records=tuple(records))
            attempt_records = run.probe_records(pod, attempt)
            bad = [r for r in attempt_records if r["point"] in BINDING_POINTS
                   or (r["point"] in ("Allow", "Reject") and r.get("delivered"))]
            if bad or run.final_attempt_bound(pod, attempt):
                raise run.violation(f"{failing['plugin']} rejected at Permit but the pod waited or "
                                    "went on to binding", pod=pod, plugin=failing["plugin"], status=failing.get("code"),
                                    records=(failing, *bad[:3]))


@dataclass(frozen=True)
class WaitEnd:
    """How a wait may end, `when` seconds after the Permit call: every outcome that upstream can
    deliver there. Signals due at one instant race (each timer and probe signal is its own
    goroutine, timers are created in map order, and the waiting pod's channel keeps the first send),
    so a tie admits each of them: `allowed` when the last allow is due then, and each Reject or
    timeout due then (`rejections`, their messages)."""
    when: float
    allowed: bool
    rejections: tuple[str, ...]

    def describe(self) -> str:
        outcomes = (["allowed"] if self.allowed else []) + [f"rejected ({m})" for m in self.rejections]
        return f"{' or '.join(outcomes)} at +{self.when:g}s"


def preflight_failed(records) -> bool:
    """PreBindPreFlight runs before WaitOnPermit; an Error or rejection there ends the binding cycle, so the
    wait is never awaited (its timers still fire on a pod nobody waits for)."""
    return any(r["point"] == "PreBindPreFlight" and r.get("code") not in ("Success", "Skip") for r in records)


def _due_by(t: float, when: float) -> bool:
    return t <= when + 1e-9


def expected_wait(run: Run, pod: str, attempt: int) -> WaitEnd | None:
    """The end of an attempt's wait, when its Permit plugins all returned Success or Wait with at
    least one Wait; times are relative to the Permit call (waiting_pods_map.go: a plugin's timer is
    stopped by its Allow, all are stopped by a Reject; the first signal sent wins)."""
    script = run.script(pod)
    records = run.records(pod, attempt, "Permit")
    waits = [r for r in records if r.get("code") == "Wait"]
    if script is None or not waits or any(r.get("code") not in ("Success", "Wait") for r in records):
        return None
    allowed_at: list[float] = []
    rejections: list[tuple[float, str]] = []
    for r in waits:
        timeout = min(float(r.get("timeout", 0.0)), MAX_PERMIT_TIMEOUT)
        then = script.action(r["plugin"], "Permit", attempt, r.get("node", "")).then
        timeout_msg = f"rejected due to timeout after waiting {format_duration(timeout)} at plugin {r['plugin']}"
        signalled = then is not None and _due_by(then.after, timeout)
        if signalled and then.signal == "allow":
            allowed_at.append(then.after)
        elif signalled:
            rejections.append((then.after, then.message))
        if not signalled or _due_by(timeout, then.after):
            rejections.append((timeout, timeout_msg))
    last_allow = max(allowed_at) if len(allowed_at) == len(waits) else float("inf")
    when = min([last_allow, *(t for t, _ in rejections)])
    return WaitEnd(when, _due_by(last_allow, when), tuple(m for t, m in rejections if _due_by(t, when)))


def _preempted_while_waiting(run: Run, pod: str, attempt: int) -> bool:
    """Whether a pod of higher priority preempted on the node the attempt waits on (its victim, waiting, is
    rejected then)."""
    node = run.chosen_node(pod, attempt)
    priority = run.pod_objects[pod].effective_priority
    return any(other != pod and p.effective_priority > priority and node in preempted_on(run, other)
               for other, p in run.pod_objects.items())


@invariant("permit-wait-resolution",
           "A waiting pod binds only after every waiting plugin allowed it, and is rejected at the first Reject "
           "or timeout (capped at 15 minutes), never before; the timeout message names the plugin.",
           "framework.go WaitOnPermit; waiting_pods_map.go (spec §2.13, §11.12)",
           situation=Situation(
               {"permit": ["Probe0", "Probe1"]}, lambda draw, nodes: ({"Probe0": {"Permit": wait(draw)}}, {})),
           rules=("permit-wait-resolution", "waiting-pods-handle"))
def permit_wait_resolution(run: Run) -> None:
    tolerance = 1e-6 if "virtual-time" in run.capabilities else LATE_TOLERANCE
    for pod in run.live_pods:
        attempts = run.attempts(pod)
        for attempt in attempts:
            expected = expected_wait(run, pod, attempt)
            if expected is None:
                continue
            when = expected.when
            start = run.records(pod, attempt, "Permit")[-1]["t"]
            records = run.probe_records(pod, attempt)
            went_on = [r for r in records if r["point"] in BINDING_POINTS[1:]]
            bound = run.final_attempt_bound(pod, attempt)
            if attempt == attempts[-1] and run.outcome.pods[pod].phase in ("waiting", "pending") \
                    and start + when + tolerance > run.scenario.deadline:
                continue  # the deadline came before the wait could end
            if cut_by_restart(run, pod, attempt):
                continue  # the old scheduler makes no call after a restart fault
            if preflight_failed(records):
                continue  # the binding cycle ended before WaitOnPermit (schedule_one.go bindingCycle)
            if _preempted_while_waiting(run, pod, attempt):
                continue  # preemption rejects a waiting victim (executor.go PreemptPod)
            run.exercise()
            if (went_on or bound) and not expected.allowed:
                raise run.violation("the pod went on to binding although a waiting plugin "
                                    "rejected or timed out", pod=pod, expected=expected.describe(),
                                    actual="binding", records=tuple(went_on[:3]))
            if not (went_on or bound) and not expected.rejections:
                raise run.violation("every waiting plugin allowed the pod but it did not go "
                                    "on to binding", pod=pod, expected=expected.describe(), actual="no binding")
            ends = [r for r in records if r["point"] in ("Unreserve", *BINDING_POINTS[1:])]
            if ends:
                elapsed = ends[0]["t"] - start
                if elapsed < when - 1e-6 or elapsed > when + tolerance:
                    raise run.violation(f"the wait ended after {elapsed:g}s",
                                        pod=pod, expected=expected.describe(), actual=f"{elapsed:g}s",
                                        records=(ends[0],))
            timeouts = [m for m in expected.rejections if m.startswith("rejected due to timeout")]
            if timeouts and not (went_on or bound) and attempt == attempts[-1]:
                texts = [e.get("message", "") for e in run.outcome.events if e.get("pod") == pod]
                if not any(m in t for m in expected.rejections for t in texts):
                    raise run.violation("the timeout rejection does not name a plugin that timed out then",
                                        pod=pod, expected=" or ".join(expected.rejections), actual=texts[-1:] or None)


@invariant("waiting-pod-nominated",
           "A pod left waiting at Permit when the run ends carries the node it waits on as its "
           "nominatedNodeName: with NominatedNodeNameForExpectation (beta, on) the binding cycle patches it "
           "before WaitOnPermit.",
           "schedule_one.go bindingCycle (RunPreBindPreFlights, WillWaitOnPermit, updatePod before "
           "WaitOnPermit) (spec §2.14)", rules=("nnn-for-expectation",))
def waiting_pod_nominated(run: Run) -> None:
    if any(f.get("detail") == "status" for f in run.outcome.faults):
        return  # a failed patch is logged and ignored ("not critical")
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        attempts = run.attempts(pod)
        if result is None or result.phase != "waiting" or not attempts:
            continue
        records = run.probe_records(pod, attempts[-1])
        waits = [r for r in records if r["point"] == "Permit" and r.get("code") == "Wait"]
        if not waits or preflight_failed(records) or any(r["point"] in ("Unreserve", *BINDING_POINTS[1:])
                                                         for r in records):
            continue
        node = run.chosen_node(pod, attempts[-1])
        run.exercise()
        if node and result.nominated_node_name != node:
            raise run.violation(f"{pod} was left waiting at Permit on {node} but is nominated to "
                                f"{result.nominated_node_name or 'no node'}", pod=pod, expected=node,
                                actual=result.nominated_node_name, records=tuple(waits))


@invariant("nomination-has-a-source",
           "A pod that ends unbound with a nominatedNodeName got it from a PostFilter that nominated that "
           "node (a preemption) or from a binding cycle on that node that waited at Permit or had PreBind work "
           "(PreBindPreFlight Success): the scheduler patches it for expectation only then.",
           "schedule_one.go bindingCycle (the patch only if PreBindPreFlight succeeded or WillWaitOnPermit), "
           "handleSchedulingFailure (NominatingInfo of PostFilter) (spec §2.6, §2.14)",
           requires=("probes",), rules=("nnn-for-expectation",))
def nomination_has_a_source(run: Run) -> None:
    if run.outcome.faults or run.outcome.timeline:
        return  # a failed clear, a restart or an update may leave another nomination
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        node = result.nominated_node_name if result is not None else ""
        if not node or result.phase == "bound" or not run.probes_at(pod, "preFilter"):
            continue
        if any(p not in PROBE_NAMES and p != "DefaultPreemption" for p in run.plugins_at(pod, "postFilter")):
            continue  # a plugin the trace cannot see may have nominated it
        run.exercise()
        nominated = any(r.get("nominate") == node for r in run.records(pod, point="PostFilter"))
        expected = any(run.chosen_node(pod, a) == node and any(
            r["point"] == "Permit" and r.get("code") == "Wait" or r["point"] == "PreBindPreFlight"
            and r.get("code") == "Success" for r in run.probe_records(pod, a)) for a in run.attempts(pod))
        if not (nominated or expected or node in preempted_on(run, pod)):
            raise run.violation(f"{pod} ends {result.phase} nominated to {node}, but no PostFilter nominated "
                                "it there and no binding cycle there waited at Permit or had PreBind work",
                                pod=pod, expected="no nomination", actual=node)
