"""Golden scenarios of the scheduling cycle: PreEnqueue to NormalizeScore, and attempts.

Upstream runs Filter and Score over nodes in parallel and stops at the first error, so an error at
Filter has one node and Score never errors (which nodes were scored before the cancel is chance);
ties between best scores are broken at random, so every scored scenario has one best node; PreEnqueue
plugins run in map order and stop at the first rejection, so a rejecting PreEnqueue has no company.
"""

from __future__ import annotations

from .builders import Golden, pod, scenario

TWO = ("Probe0", "Probe1")
NODES2 = ("node-0", "node-1")
NODES3 = ("node-0", "node-1", "node-2")
TO_NODE1 = {"Probe0": {"Score": {"score": 0, "byNode": {"node-1": {"score": 10}}}}}


def _rejecting(point: str, code: str) -> dict:
    return {"Probe0": {point: {"code": code, "reasons": [f"{point} says {code}"]}}}


CYCLE = [
    Golden("defaults-one-probe", "no script: one probe on one node, every point Success, Bind Skip "
           "(DefaultBinder binds)", scenario(pod("pod-0"))),
    Golden("defaults-two-probes-in-order", "two probes run in profile order at each point; Score picks node-1",
           scenario(pod("pod-0", TO_NODE1), probes=TWO, nodes=NODES2)),
    Golden("preenqueue-every-rejecting-code", "PreEnqueue: each non-Success code keeps its pod out of the queue",
           scenario(*(pod(f"pod-{i}", _rejecting("PreEnqueue", code)) for i, code in enumerate(
               ("Unschedulable", "UnschedulableAndUnresolvable", "Error", "Wait", "Skip", "Pending"))))),
    Golden("invalid-script-answers-error", "an unknown point in the script: the probe answers Error with the reason",
           scenario(pod("pod-0", {"Probe0": {"Sort": {}}}))),
    Golden("preenqueue-gates-on-the-way-to-backoff", "PreEnqueue runs when a failed pod enters backoffQ: "
           "after two errors its third action gates it",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": [{"code": "Error"}, {"code": "Error"}, {}],
                                             "PreEnqueue": [{}, {"code": "Unschedulable", "reasons": ["hold"]}]}}))),
    Golden("prefilter-rejections", "PreFilter Unschedulable (the other probe still runs), "
           "UnschedulableAndUnresolvable (it does not): no Filter, PostFilter runs",
           scenario(*(pod(f"pod-{i}", _rejecting("PreFilter", code)) for i, code in enumerate(
               ("Unschedulable", "UnschedulableAndUnresolvable"))), probes=TWO)),
    Golden("prefilter-pending-is-an-error", "PreFilter Pending is not a PreFilter rejection: an error, retried",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": [{"code": "Pending", "reasons": ["wait"]}, {}]}}))),
    Golden("prefilter-error-then-success", "PreFilter Error on attempt 1 (backoff), Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": [{"code": "Error", "reasons": ["boom"]}, {}]}}))),
    Golden("prefilter-wait-is-an-error", "PreFilter Wait is not a PreFilter code: an error, retried",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": [{"code": "Wait"}, {}]}}))),
    Golden("prefilter-skip-skips-own-filter", "PreFilter Skip: that probe's Filter is not called, the other's is",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": {"code": "Skip"}}}), probes=TWO)),
    Golden("prefilter-result-narrows-nodes", "a PreFilterResult of one node: only it is filtered, nothing scored",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": {"result": ["node-1"]}}}), nodes=NODES3)),
    Golden("prefilter-results-intersect", "two PreFilterResults: only their intersection is filtered",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": {"result": ["node-0", "node-1"]}},
                                  "Probe1": {"PreFilter": {"result": ["node-1", "node-2"]}}}),
                    probes=TWO, nodes=NODES3)),
    Golden("prefilter-empty-result", "an empty PreFilterResult: no node is filtered, the pod is unschedulable",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": {"result": []}}}), nodes=NODES2)),
    Golden("prefilter-result-unknown-node", "a PreFilterResult naming no existing node: nothing to filter",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": {"result": ["node-9"]}}}), nodes=NODES2)),
    Golden("filter-rejections-by-node", "Filter byNode: Unschedulable, UnschedulableAndUnresolvable, Pending; "
           "the later probe is not called on a rejected node; PostFilter runs",
           scenario(pod("pod-0", {"Probe0": {"Filter": {"code": "Unschedulable", "reasons": ["full"], "byNode": {
               "node-1": {"code": "UnschedulableAndUnresolvable", "reasons": ["never"]},
               "node-2": {"code": "Pending", "reasons": ["later"]}}}}}), probes=TWO, nodes=NODES3)),
    Golden("filter-bynode-leaves-one-node", "Filter rejects all nodes but node-2: it wins without scoring",
           scenario(pod("pod-0", {"Probe1": {"Filter": {"code": "Unschedulable", "byNode": {"node-2": {}}}}}),
                    probes=TWO, nodes=NODES3)),
    Golden("filter-error-then-success", "Filter Error on the only node, then Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Filter": [{"code": "Error", "reasons": ["disk"]}, {}]}}))),
    Golden("filter-skip-is-an-error", "Filter Skip is not a Filter code: an error, retried",
           scenario(pod("pod-0", {"Probe0": {"Filter": [{"code": "Skip"}, {}]}}))),
    Golden("postfilter-first-success-nominates", "PostFilter: Probe0 Unschedulable, Probe1 Success nominates node-0",
           scenario(pod("pod-0", {"Probe0": {"Filter": {"code": "Unschedulable"},
                                             "PostFilter": {"code": "Unschedulable", "reasons": ["no"]}},
                                  "Probe1": {"PostFilter": {"nominate": "node-0"}}}), probes=TWO)),
    Golden("postfilter-rejecting-probe-still-nominates", "PostFilter: both probes Unschedulable, Probe0's "
           "nomination is kept as the last non-noop result",
           scenario(pod("pod-0", {"Probe0": {"Filter": {"code": "Unschedulable"},
                                             "PostFilter": {"code": "Unschedulable", "nominate": "node-0"}},
                                  "Probe1": {"PostFilter": {"code": "Unschedulable", "reasons": ["still no"]}}}),
                    probes=TWO)),
    Golden("postfilter-unresolvable-stops", "PostFilter UnschedulableAndUnresolvable: the next probe is not called",
           scenario(pod("pod-0", {"Probe0": {"Filter": {"code": "Unschedulable"},
                                             "PostFilter": {"code": "UnschedulableAndUnresolvable"}}}), probes=TWO)),
    Golden("postfilter-error-stops", "PostFilter Error: the next probe is not called",
           scenario(pod("pod-0", {"Probe0": {"Filter": {"code": "Unschedulable"},
                                             "PostFilter": {"code": "Error", "reasons": ["oops"]}}}), probes=TWO)),
    Golden("prescore-skip-skips-own-score", "PreScore Skip: that probe's Score is not called; Probe1 picks node-1",
           scenario(pod("pod-0", {"Probe0": {"PreScore": {"code": "Skip"}},
                                  "Probe1": {"Score": {"score": 0, "byNode": {"node-1": {"score": 3}}}}}),
                    probes=TWO, nodes=NODES2)),
    Golden("prescore-unschedulable-is-an-error", "PreScore Unschedulable is an error; Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"PreScore": [{"code": "Unschedulable"}, {}],
                                             "Score": {"byNode": {"node-1": {"score": 1}}}}}), nodes=NODES2)),
    Golden("score-values-pick-the-best", "Score per node, summed over probes (weight 1): node-2 has the top sum",
           scenario(pod("pod-0", {"Probe0": {"Score": {"score": 50, "byNode": {"node-1": {"score": 90}}}},
                                  "Probe1": {"Score": {"score": 40, "byNode": {"node-1": {"score": 0},
                                                                                "node-2": {"score": 100}}}}}),
                    probes=TWO, nodes=NODES3)),
    Golden("score-out-of-range-is-an-error", "Score 101 without NormalizeScore fails the attempt; 7 on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Score": [{"score": 101, "byNode": {"node-1": {"score": 5}}},
                                                       {"score": 7}]},
                                  "Probe1": {"Score": {"byNode": {"node-1": {"score": 1}}}}}),
                    probes=TWO, nodes=NODES2)),
    Golden("normalize-score-rewrites", "NormalizeScore replaces out-of-range raw scores; node-0 wins after it",
           scenario(pod("pod-0", {"Probe0": {"Score": {"score": 500, "byNode": {"node-1": {"score": 1000}}},
                                             "NormalizeScore": {"scores": {"node-0": 100, "node-1": 20}}}}),
                    nodes=NODES2, normalize=["Probe0"])),
    Golden("normalize-score-out-of-range", "NormalizeScore leaves -1: an error; in range on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Score": {"score": 30},
                                             "NormalizeScore": [{"scores": {"node-0": -1}},
                                                                {"scores": {"node-0": 60}}]}}),
                    nodes=NODES2, normalize=["Probe0"])),
    Golden("normalize-score-error", "NormalizeScore Error fails the attempt; Success on attempt 2",
           scenario(pod("pod-0", {"Probe0": {"Score": {"byNode": {"node-1": {"score": 9}}},
                                             "NormalizeScore": [{"code": "Error", "reasons": ["norm"]}, {}]}}),
                    nodes=NODES2, normalize=["Probe0"])),
    Golden("attempts-count-cycles", "three attempts (PreFilter Error twice): PreEnqueue carries the count so far",
           scenario(pod("pod-0", {"Probe0": {"PreFilter": [{"code": "Error", "reasons": ["one"]},
                                                           {"code": "Error", "reasons": ["two"]}, {}]}}),
                    deadline=15)),
]
