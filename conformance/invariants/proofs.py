"""The mutant matrix: per rule of the coverage matrix and per direction it can be broken in, the broken
scheduler (mutant) that breaks it so, and the invariant that catches it, or why none does.

A rule is broken "too much" when what it makes happen happens where it must not (or more often), "too
little" when it is left out where it must happen; timing rules are broken "too early" / "too late", order
rules in the "wrong order". The mutants themselves and their witnesses (a small hand-made scenario on
which each visibly misbehaves) are test code, in tests/conformance/rule_mutants.py, mutants.py,
hard_mutants.py, unseen_mutants.py and pending_mutants*.py (witnesses in pending_witnesses.py), gathered by
mutant_matrix.py; tests/conformance/test_rule_mutants.py runs them against this table.
A rule and direction without a mutant yet is listed in PENDING, so what is not done is counted, not hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .coverage import RULES

MUCH, LITTLE, EARLY, LATE, ORDER = "too much", "too little", "too early", "too late", "wrong order"
DIRECTIONS = (MUCH, LITTLE, EARLY, LATE, ORDER)

# The directions a rule can be broken in, where they are not (too much, too little).
_TIMING, _ORDERED = (EARLY, LATE), (ORDER, MUCH, LITTLE)
RULE_DIRECTIONS: Mapping[str, tuple[str, ...]] = {
    "queue-sort-priority-timestamp": (ORDER,), "unreserve-all-reverse": _ORDERED,
    "config-expansion": _ORDERED,
    "fit-error-message": _ORDERED, "permit-wait-resolution": _TIMING, "error-backoff": _TIMING,
    "unschedulable-waits-for-event": _TIMING, "unschedulable-flush": _TIMING, "nnn-for-expectation": _TIMING,
}


def directions_of(rule_id: str) -> tuple[str, ...]:
    return RULE_DIRECTIONS.get(rule_id, (MUCH, LITTLE))


@dataclass(frozen=True)
class Proof:
    rule: str
    direction: str
    mutant: str
    how: str                 # what the mutant does wrong, in the rule's terms
    caught_by: str = ""      # the invariant that catches it on its witness
    reason: str = ""         # without caught_by: why no invariant does (equivalent / differential only)
    no_search: str = ""      # why the ci profile's search cannot reach it (the witness still catches it)


def _p(rule: str, direction: str, mutant: str, how: str, caught_by: str, no_search: str = "") -> Proof:
    return Proof(rule, direction, mutant, how, caught_by, no_search=no_search)


_NEVER_NOMINATED = ("generated pods are never created nominated (after a preemption, whether the retry reads "
                    "the nomination is a race upstream)")


def _missed(invariant: str) -> str:
    return f"the ci profile's search of {invariant} misses it (tried once, issue 32)"


PROOFS: tuple[Proof, ...] = (
    # filtering
    _p("filter-short-circuit", MUCH, "filter-not-short-circuited",
       "Filter plugins run after one rejected the node",
       "filter-short-circuit"),
    _p("filter-short-circuit", LITTLE, "filter-stops-after-first-success", "a node passes after the first "
       "accepting Filter plugin; later ones are left out", "chosen-node-passed-filters"),
    _p("code-matrix-filter", MUCH, "filter-not-short-circuited",
       "a rejection does not stop the node's Filter loop",
       "filter-short-circuit"),
    _p("prefilter-skip", LITTLE, "prefilter-skip-ignored",
       "a PreFilter Skip does not drop the plugin's Filter",
       "prefilter-skip-pairing"),
    _p("prefilter-skip", MUCH, "prefilter-success-skips-filter",
       "a PreFilter Success drops the plugin's Filter",
       "chosen-node-passed-filters"),
    _p("prefilter-result-intersection", LITTLE, "prefilter-result-ignored", "Filter runs outside the "
       "PreFilterResult", "prefilter-result-restricts"),
    _p("gates-never-prefiltered", LITTLE, "gates-ignored", "a gated pod is scheduled",
       "gated-pods-never-prefiltered"),
    _p("chosen-node-feasible", LITTLE, "infeasible-node-chosen", "the pod lands on a node a Filter rejected",
       "chosen-node-passed-filters"),
    _p("capacity", LITTLE, "capacity-ignored", "NodeResourcesFit is left out: nodes overcommit",
       "capacity-respected"),
    _p("capacity", MUCH, "capacity-halved", "NodeResourcesFit rejects pods that fit",
       "schedulable-pods-bound"),
    _p("config-expansion", ORDER, "filters-built-in-reverse",
       "Filter plugins run in reverse configured order",
       "plugin-order-matches-expansion"),
    _p("filter-error-fails-cycle", LITTLE, "filter-error-as-rejection",
       "a Filter Error only rejects its node",
       "failure-ends-attempt"),
    _p("filter-error-fails-cycle", MUCH, "filter-rejection-as-error", "a Filter rejection fails the cycle",
       "every-node-evaluated"),
    _p("code-matrix-filter", LITTLE, "filter-error-as-rejection", "a Filter Error is taken as a rejection",
       "failure-ends-attempt"),
    # PostFilter
    _p("postfilter-loop", LITTLE, "postfilter-stops-at-unschedulable", "the PostFilter loop stops at an "
       "Unschedulable", "plugins-run-until-stop"),
    _p("postfilter-only-on-fit-error", MUCH, "postfilter-with-feasible-node",
       "PostFilter runs although a node is "
       "feasible", "postfilter-only-without-feasible-node"),
    _p("postfilter-only-on-fit-error", LITTLE, "postfilter-never-run",
       "PostFilter does not run although no node "
       "is feasible", "postfilter-only-without-feasible-node"),
    # scoring
    _p("one-feasible-no-scoring", LITTLE, "scores-with-one-feasible-node",
       "one feasible node is scored anyway",
       "one-feasible-node-no-scoring"),
    _p("one-feasible-no-scoring", MUCH, "no-scoring-with-two-feasible-nodes",
       "the no-scoring shortcut is taken "
       "with two feasible nodes", "chosen-node-has-max-score"),
    _p("score-range", LITTLE, "no-score-range-check", "a score outside [0, 100] is accepted",
       "score-range-enforced"),
    _p("score-range", MUCH, "score-range-too-narrow", "a score of 100 fails the cycle",
       "score-range-enforced"),
    _p("weighted-sum-max", LITTLE, "weights-ignored", "Score weights are not applied",
       "chosen-node-has-max-score"),
    _p("prescore-skip", LITTLE, "prescore-skip-ignored", "a PreScore Skip does not drop the plugin's Score",
       "prescore-skip-pairing"),
    _p("prescore-skip", MUCH, "prescore-success-skips-score", "a PreScore Success drops the plugin's Score",
       "score-calls-complete"),
    _p("normalize-iff-extensions", LITTLE, "normalize-score-skipped", "NormalizeScore is not called",
       "score-calls-complete"),
    _p("normalize-iff-extensions", MUCH, "normalize-twice", "NormalizeScore runs twice per plugin",
       "score-calls-complete"),
    _p("num-feasible-nodes-to-find", LITTLE, "one-feasible-node-enough",
       "filtering stops at the first feasible "
       "node", "every-node-evaluated"),
    Proof("no-scoring-total-one", LITTLE, "total-zero-without-scoring",
          "without Score plugins every node totals 0",
          reason="equivalent: totals are not traced and every node ties either way, so the outcome and trace "
                 "equal the reference's"),
    _p("prescore-error", LITTLE, "prescore-error-ignored", "a PreScore failure does not fail the cycle",
       "failure-ends-attempt", no_search="the ci profile's 100 examples miss it (a 400-example search finds it "
       "at example 42): its situation draws a PreScore failure too rarely"),
    _p("score-error", LITTLE, "score-error-counts-zero", "a Score failure counts as 0",
       "failure-ends-attempt"),
    _p("score-weight-zero-is-one", LITTLE, "zero-weight-kept-zero", "a Score weight of 0 stays 0",
       "chosen-node-has-max-score", no_search="the generators draw no weight-0 Score plugin"),
    # reserve, permit
    _p("reserve-short-circuit", MUCH, "reserve-not-short-circuited", "Reserve plugins run after one failed",
       "reserve-short-circuit"),
    _p("reserve-short-circuit", LITTLE, "reserve-stops-after-first", "the Reserve loop stops after a Success",
       "plugins-run-until-stop"),
    _p("code-matrix-reserve-permit", MUCH, "reserve-not-short-circuited", "Reserve goes on after a failure",
       "reserve-short-circuit"),
    _p("reserve-failure-ends-cycle", LITTLE, "reserve-failure-ignored", "Permit and binding go on after a "
       "Reserve failure", "failure-ends-attempt"),
    _p("unreserve-all-reverse", ORDER, "forward-order-unreserve", "Unreserve runs in configured order",
       "unreserve-reverse-order"),
    _p("unreserve-all-reverse", LITTLE, "unreserve-only-reserved",
       "Unreserve leaves out the plugins whose Reserve "
       "did not run", "unreserve-reverse-order"),
    _p("unreserve-all-reverse", MUCH, "unreserve-twice", "Unreserve runs twice", "unreserve-reverse-order"),
    _p("permit-wait-resolution", LATE, "permit-timeout-ignored", "a Permit wait never times out",
       "permit-wait-resolution"),
    _p("permit-wait-resolution", EARLY, "permit-timeout-halved",
       "a Permit wait times out after half its timeout",
       "permit-wait-resolution"),
    _p("permit-reject-wins", LITTLE, "reject-after-wait-leaves-waiting-pod",
       "a rejection after a Wait leaves the "
       "pod waiting", "permit-reject-wins"),
    _p("permit-wait-continues", LITTLE, "permit-stops-at-wait", "the Permit loop stops at the first Wait",
       "plugins-run-until-stop"),
    # binding
    _p("bind-first-non-skip", MUCH, "bind-continues-after-success",
       "Bind plugins run after one bound the pod",
       "bind-first-non-skip"),
    _p("bind-first-non-skip", LITTLE, "bind-stops-at-skip", "the Bind loop stops at a Skip",
       "plugins-run-until-stop"),
    _p("prebind-stops-no-bind", LITTLE, "prebind-failure-still-binds",
       "the pod binds after a PreBind failure", "failure-ends-attempt"),
    _p("preflight-skip-drops-prebind", LITTLE, "prebind-ignores-preflight-skip",
       "PreBind runs after a PreBindPreFlight "
       "Skip", "plugins-run-until-stop"),
    _p("postbind-iff-bound", MUCH, "postbind-after-failed-bind", "PostBind runs after a failed Bind",
       "postbind-iff-bound"),
    _p("postbind-iff-bound", LITTLE, "postbind-never-run", "PostBind does not run after a binding",
       "postbind-iff-bound"),
    # the code x point matrix, by the mutants above
    _p("code-matrix-postfilter", LITTLE, "postfilter-stops-at-unschedulable", "PostFilter stops at an "
       "Unschedulable", "plugins-run-until-stop"),
    _p("code-matrix-prescore-score", LITTLE, "score-error-counts-zero", "a Score Error is not an Error",
       "failure-ends-attempt"),
    _p("code-matrix-reserve-permit", LITTLE, "reserve-stops-after-first", "Reserve stops at a Success",
       "plugins-run-until-stop"),
    _p("code-matrix-binding", MUCH, "bind-continues-after-success", "Bind goes on after a Success",
       "bind-first-non-skip"),
    _p("code-matrix-binding", LITTLE, "prebind-failure-still-binds",
       "a PreBind failure does not stop binding", "failure-ends-attempt"),
    # queue
    _p("queue-sort-priority-timestamp", ORDER, "lower-priority-popped-first",
       "activeQ pops the lower priority "
       "first", "queue-priority-order"),
    _p("error-backoff", EARLY, "errors-backed-off-by-rejections", "a pod failing with errors retries at once",
       "error-backoff-respected"),
    # failure paths
    _p("condition-reason", MUCH, "pending-not-a-rejection", "a Pending rejection gets SchedulerError",
       "condition-classification"),
    _p("condition-reason", LITTLE, "rejections-kept-as-rejections",
       "a PreScore rejection (an error upstream) "
       "gets Unschedulable", "condition-classification"),
    _p("fit-error-message", ORDER, "histogram-unsorted", "the reason histogram is not sorted",
       "fit-error-message"),
    _p("fit-error-message", MUCH, "postfilter-message-with-period", "a period after the PostFilter message",
       "fit-error-message"),
    _p("event-truncation", MUCH, "events-truncated-early", "FailedScheduling messages cut at 512 characters",
       "failed-scheduling-event-message", no_search="generated messages stay below 512 characters"),
    _p("bound-once", MUCH, "bind-retried-after-success", "a bound pod is bound again", "bound-at-most-once"),
    # hard constraints of the default Filter plugins
    _p("taint-toleration", LITTLE, "taints-ignored", "TaintToleration is left out", "taints-tolerated"),
    _p("node-affinity", LITTLE, "node-affinity-ignored", "NodeAffinity is left out",
       "node-selection-respected"),
    _p("node-unschedulable", LITTLE, "unschedulable-ignored", "NodeUnschedulable is left out",
       "unschedulable-nodes-avoided"),
    # preemption
    _p("preemption-policy-never", LITTLE, "never-policy-ignored", "a pod with preemptionPolicy Never evicts",
       "never-preempting-pods-evict-none"),
    _p("victims-minimal", LITTLE, "victims-not-reprieved", "a victim that could be reprieved is evicted",
       "preemption-victims-minimal"),
    _p("victims-lower-priority", MUCH, "equal-priority-victims",
       "pods of the preemptor's priority are evicted",
       "preemption-evicts-lower-priority-only"),
    # the older mutants given witnesses (issue 32): pending_witnesses.py OLDER_WITNESSES
    _p("cycle-state-per-attempt", LITTLE, "cycle-state-reused",
       "a retry's CycleState still holds what the failed attempt wrote", "cycle-state-fresh"),
    _p("extender-binds-first", LITTLE, "plugins-bind-before-extender",
       "the Bind plugins bind before the binder extender is asked", "extender-binder-first"),
    _p("extender-filter-after-plugins", LITTLE, "extender-filter-ignored",
       "the nodes an extender filter fails stay feasible", "extender-filter-respected"),
    _p("extender-filter-error", LITTLE, "extender-filter-error-skipped",
       "a non-ignorable extender's filter error is skipped", "extender-filter-error-fails"),
    _p("ignorable-extender", LITTLE, "ignorable-extender-error-fails",
       "an ignorable extender's filter error fails the cycle", "ignorable-extender-errors-tolerated"),
    _p("prioritize-errors-ignored", LITTLE, "prioritize-error-fails",
       "a prioritize error fails the cycle", "extender-prioritize-errors-tolerated"),
    _p("extender-score-scale", LITTLE, "extender-weights-ignored",
       "extender scores count x 10 without their weight", "extender-scores-scaled"),
    _p("extender-score-scale", LITTLE, "extender-scores-dropped",
       "extender scores are left out of the total", "extender-scores-scaled"),
    _p("one-node-per-preemption", MUCH, "evict-on-every-candidate",
       "one attempt evicts the victims of every candidate node", "preemptor-nominated"),
    _p("pdb-respected-when-avoidable", LITTLE, "pdbs-ignored",
       "preemption sees no PodDisruptionBudget", "pdb-kept-when-avoidable"),
    _p("node-ports", LITTLE, "sidecar-ports-ignored",
       "NodePorts reads no sidecar's host ports", "host-ports-free"),
    _p("inter-pod-affinity", LITTLE, "existing-anti-affinity-ignored",
       "the anti-affinity of pods already on a node is not checked", "pod-affinity-respected"),
    _p("topology-spread", LITTLE, "spread-self-not-counted",
       "the incoming pod is left out of its own domain's count", "topology-spread-respected"),
    _p("liveness", LITTLE, "lost-wakeups", "cluster events never move rejected pods back to the queue",
       "schedulable-pods-bound"),
    # new mutants for the directions left pending (issue 32): pending_mutants.py, pending_mutants_2.py
    _p("code-matrix-prefilter", MUCH, "prefilter-unschedulable-stops",
       "a PreFilter Unschedulable stops the loop like UAU", "plugins-run-until-stop"),
    _p("code-matrix-prefilter", LITTLE, "prefilter-unresolvable-continues",
       "a PreFilter UAU goes on like Unschedulable", "plugins-run-until-stop"),
    _p("prefilter-unschedulable-continues", LITTLE, "prefilter-unschedulable-stops",
       "the later PreFilter plugins do not run after an Unschedulable", "plugins-run-until-stop"),
    _p("prefilter-unschedulable-continues", MUCH, "prefilter-unresolvable-continues",
       "the later PreFilter plugins run after a UAU too", "plugins-run-until-stop"),
    _p("code-matrix-postfilter", MUCH, "postfilter-continues-after-success",
       "PostFilter goes on after a Success", "plugins-run-until-stop"),
    _p("postfilter-loop", MUCH, "postfilter-continues-after-success",
       "the PostFilter loop goes on after a Success", "plugins-run-until-stop"),
    _p("code-matrix-prescore-score", MUCH, "prescore-skip-is-error", "a PreScore Skip is an Error",
       "condition-classification",
       no_search=_missed("condition-classification")),
    _p("prescore-error", MUCH, "prescore-skip-is-error", "a PreScore Skip fails the cycle",
       "condition-classification",
       no_search=_missed("condition-classification")),
    _p("preenqueue-any-non-success-gates", LITTLE, "preenqueue-only-unresolvable-gates",
       "a PreEnqueue Unschedulable lets the pod in", "preenqueue-gates"),
    _p("prefilter-rejection-no-filter", LITTLE, "filters-after-prefilter-rejection",
       "Filter runs after a PreFilter rejection", "failure-ends-attempt"),
    _p("plugins-per-point", MUCH, "filter-plugins-also-score",
       "a plugin enabled at Filter only is called at Score", "calls-match-profile"),
    _p("plugins-per-point", LITTLE, "last-reserve-plugin-dropped",
       "the last Reserve plugin is not called", "plugin-order-matches-expansion"),
    _p("event-requeues", MUCH, "one-gate-removed-ungates",
       "removing one of two scheduling gates ungates the pod", "gated-pods-never-prefiltered",
       no_search=_missed("gated-pods-never-prefiltered")),
    _p("score-per-feasible-node", MUCH, "infeasible-nodes-scored",
       "Score plugins score nodes a Filter rejected", "score-calls-complete"),
    _p("weighted-sum-max", MUCH, "weights-squared", "Score weights are applied twice (w x w)",
       "chosen-node-has-max-score",
       no_search=_missed("chosen-node-has-max-score")),
    _p("score-weight-zero-is-one", MUCH, "zero-weight-counted-two", "a Score weight of 0 counts as 2",
       "chosen-node-has-max-score", no_search="the generators draw no weight-0 Score plugin"),
    _p("permit-reject-wins", MUCH, "permit-wait-rejects", "a Permit Wait is taken as a rejection",
       "permit-wait-resolution"),
    _p("permit-wait-continues", MUCH, "permit-continues-after-rejection",
       "the Permit loop goes on after a rejection", "plugins-run-until-stop"),
    _p("preflight-failure", LITTLE, "preflight-error-skips", "a PreBindPreFlight Error is taken as a Skip",
       "failure-ends-attempt"),
    _p("preflight-failure", MUCH, "preflight-skip-fails", "a PreBindPreFlight Skip fails binding",
       "condition-classification",
       no_search=_missed("condition-classification")),
    _p("prebind-stops-no-bind", MUCH, "prebind-stops-at-success", "the PreBind loop stops after a Success",
       "plugins-run-until-stop"),
    _p("legal-codes", LITTLE, "reserve-skip-succeeds",
       "a Reserve Skip (not a Reserve code) passes as a Success",
       "failure-ends-attempt",
       no_search=_missed("failure-ends-attempt")),
    _p("legal-codes", MUCH, "filter-unresolvable-is-error",
       "a Filter UAU (a Filter code) is taken as an Error",
       "every-node-evaluated"),
    _p("profile-by-scheduler-name", LITTLE, "unknown-scheduler-name-scheduled",
       "a pod naming no profile is scheduled by the first", "calls-match-profile",
       no_search=_missed("calls-match-profile")),
    _p("bind-success-binds", LITTLE, "bind-not-written", "a Bind Success is not written to the API server",
       "postbind-iff-bound"),
    _p("bind-success-binds", MUCH, "failed-bind-still-written", "a failing Bind plugin's binding is written",
       "postbind-iff-bound"),
    _p("extender-binds-first", MUCH, "plugins-bind-after-extender",
       "the Bind plugins run after the binder extender bound", "extender-binder-first"),
    _p("fit-error-message", LITTLE, "postfilter-message-dropped",
       "the PostFilter reasons are left out of the message", "fit-error-message"),
    _p("taint-toleration", MUCH, "tolerated-taints-reject", "a tolerated NoSchedule taint rejects the node",
       "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("node-affinity", MUCH, "matching-selector-rejects", "a node matching the nodeSelector is rejected",
       "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("node-unschedulable", MUCH, "unschedulable-toleration-ignored",
       "an unschedulable node is rejected for a pod that tolerates it", "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("node-ports", MUCH, "any-host-ports-conflict", "host ports conflict whatever their numbers",
       "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("inter-pod-affinity", MUCH, "anti-affinity-against-any-pod",
       "required anti-affinity rejects a node holding any pod", "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("topology-spread", MUCH, "spread-against-any-pod",
       "a spread constraint rejects a node holding any pod", "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("prefilter-result-intersection", MUCH, "prefilter-result-drops-last",
       "Filter runs on the PreFilterResult but its last node", "every-node-evaluated",
       no_search=_missed("every-node-evaluated")),
    _p("add-remove-pod-skip", LITTLE, "extensions-of-skipped-plugins",
       "AddPod is called on a plugin that skipped PreFilter", "prefilter-skip-pairing",
       no_search=_missed("prefilter-skip-pairing")),
    _p("add-remove-pod-error", LITTLE, "extension-errors-ignored", "an AddPod Error is ignored",
       "failure-ends-attempt",
       no_search=_missed("failure-ends-attempt")),
    _p("add-remove-pod-error", MUCH, "extension-success-fails", "an AddPod Success fails the cycle",
       "condition-classification",
       no_search=_missed("condition-classification")),
    _p("assume-before-reserve", LITTLE, "assumed-pods-not-counted",
       "a pod waiting at Permit does not count against its node", "capacity-respected",
       no_search=_missed("capacity-respected")),
    _p("event-truncation", LITTLE, "events-never-truncated", "FailedScheduling messages are never truncated",
       "failed-scheduling-event-message", no_search="generated messages stay below 1024 characters"),
    _p("score-error", MUCH, "zero-score-is-error", "a (legal) Score of 0 fails the cycle",
       "score-range-enforced"),
    _p("extensions-in-their-phase", MUCH, "removepod-while-filtering",
       "RemovePod runs while filtering, outside preemption", "remove-pod-only-in-preemption"),
    _p("extender-filter-error", MUCH, "extender-failures-fail-the-cycle",
       "a filter extender's failed nodes fail the cycle as an error", "condition-classification",
       no_search=_missed("condition-classification")),
    _p("ignorable-extender", MUCH, "extender-filter-error-skipped",
       "a non-ignorable extender's filter error is skipped too", "extender-filter-error-fails"),
    _p("prioritize-errors-ignored", MUCH, "extender-scores-dropped",
       "successful prioritize answers add nothing either", "extender-scores-scaled"),
    _p("extender-score-scale", MUCH, "extender-scores-scaled-by-100",
       "extender scores count weight x 100", "chosen-node-has-max-score",
       no_search=_missed("chosen-node-has-max-score")),
    _p("unschedulable-waits-for-event", EARLY, "rejected-retried-without-event",
       "a rejected pod retries after its backoff without an event", "rejected-pod-waits-for-event"),
    _p("config-expansion", MUCH, "disabled-score-plugin-runs",
       "a plugin disabled at Score still scores", "plugin-order-matches-expansion"),
    _p("config-expansion", LITTLE, "last-reserve-plugin-dropped",
       "a multiPoint plugin is left out at Reserve", "plugin-order-matches-expansion"),
    _p("unschedulable-waits-for-event", LATE, "lost-wakeups",
       "a rejected pod is not retried after the event that lets it in", "schedulable-pods-bound"),
    _p("postfilter-does-not-schedule", LITTLE, "nominating-postfilter-is-an-error",
       "a nominating PostFilter turns the FitError into an error", "condition-classification",
       no_search=_missed("condition-classification")),
    # issue 32: the pending mutants that misbehaved on their witness uncaught, now caught
    _p("add-remove-pod-skip", MUCH, "extensions-never-called",
       "AddPod is never called, as if every plugin had skipped PreFilter", "nominated-pods-added"),
    _p("extensions-in-their-phase", LITTLE, "nominated-pods-not-added",
       "filtering does not add the nominated pods (no AddPod)", "nominated-pods-added"),
    _p("chosen-node-feasible", MUCH, "last-feasible-node-dropped",
       "the last feasible node is dropped as if a Filter had rejected it", "feasible-nodes-scored"),
    _p("score-per-feasible-node", LITTLE, "last-node-not-scored",
       "Score plugins leave the last feasible node out (it gets 0 without a call)", "feasible-nodes-scored"),
    _p("extender-filter-after-plugins", MUCH, "extender-filter-keeps-first-node",
       "a filter extender leaves only the first of the nodes it passes", "feasible-nodes-scored"),
    _p("victims-lower-priority", LITTLE, "adjacent-priority-spared",
       "a victim one priority below the preemptor is spared", "preemptor-finds-room",
       no_search="generated priorities come from the pools' classes (-10, 0, 100, 1000), never one apart"),
    _p("preemption-policy-never", MUCH, "every-pod-never-preempts",
       "every pod is treated as preemptionPolicy Never", "preemptor-finds-room"),
    _p("victims-minimal", MUCH, "one-victim-too-few",
       "of two or more victims the last is reprieved although the preemptor needs it gone",
       "preemption-victims-suffice"),
    # the event rules' mutants (tests/conformance/invariants/test_event_rules.py), on its hand-made scenarios
    _p("event-requeues", LITTLE, "never-requeues-on-pod-delete",
       "a pod deletion wakes no pending pod", "event-wakes-pending-pod"),
    _p("event-requeues", LITTLE, "keeps-deleted-pod-resources",
       "a deleted pod's room is never freed", "event-wakes-pending-pod"),
    _p("event-requeues", LITTLE, "never-ungates",
       "removing a pod's last gate never frees it", "event-wakes-pending-pod"),
    _p("event-snapshot", LITTLE, "keeps-deleted-nodes",
       "a deleted node stays in the cache", "deleted-node-unused"),
    # pending mutants given an invariant (issue 32): framework and queue
    _p("reserve-failure-ends-cycle", MUCH, "permit-skipped",
       "no Permit after a Reserve Success either: the pod binds unasked", "plugins-run-until-stop"),
    _p("preflight-skip-drops-prebind", MUCH, "preflight-success-drops-prebind",
       "a PreBindPreFlight Success drops the plugin's PreBind too", "plugins-run-until-stop"),
    _p("prefilter-rejection-no-filter", MUCH, "no-postfilter-after-prefilter-rejection",
       "a PreFilter rejection keeps PostFilter from running too", "postfilter-only-without-feasible-node"),
    _p("gates-never-prefiltered", MUCH, "ungated-pods-held",
       "a pod without scheduling gates is held as if gated", "preenqueue-gates"),
    _p("preenqueue-any-non-success-gates", MUCH, "preenqueue-success-gates",
       "a probe's PreEnqueue Success gates the pod too", "preenqueue-gates"),
    _p("profile-by-scheduler-name", MUCH, "second-profile-dropped",
       "a pod naming any profile but the first is dropped", "calls-match-profile"),
    _p("assume-before-reserve", MUCH, "rejected-pods-stay-assumed",
       "a pod rejected after Reserve stays assumed, holding its node's room", "unreserved-pods-forgotten"),
    _p("cycle-state-per-attempt", MUCH, "cycle-state-cleared-after-prefilter",
       "the CycleState loses what PreFilter wrote before Filter, within the attempt",
       "cycle-state-kept-in-attempt"),
    _p("event-snapshot", MUCH, "node-update-drops-node",
       "a node's update drops it from the cache, as a deletion would", "fit-error-counts-nodes"),
    # issue 32, helper h32d: binding, queue, preemption, deleted pods (tests/conformance/pending_mutants_h32d.py)
    _p("error-backoff", LATE, "error-backoff-doubled", "every error backoff lasts twice its duration",
       "error-backoff-bounded"),
    _p("all-bind-skip", LITTLE, "all-bind-skip-is-error",
       "every Bind plugin skipping fails the binding as an error (event, SchedulerError)",
       "condition-classification", no_search="the generators keep DefaultBinder in every profile, so no drawn "
       "attempt has every Bind plugin skip"),
    _p("all-bind-skip", MUCH, "bind-stops-at-skip",
       "one Bind plugin's Skip ends binding as if all had skipped: not bound, retried after the error backoff",
       "plugins-run-until-stop"),
    _p("binding-failure-moves-pods", LITTLE, "binding-failure-moves-nothing",
       "a failed binding cycle moves no unschedulable pod", "schedulable-pods-bound",
       no_search=_missed("schedulable-pods-bound")),
    _p("binding-failure-moves-pods", MUCH, "binding-rejection-moves-itself",
       "a binding cycle rejected at Permit moves its own pod too, which retries without an event",
       "rejected-pod-waits-for-event", no_search=_missed("rejected-pod-waits-for-event")),
    _p("liveness", MUCH, "unschedulable-pods-placed", "a pod no node takes is placed on the first node anyway",
       "capacity-respected"),
    _p("pdb-respected-when-avoidable", MUCH, "pdb-pods-never-victims",
       "a pod whose budget allows no disruption is never evicted, even where nothing else makes room",
       "preemptor-finds-room"),
    _p("one-node-per-preemption", LITTLE, "victims-never-evicted",
       "the chosen candidate's victims are not evicted (the preemptor is nominated all the same)",
       "preemption-evicts-named-victims"),
    _p("preemption-node-choice", LITTLE, "pdb-criterion-dropped",
       "the count of budget violations is left out of the candidates' order", "pdb-kept-when-avoidable"),
    _p("pre-enqueue-on-backoff-entry", LITTLE, "pre-enqueue-on-backoff-exit",
       "PreEnqueue runs when a pod leaves backoffQ, not when it enters it", "preenqueue-on-backoff-entry"),
    _p("pre-enqueue-on-backoff-entry", MUCH, "pre-enqueue-on-backoff-entry-and-exit",
       "PreEnqueue runs when a pod enters backoffQ and again when it leaves", "preenqueue-on-backoff-entry"),
    _p("deleted-waiting-pod", LITTLE, "deleted-waiting-pod-kept-waiting",
       "a deleted pod waiting at Permit keeps waiting until its timeout", "deleted-pod-left-alone"),
    _p("deleted-waiting-pod", MUCH, "any-deletion-rejects-waiting-pods",
       "any pod's deletion rejects every waiting pod", "permit-wait-resolution",
       no_search=_missed("permit-wait-resolution")),
    _p("failed-pod-gone-not-requeued", LITTLE, "gone-pods-requeued",
       "a pod deleted during its attempt is requeued and attempted again", "deleted-pod-left-alone"),
    _p("failed-pod-gone-not-requeued", MUCH, "failed-pods-dropped",
       "a pod whose attempt failed is dropped as if it were gone", "event-wakes-pending-pod"),
    _p("bound-once", LITTLE, "recreated-pod-never-bound",
       "a pod created again under a bound pod's name is never scheduled", "recreated-pod-scheduled"),
    _p("activate", LITTLE, "activate-ignored",
       "Activate moves no pod: a preemptor whose eviction failed waits for an event", "preemptor-reactivated"),
    _p("activate", MUCH, "activate-everything",
       "Activate moves every pending pod, not only those it names", "rejected-pod-waits-for-event",
       no_search=_missed("rejected-pod-waits-for-event")),
    _p("extender-interest", LITTLE, "extender-interest-ignored",
       "an extender with managedResources is asked about every pod", "extender-interest"),
    _p("extender-interest", MUCH, "extender-interest-never",
       "an extender with managedResources is asked about no pod, not even those requesting them",
       "extender-interest"),
    _p("waiting-victim-rejected", LITTLE, "waiting-victims-deleted",
       "a victim waiting at Permit is deleted through the API instead of rejected in memory",
       "deleted-victims-were-bound"),
    _p("waiting-victim-rejected", MUCH, "every-waiting-pod-preempted",
       "a preemption rejects every pod waiting on its node, victims or not", "permit-wait-resolution",
       no_search=_missed("permit-wait-resolution")),
    _p("queueing-hints", LITTLE, "hints-always-skip", "every queueing hint answers Skip: no event moves a pod",
       "event-wakes-pending-pod"),
    _p("queueing-hints", MUCH, "hints-always-queue",
       "every cluster event requeues every rejected pod, registered or not", "unregistered-events-ignored"),
    _p("nnn-for-expectation", LATE, "nominated-after-wait",
       "nominatedNodeName is patched only once Permit allowed the pod, not before it waits",
       "waiting-pod-nominated", no_search="generated Permit waits end within 2 s, so no drawn run ends "
       "with a pod still waiting"),
    _p("nnn-for-expectation", EARLY, "nominated-without-wait",
       "nominatedNodeName is patched in every binding cycle, also without a Permit wait or PreBind work",
       "nomination-has-a-source", no_search="the extra nomination is cleared by the binding or by the "
       "failure's status patch, except after every Bind plugin skipped, which no drawn profile allows "
       "(DefaultBinder is in every one)"),
    _p("unschedulable-flush", EARLY, "flush-after-ten-seconds",
       "pods are flushed from the unschedulable pool after 10 s instead of 5 minutes",
       "rejected-pod-waits-for-event"),
    _p("extender-wire-format", LITTLE, "extender-requests-camel-case",
       "requests to extenders name their fields in camelCase, not PascalCase", "extender-requests-well-formed"),
    _p("extender-wire-format", MUCH, "extender-prioritize-invented",
       "a filtering extender is also asked to prioritize, at a verb its config does not name",
       "extender-requests-well-formed"),
    _p("preemption-node-choice", MUCH, "victim-count-first",
       "the fewest victims count before their priorities in the candidates' order", "preemption-lowest-victims"),
    # issue 32, helper h32c: framework, filtering and scoring (tests/conformance/pending_mutants_h32c.py)
    _p("num-feasible-nodes-to-find", MUCH, "feasible-nodes-not-capped",
       "filtering keeps every feasible node of 100 and more: 101 nodes are scored", "feasible-nodes-capped",
       no_search="generated clusters stay below 100 nodes"),
    _p("no-scoring-total-one", MUCH, "no-scoring-with-prioritizers",
       "the totals-1 shortcut is taken although prioritize extenders are configured",
       "extender-scores-scaled"),
    _p("gates-removed-requeues", LITTLE, "never-ungates",
       "removing a pod's last gate (an update) never frees it", "event-wakes-pending-pod"),
    _p("gates-removed-requeues", MUCH, "update-ungates",
       "an update that leaves a gate queues the pod without PreEnqueue", "gated-pods-never-prefiltered",
       no_search="its situation draws no timeline, so no update that leaves a gate"),
    _p("postfilter-does-not-schedule", MUCH, "postfilter-nomination-binds",
       "a nominating PostFilter Success schedules the pod on that node in the same attempt",
       "postfilter-only-without-feasible-node"),
    _p("prefilter-result-unknown-names", LITTLE, "unknown-result-names-fail",
       "a PreFilterResult naming a node the snapshot lacks fails the cycle", "condition-classification",
       no_search="generated PreFilterResults name only the scenario's nodes"),
    _p("prefilter-result-unknown-names", MUCH, "unknown-result-name-empties-result",
       "a PreFilterResult naming a node the snapshot lacks loses its known names too", "every-node-evaluated",
       no_search="generated PreFilterResults name only the scenario's nodes"),
    _p("nominated-pods-two-passes", LITTLE, "nominated-second-pass-skipped",
       "a node passes on the pass with nominated pods alone", "pod-affinity-respected",
       no_search=_missed("pod-affinity-respected") + ": it needs a pod nominated where only it satisfies "
       "another's required affinity"),
    _p("extensions-on-cloned-state", LITTLE, "nominated-pods-added-in-place",
       "AddPod adds the nominated pods to the cycle's own state and NodeInfo: the second pass sees them",
       "pod-affinity-respected", no_search=_missed("pod-affinity-respected") + ": it needs a pod nominated "
       "where only it satisfies another's required affinity"),
    _p("nominated-pods-two-passes", MUCH, "lower-priority-nominated-added",
       "filtering adds the nominated pods of lower priority too", "lower-priority-nominations-ignored"),
    _p("error-message-nil-wrap", LITTLE, "nil-wrap-as-none",
       "a Filter Wait/Skip turned into an Error reads `None` where Go writes %!w(<nil>)",
       "filter-error-message"),
    _p("error-message-nil-wrap", MUCH, "filter-errors-nil-wrapped",
       "a Filter Error's text is replaced by %!w(<nil>), as if it were nil", "filter-error-message"),
    _p("deleting-pod-skipped", LITTLE, "deleting-pods-scheduled",
       "a pod being deleted is scheduled (its binding is refused)", "deleting-pods-skipped",
       no_search="generated pods are never being deleted when created"),
    _p("deleting-pod-skipped", MUCH, "deleting-pods-requeued",
       "a pod being deleted is skipped, then backed off and skipped again", "deleting-pods-skipped",
       no_search="generated pods are never being deleted when created"),
    _p("one-queue-sort", LITTLE, "queue-sort-only-in-first-profile",
       "the profiles after the first are built without a QueueSort plugin", "plugin-order-matches-expansion"),
    _p("nominated-node-fast-path", LITTLE, "no-nominated-fast-path",
       "a pod created nominated is filtered and scored on every node at once", "nominated-node-tried-first",
       no_search=_NEVER_NOMINATED),
    _p("nominated-node-fast-path", MUCH, "nomination-trusted",
       "the nominated node is taken as feasible without running Filter on it", "nominated-node-tried-first",
       no_search=_NEVER_NOMINATED),
    _p("extensions-on-cloned-state", MUCH, "cloned-without-nominated-pods",
       "Filter runs on clones even when no nominated pod is added: a Filter probe's cycle mark is lost",
       "chosen-node-passed-filters"),
    _p("waiting-pods-handle", LITTLE, "waiting-pods-not-found",
       "GetWaitingPod finds no waiting pod: a plugin's Allow never reaches it", "permit-wait-resolution"),
    _p("waiting-pods-handle", MUCH, "waiting-pod-found-for-any-uid",
       "GetWaitingPod of a pod no longer waiting answers with another waiting pod", "permit-wait-resolution",
       no_search=_missed("permit-wait-resolution") + ": it needs a signal to a pod whose wait ended while "
       "another waits"),
    _p("random-tie-break", MUCH, "near-ties-broken-at-random",
       "nodes within 10 points of the best total are chosen at random with it", "chosen-node-has-max-score",
       no_search="the situation's node scores differ by 50 or more"),
    Proof("random-tie-break", LITTLE, "ties-to-first-node", "ties always go to the first of the tied nodes",
          reason="upstream may do the same: one run shows one draw, and any tied node is a legal choice, so "
                 "the outcome differs from the reference's but not from upstream's possible outcomes"),
    Proof("round-robin-start", LITTLE, "start-index-fixed", "filtering always starts at the first node",
          reason="upstream may do the same: it filters in parallel, so which feasible nodes it keeps when "
                 "it needs fewer than all is unspecified; the outcome differs from the reference's, not from "
                 "upstream's possible outcomes"),
    Proof("round-robin-start", MUCH, "start-index-one-too-far",
          "nextStartNodeIndex moves one node further than the nodes processed",
          reason="upstream may do the same: it filters in parallel, so which feasible nodes it keeps when "
                 "it needs fewer than all is unspecified; the outcome differs from the reference's, not from "
                 "upstream's possible outcomes"),
    _p("preenqueue-gating-plugin-first", LITTLE, "gating-plugin-not-first",
       "PreEnqueue runs in profile order, forgetting the plugin that gated the pod",
       "preenqueue-gating-plugin-first"),
    _p("preenqueue-gating-plugin-first", MUCH, "gating-plugin-alone",
       "the plugin that gated the pod admits it alone when it passes: the others do not run",
       "preenqueue-gating-plugin-first", no_search="a probe that gates a pod gates it for good (its answer "
       "follows the pod's attempts); the situation draws no gate a timeline lifts"),
    _p("one-queue-sort", MUCH, "queue-sort-twice", "each profile holds its QueueSort plugin twice",
       "plugin-order-matches-expansion"),
    # rules read from upstream's code (issue 32 item 3, h32code): tests/conformance/pending_mutants_h32code.py
    _p("no-nodes-available", LITTLE, "no-nodes-runs-plugins",
       "an empty cluster is filtered like any other: PreFilter and PostFilter run, the FitError counts 0 nodes",
       "fit-error-message", no_search="the generators draw no empty cluster"),
    _p("no-nodes-available", MUCH, "one-node-is-no-nodes",
       "a cluster of one node is taken for an empty one (ErrNoNodesAvailable)", "fit-error-counts-nodes"),
    _p("postfilter-nomination", LITTLE, "postfilter-nomination-dropped",
       "PostFilter's result is dropped: its nomination never reaches the pod", "nomination-after-failure"),
    _p("postfilter-nomination", MUCH, "postfilter-error-nominates",
       "an erroring PostFilter plugin's nomination is applied (upstream: a nil result)", "nomination-after-failure"),
    _p("nomination-cleared-on-failure", LITTLE, "failure-keeps-nomination",
       "an error after an earlier nomination leaves the pod nominated", "nomination-after-failure"),
    _p("nomination-cleared-on-failure", MUCH, "nil-postfilter-result-clears",
       "a nil PostFilter result clears the nomination an earlier attempt made", "nomination-after-failure"),
    _p("scheduled-event-iff-bound", LITTLE, "no-scheduled-event",
       "a successful binding records no Scheduled event", "scheduled-event-per-binding"),
    _p("scheduled-event-iff-bound", MUCH, "scheduled-event-on-failed-bind",
       "a failed binding records a Scheduled event too", "scheduled-event-per-binding"),
    _p("failed-scheduling-event-per-failure", LITTLE, "failed-scheduling-event-dropped",
       "a failed attempt records no FailedScheduling event", "failed-scheduling-event-per-attempt"),
    _p("failed-scheduling-event-per-failure", MUCH, "failed-scheduling-event-twice",
       "a failed attempt records two FailedScheduling events", "failed-scheduling-event-per-attempt"),
    _p("condition-message-whole", LITTLE, "condition-message-truncated",
       "the condition's message is cut to the event's note limit", "fit-error-message",
       no_search="generated messages stay below 512 characters"),
    _p("condition-message-whole", MUCH, "condition-message-decorated",
       "the condition's message carries more than the failure's (a prefix)", "fit-error-message"),
    _p("status-patch-on-change", LITTLE, "changed-condition-not-patched",
       "once written, a changed PodScheduled condition is not patched again", "condition-classification"),
    _p("status-patch-on-change", MUCH, "unchanged-status-repatched",
       "a status patch that changes nothing is sent anyway (a status fault fires on it)", "status-patched-on-change"),
    _p("extender-filters-chained", MUCH, "extender-filter-asked-without-nodes",
       "filter extenders are asked although no node is left", "extender-filters-chained"),
    _p("extender-filters-chained", LITTLE, "extender-filter-first-only",
       "only the first filter extender is asked; the next never sees the nodes it left",
       "extender-filters-chained"),
    _p("assumed-pod-update-ignored", LITTLE, "assumed-pod-updates-queued",
       "an update of a pod waiting at Permit counts as its own event: rejected, it retries at once",
       "rejected-pod-waits-for-event", no_search="its ci search draws no timeline event updating a pod while it "
       "waits at Permit"),
    _p("assumed-pod-update-ignored", MUCH, "pending-pod-updates-ignored",
       "every pending pod's update is dropped as if it were assumed (removing its last gate frees nothing)",
       "event-wakes-pending-pod"),
    _p("preemption-tries-unschedulable-nodes", MUCH, "preemption-tries-unresolvable-nodes",
       "nodes found UnschedulableAndUnresolvable are dry-run too (RemovePod and Filter called on them again)",
       "preemption-skips-unresolvable-nodes"),
    _p("preemption-tries-unschedulable-nodes", LITTLE, "preemption-skips-unschedulable-nodes",
       "nodes found Unschedulable are left out as if unresolvable: no candidate, no preemption",
       "preemptor-finds-room"),
    _p("deleted-nominated-pod-frees-node", LITTLE, "nominated-pod-deletion-moves-nothing",
       "deleting a nominated pending pod moves no one: a lower-priority pod it kept out waits on",
       "event-wakes-pending-pod", no_search="its ci search draws no pending pod created nominated"),
    _p("first-feasible-without-scoring", MUCH, "first-feasible-node-with-scoring",
       "filtering stops at the first feasible node although Score plugins would rank several",
       "every-node-evaluated"),
    _p("in-flight-event-requeues", LITTLE, "in-flight-events-ignored",
       "a node event while the pod waits at Permit is ignored: rejected, the pod waits in the pool",
       "probe-rejected-pod-retried-after-node-event"),
    _p("in-flight-event-requeues", MUCH, "in-flight-event-always-assumed",
       "every rejected pod goes to backoff as if an event had come in flight", "rejected-pod-waits-for-event"),
    _p("node-update-needs-property-change", LITTLE, "node-annotations-ignored",
       "a node's annotation change moves no pod (upstream: UpdateNodeAnnotation)",
       "probe-rejected-pod-retried-after-node-event"),
    _p("node-update-needs-property-change", MUCH, "every-node-update-moves",
       "a node update that changes no scheduling property (its capacity only) moves pods all the same",
       "rejected-pod-waits-for-event", no_search="its ci search draws no timeline"),
    _p("ignorable-extenders-last", LITTLE, "ignorable-extenders-in-config-order",
       "an ignorable extender is asked before a non-ignorable one configured after it", "extender-filters-chained"),
    _p("ignorable-extenders-last", MUCH, "ignorable-extenders-first",
       "ignorable extenders are asked first, the non-ignorable ones last", "extender-filters-chained"),
    _p("extender-unresolvable-precedence", LITTLE, "extender-failed-over-unresolvable",
       "a node listed failed and unresolvable gets the failed status and message", "fit-error-message",
       no_search="generated extender scripts list a node as failed or as unresolvable, never both"),
    # the fault rules (issue 31; mutants in tests/conformance/pending_mutants_h31.py)
    _p("fault-unreserve", LITTLE, "no-unreserve-on-failed-binding",
       "a failed binding forgets the pod but runs no Unreserve", "unreserve-after-failed-binding"),
    _p("fault-unreserve", MUCH, "unreserve-after-binding",
       "a binding that went through (its internal error retried) runs Unreserve too",
       "unreserve-after-failed-binding"),
    _p("fault-unreserve", MUCH, "unreserve-twice-on-failed-binding",
       "a failed binding runs every Unreserve twice", "unreserve-after-failed-binding"),
    _p("fault-no-room-leaked", LITTLE, "keeps-failed-binding-assumed",
       "a pod whose binding failed is unreserved but stays assumed, holding its node's room",
       "no-room-leaked"),
    _p("fault-no-room-leaked", LITTLE, "drops-pod-after-failed-binding",
       "a pod whose binding failed is never requeued", "no-room-leaked"),
    _p("fault-no-room-leaked", MUCH, "failed-binding-frees-bound-pods",
       "a failed binding's ForgetPod drops the bound pods from the cache too: their room is given away",
       "no-room-leaked", no_search=_missed("no-room-leaked") + ": it needs a pod that fits only once a bound "
       "pod's room is freed, preferring that node, after a failed binding"),
)

# Rules and directions without a mutant yet (or whose mutant no invariant catches yet: named in the note).
# Each entry is removed when its proof lands; tests/conformance/test_rule_mutants.py fails on a rule and
# direction in neither table, or in both.
_NC = "not checkable from outside (see the coverage matrix): no mutant yet to show it"


def _nc(*directions: str) -> dict[str, str]:
    return {d: _NC for d in directions}


PENDING: Mapping[str, Mapping[str, str]] = {
    "metrics-sampling": {d: "no mutant can be written: the reference records no metrics (it does not model "
                            "pluginMetricsSamplePercent), and metrics are no part of an outcome (pods, trace, "
                            "events, conditions, nominations, timing)" for d in (MUCH, LITTLE)},
    "extender-preempt": {d: "no mutant can break it through the reference: the reference's "
                            "DefaultPreemption does not call extenders' ProcessPreemption "
                            "(default_preemption.py, not modelled); only upstream runs the Preempt verb"
                         for d in (MUCH, LITTLE)},
    "config-validation": {d: "no mutant through ReferenceBackend(hook=...): the hook gets the Scheduler "
                             "built from a config already validated (a refused config ends the run before "
                             "any scheduler exists); pinned by tests/reference/config/test_validation.py"
                          for d in (MUCH, LITTLE)},
    "unschedulable-flush": {LATE: "the reference does not tick the leftover flush (ARCHITECTURE.md, "
                                  "deviations), so a later flush equals it on every run; upstream's shows "
                                  "only in runs kept busy past 5 minutes (a pod erring at every attempt: "
                                  "the reference stops it after 8), where the reference would be flagged"},
    # h32code: rules read from upstream's code
    "first-feasible-without-scoring": {LITTLE: "mutant filters-every-node-without-scoring misbehaves on its witness "
                                               "(every node filtered, the host drawn among them), but upstream "
                                               "filters nodes in parallel and may evaluate past the first feasible "
                                               "one and keep another: no sound invariant can tell"},
    "deleted-nominated-pod-frees-node": {MUCH: "moving pods of higher priority too, or after deleting a pod "
                                               "nominated nowhere, only adds attempts no invariant bounds yet (the "
                                               "retries follow a timeline event, which rejected-pod-waits-for-event "
                                               "accepts whatever it was)"},
    "extender-unresolvable-precedence": {MUCH: "mutant extender-failed-as-unresolvable misbehaves on its witness "
                                               "(preemption no longer tries a node the extender only failed: its "
                                               "message changes), but no invariant judges which nodes preemption "
                                               "tries after an extender's answer"},
}


def pending_count() -> int:
    return sum(len(d) for d in PENDING.values())


def proofs_of(rule_id: str) -> list[Proof]:
    return [p for p in PROOFS if p.rule == rule_id]


def problems() -> list[str]:
    """Rules and directions neither proven nor pending (or both), and entries naming unknown rules or
    directions."""
    out: list[str] = []
    known = {r.id for r in RULES}
    for p in PROOFS:
        if p.rule not in known or p.direction not in directions_of(p.rule):
            out.append(f"proof {p.mutant!r}: rule {p.rule!r} has no direction {p.direction!r}")
        if bool(p.caught_by) == bool(p.reason):
            out.append(f"proof {p.mutant!r} of {p.rule!r}: give either caught_by or a reason, not both or "
                       f"neither")
    for rule_id, dirs in PENDING.items():
        out += [f"PENDING names rule {rule_id!r} and direction {d!r}, which the matrix lacks" for d in dirs
                if rule_id not in known or d not in directions_of(rule_id)]
    for rule in RULES:
        proven = {p.direction for p in proofs_of(rule.id)}
        for d in directions_of(rule.id):
            pending = d in PENDING.get(rule.id, {})
            if d not in proven and not pending:
                out.append(f"rule {rule.id!r} has no mutant {d}: write one "
                           f"(tests/conformance/rule_mutants.py) "
                           "and its proof, or list it in PENDING")
            elif d in proven and pending:
                out.append(f"rule {rule.id!r} {d} is proven and still PENDING: remove it from PENDING")
    return out


def render() -> str:
    """The mutant matrix as Markdown: counts, one row per proof, then what is pending."""
    directions = sum(len(directions_of(r.id)) for r in RULES)
    proven = {(p.rule, p.direction) for p in PROOFS}
    rules_done = sum(all((r.id, d) in proven for d in directions_of(r.id)) for r in RULES)
    lines = ["### Mutants per rule and direction", "",
             f"{len(RULES)} rules, {directions} rule directions: {len(proven)} proven by "
             f"{len({p.mutant for p in PROOFS})} mutants ({rules_done} rules in every direction); "
             f"**{pending_count()} pending**. A mutant misbehaves on its witness and is caught there by the "
             "invariant named (tests/conformance/test_rule_mutants.py).", "",
             "| rule | direction | mutant | what it does | caught by |", "|---|---|---|---|---|"]
    for p in PROOFS:
        caught = f"`{p.caught_by}`" if p.caught_by else p.reason
        if p.no_search:
            caught += f" (on its witness only: {p.no_search})"
        lines.append(f"| `{p.rule}` | {p.direction} | `{p.mutant}` | {p.how} | {caught} |")
    lines += ["", f"#### Pending ({pending_count()})", "", "| rule | directions |", "|---|---|"]
    for rule_id, dirs in PENDING.items():
        lines.append(f"| `{rule_id}` | " + "; ".join(f"{d}{': ' + note if note else ''}"
                                                   for d, note in dirs.items()) + " |")
    return "\n".join(lines) + "\n"


__all__ = ["DIRECTIONS", "PENDING", "PROOFS", "Proof", "directions_of", "pending_count", "problems",
           "proofs_of",
           "render"]
