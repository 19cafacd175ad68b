"""The rule coverage matrix: every framework rule, and the invariants that check it, or why it cannot
be checked from outside a scheduler and which backend-level test pins it instead. An invariant names the
rules it checks where it is defined (`@invariant(..., rules=...)`); a rule's invariants are derived from those.

Rules follow the spec (framework-semantics.md, its section in `section`) and, where the spec is thinner
than the code, upstream's framework.go, schedule_one.go, the scheduling queue, the cache, preemption,
extenders, profiles and event handlers (`source`). `sched-conformance invariants --coverage` renders it
into docs/coverage.md; tests/conformance/test_coverage.py fails on a rule without an entry, on an
rule an invariant names, and on a stale docs/coverage.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    rule: str
    source: str
    not_checkable: str = ""  # why no outside observer can check it
    pinned_by: str = ""      # the backend-level test that pins it instead


def _c(id: str, section: str, rule: str, source: str) -> Rule:
    return Rule(id, section, rule, source)


def _n(id: str, section: str, rule: str, source: str, why: str, pinned_by: str) -> Rule:
    return Rule(id, section, rule, source, not_checkable=why, pinned_by=pinned_by)


_TF = "tests/reference/framework/"
RULES: tuple[Rule, ...] = (
    # §1 status codes and the code x point matrix
    _c("code-matrix-prefilter", "§1.2", "PreFilter: Unschedulable goes on, UAU stops, Error/Pending/Wait become an "
       "Error, Skip skips the plugin's Filter", "framework.go RunPreFilterPlugins"),
    _c("code-matrix-filter", "§1.2", "Filter: any rejection rejects the node and stops it; other codes are an "
       "Error that fails the cycle", "framework.go RunFilterPlugins"),
    _c("code-matrix-postfilter", "§1.2", "PostFilter: Success and UAU stop, Unschedulable and Pending go on, other "
       "codes are an Error", "framework.go RunPostFilterPlugins"),
    _c("code-matrix-prescore-score", "§1.2", "PreScore: Skip skips the plugin's Score, anything else but Success is "
       "an Error; Score/NormalizeScore: anything but Success is an Error", "framework.go RunPreScorePlugins, "
       "RunScorePlugins"),
    _c("code-matrix-reserve-permit", "§1.2", "Reserve stops at the first non-Success; Permit goes on after Wait and "
       "stops at a rejection, Error or Skip", "framework.go RunReservePluginsReserve, RunPermitPlugins"),
    _c("code-matrix-binding", "§1.2", "PreBindPreFlight: Skip drops the plugin's PreBind, other non-Success codes "
       "are errors; PreBind stops at the first failure; Bind goes on after Skip only",
       "framework.go RunPreBindPreFlights, RunPreBindPlugins, RunBindPlugins"),
    _c("legal-codes", "§1.2", "Each point defines the codes a plugin may return; others become an Error",
       "interface.go per-point contracts"),
    _c("error-message-nil-wrap", "§1.1", "A Wait/Skip turned into an Error carries the Go artefact %!w(<nil>)",
       "framework.go AsError wrapping"),
    # §2.0 flow, profiles
    _c("profile-by-scheduler-name", "§2.0", "The profile is chosen by spec.schedulerName; a pod naming no profile is "
       "dropped", "schedule_one.go frameworkForPod, ScheduleOne"),
    _c("plugins-per-point", "§5.3", "A plugin is called only at the points its profile configures it at",
       "framework.go NewFramework, updatePluginList"),
    _c("deleting-pod-skipped", "§2.0", "A pod with a deletionTimestamp is dropped with a FailedScheduling event",
       "schedule_one.go skipPodSchedule"),
    _c("cycle-state-per-attempt", "§9", "Every attempt gets a fresh CycleState", "schedule_one.go ScheduleOne"),
    _n("metrics-sampling", "§2.0", "About 10% of cycles record per-plugin metrics", "schedule_one.go "
       "pluginMetricsSamplePercent", "metrics are not part of a scheduler's observable behaviour", "(none: not "
       "modelled by the reference)"),
    # §2.1 PreEnqueue and gates
    _c("gates-never-prefiltered", "§2.1", "A pod with scheduling gates never reaches PreFilter",
       "scheduling_queue.go runPreEnqueuePlugins; schedulinggates plugin"),
    _c("preenqueue-any-non-success-gates", "§2.1", "Any non-Success PreEnqueue code gates the pod and stops the "
       "PreEnqueue loop", "scheduling_queue.go runPreEnqueuePlugins"),
    _c("preenqueue-gating-plugin-first", "§2.1", "A pod gated by plugin X runs X first next time",
       "scheduling_queue.go runPreEnqueuePlugins"),
    _c("gates-removed-requeues", "§6.5", "Removing the gates (a pod update) re-runs PreEnqueue and queues the pod",
       "scheduling_queue.go Update"),
    # §2.2 QueueSort
    _c("queue-sort-priority-timestamp", "§2.2", "activeQ pops by priority, then queue timestamp",
       "queuesort/priority_sort.go Less"),
    _c("one-queue-sort", "§2.2, §5.3", "Exactly one QueueSort plugin, the same in every profile",
       "framework.go NewFramework; validation.go validateCommonQueueSort"),
    # §2.3 PreFilter
    _c("prefilter-skip", "§2.3", "A PreFilter Skip removes the plugin's Filter, AddPod and RemovePod for the cycle",
       "framework.go RunPreFilterPlugins"),
    _c("prefilter-unschedulable-continues", "§2.3", "After an Unschedulable PreFilter the later PreFilter plugins "
       "still run (kubernetes#119770); the cycle then ends unschedulable", "framework.go RunPreFilterPlugins"),
    _c("prefilter-result-intersection", "§2.3", "PreFilterResults intersect; Filter runs only inside; an empty "
       "intersection stops the loop with UAU", "framework.go RunPreFilterPlugins; PreFilterResult.Merge"),
    _c("prefilter-rejection-no-filter", "§2.3, §3.3", "A PreFilter rejection gives every node that status: no "
       "Filter, no scoring, PostFilter runs", "schedule_one.go findNodesThatFitPod"),
    _c("prefilter-result-unknown-names", "§2.3", "Node names in a PreFilterResult that are not in the snapshot are "
       "dropped", "schedule_one.go findNodesThatFitPod"),
    # §2.4 AddPod / RemovePod
    _c("add-remove-pod-skip", "§2.4", "Extensions of a plugin that skipped PreFilter are not called",
       "framework.go RunPreFilterExtensionAddPod/RemovePod"),
    _c("add-remove-pod-error", "§2.4", "An AddPod/RemovePod failure is an Error of the cycle",
       "framework.go RunPreFilterExtensionAddPod"),
    _c("extensions-in-their-phase", "§2.4, §2.5", "AddPod adds nominated pods while filtering; RemovePod runs only "
       "in preemption's dry run", "framework.go addGENominatedPods; preemption.go SelectVictimsOnNode"),
    _c("extensions-on-cloned-state", "§2.4", "AddPod/RemovePod work on cloned CycleState and NodeInfo",
       "framework.go addGENominatedPods"),
    # §2.5 Filter
    _c("filter-short-circuit", "§2.5", "Per node, the first non-Success Filter stops that node",
       "framework.go RunFilterPlugins"),
    _c("filter-error-fails-cycle", "§2.5", "A Filter Error on any node fails the cycle (no PostFilter)",
       "schedule_one.go findNodesThatPassFilters"),
    _c("chosen-node-feasible", "§2.5, §11.1", "The chosen node passed every Filter and extender filter",
       "schedule_one.go findNodesThatPassFilters, findNodesThatPassExtenders"),
    _c("nominated-pods-two-passes", "§2.5", "Filter runs with higher-or-equal priority nominated pods added, then "
       "without; both must pass", "framework.go RunFilterPluginsWithNominatedPods"),
    _c("num-feasible-nodes-to-find", "§2.10", "At most numFeasibleNodesToFind feasible nodes (all nodes below "
       "100)", "schedule_one.go numFeasibleNodesToFind"),
    _n("round-robin-start", "§2.5", "Filtering starts at nextStartNodeIndex, moved by the nodes processed",
       "schedule_one.go findNodesThatPassFilters", "upstream filters in parallel: the order is not "
       "observable (the mutants start-index-fixed and start-index-one-too-far choose as upstream may)",
       _TF + "test_filtering.py::test_filtering_stops_at_num_nodes_to_find_and_round_robins"),
    _c("nominated-node-fast-path", "§2.5", "A pod with nominatedNodeName tries that node alone first",
       "schedule_one.go evaluateNominatedNode"),
    # §2.6 PostFilter
    _c("postfilter-only-on-fit-error", "§2.6", "PostFilter runs only when no node is feasible, never after an Error",
       "schedule_one.go schedulingCycle"),
    _c("postfilter-loop", "§2.6", "PostFilter stops at Success or UAU, goes on after Unschedulable and Pending",
       "framework.go RunPostFilterPlugins"),
    _c("postfilter-does-not-schedule", "§2.6, §3.2", "Whatever PostFilter returns, the pod is Unschedulable with "
       "the FitError (PostFilter message appended)", "schedule_one.go schedulingCycle"),
    # §2.7-2.9 scoring
    _c("one-feasible-no-scoring", "§2.8", "One feasible node: no PreScore, Score or prioritize",
       "schedule_one.go schedulePod"),
    _c("prescore-skip", "§2.7", "A PreScore Skip removes the plugin's Score and NormalizeScore",
       "framework.go RunPreScorePlugins"),
    _c("prescore-error", "§2.7", "A PreScore non-Success non-Skip (even Unschedulable) is an Error",
       "framework.go RunPreScorePlugins"),
    _c("score-per-feasible-node", "§2.8", "Every non-skipped Score plugin scores every feasible node once, and only "
       "those", "framework.go RunScorePlugins"),
    _c("normalize-iff-extensions", "§2.8", "NormalizeScore runs once per plugin with ScoreExtensions, after Score",
       "framework.go RunScorePlugins"),
    _c("score-range", "§2.8", "A final score outside [0, 100] fails the cycle", "framework.go RunScorePlugins"),
    _c("score-error", "§2.8", "A Score or NormalizeScore failure is an Error", "framework.go RunScorePlugins"),
    _c("weighted-sum-max", "§2.8, §2.9", "The host has the maximum of sum(weight x score) + sum(10 x weight x "
       "extender score)", "schedule_one.go prioritizeNodes, selectHost"),
    _c("score-weight-zero-is-one", "§2.8", "A Score weight of 0 counts as 1", "framework.go getScoreWeights"),
    _n("no-scoring-total-one", "§2.8", "No Score plugins and no extenders: every node totals 1",
       "schedule_one.go prioritizeNodes", "totals are not traced; any max-score node is a legal choice",
       _TF + "test_filtering.py::test_no_score_plugins_and_no_extenders_total_score_one"),
    _n("random-tie-break", "§2.9", "Ties among max-score nodes are broken at random",
       "schedule_one.go selectHost", "a distribution, not a property of one run; invariants accept any tied "
       "node (the mutant ties-to-first-node chooses as upstream may)",
       _TF + "test_filtering.py::test_ties_broken_randomly_and_reproducibly_by_seed"),
    # §2.11 assume
    _c("assume-before-reserve", "§2.11", "The assumed pod counts against its node for the next cycles",
       "schedule_one.go assume"),
    # §2.12 Reserve / Unreserve
    _c("reserve-short-circuit", "§2.12", "Reserve stops at the first failure", "framework.go "
       "RunReservePluginsReserve"),
    _c("reserve-failure-ends-cycle", "§3.1", "After a Reserve failure no Permit and no binding",
       "schedule_one.go schedulingCycle"),
    _c("unreserve-all-reverse", "§2.12", "Any failure after Reserve began: Unreserve on all Reserve plugins, once, in "
       "reverse order; never after success", "framework.go RunReservePluginsUnreserve"),
    # §2.13 Permit
    _c("permit-reject-wins", "§2.13", "A Permit rejection stops the loop, discards earlier Waits, creates no waiting "
       "pod", "framework.go RunPermitPlugins"),
    _c("permit-wait-continues", "§2.13", "After Wait the Permit loop goes on to the next plugin",
       "framework.go RunPermitPlugins"),
    _c("permit-wait-resolution", "§2.13", "A waiting pod binds only when all waiters allowed; first Reject or "
       "timeout (capped at 15 min, started at the end of the cycle) wins", "framework.go WaitOnPermit; "
       "waiting_pods_map.go"),
    _c("waiting-pods-handle", "§2.13", "IterateOverWaitingPods / GetWaitingPod / RejectWaitingPod through the "
       "handle", "framework.go handle methods"),
    # §2.14-2.17 binding cycle
    _c("preflight-skip-drops-prebind", "§2.14", "A PreBindPreFlight Skip removes the plugin's PreBind",
       "framework.go RunPreBindPreFlights"),
    _c("preflight-failure", "§2.14", "A PreBindPreFlight error (or unsupported code) fails binding",
       "framework.go RunPreBindPreFlights; schedule_one.go bindingCycle"),
    _c("nnn-for-expectation", "§2.14", "nominatedNodeName is patched to the host before waiting or binding",
       "schedule_one.go bindingCycle"),
    _c("prebind-stops-no-bind", "§2.15", "PreBind stops at the first failure, and then nothing binds",
       "framework.go RunPreBindPlugins"),
    _c("bind-success-binds", "§2.16", "A Bind plugin's Success means the API server holds the binding",
       "interface.go BindPlugin"),
    _c("bind-first-non-skip", "§2.16", "Bind plugins run until the first non-Skip", "framework.go RunBindPlugins"),
    _c("extender-binds-first", "§2.16", "An interested binder extender binds instead of Bind plugins",
       "schedule_one.go extendersBinding"),
    _c("all-bind-skip", "§2.16", "All Bind plugins Skip: not bound, no event, no condition, error backoff",
       "framework.go RunBindPlugins; schedule_one.go handleSchedulingFailure"),
    _c("postbind-iff-bound", "§2.17", "PostBind runs once per plugin, in order, iff bound",
       "framework.go RunPostBindPlugins"),
    _c("bound-once", "§2.11", "A pod is bound at most once", "schedule_one.go bind"),
    # §3 failure paths
    _c("condition-reason", "§3.1", "PodScheduled reason: Unschedulable for rejections, SchedulerError for errors",
       "schedule_one.go handleSchedulingFailure"),
    _c("fit-error-message", "§3.2", "FitError message: 0/N nodes are available: <PreFilter msg or sorted "
       "histogram>.[ <PostFilter msg>]", "framework/types.go FitError.Error"),
    _c("error-backoff", "§6.3", "Consecutive errors back off initial x 2^(k-1), capped", "backoff_queue.go"),
    _c("binding-failure-moves-pods", "§3.2", "A failed binding cycle moves unschedulable pods (its own pod excluded "
       "for rejections)", "schedule_one.go handleBindingCycleError"),
    _c("failed-pod-gone-not-requeued", "§3.2", "A pod deleted or bound meanwhile is not requeued",
       "schedule_one.go handleSchedulingFailure"),
    _c("event-truncation", "§3.2", "FailedScheduling event messages are truncated to the note limit",
       "schedule_one.go handleSchedulingFailure"),
    # §4 extenders
    _c("extender-filter-after-plugins", "§4.5", "Extender filters remove the nodes they fail; the chosen node passed "
       "them", "schedule_one.go findNodesThatPassExtenders"),
    _c("extender-filter-error", "§4.5", "A non-ignorable filter error fails the cycle", "schedule_one.go "
       "findNodesThatPassExtenders"),
    _c("ignorable-extender", "§4.5", "An ignorable extender's errors are skipped", "schedule_one.go; "
       "preemption.go callExtenders"),
    _c("prioritize-errors-ignored", "§2.8, §4.5", "Prioritize errors add nothing and never fail",
       "schedule_one.go prioritizeNodes"),
    _c("extender-score-scale", "§2.8", "Extender scores count weight x 10, without a range check",
       "schedule_one.go prioritizeNodes"),
    _c("extender-wire-format", "§4.3, §4.4", "PascalCase JSON, POST <prefix>/<verb>, non-200 is an error; answers "
       "speak only of what was asked", "extender.go send; extender/v1 types.go"),
    _c("extender-interest", "§4.2", "managedResources limit which pods an extender sees", "extender.go "
       "IsInterested"),
    _n("extender-preempt", "§4.5", "Preempt verb: extenders trim candidates; empty victims are an error",
       "preemption.go callExtenders", "which candidates DefaultPreemption found is internal",
       "tests/reference/plugins/test_default_preemption.py"),
    # preemption
    _c("victims-lower-priority", "§2.6", "Only pods of lower priority than the preemptor are evicted",
       "preemption.go SelectVictimsOnNode"),
    _c("one-node-per-preemption", "§2.6", "One attempt preempts on one node and nominates the preemptor",
       "preemption.go Preempt; schedule_one.go handleSchedulingFailure"),
    _c("preemption-node-choice", "§2.6", "Candidate order: PDB violations, highest victim priority, sum, count, "
       "start time", "preemption.go pickOneNodeForPreemption"),
    _c("waiting-victim-rejected", "§2.6", "A victim waiting at Permit is rejected, not deleted",
       "preemption.go; PT TestPreemptWithPermitPlugin"),
    _c("preemption-policy-never", "§2.6", "A pod with preemptionPolicy Never evicts no one",
       "defaultpreemption PodEligibleToPreemptOthers"),
    _c("pdb-respected-when-avoidable", "§2.6", "Victims violating a PodDisruptionBudget are reprieved first; a "
       "budget-free choice is preferred", "preemption.go SelectVictimsOnNode, pickOneNodeForPreemption"),
    _c("victims-minimal", "§2.6", "Every victim that can be reprieved is", "preemption.go SelectVictimsOnNode "
       "(reprievePod)"),
    # §8 the default Filter plugins, judged on outcomes
    _c("taint-toleration", "§8.5", "No pod lands on a node with a NoSchedule/NoExecute taint it does not tolerate",
       "tainttoleration/taint_toleration.go Filter"),
    _c("node-affinity", "§8.6", "No pod lands on a node its nodeSelector or required node affinity excludes",
       "nodeaffinity/node_affinity.go Filter"),
    _c("node-unschedulable", "§8.10", "No pod lands on an unschedulable node it does not tolerate",
       "nodeunschedulable Filter"),
    _c("node-ports", "§8.10", "No two pods on a node claim the same host port", "nodeports/node_ports.go Filter"),
    _c("inter-pod-affinity", "§8.8", "Required pod affinity and anti-affinity hold for every binding",
       "interpodaffinity/filtering.go"),
    _c("topology-spread", "§8.7", "DoNotSchedule spread constraints hold for every binding",
       "podtopologyspread/filtering.go"),
    _c("liveness", "§6.4", "At quiescence no pod the stock Filter plugins accept somewhere is left unschedulable",
       "scheduling_queue.go MoveAllToActiveOrBackoffQueue; queueing hints"),
    # §5 configuration
    _c("config-expansion", "§5.2, §5.3", "multiPoint expansion, overrides, order and weights",
       "default_plugins.go mergePlugins; framework.go expandMultiPointPlugins"),
    _n("config-validation", "§5.5", "Validation errors and their messages", "validation.go",
       "a config the scheduler refuses has no scheduling outcome", "tests/reference/config/test_validation.py"),
    # §6 queue
    _c("unschedulable-waits-for-event", "§6.4", "A rejected pod waits in unschedulablePods for a cluster event "
       "(or the 5-minute flush) before its next attempt; an error retries after its backoff",
       "scheduling_queue.go AddUnschedulableIfNotPresent, MoveAllToActiveOrBackoffQueue"),
    _c("event-requeues", "§6.4", "A pending pod a timeline event makes schedulable is retried and bound before the "
       "deadline when a plugin that rejected it registers that event (EventsToRegister); a pod whose last "
       "scheduling gate is removed leaves the gated state",
       "noderesources/fit.go, tainttoleration, nodeaffinity, nodeunschedulable, schedulinggates EventsToRegister; "
       "scheduling_queue.go isPodWorthRequeuing, Update"),
    _c("event-snapshot", "§6.4", "No attempt binds onto a node deleted before it (the cache drops the node, the next "
       "snapshot omits it)", "eventhandlers.go deleteNodeFromCache; cache.go RemoveNode, UpdateSnapshot"),
    _c("queueing-hints", "§6.4", "Which events requeue a rejected pod is each rejector plugin's queueing hint",
       "scheduling_queue.go isPodWorthRequeuing"),
    _c("activate", "§6.4", "PodsToActivate moves pods to activeQ ignoring backoff", "scheduling_queue.go Activate"),
    _c("unschedulable-flush", "§6.4", "Pods unschedulable for 5 minutes are flushed", "scheduling_queue.go "
       "flushUnschedulablePodsLeftover"),
    _c("pre-enqueue-on-backoff-entry", "§2.1, §6.1", "With SchedulerPopFromBackoffQ PreEnqueue runs when entering "
       "backoffQ, not when leaving it", "scheduling_queue.go moveToBackoffQ"),
    # faults (issue 31: timeline faults, docs/scenario.md)
    _c("fault-unreserve", "§2.12, §3.2", "A binding whose API call failed runs Unreserve of every Reserve plugin "
       "in reverse order", "schedule_one.go handleBindingCycleError -> unreserveAndForget"),
    _c("fault-no-room-leaked", "§3.2, §6.4", "After failed bindings, vanished pods and restarts the assumed pods "
       "are forgotten and the room they held is given to a pending pod that fits",
       "schedule_one.go handleBindingCycleError (ForgetPod, AssignedPodDelete); cache.go ForgetPod, RemovePod"),
    # cache and event handlers
    _c("capacity", "§8.2", "NodeResourcesFit keeps every node within allocatable", "noderesources/fit.go"),
    _c("deleted-waiting-pod", "§2.13", "Deleting a waiting pod rejects it and it is not requeued",
       "eventhandlers.go deletePodFromSchedulingQueue"),
    # read from upstream's code, not the spec (issue 32 item 3, h32code): the ifs that decide a pod's fate
    _c("no-nodes-available", "§2.0", "An empty cluster fails the attempt at once with ErrNoNodesAvailable "
       "(UnschedulableAndUnresolvable, no PreFilter, no PostFilter); a cluster with nodes never does",
       "schedule_one.go schedulePod (NumNodesInPlacement() == 0), schedulingAlgorithm"),
    _c("postfilter-nomination", "§2.6", "After a FitError the pod is nominated as PostFilter's result says (the first "
       "Success or UAU plugin's, else the last rejecting plugin's non-noop one); a nil result (nothing found, an "
       "Error) leaves the nomination as it was", "schedule_one.go schedulingAlgorithm, handleSchedulingFailure, "
       "updatePod (ModeOverride); framework.go RunPostFilterPlugins"),
    _c("nomination-cleared-on-failure", "§3.1", "Every other failure clears the nomination (clearNominatedNode): an "
       "error, a FitError without PostFilter plugins, a Reserve, Permit or binding failure",
       "schedule_one.go schedulingAlgorithm, schedulingCycle, handleBindingCycleError (clearNominatedNode)"),
    _c("scheduled-event-iff-bound", "§2.16", "A successful binding records one Normal Scheduled event "
       "'Successfully assigned <ns>/<name> to <node>'; a failed one records none", "schedule_one.go bind, "
       "finishBinding"),
    _c("failed-scheduling-event-per-failure", "§3.2", "Every failed attempt records one Warning FailedScheduling "
       "event, whether or not the pod is still in the informer's cache", "schedule_one.go handleSchedulingFailure"),
    _c("condition-message-whole", "§3.2", "The PodScheduled condition carries the failure's whole message; only "
       "the event's note is truncated", "schedule_one.go handleSchedulingFailure (Message: errMsg; "
       "truncateMessage for the event only)"),
    _c("status-patch-on-change", "§3.2", "The status is patched only when the PodScheduled condition or (Override) "
       "the nomination changes, and always when one does", "schedule_one.go updatePod (podutil.UpdatePodCondition, "
       "nnnNeedsUpdate)"),
    _c("extender-filters-chained", "§4.5", "Filter extenders are asked in order, each with the nodes the previous "
       "one left, and none once no node is left", "schedule_one.go findNodesThatPassExtenders"),
    _c("assumed-pod-update-ignored", "§6.5", "An update of an assumed pod (waiting at Permit, binding) is dropped: "
       "it neither requeues the pod nor counts as an event for it; a pending pod's update reaches the queue",
       "eventhandlers.go updatePodInSchedulingQueue (IsAssumedPod: return)"),
    _c("preemption-tries-unschedulable-nodes", "§2.6", "Preemption's dry run tries only the nodes whose filter "
       "status was Unschedulable, never an UnschedulableAndUnresolvable one", "preemption/preemption.go "
       "findCandidates (NodeToStatus.NodesForStatusCode(Unschedulable))"),
    _c("deleted-nominated-pod-frees-node", "§6.4", "Deleting a pending pod nominated to a node moves the pending "
       "pods of lower or equal priority (they counted it there); deleting a pending pod nominated nowhere moves "
       "none", "eventhandlers.go deletePodFromSchedulingQueue (getLEPriorityPreCheck)"),
    _c("first-feasible-without-scoring", "§2.10", "Without Score plugins, prioritizing extenders and filter "
       "extenders, filtering may stop at the first feasible node (numNodesToFind = 1); with any of them it looks "
       "for numFeasibleNodesToFind", "schedule_one.go findNodesThatPassFilters (hasExtenderFilters, hasScoring)"),
    _c("in-flight-event-requeues", "§6.4", "A pod turned down after an event came while it was in flight (from "
       "its pop, through a Permit wait, to its failure) that its rejectors' hints answer with Queue goes to "
       "backoff, not to the unschedulable pool; without one it waits there", "scheduling_queue.go "
       "AddUnschedulableIfNotPresent, determineSchedulingHintForInFlightPod"),
    _c("node-update-needs-property-change", "§6.4", "A node update moves pending pods only when it changes a "
       "scheduling property (labels, annotations, taints, unschedulable, allocatable, conditions, ...), one event "
       "per property; a capacity-only change moves none", "eventhandlers.go updateNodeInCache; framework/events.go "
       "NodeSchedulingPropertiesChange"),
    _c("ignorable-extenders-last", "§4.5", "Ignorable extenders are consulted after every non-ignorable one, "
       "each group in config order", "scheduler.go buildExtenders"),
    _c("extender-unresolvable-precedence", "§4.5", "A node an extender lists as both failed and unresolvable is "
       "UnschedulableAndUnresolvable with the unresolvable message", "schedule_one.go findNodesThatPassExtenders "
       "(failedAndUnresolvableMap takes precedence over failedMap)"),
)

SECTIONS = ("§1.1", "§1.2", "§2.0", "§2.1", "§2.2", "§2.3", "§2.4", "§2.5", "§2.6", "§2.7", "§2.8", "§2.9",
            "§2.10", "§2.11", "§2.12", "§2.13", "§2.14", "§2.15", "§2.16", "§2.17", "§3.1", "§3.2", "§3.3",
            "§4.2", "§8.5", "§8.6", "§8.7", "§8.8", "§8.10",
            "§4.5", "§5.3", "§5.5", "§6.3", "§6.4", "§6.5", "§9")


def checked_by(invariants: Mapping[str, Any]) -> dict[str, list[str]]:
    """Rule ID -> the IDs of the invariants that name it (`rules=`), in registry order."""
    out: dict[str, list[str]] = {rule.id: [] for rule in RULES}
    for inv in invariants.values():
        for rule_id in inv.rules:
            out.setdefault(rule_id, []).append(inv.id)
    return out


def problems(invariants: Mapping[str, Any]) -> list[str]:
    """What is wrong with the matrix against these invariants (ID -> `Invariant`): rules without an entry,
    rules an invariant names that the matrix lacks, duplicate rule IDs, spec sections without a rule."""
    out: list[str] = []
    seen: set[str] = set()
    checks = checked_by(invariants)
    for rule in RULES:
        if rule.id in seen:
            out.append(f"rule {rule.id!r} is listed twice")
        seen.add(rule.id)
        if not checks[rule.id] and not (rule.not_checkable and rule.pinned_by):
            out.append(f"rule {rule.id!r} has no entry: name it in the rules= of the invariants that check it, "
                       "or say why it is not checkable and which backend-level test pins it")
    out += [f"invariant {inv!r} names unknown rule {rule_id!r}" for rule_id, invs in checks.items()
            if rule_id not in seen for inv in invs]
    for section in SECTIONS:
        if not any(section in r.section.replace(",", " ").split() for r in RULES):
            out.append(f"spec section {section} has no rule")
    return out


def render(invariants: Mapping[str, Any]) -> str:
    """The matrix as Markdown: a summary, one table of checked rules, one of rules pinned elsewhere."""
    checks = checked_by(invariants)
    checked = [r for r in RULES if checks[r.id]]
    pinned = [r for r in RULES if not checks[r.id]]
    used = {i for r in RULES for i in checks[r.id]}
    lines = [f"{len(RULES)} rules: {len(checked)} checked by invariants, {len(pinned)} not checkable from "
             f"outside (pinned by backend-level tests). {len(invariants)} invariants registered.", "",
             "### Rules checked by invariants", "", "| rule | spec | statement | upstream | invariants |",
             "|---|---|---|---|---|"]
    lines += [f"| `{r.id}` | {r.section} | {r.rule} | {r.source} | {', '.join(f'`{i}`' for i in checks[r.id])} |"
              for r in checked]
    lines += ["", "### Rules not checkable from outside", "",
              "| rule | spec | statement | upstream | why not | pinned by |", "|---|---|---|---|---|---|"]
    lines += [f"| `{r.id}` | {r.section} | {r.rule} | {r.source} | {r.not_checkable} | {r.pinned_by} |"
              for r in pinned]
    unused = sorted(set(invariants) - used)
    if unused:
        lines += ["", "Invariants no rule names yet: " + ", ".join(f"`{i}`" for i in unused) + "."]
    return "\n".join(lines) + "\n"


__all__ = ["RULES", "Rule", "SECTIONS", "checked_by", "problems", "render"]
