"""Golden scenarios from Reserve to PostBind, nominated pods and preemption.

One node unless the chosen node matters; then Score makes node-1 the only best node.
"""

from __future__ import annotations

from .builders import Golden, pod, scenario

TWO = ("Probe0", "Probe1")
THREE = ("Probe0", "Probe1", "Probe2")
NODES2 = ("node-0", "node-1")
TO_NODE1 = {"Score": {"score": 0, "byNode": {"node-1": {"score": 10}}}}


def _wait(timeout: str, then: dict | None = None) -> dict:
    action = {"code": "Wait", "timeout": timeout}
    if then is not None:
        action["then"] = then
    return action


BINDING = [
    Golden("reserve-unschedulable-unreserves-in-reverse", "Reserve Unschedulable at Probe1: Unreserve runs on "
           "every probe in reverse order (Probe2, never reserved, too)",
           scenario(pod("pod-0", {"Probe1": {"Reserve": {"code": "Unschedulable", "reasons": ["taken"]}}}),
                    probes=THREE)),
    Golden("reserve-error-then-success", "Reserve Error: Unreserve, backoff, Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Reserve": [{"code": "Error", "reasons": ["r"]}, {}]}}), probes=TWO)),
    Golden("reserve-bynode-uses-chosen-node", "Reserve byNode: the action for the chosen node (node-1) applies",
           scenario(pod("pod-0", {"Probe0": {**TO_NODE1, "Reserve": {"code": "Error", "byNode": {"node-1": {}}}}}),
                    nodes=NODES2)),
    Golden("permit-unschedulable", "Permit Unschedulable: Unreserve, the pod is unschedulable",
           scenario(pod("pod-0", {"Probe1": {"Permit": {"code": "Unschedulable", "reasons": ["later"]}}}),
                    probes=TWO)),
    Golden("permit-error-then-success", "Permit Error: Unreserve, backoff, Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Permit": [{"code": "Error", "reasons": ["p"]}, {}]}}))),
    Golden("permit-skip-is-an-error", "Permit Skip is not a Permit code: an error (Unreserve), retried",
           scenario(pod("pod-0", {"Probe0": {"Permit": [{"code": "Skip"}, {}]}}), probes=TWO)),
    Golden("permit-wait-allow", "Permit Wait 5s, allowed after 100ms: the binding cycle goes on",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("5s", {"signal": "allow", "after": "100ms"})}}))),
    Golden("permit-wait-reject", "Permit Wait, rejected after 100ms with a message: Unreserve",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("5s", {"signal": "reject", "after": "100ms",
                                                                    "message": "go away"})}}))),
    Golden("permit-wait-timeout", "Permit Wait 200ms with no signal: rejected at the timeout, Unreserve",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("200ms")}}))),
    Golden("permit-two-waits-both-allow", "two probes Wait; the pod binds only after both allowed",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("5s", {"signal": "allow", "after": "100ms"})},
                                  "Probe1": {"Permit": _wait("5s", {"signal": "allow", "after": "300ms"})}}),
                    probes=TWO)),
    Golden("permit-reject-beats-pending-allow", "two probes Wait; Probe1's reject at 100ms ends the wait, so "
           "Probe0's allow at 300ms is undelivered",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("5s", {"signal": "allow", "after": "300ms"})},
                                  "Probe1": {"Permit": _wait("5s", {"signal": "reject", "after": "100ms",
                                                                    "message": "no"})}}), probes=TWO)),
    Golden("permit-signal-after-timeout-undelivered", "the allow comes after the timeout: delivered false",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("100ms", {"signal": "allow", "after": "600ms"})}}))),
    Golden("permit-signal-without-waiting-pod", "Probe0 waits but Probe1 rejects at Permit: the pod never "
           "waits, so the allow is undelivered",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("5s", {"signal": "allow", "after": "50ms"})},
                                  "Probe1": {"Permit": {"code": "Unschedulable"}}}), probes=TWO)),
    Golden("prebind-preflight-skip-skips-own-prebind", "PreBindPreFlight Skip: that probe's PreBind is not called",
           scenario(pod("pod-0", {"Probe0": {"PreBindPreFlight": {"code": "Skip"}}}), probes=TWO)),
    Golden("prebind-preflight-unschedulable-is-an-error", "PreBindPreFlight Unschedulable is an error; "
           "Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"PreBindPreFlight": [{"code": "Unschedulable"}, {}]}}))),
    Golden("prebind-error-then-success", "PreBind Error: Unreserve, backoff, Success on attempt 2",
           scenario(pod("pod-0", {"Probe1": {"PreBind": [{"code": "Error", "reasons": ["vol"]}, {}]}}),
                    probes=TWO)),
    Golden("prebind-unschedulable-retried", "PreBind Unschedulable: a binding failure, retried after backoff",
           scenario(pod("pod-0", {"Probe0": {"PreBind": [{"code": "Unschedulable"}, {}]}}))),
    Golden("bind-success-by-probe", "Probe0 binds: no later bind plugin is called; PostBind follows",
           scenario(pod("pod-0", {"Probe0": {"Bind": {"code": "Success"}}}), probes=TWO)),
    Golden("bind-skip-then-success", "Probe0 skips Bind, Probe1 binds on the chosen node-1",
           scenario(pod("pod-0", {"Probe0": TO_NODE1,
                                  "Probe1": {"Bind": {"code": "Skip", "byNode": {"node-1": {"code": "Success"}}}}}),
                    probes=TWO, nodes=NODES2)),
    Golden("bind-error-then-success", "Bind Error: Unreserve, backoff, DefaultBinder binds on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Bind": [{"code": "Error", "reasons": ["api"]}, {"code": "Skip"}]}}))),
    Golden("bind-unschedulable-retried", "Bind Unschedulable: a binding failure, retried after backoff",
           scenario(pod("pod-0", {"Probe0": {"Bind": [{"code": "Unschedulable"}, {"code": "Success"}]}}))),
    Golden("two-pods-each-own-script", "two pods in one scenario, each with its own script and trace",
           scenario(pod("pod-0", {"Probe0": {"Permit": _wait("5s", {"signal": "allow", "after": "50ms"})}}),
                    pod("pod-1", {"Probe1": {"Bind": {"code": "Success"}}}), probes=TWO)),
    Golden("nominated-pod-filters-with-addpod", "pod-0 (priority 10) is nominated to node-0 but rejected there; "
           "pod-1 is filtered on node-0 with pod-0 added (AddPod), then without it. Reserve rejects pod-1, so "
           "no binding wakes pod-0 (its retry would race its own asynchronous nominatedNodeName patch)",
           scenario(pod("pod-0", {"Probe0": {"Filter": {"code": "Unschedulable"},
                                             "PostFilter": {"nominate": "node-0"}}}, priority=10),
                    pod("pod-1", {"Probe0": {"Reserve": {"code": "Unschedulable", "reasons": ["after filter"]}}},
                        priority=0))),
    Golden("preemption-dry-run-removes-and-adds", "DefaultPreemption after the probes: RemovePod/AddPod/Filter "
           "of the dry run on node-0, the victim deleted, the preemptor bound on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"PostFilter": {"code": "Unschedulable"}}}, priority=10, cpu="3"),
                    pods=[pod("victim", node_name="node-0", priority=0, cpu="2")],
                    extra={"preFilter": ["NodeResourcesFit"], "filter": ["NodeResourcesFit"],
                           "postFilter": ["DefaultPreemption"]})),
]
