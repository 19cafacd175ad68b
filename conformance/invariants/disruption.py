"""Preemption judged from the outcome alone: preemptionPolicy Never, PodDisruptionBudgets, minimal victims.

Upstream does not forbid breaking a PodDisruptionBudget: SelectVictimsOnNode reprieves the victims
that would break one first, and pickOneNodeForPreemption prefers the node with the fewest broken
budgets. So a budget must hold exactly when some node could take the preemptor by evicting only
pods no budget covers: that node then has no violating victim in any order, and wins.

Both budget and minimality checks need to know the preemption: one workload pod alone may have
evicted the deleted pods (higher priority than each, preemptionPolicy not Never), it failed one
attempt only (the queue's counter), and every deletion is on one node. They judge on the most pods
that may have been on a node (judge.py, plus every pod of at least the preemptor's priority that may
have been nominated there), which is sound for filters that only get stricter with more pods: so
not for a preemptor with required pod affinity or hard spreading constraints.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from reference.cycle_state import CycleState
from reference.plugins.pod_topology_spread.common import DO_NOT_SCHEDULE
from reference.selectors import LabelSelectorError, label_selector_as_selector
from reference.types import Pod, PodDisruptionBudget

from ..recipes.constrained import Preempting
from .base import invariant
from .judge import Judge
from .preemption import deleted_by_node, failed_attempts, known_pods
from .run import Run

NEVER = "Never"
# Points whose plugins decide whether and whom a pod preempts.
DECIDING = ("preEnqueue", "preFilter", "filter", "postFilter", "reserve", "permit", "preBind", "bind")


# --- never-preempting-pods-evict-none ----------------------------------------------------------------

@invariant("never-preempting-pods-evict-none",
           "A pod with preemptionPolicy Never evicts no one: every deleted pod has a lower priority than some "
           "workload pod whose preemptionPolicy is not Never.",
           "preemption/preemption.go Evaluator.Preempt; defaultpreemption PodEligibleToPreemptOthers (spec §2.6)",
           requires=("preemption",),
           situation=Preempting(never=True),
           rules=("preemption-policy-never",))
def never_preempting_pods_evict_none(run: Run) -> None:
    pods = known_pods(run)
    for key, pod in run.pod_objects.items():
        result = run.outcome.pods.get(key)
        lower = any(p.effective_priority < pod.effective_priority for k, p in pods.items() if k != key)
        failed = result is not None and (result.phase != "bound" or result.attempts > 1)
        if pod.preemption_policy == NEVER and lower and failed:
            run.exercise()
    for victim_key in run.outcome.deleted:
        victim = pods.get(victim_key)
        if victim is None:
            continue
        above = {k: p.preemption_policy for k, p in run.pod_objects.items()
                 if k != victim_key and p.effective_priority > victim.effective_priority}
        if above and all(policy == NEVER for policy in above.values()):
            raise run.violation(f"{victim_key} (priority {victim.effective_priority}) "
                                f"was deleted but every pod above it ({', '.join(sorted(above))}) has preemptionPolicy "
                                "Never", pod=victim_key, plugin="DefaultPreemption", expected="no eviction",
                                actual=sorted(run.outcome.deleted))


# --- the one preemption, and the states it may have seen ---------------------------------------------

class Preemption:
    """The preemptor, its victims' node and the victims, with the reference framework to test fits."""

    def __init__(self, judge: Judge, preemptor: str, node: str, victims: list[Pod]) -> None:
        self.judge = judge
        self.preemptor = preemptor
        self.node = node
        self.victims = victims
        self.pod = judge.pod(preemptor)

    @staticmethod
    def of(run: Run) -> "Preemption | None":
        judge = Judge.timeless(run)
        on_node = deleted_by_node(run)
        if judge is None or len(on_node) != 1 or "queue-attempts" not in run.capabilities:
            return None
        node, victims = next(iter(on_node.items()))
        top = max(v.effective_priority for v in victims)
        able = [k for k, p in run.pod_objects.items()
                if p.preemption_policy != NEVER and p.effective_priority > top]
        if len(able) != 1 or any(e.preempt_verb for e in judge.config.extenders):
            return None
        preemptor = able[0]
        if failed_attempts(run, preemptor) != 1 or not judge.judgeable(preemptor) or node not in judge.nodes:
            return None
        if not judge.stock_only(preemptor, DECIDING) or "DefaultPreemption" not in judge.plugins_at(
                preemptor, "postFilter"):
            return None
        found = Preemption(judge, preemptor, node, victims)
        return found if found.monotone() else None

    def monotone(self) -> bool:
        """Whether the preemptor's filters only get stricter as pods are added."""
        pod = self.pod
        if pod.affinity is not None and pod.affinity.pod_affinity is not None and pod.affinity.pod_affinity.required:
            return False
        spread = self.judge.filter_plugin(self.preemptor, "PodTopologySpread")
        return spread is None or not spread.constraints(pod, DO_NOT_SCHEDULE)

    def around(self, node: str) -> list[Pod]:
        """The most pods that may have been on `node` when the preemptor failed: every pod that may
        have been there, pods assumed somewhere unknown, and every pod that may have been nominated there."""
        judge = self.judge
        keys = {p.key for p in judge.possible if p.node_name == node}
        out = [p for p in judge.possible if p.node_name == node and p.key != self.preemptor]
        for p in judge.floating:
            if p.key != self.preemptor and p.key not in keys:
                out.append(replace(p, node_name=node))
                keys.add(p.key)
        for k, p in self.judge.run.pod_objects.items():
            if k != self.preemptor and k not in keys and p.effective_priority >= self.pod.effective_priority:
                out.append(judge.pod(k, node))
                keys.add(k)
        return out

    def fits(self, node: str, there: Iterable[Pod]) -> bool:
        """Whether the preemptor's PreFilter and Filter plugins accept `node` holding `there` (every
        other node holding the most pods it may have held)."""
        judge = self.judge
        fw = judge.framework(self.preemptor)
        others = [p for p in judge.possible if p.node_name != node and p.key != self.preemptor]
        snapshot = judge.snapshot([*others, *there])
        fw.set_snapshot(snapshot)
        state = CycleState()
        result, status, _ = fw.run_pre_filter_plugins(state, self.pod)
        if not status.is_success() or (result is not None and result.node_names is not None
                                       and node not in result.node_names):
            return False
        return fw.run_filter_plugins(state, self.pod, snapshot.get(node)).is_success()


def covers(pdb: PodDisruptionBudget, pod: Pod) -> bool:
    """Whether the budget counts the pod, as FilterPodsWithPDBViolation matches them."""
    if pdb.namespace != pod.namespace or not pod.labels or pod.name in pdb.disrupted_pods:
        return False
    try:
        selector = label_selector_as_selector(pdb.selector)
    except LabelSelectorError:
        return False
    return not selector.empty() and selector.matches(pod.labels)


# --- pdb-kept-when-avoidable -------------------------------------------------------------------------

@invariant("pdb-kept-when-avoidable",
           "When a node could take the preemptor by evicting only lower-priority pods no PodDisruptionBudget "
           "covers, the victims of the preemption exceed no budget's disruptionsAllowed.",
           "preemption/preemption.go SelectVictimsOnNode (violating victims reprieved first), pickOneNodeForPreemption "
           "(fewest PDB violations first), FilterPodsWithPDBViolation", requires=("preemption",),
           situation=Preempting(),
           rules=("pdb-respected-when-avoidable", "preemption-node-choice"))
def pdb_kept_when_avoidable(run: Run) -> None:
    pre = Preemption.of(run)
    if pre is None or not pre.judge.pdbs:
        return
    judge = pre.judge
    below = pre.pod.effective_priority
    alternative = None
    for node in judge.nodes:
        there = pre.around(node)
        free = {p.key for p in there if p.effective_priority < below and not any(covers(b, p) for b in judge.pdbs)}
        if free and pre.fits(node, [p for p in there if p.key not in free]):
            alternative = node
            break
    # The decisive situation: some budget covers a pod the preemptor could have evicted.
    tempting = any(covers(b, p) for b in judge.pdbs for p in judge.possible if p.effective_priority < below)
    if alternative is None or not tempting:
        return
    run.exercise()
    for pdb in judge.pdbs:
        hit = [v.key for v in pre.victims if covers(pdb, v)]
        if len(hit) > pdb.disruptions_allowed:
            raise run.violation(f"{pre.preemptor} evicted {', '.join(hit)} on {pre.node}, "
                                f"more than PodDisruptionBudget {pdb.namespace}/{pdb.name} allows "
                                f"({pdb.disruptions_allowed}), although evicting only pods no budget covers on "
                                f"{alternative} would have made room", pod=pre.preemptor, plugin="DefaultPreemption",
                                expected=f"at most {pdb.disruptions_allowed} of its pods evicted", actual=hit)


# --- preemption-lowest-victims -----------------------------------------------------------------------

@invariant("preemption-lowest-victims",
           "A preemption evicts on a node whose highest-priority victim is as low as any candidate's: no other "
           "node would take the preemptor by evicting only pods no PodDisruptionBudget covers, of lower "
           "priority than the highest one it evicted (that candidate would win on budgets or on priority).",
           "preemption/preemption.go pickOneNodeForPreemption (the lowest highest-victim priority, after the "
           "fewest PDB violations), SelectVictimsOnNode (the most important pods reprieved first)",
           requires=("preemption",), situation=Preempting(), rules=("preemption-node-choice",))
def preemption_lowest_victims(run: Run) -> None:
    pre = Preemption.of(run)
    if pre is None:
        return
    top = max(v.effective_priority for v in pre.victims)
    run.exercise()
    for node in pre.judge.nodes:
        there = pre.around(node) if node != pre.node else []
        lower = {p.key for p in there
                 if p.effective_priority < top and not any(covers(b, p) for b in pre.judge.pdbs)}
        if lower and pre.fits(node, [p for p in there if p.key not in lower]):
            raise run.violation(f"{pre.preemptor} evicted pods up to priority {top} on {pre.node}, although "
                                f"evicting only pods of lower priority on {node} would have made room",
                                pod=pre.preemptor, plugin="DefaultPreemption",
                                expected=f"victims below priority {top} (on {node})",
                                actual=[v.key for v in pre.victims])


# --- preemption-victims-minimal ----------------------------------------------------------------------

@invariant("preemption-victims-minimal",
           "No victim of a preemption could have been reprieved: with it back on the node (and the other victims "
           "gone) the preemptor would not fit.",
           "preemption/preemption.go SelectVictimsOnNode (reprievePod)", requires=("preemption",),
           situation=Preempting(),
           rules=("victims-minimal",))
def preemption_victims_minimal(run: Run) -> None:
    pre = Preemption.of(run)
    if pre is None:
        return
    run.exercise()
    gone = {v.key for v in pre.victims}
    after = [p for p in pre.around(pre.node) if p.key not in gone]
    for victim in pre.victims:
        if pre.fits(pre.node, [*after, replace(victim, node_name=pre.node)]):
            raise run.violation(f"{pre.preemptor} evicted {victim.key} on {pre.node}, but "
                                f"it fits there with {victim.key} kept (and the other victims gone)",
                                pod=victim.key, plugin="DefaultPreemption", expected=f"{victim.key} reprieved",
                                actual=sorted(gone))
