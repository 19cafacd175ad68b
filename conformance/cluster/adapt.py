"""A scenario's manifests as API objects of one run: namespaces mapped, marks added, and what the API
server's admission would otherwise change made explicit.

What is added, and why it does not change a scheduling decision:
- labels `sched-conformance.io/run` and `.../scenario` (no scenario selector names these keys);
- on nodes, a NoSchedule taint `sched-conformance.io/run=<run>` that only workload pods tolerate,
  so that no other pod lands on a fake node (appended last, so messages about scenario taints stay
  as they were);
- PriorityClass and RuntimeClass objects of the scenario are created per scenario as
  `scc-<run>-<n>-<name>`, and pods naming them name the copy (no scheduler code reads class names);
- otherwise `spec.priority` becomes a PriorityClass of the same value (the Priority admission plugin
  rejects a bare priority), `spec.overhead` a RuntimeClass with that overhead (RuntimeClass admission);
- container names and images where the scenario has none (the API requires them);
- against a cluster that is not the local one, a required node affinity on the run label, so that
  workload pods never land on the cluster's own nodes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.kinds import CLUSTER_SCOPED
from reference.faults import is_fault
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, Scenario

from .adapt_objects import ScenarioNotSupported, clean_meta, namespaced_object, refuse_storage
from .naming import RUN_LABEL, SCENARIO_LABEL, NamespaceMap, run_metadata, scenario_scoped

PLACEHOLDER_IMAGE = "sched-conformance.invalid/placeholder:0"
DEFAULT_SCHEDULER = "default-scheduler"
MAX_USER_PRIORITY = 1_000_000_000
CLASS_KINDS = ("PriorityClass", "RuntimeClass")
SYSTEM_CLASSES = {2_000_000_000: "system-cluster-critical", 2_000_001_000: "system-node-critical"}

Manifest = dict[str, Any]


@dataclass
class Plan:
    """API objects in creation order; `status` holds status subresource patches keyed by (kind, ns, name)."""

    namespaces: list[Manifest] = field(default_factory=list)
    classes: list[Manifest] = field(default_factory=list)
    objects: list[Manifest] = field(default_factory=list)
    nodes: list[Manifest] = field(default_factory=list)
    bound_pods: list[Manifest] = field(default_factory=list)
    workload: list[Manifest] = field(default_factory=list)
    status: dict[tuple[str, str, str], Manifest] = field(default_factory=dict)
    # customObjects with the run's labels and mapped namespaces; one without a namespace goes to the
    # scenario's `default` namespace if its kind turns out to be namespaced (custom.py asks the API).
    custom: list[Manifest] = field(default_factory=list)
    default_namespace: str = ""
    # (kind, scenario name) -> cluster name of the scenario's PriorityClass/RuntimeClass copies
    renamed: dict[tuple[str, str], str] = field(default_factory=dict)


def scenario_namespaces(scenario: Scenario) -> list[str]:
    """Every namespace the scenario names: of pods and objects, Namespace objects, affinity terms; and those
    its timeline creates or names."""
    names = {m["metadata"]["name"] for m in scenario.objects if m["kind"] == "Namespace"}
    for m in (*scenario.pods, *scenario.workload, *scenario.objects, *scenario.custom_objects):
        if m["kind"] != "Namespace":
            names.add((m.get("metadata") or {}).get("namespace") or "default")
    for m in (*scenario.pods, *scenario.workload):
        for term in _pod_terms(m):
            names.update(term.get("namespaces") or [])
    for event in scenario.timeline:
        if is_fault(event):
            continue  # its pod is the scenario's or an earlier event's
        m = event.get("object") or {}
        if m.get("kind") == "Namespace":
            names.add(m["metadata"]["name"])
        elif m:
            if m.get("kind") not in CLUSTER_SCOPED:
                names.add((m.get("metadata") or {}).get("namespace") or "default")
            for term in _pod_terms(m) if m.get("kind") == "Pod" else ():
                names.update(term.get("namespaces") or [])
        elif event.get("kind") not in CLUSTER_SCOPED:
            names.add(event.get("namespace") or "default")
    return sorted(names)


def _namespace(name: str) -> Manifest:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


def _pod_terms(pod: Mapping[str, Any]) -> list[dict[str, Any]]:
    affinity = (pod.get("spec") or {}).get("affinity") or {}
    terms = []
    for kind in ("podAffinity", "podAntiAffinity"):
        a = affinity.get(kind) or {}
        terms += list(a.get("requiredDuringSchedulingIgnoredDuringExecution") or [])
        terms += [w.get("podAffinityTerm") or {} for w in a.get("preferredDuringSchedulingIgnoredDuringExecution") or []]
    return terms


class Adapter:
    """Turns one scenario into a Plan; PriorityClass/RuntimeClass names are per run and reused."""

    def __init__(self, run_id: str, *, scheduler_name: str | None = None, guard_foreign_nodes: bool = False) -> None:
        self.run_id = run_id
        self.scheduler_name = scheduler_name
        self.guard_foreign_nodes = guard_foreign_nodes
        self.labels, self.annotations = run_metadata(run_id)

    def taint(self) -> Manifest:
        return {"key": RUN_LABEL, "value": self.run_id, "effect": "NoSchedule"}

    def toleration(self) -> Manifest:
        return {"key": RUN_LABEL, "operator": "Equal", "value": self.run_id, "effect": "NoSchedule"}

    def scenario_labels(self, nsmap: NamespaceMap) -> dict[str, str]:
        return {**self.labels, SCENARIO_LABEL: str(nsmap.scenario)}

    def plan(self, scenario: Scenario, nsmap: NamespaceMap) -> Plan:
        for i, m in enumerate(scenario.objects):
            refuse_storage(m["kind"], f"scenario.objects[{i}]")
        for i, e in enumerate(scenario.timeline):
            obj = e.get("object")  # a create's manifest; a vanish fault names its object with a word
            refuse_storage((obj.get("kind") if isinstance(obj, dict) else None) or e.get("kind"),
                           f"scenario.timeline[{i}]")
        labels = self.scenario_labels(nsmap)
        out = Plan()
        ns_objects = {m["metadata"]["name"]: m for m in scenario.objects if m["kind"] == "Namespace"}
        later = {e["object"]["metadata"]["name"] for e in scenario.timeline
                 if e.get("op") == "create" and e["object"].get("kind") == "Namespace"}
        for ns in nsmap.forward:
            if ns not in later:  # the timeline creates it (timeline.py)
                out.namespaces.append(self.namespace(ns_objects.get(ns) or _namespace(ns), nsmap))
        renamed = out.renamed
        for m in scenario.objects:
            if m["kind"] in CLASS_KINDS:
                out.classes.append(self.scenario_class(m, nsmap, renamed))
            elif m["kind"] != "Namespace":
                obj, status = namespaced_object(m, nsmap, labels)
                out.objects.append(obj)
                if status:
                    out.status[(m["kind"], obj["metadata"]["namespace"], obj["metadata"]["name"])] = status
        out.nodes = [self.node(m, labels) for m in scenario.nodes]
        classes: dict[str, Manifest] = {}
        for section, target in ((scenario.pods, out.bound_pods), (scenario.workload, out.workload)):
            for m in section:
                pod = self.pod(m, nsmap, labels, classes, renamed, workload=target is out.workload)
                target.append(pod)
                status = {k: v for k, v in (m.get("status") or {}).items() if k != "phase" or section is scenario.pods}
                if status:
                    out.status[("Pod", pod["metadata"]["namespace"], pod["metadata"]["name"])] = {"status": status}
        out.classes += classes.values()
        out.default_namespace = nsmap.forward.get("default", "")
        for m in scenario.custom_objects:
            obj = clean_meta(m, labels)
            obj.pop("status", None)
            if obj["metadata"].get("namespace"):
                obj["metadata"]["namespace"] = nsmap.to_cluster(obj["metadata"]["namespace"])
            out.custom.append(obj)
        return out

    def node(self, m: Manifest, labels: Mapping[str, str]) -> Manifest:
        node = clean_meta(m, labels, self.annotations)
        spec = node.setdefault("spec", {})
        spec["taints"] = [*(spec.get("taints") or []), self.taint()]
        status = node.setdefault("status", {})
        # Ready=True keeps a node lifecycle controller, where one runs, from tainting it for a grace period.
        status.setdefault("conditions", [{"type": "Ready", "status": "True", "reason": "SchedConformance",
                                          "message": "fake node of sched-conformance"}])
        return node

    def namespace(self, m: Manifest, nsmap: NamespaceMap) -> Manifest:
        obj = clean_meta(m, self.scenario_labels(nsmap), self.annotations)
        obj["metadata"]["name"] = nsmap.to_cluster(m["metadata"]["name"])
        obj.pop("status", None)
        return obj

    def scenario_class(self, m: Manifest, nsmap: NamespaceMap, renamed: dict[tuple[str, str], str]) -> Manifest:
        """A PriorityClass/RuntimeClass of the scenario as its per-scenario copy (recorded in `renamed`)."""
        obj = clean_meta(m, self.scenario_labels(nsmap), self.annotations)
        obj["metadata"]["name"] = scenario_scoped(nsmap, m["metadata"]["name"])
        renamed[(m["kind"], m["metadata"]["name"])] = obj["metadata"]["name"]
        return obj

    def one(self, m: Manifest, nsmap: NamespaceMap, renamed: dict[tuple[str, str], str],
            classes: dict[str, Manifest]) -> tuple[Manifest, Manifest]:
        """One scenario manifest of any modelled kind as (API object, status patch or {}), as `plan` adapts
        it; a pod without spec.nodeName as a workload pod, the classes it needs added to `classes`."""
        kind, labels = m["kind"], self.scenario_labels(nsmap)
        if kind == "Node":
            return self.node(m, labels), {}  # a node's status is taken on create
        if kind == "Namespace":
            return self.namespace(m, nsmap), {}
        if kind in CLASS_KINDS:
            return self.scenario_class(m, nsmap, renamed), {}
        if kind != "Pod":
            return namespaced_object(m, nsmap, labels)
        bound = bool((m.get("spec") or {}).get("nodeName"))
        pod = self.pod(m, nsmap, labels, classes, renamed, workload=not bound)
        status = {k: v for k, v in (m.get("status") or {}).items() if k != "phase" or bound}
        return pod, ({"status": status} if status else {})

    def pod(self, m: Manifest, nsmap: NamespaceMap, labels: Mapping[str, str], classes: dict[str, Manifest],
            renamed: Mapping[tuple[str, str], str], *, workload: bool) -> Manifest:
        pod = clean_meta(m, labels)
        pod.pop("status", None)
        meta, spec = pod["metadata"], pod.setdefault("spec", {})
        key = f"{meta.get('namespace') or 'default'}/{meta['name']}"
        meta["namespace"] = nsmap.to_cluster(meta.get("namespace") or "default")
        if not spec.get("containers"):
            raise ScenarioNotSupported(f"pod {key} has no containers; the API server requires at least one")
        for kind in ("initContainers", "containers"):
            for i, c in enumerate(spec.get(kind) or []):
                c.setdefault("name", f"{'init' if kind == 'initContainers' else 'c'}{i}")
                c.setdefault("image", PLACEHOLDER_IMAGE)
        for term in _pod_terms(pod):
            if term.get("namespaces"):
                term["namespaces"] = [nsmap.to_cluster(ns) for ns in term["namespaces"]]
        # Pods naming a scenario class already carry its values (reference/admission.py checks that).
        if ("PriorityClass", spec.get("priorityClassName")) in renamed:
            spec["priorityClassName"] = renamed[("PriorityClass", spec["priorityClassName"])]
        else:
            self._priority(spec, key, classes)
        if ("RuntimeClass", spec.get("runtimeClassName")) in renamed:
            spec["runtimeClassName"] = renamed[("RuntimeClass", spec["runtimeClassName"])]
        elif spec.get("overhead"):
            spec["runtimeClassName"] = self._runtime_class(spec.pop("overhead"), classes)
        script = (meta.get("annotations") or {}).get(EXTENDER_SCRIPT_ANNOTATION)
        if script:
            meta["annotations"][EXTENDER_SCRIPT_ANNOTATION] = _map_victims(script, nsmap)
        if workload:
            spec["tolerations"] = [*(spec.get("tolerations") or []), self.toleration()]
            if self.scheduler_name and spec.get("schedulerName", DEFAULT_SCHEDULER) == DEFAULT_SCHEDULER:
                spec["schedulerName"] = self.scheduler_name
            if self.guard_foreign_nodes:
                _require_run_label(spec, self.run_id)
        return pod

    def _priority(self, spec: Manifest, key: str, classes: dict[str, Manifest]) -> None:
        value = int(spec.pop("priority", 0) or 0)
        policy = spec.pop("preemptionPolicy", None) or "PreemptLowerPriority"
        if value in SYSTEM_CLASSES and policy == "PreemptLowerPriority":
            spec["priorityClassName"] = SYSTEM_CLASSES[value]
            return
        if value > MAX_USER_PRIORITY:
            raise ScenarioNotSupported(f"pod {key} has priority {value}; an API server accepts at most "
                                       f"{MAX_USER_PRIORITY} outside the system classes {sorted(SYSTEM_CLASSES)}")
        name = f"scc-{self.run_id}-p{value}".replace("-p-", "-pm") + ("-never" if policy == "Never" else "")
        classes.setdefault(name, {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                                  "metadata": {"name": name, "labels": dict(self.labels),
                                               "annotations": dict(self.annotations)},
                                  "value": value, "preemptionPolicy": policy, "globalDefault": False})
        spec["priorityClassName"] = name

    def _runtime_class(self, overhead: Mapping[str, Any], classes: dict[str, Manifest]) -> str:
        digest = hashlib.sha256(json.dumps(overhead, sort_keys=True).encode()).hexdigest()[:8]
        name = f"scc-{self.run_id}-o{digest}"
        classes.setdefault(name, {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass",
                                  "metadata": {"name": name, "labels": dict(self.labels),
                                               "annotations": dict(self.annotations)},
                                  "handler": "sched-conformance", "overhead": {"podFixed": dict(overhead)}})
        return name


def _map_victims(script: str, nsmap: NamespaceMap) -> str:
    """Extender preempt scripts name victims by pod key; the extender server sees cluster keys."""
    try:
        data = json.loads(script)
    except ValueError:
        return script  # the extender server reports an unreadable script itself
    for verbs in (data.values() if isinstance(data, dict) else []):
        victims = ((verbs or {}).get("preempt") or {}).get("victims") if isinstance(verbs, dict) else None
        if isinstance(victims, dict):
            for node, keys in victims.items():
                victims[node] = [nsmap.key_to_cluster(k) for k in keys] if isinstance(keys, list) else keys
    return json.dumps(data)


def _require_run_label(spec: Manifest, run_id: str) -> None:
    expr = {"key": RUN_LABEL, "operator": "In", "values": [run_id]}
    node_aff = spec.setdefault("affinity", {}).setdefault("nodeAffinity", {})
    required = node_aff.setdefault("requiredDuringSchedulingIgnoredDuringExecution", {})
    terms = required.get("nodeSelectorTerms") or [{}]
    # Terms are ORed: the run label must hold in each of them.
    required["nodeSelectorTerms"] = [{**t, "matchExpressions": [*(t.get("matchExpressions") or []), expr]}
                                     for t in terms]


__all__ = ["Adapter", "PLACEHOLDER_IMAGE", "Plan", "ScenarioNotSupported", "scenario_namespaces"]
