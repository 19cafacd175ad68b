"""Hard constraints every binding keeps, judged from the outcome alone (no probes: any backend).

Each check applies to pods whose profile runs the plugin at Filter (the reference's reading of the
config, see judge.py) and uses the reference plugin itself as the judge, on the cluster states the
scheduler may have seen. Node-only rules (taints, node selection, unschedulable) do not depend on
the state; the others are judged as judge.py explains.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any, Iterator

from reference.plugins.node_unschedulable import TAINT_NODE_UNSCHEDULABLE
from reference.plugins.taint_toleration import find_untolerated_taint
from reference.types import NO_EXECUTE, NO_SCHEDULE

from ..recipes.constrained import Constrained
from .base import invariant
from .judge import Judge
from .run import Run


def _bindings(run: Run, judge: Judge) -> Iterator[tuple[str, str]]:
    """(workload pod, node) of every binding onto a known node, once each, for judgeable pods."""
    seen = set()
    for b in run.outcome.bindings:
        key, node = b.get("pod"), b.get("node")
        if key in run.pod_objects and node in judge.nodes and (key, node) not in seen and judge.judgeable(key):
            seen.add((key, node))
            yield key, node


def _spec(run: Run, pod: str, *fields: str) -> dict[str, Any]:
    spec = run.pods[pod].get("spec") or {}
    return {f: spec[f] for f in fields if f in spec}


def _short(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _node_only(run: Run, plugin: str, exercised, describe) -> None:
    """A state-independent Filter rule: every binding the plugin would reject is a violation."""
    judge = Judge.of(run)
    if judge is None:
        return
    for pod, node in _bindings(run, judge):
        # On a changed cluster: a violation only if every state the binding's cycle may have seen rejects it.
        status = view = None
        for view in judge.views_at_binding(pod):
            status = view.verdict(pod, plugin, node, view.definite)
            if status is None or not status.is_rejected():
                break
        if status is None or view is None:
            continue
        if exercised(view, pod):
            run.exercise()
        if status.is_rejected():
            why = describe(view, pod, node) if node in view.nodes else "the node did not exist then"
            raise run.violation(f"{pod} was bound to {node}, which {plugin} rejects: {why}",
                                pod=pod, plugin=plugin, status=f"{status.code.value}: {status.message()}",
                                expected=f"{plugin} Filter passes on {node}", actual=status.message())


# --- taints-tolerated -----------------------------------------------------------------------------

def _hard_taints(node) -> list:
    return [t for t in node.taints if t.effect in (NO_SCHEDULE, NO_EXECUTE)]


@invariant("taints-tolerated",
           "With TaintToleration filtering, no pod is bound to a node with a NoSchedule or NoExecute taint it does "
           "not tolerate.", "tainttoleration/taint_toleration.go Filter; v1 helper FindMatchingUntoleratedTaint "
           "(spec §8.5)", requires=(),
           situation=Constrained("taints"),
           rules=("taint-toleration",))
def taints_tolerated(run: Run) -> None:
    def describe(judge: Judge, pod: str, node: str) -> str:
        taint = find_untolerated_taint(judge.nodes[node].taints, judge.pod(pod).tolerations)
        where = f"taint {taint.key}={taint.value}:{taint.effect}" if taint else "a taint"
        return f"{where} is not tolerated by {_short(_spec(run, pod, 'tolerations').get('tolerations', []))}"
    _node_only(run, "TaintToleration",
               lambda judge, pod: any(_hard_taints(n) for n in judge.nodes.values()), describe)


# --- node-selection-respected ---------------------------------------------------------------------

def _selects_nodes(judge: Judge, pod: str) -> bool:
    p = judge.pod(pod)
    required = p.affinity is not None and p.affinity.node_affinity is not None \
        and p.affinity.node_affinity.required is not None
    args = judge.profiles[judge.run.profile_of(pod)].plugin_args.get("NodeAffinity")
    added = getattr(getattr(args, "added_affinity", None), "required", None)
    return bool(p.node_selector) or required or added is not None


@invariant("node-selection-respected",
           "With NodeName and NodeAffinity filtering, every bound pod's node matches its spec.nodeName, nodeSelector, "
           "required node affinity and the profile's addedAffinity.",
           "nodename/node_name.go Filter; nodeaffinity/node_affinity.go PreFilter, Filter (spec §8.6)", requires=(),
           situation=Constrained("selection"),
           rules=("node-affinity",))
def node_selection_respected(run: Run) -> None:
    def describe(judge: Judge, pod: str, node: str) -> str:
        terms = _spec(run, pod, "nodeName", "nodeSelector")
        affinity = ((run.pods[pod].get("spec") or {}).get("affinity") or {}).get("nodeAffinity") or {}
        if "requiredDuringSchedulingIgnoredDuringExecution" in affinity:
            terms["required"] = affinity["requiredDuringSchedulingIgnoredDuringExecution"]
        return f"node labels {_short(judge.nodes[node].labels)} do not match {_short(terms)}"
    for plugin in ("NodeName", "NodeAffinity"):
        _node_only(run, plugin,
                   lambda judge, pod: plugin == "NodeAffinity" and _selects_nodes(judge, pod), describe)


# --- unschedulable-nodes-avoided ------------------------------------------------------------------

@invariant("unschedulable-nodes-avoided",
           "With NodeUnschedulable filtering, a pod is bound to a node with spec.unschedulable only if it tolerates "
           "the node.kubernetes.io/unschedulable:NoSchedule taint.",
           "nodeunschedulable/node_unschedulable.go Filter", requires=(),
           situation=Constrained("unschedulable"),
           rules=("node-unschedulable",))
def unschedulable_nodes_avoided(run: Run) -> None:
    def describe(judge: Judge, pod: str, node: str) -> str:
        return (f"the node is unschedulable and the pod has no toleration for {TAINT_NODE_UNSCHEDULABLE}:NoSchedule "
                f"({_short(_spec(run, pod, 'tolerations').get('tolerations', []))})")
    _node_only(run, "NodeUnschedulable",
               lambda judge, pod: any(n.unschedulable for n in judge.nodes.values()), describe)


# --- host-ports-free ------------------------------------------------------------------------------

def _host_ports(run: Run, pod: str) -> list:
    spec = run.pods[pod].get("spec") or {}
    containers = [*(c for c in spec.get("initContainers") or () if c.get("restartPolicy") == "Always"),
                  *(spec.get("containers") or ())]
    return [p for c in containers for p in c.get("ports") or () if p.get("hostPort")]


@invariant("host-ports-free",
           "With NodePorts filtering, no two pods on a node use the same host port and protocol on overlapping host "
           "IPs (0.0.0.0 overlaps every IP; sidecar containers count, other init containers do not).",
           "nodeports/node_ports.go Fits; framework/types.go HostPortInfo.CheckConflict; "
           "util.GetHostPorts", requires=(),
           situation=Constrained("ports"),
           rules=("node-ports",))
def host_ports_free(run: Run) -> None:
    judge = Judge.of(run)
    if judge is None:
        return
    placed = [k for k in judge.placed if judge.judgeable(k) and _host_ports(run, k)]
    for key in placed:
        if judge.filter_plugin(key, "NodePorts") is not None:
            run.exercise()
    groups = [[k] for k in placed] + [[a, b] for a, b in combinations(placed, 2)
                                      if judge.placed[a] == judge.placed[b]]
    for group in groups:
        statuses = judge.group_rejected("NodePorts", group)
        if statuses:
            node = judge.placed[group[0]]
            ports = {k: _host_ports(run, k) for k in group}
            users = [p.key for p in judge.definite if p.node_name == node]
            raise run.violation(f"{' and '.join(group)} on {node} use conflicting host ports"
                                + (f" (next to {', '.join(users)})" if users else "") + ": whichever was scheduled last "
                                "must have been rejected", pod=group[-1], plugin="NodePorts",
                                expected="no (hostIP, port, protocol) overlap", actual=ports)
