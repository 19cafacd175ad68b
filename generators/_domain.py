"""`Domain` and `with_domain()`: the user's own vocabulary (label and annotation keys and values, taint
keys, extended resources) drawn into scenarios beside the stock one.

An out-of-tree plugin compares against labels, taints and resources of its own organisation, which the
stock pools (generators/pools.py) never draw: a Score plugin that misbehaves only on nodes labelled
`example.com/tier=gold` passes every stock scenario. A domain comes from a `[domain]` table the user
writes, or from the plugin's Go sources (harness/cmd/vocabulary); `with_domain` decorates each drawn
scenario with it: node labels, taints and allocatable, pod labels, annotations, tolerations and requests.
Decorations are drawn after the scenario and shrink towards none, so a counterexample keeps only the
ones it needs, and a scenario without a domain is drawn exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.content import label_key_errors, label_value_errors
from reference.resources import is_extended_resource_name
from reference.scenario import Scenario, ScenarioError

from ._draw import Draw, Manifest, count, flag, optional, pick
from .pools import TAINT_EFFECTS

# A key whose values the plugin computes (no literal to find) gets these: a word and a number, the two
# shapes label values are usually parsed as.
GENERIC_VALUES = ("a", "1")
KINDS = ("labels", "annotations", "taints", "resources")
_MAX_EXTENDED = 16  # issue 30: extended resources 0-16 per node
RESERVED_PREFIX = "sched-conformance.io/"  # the probes' script annotations


class DomainError(ScenarioError):
    """A bad domain table entry; the message names it and the rule it breaks."""


@dataclass(frozen=True)
class Domain:
    """Keys to values (empty: any value) per kind, and extended resource names."""

    labels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    annotations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    taints: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    resources: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.labels or self.annotations or self.taints or self.resources)

    def merged(self, other: "Domain") -> "Domain":
        def union(a: Mapping[str, tuple[str, ...]], b: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
            return {k: tuple(sorted(set(a.get(k, ())) | set(b.get(k, ())))) for k in sorted({*a, *b})}
        return Domain(union(self.labels, other.labels), union(self.annotations, other.annotations),
                      union(self.taints, other.taints), tuple(sorted({*self.resources, *other.resources})))

    def summary(self) -> str:
        return ", ".join(f"{len(getattr(self, kind))} {kind}" for kind in KINDS)

    def to_dict(self) -> dict[str, Any]:
        return {"labels": {k: list(v) for k, v in self.labels.items()},
                "annotations": {k: list(v) for k, v in self.annotations.items()},
                "taints": {k: list(v) for k, v in self.taints.items()}, "resources": list(self.resources)}

    @classmethod
    def from_mapping(cls, data: Any, where: str = "domain", *, strict: bool = True) -> "Domain":
        """A domain table (`labels`/`annotations`/`taints`: key -> list of values; `resources`: names),
        every key, value and name checked the way the API server checks them: a bad one raises DomainError
        naming it, or without `strict` (what a source scan found) is left out."""
        if not isinstance(data, Mapping):
            raise DomainError(f"{where}: expected a table with {', '.join(KINDS)}, got {type(data).__name__}")
        unknown = sorted(set(data) - set(KINDS) - {"sources"})
        if unknown:
            raise DomainError(f"{where}.{unknown[0]}: unknown; use {', '.join(KINDS)}")
        keyed = {kind: _keyed(data.get(kind, {}), f"{where}.{kind}", values=kind != "annotations", strict=strict)
                 for kind in KINDS[:3]}
        resources = data.get("resources", [])
        if not isinstance(resources, list) or not all(isinstance(r, str) for r in resources):
            raise DomainError(f"{where}.resources: expected a list of extended resource names, got {resources!r}")
        for name in resources:
            if strict and not is_extended_resource_name(name):
                raise DomainError(f"{where}.resources: {name!r} is not an extended resource name; use a "
                                  f"domain-qualified name outside kubernetes.io, e.g. example.com/fpga")
        return cls(keyed["labels"], keyed["annotations"], keyed["taints"],
                   tuple(sorted({r for r in resources if is_extended_resource_name(r)})))


def _keyed(table: Any, where: str, *, values: bool, strict: bool) -> dict[str, tuple[str, ...]]:
    if not isinstance(table, Mapping):
        raise DomainError(f"{where}: expected a table of key = [values], got {type(table).__name__}")
    out: dict[str, tuple[str, ...]] = {}
    for key, listed in table.items():
        problem = _key_problem(str(key))
        if problem and strict:
            raise DomainError(f"{where}: key {key!r} {problem}")
        if not isinstance(listed, list) or not all(isinstance(v, str) for v in listed):
            raise DomainError(f"{where}.{key!r}: expected a list of strings, got {listed!r}")
        bad = next((v for v in listed if values and label_value_errors(v)), None)
        if bad is not None and strict:
            raise DomainError(f"{where}.{key!r}: value {bad!r} is not a valid label value: "
                              f"{label_value_errors(bad)[0]}")
        if not problem:
            out[str(key)] = tuple(sorted({v for v in listed if not (values and label_value_errors(v))}))
    return out


def _key_problem(key: str) -> str:
    if errors := label_key_errors(key):
        return f"is not a valid label key: {errors[0]}"
    if key.startswith(RESERVED_PREFIX):
        return f"is the suite's own ({RESERVED_PREFIX}...); use a key of your plugins"
    return ""


def _value(draw: Draw, values: tuple[str, ...]) -> str:
    return pick(draw, values or GENERIC_VALUES)


def _labels(draw: Draw, table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, values in table.items():
        value = optional(draw, 50, lambda d: _value(d, values))
        if value is not None:
            out[key] = value
    return out


def decorate_node(draw: Draw, node: Manifest, domain: Domain) -> Manifest:
    """`node` with some of the domain's labels, taints and extended resources (each drawn, none simplest)."""
    meta = dict(node["metadata"])
    if labels := _labels(draw, domain.labels):
        meta["labels"] = {**(meta.get("labels") or {}), **labels}
    spec = dict(node.get("spec") or {})
    for key, values in domain.taints.items():
        taint = optional(draw, 25, lambda d: {"key": key, "value": _value(d, values) if values else "",
                                               "effect": pick(d, TAINT_EFFECTS)})
        if taint is not None and not any(t.get("key") == key for t in spec.get("taints") or ()):
            spec["taints"] = [*(spec.get("taints") or ()), {k: v for k, v in taint.items() if v != ""}]
    status = dict(node.get("status") or {})
    for name in domain.resources:
        amount = optional(draw, 50, lambda d: count(d, 0, _MAX_EXTENDED))
        if amount is not None:
            for part in ("capacity", "allocatable"):
                status[part] = {**(status.get(part) or {}), name: str(amount)}
    return {**node, "metadata": meta, **({"spec": spec} if spec else {}), "status": status}


def decorate_pod(draw: Draw, pod: Manifest, domain: Domain, *, pending: bool) -> Manifest:
    """`pod` with some of the domain's labels and annotations and, when `pending`, tolerations of its taints and
    requests of its extended resources."""
    meta = dict(pod["metadata"])
    for kind in ("labels", "annotations"):
        if added := _labels(draw, getattr(domain, kind)):
            meta[kind] = {**(meta.get(kind) or {}), **added}
    spec = dict(pod["spec"])
    if pending:  # a bound pod keeps its spec: it already passed the node's admission
        for key, values in domain.taints.items():
            if draw(flag(50)):
                spec["tolerations"] = [*(spec.get("tolerations") or ()), {"key": key, "operator": "Exists"}]
        containers = [dict(c) for c in spec["containers"]]
        for name in domain.resources:
            amount = optional(draw, 25, lambda d: count(d, 1, 4))
            if amount is not None:
                resources = dict(containers[0].get("resources") or {})
                # extended resources cannot be overcommitted: the limit equals the request
                for part in ("requests", "limits"):
                    resources[part] = {**(resources.get(part) or {}), name: str(amount)}
                containers[0] = {**containers[0], "resources": resources}
        spec["containers"] = containers
    return {**pod, "metadata": meta, "spec": spec}


@st.composite
def _decorated(draw: Draw, scenario: Scenario, domain: Domain) -> Scenario:
    nodes = tuple(decorate_node(draw, n, domain) for n in scenario.nodes)
    pods = tuple(decorate_pod(draw, p, domain, pending=False) for p in scenario.pods)
    workload = tuple(decorate_pod(draw, p, domain, pending=True) for p in scenario.workload)
    return Scenario.from_dict(replace(scenario, nodes=nodes, pods=pods, workload=workload).to_dict())


def with_domain(scenarios: SearchStrategy[Scenario], domain: Domain) -> SearchStrategy[Scenario]:
    """`scenarios`, each decorated with `domain`'s vocabulary; unchanged when the domain is empty."""
    if not domain:
        return scenarios
    return scenarios.flatmap(lambda scenario: _decorated(scenario, domain))


__all__ = ["Domain", "DomainError", "GENERIC_VALUES", "decorate_node", "decorate_pod", "with_domain"]
