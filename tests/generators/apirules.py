"""API-server rules the OpenAPI schema cannot express, for the fields the generators write.

After pkg/apis/core/validation (ValidatePod*, ValidateNode, ValidateService), apps/validation
(ValidateReplicaSetSpec), policy/validation (ValidatePodDisruptionBudgetSpec), and the admission
plugins a real cluster runs on every pod (Priority, RuntimeClass), with the PriorityClasses and
RuntimeClasses of `generators.pools`. `api_errors` returns one line per violation.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Callable, Mapping

from generators.pools import PRIORITY_CLASSES, RUNTIME_CLASSES
from reference.quantity import resource_value

Errors = list[str]
_NAME = r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?"
_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_DNS1035 = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
_CLASSES = {c.name: c for c in PRIORITY_CLASSES if c.name}
_RUNTIMES = {r.name: r for r in RUNTIME_CLASSES}


def subdomain(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= 253 and bool(_SUBDOMAIN.fullmatch(v))


def dns_label(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= 63 and bool(_LABEL.fullmatch(v))


def qualified_name(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    prefix, _, name = v.rpartition("/")
    return (not prefix or subdomain(prefix)) and len(name) <= 63 and bool(re.fullmatch(_NAME, name))


def label_value(v: Any) -> bool:
    return isinstance(v, str) and (v == "" or (len(v) <= 63 and bool(re.fullmatch(_NAME, v))))


def _labels(labels: Mapping[str, Any], where: str) -> Errors:
    return [f"{where}: bad label {k}={v!r}" for k, v in labels.items() if not (qualified_name(k) and label_value(v))]


def _selector(sel: Mapping[str, Any] | None, where: str) -> Errors:
    if sel is None:
        return []
    errs = _labels(sel.get("matchLabels", {}), where)
    for r in sel.get("matchExpressions", []):
        values = r.get("values", [])
        if r["operator"] in ("In", "NotIn") and not values:
            errs.append(f"{where}: {r['operator']} needs values")
        elif r["operator"] in ("Exists", "DoesNotExist") and values:
            errs.append(f"{where}: {r['operator']} takes no values")
        elif r["operator"] not in ("In", "NotIn", "Exists", "DoesNotExist"):
            errs.append(f"{where}: operator {r['operator']!r}")
        errs += [f"{where}: bad key {r['key']!r}" for _ in [0] if not qualified_name(r["key"])]
        errs += [f"{where}: bad value {v!r}" for v in values if not label_value(v)]
    return errs


def _selector_keys(sel: Mapping[str, Any] | None) -> set[str]:
    sel = sel or {}
    return set(sel.get("matchLabels", {})) | {r["key"] for r in sel.get("matchExpressions", [])}


def _node_term(term: Mapping[str, Any], where: str) -> Errors:
    errs: Errors = []
    for r in term.get("matchExpressions", []):
        op, values = r["operator"], r.get("values", [])
        if op in ("In", "NotIn") and not values or op in ("Exists", "DoesNotExist") and values:
            errs.append(f"{where}: {op} with values {values}")
        if op in ("Gt", "Lt") and (len(values) != 1 or not values[0].lstrip("-").isdigit()):
            errs.append(f"{where}: {op} needs one integer value, got {values}")
        if op not in ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt") or not qualified_name(r["key"]):
            errs.append(f"{where}: bad requirement {r}")
        errs += [f"{where}: bad value {v!r}" for v in values if not label_value(v)]
    for r in term.get("matchFields", []):
        if r["key"] != "metadata.name" or r["operator"] not in ("In", "NotIn") or len(r.get("values", [])) != 1:
            errs.append(f"{where}: bad field selector {r}")
    return errs


def _weight(w: Any, where: str) -> Errors:
    return [] if isinstance(w, int) and 1 <= w <= 100 else [f"{where}: weight {w!r} not in 1-100"]


def _affinity(a: Mapping[str, Any], where: str) -> Errors:
    errs: Errors = []
    node = a.get("nodeAffinity", {})
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    if required is not None:
        if not required.get("nodeSelectorTerms"):
            errs.append(f"{where}: required node affinity needs at least one term")
        errs += [e for t in required.get("nodeSelectorTerms", []) for e in _node_term(t, where)]
    for p in node.get("preferredDuringSchedulingIgnoredDuringExecution", []):
        errs += _weight(p["weight"], where) + _node_term(p["preference"], where)
    for kind in ("podAffinity", "podAntiAffinity"):
        block = a.get(kind, {})
        terms = list(block.get("requiredDuringSchedulingIgnoredDuringExecution", []))
        for p in block.get("preferredDuringSchedulingIgnoredDuringExecution", []):
            errs += _weight(p["weight"], where)
            terms.append(p["podAffinityTerm"])
        for t in terms:
            if not t.get("topologyKey") or not qualified_name(t["topologyKey"]):
                errs.append(f"{where}: topologyKey {t.get('topologyKey')!r}")
            errs += _selector(t.get("labelSelector"), where) + _selector(t.get("namespaceSelector"), where)
            errs += [f"{where}: namespace {n!r}" for n in t.get("namespaces", []) if not dns_label(n)]
            if (t.get("matchLabelKeys") or t.get("mismatchLabelKeys")) and t.get("labelSelector") is None:
                errs.append(f"{where}: match/mismatchLabelKeys without labelSelector")
    return errs


def _tolerations(tolerations: list[Mapping[str, Any]], where: str) -> Errors:
    errs: Errors = []
    for t in tolerations:
        op, key, effect = t.get("operator", "Equal"), t.get("key", ""), t.get("effect", "")
        if key and not qualified_name(key) or not key and op != "Exists":
            errs.append(f"{where}: key {key!r} with operator {op}")
        if op == "Exists" and t.get("value") or op not in ("Equal", "Exists") or not label_value(t.get("value", "")):
            errs.append(f"{where}: operator {op} with value {t.get('value')!r}")
        if "tolerationSeconds" in t and effect != "NoExecute":
            errs.append(f"{where}: tolerationSeconds needs NoExecute")
        if effect not in ("", "NoSchedule", "PreferNoSchedule", "NoExecute"):
            errs.append(f"{where}: effect {effect!r}")
    return errs


def _spread(constraints: list[Mapping[str, Any]], where: str) -> Errors:
    errs: Errors = []
    seen = set()
    for c in constraints:
        pair = (c["topologyKey"], c["whenUnsatisfiable"])
        errs += [f"{where}: duplicate {pair}" for _ in [0] if pair in seen]
        seen.add(pair)
        if c["maxSkew"] <= 0 or not c["topologyKey"] or pair[1] not in ("DoNotSchedule", "ScheduleAnyway"):
            errs.append(f"{where}: bad constraint {c}")
        if "minDomains" in c and (c["minDomains"] <= 0 or pair[1] != "DoNotSchedule"):
            errs.append(f"{where}: minDomains {c['minDomains']} with {pair[1]}")
        for policy in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            if c.get(policy, "Honor") not in ("Honor", "Ignore"):
                errs.append(f"{where}: {policy} {c[policy]!r}")
        keys = c.get("matchLabelKeys", [])
        if keys and ("labelSelector" not in c or set(keys) & _selector_keys(c["labelSelector"])):
            errs.append(f"{where}: matchLabelKeys {keys} against selector {c.get('labelSelector')}")
        errs += _selector(c.get("labelSelector"), where)
    return errs


def _resources(container: Mapping[str, Any], where: str) -> Errors:
    res = container.get("resources", {})
    requests, limits = res.get("requests", {}), res.get("limits", {})
    errs: Errors = []
    for name in {**requests, **limits}:
        req = resource_value(name, requests[name]) if name in requests else None
        lim = resource_value(name, limits[name]) if name in limits else None
        if (req or 0) < 0 or (lim or 0) < 0 or req is not None and lim is not None and lim < req:
            errs.append(f"{where}: {name} request {req} limit {lim}")
        if "/" in name and "kubernetes.io/" not in name and (lim is None or lim != req):
            errs.append(f"{where}: extended resource {name} needs a limit equal to its request")
    return errs


def pod_errors(pod: Mapping[str, Any]) -> Errors:
    meta, spec = pod["metadata"], pod["spec"]
    where = f"Pod {meta.get('namespace')}/{meta['name']}"
    errs = [] if subdomain(meta["name"]) and dns_label(meta.get("namespace", "default")) else [f"{where}: name"]
    errs += _labels(meta.get("labels", {}), where)
    errs += [f"{where}: annotation {k!r}" for k in meta.get("annotations", {}) if not qualified_name(k)]
    refs = meta.get("ownerReferences", [])
    if sum(bool(r.get("controller")) for r in refs) > 1 or not all(r.get(f) for r in refs
                                                                 for f in ("apiVersion", "kind", "name", "uid")):
        errs.append(f"{where}: owner references {refs}")
    containers, inits = spec.get("containers", []), spec.get("initContainers", [])
    names = [c["name"] for c in containers + inits]
    if not containers or len(set(names)) != len(names) or not all(map(dns_label, names)):
        errs.append(f"{where}: container names {names}")
    ports: list[str] = []
    for c in containers + inits:
        if not c.get("image") or c.get("restartPolicy", "Always") != "Always" or (
                "restartPolicy" in c and c not in inits):
            errs.append(f"{where}: container {c['name']} image/restartPolicy")
        errs += _resources(c, f"{where} container {c['name']}")
        for p in c.get("ports", []):
            ports.append(f"{p.get('protocol', 'TCP')}/{p.get('hostIP', '')}/{p.get('hostPort', 0)}")
            if not 1 <= p["containerPort"] <= 65535 or not 0 <= p.get("hostPort", 0) <= 65535 or (
                    p.get("protocol", "TCP") not in ("TCP", "UDP", "SCTP")):
                errs.append(f"{where}: port {p}")
            if "hostIP" in p:
                ipaddress.ip_address(p["hostIP"])
    host_ports = [p for p in ports if not p.endswith("/0")]
    if len(set(host_ports)) != len(host_ports):
        errs.append(f"{where}: duplicate host ports {host_ports}")
    errs += _labels(spec.get("nodeSelector", {}), f"{where} nodeSelector")
    errs += _tolerations(spec.get("tolerations", []), where) + _spread(spec.get("topologySpreadConstraints", []), where)
    errs += _affinity(spec.get("affinity", {}), where)
    gates = [g["name"] for g in spec.get("schedulingGates", [])]
    if len(set(gates)) != len(gates) or not all(map(qualified_name, gates)) or gates and spec.get("nodeName"):
        errs.append(f"{where}: scheduling gates {gates} (nodeName {spec.get('nodeName')!r})")
    cls = _CLASSES.get(spec.get("priorityClassName", ""))
    if spec.get("priorityClassName") and cls is None or spec.get("priority", cls.value if cls else 0) != (
            cls.value if cls else 0) or spec.get("preemptionPolicy") not in (None, cls and cls.preemption_policy):
        errs.append(f"{where}: Priority admission rejects {spec.get('priorityClassName')!r}/{spec.get('priority')}")
    runtime = _RUNTIMES.get(spec.get("runtimeClassName", ""))
    if spec.get("runtimeClassName") and runtime is None or "overhead" in spec and (
            runtime is None or dict(runtime.overhead) != spec["overhead"]):
        errs.append(f"{where}: RuntimeClass admission rejects overhead {spec.get('overhead')}")
    if spec.get("volumes") or spec.get("resourceClaims"):
        errs.append(f"{where}: volumes and resource claims are not modelled by the reference")
    return errs


def node_errors(node: Mapping[str, Any]) -> Errors:
    meta = node["metadata"]
    where = f"Node {meta['name']}"
    errs = ([] if subdomain(meta["name"]) else [f"{where}: name"]) + _labels(meta.get("labels", {}), where)
    taints = node.get("spec", {}).get("taints", [])
    pairs = [(t["key"], t["effect"]) for t in taints]
    if len(set(pairs)) != len(pairs):
        errs.append(f"{where}: duplicate taints {pairs}")
    for t in taints:
        if not qualified_name(t["key"]) or not label_value(t.get("value", "")) or t["effect"] not in (
                "NoSchedule", "PreferNoSchedule", "NoExecute"):
            errs.append(f"{where}: taint {t}")
    for field in ("capacity", "allocatable"):
        amounts = node["status"][field]
        errs += [f"{where}: {field}.{k}={v!r}" for k, v in amounts.items() if resource_value(k, v) < 0]
        errs += [f"{where}: {field} lacks {k}" for k in ("cpu", "memory", "pods") if k not in amounts]
    return errs


def _pdb_errors(pdb: Mapping[str, Any]) -> Errors:
    spec = pdb["spec"]
    where = f"PodDisruptionBudget {pdb['metadata']['name']}"
    budgets = [spec[k] for k in ("minAvailable", "maxUnavailable") if k in spec]
    errs = [] if len(budgets) == 1 else [f"{where}: exactly one of minAvailable and maxUnavailable"]
    for b in budgets:
        if isinstance(b, int) and b < 0 or isinstance(b, str) and not re.fullmatch(r"(100|[1-9]?[0-9])%", b):
            errs.append(f"{where}: budget {b!r}")
    return errs + _selector(spec.get("selector"), where)


def _replica_set_errors(rs: Mapping[str, Any]) -> Errors:
    spec = rs["spec"]
    where = f"ReplicaSet {rs['metadata']['name']}"
    selector, template = spec.get("selector") or {}, spec.get("template") or {}
    labels = template.get("metadata", {}).get("labels", {})
    errs = _selector(selector, where)
    if not _selector_keys(selector) or any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
        errs.append(f"{where}: selector {selector} must be non-empty and match template labels {labels}")
    if spec.get("replicas", 1) < 0 or not template.get("spec", {}).get("containers"):
        errs.append(f"{where}: replicas/template")
    return errs


def _service_errors(svc: Mapping[str, Any]) -> Errors:
    where = f"Service {svc['metadata']['name']}"
    ok = _DNS1035.fullmatch(svc["metadata"]["name"]) and svc["spec"].get("ports")
    return ([] if ok else [f"{where}: name or ports"]) + _labels(svc["spec"].get("selector", {}), where)


def _namespace_errors(ns: Mapping[str, Any]) -> Errors:
    name = ns["metadata"]["name"]
    return ([] if dns_label(name) else [f"Namespace {name}: name"]) + _labels(ns["metadata"].get("labels", {}), name)


_RULES: dict[str, Callable[[Mapping[str, Any]], Errors]] = {
    "Pod": pod_errors, "Node": node_errors, "PodDisruptionBudget": _pdb_errors, "ReplicaSet": _replica_set_errors,
    "Service": _service_errors, "Namespace": _namespace_errors,
}


def api_errors(manifest: Mapping[str, Any]) -> Errors:
    return _RULES[manifest["kind"]](manifest)


__all__ = ["api_errors", "dns_label", "label_value", "node_errors", "pod_errors", "qualified_name", "subdomain"]
