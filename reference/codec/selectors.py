"""Label selectors, node selectors and affinity: manifest <-> `reference.types`."""

from __future__ import annotations

from typing import Mapping

from .. import types as t
from ._fields import Manifest, drop_empty, get_field, get_list, get_str_map, get_strs

# --- selectors -------------------------------------------------------------------------------

def _node_req(o: Mapping, path: str) -> t.NodeSelectorRequirement:
    return t.NodeSelectorRequirement(
        key=get_field(o, "key", str, path, ""), operator=get_field(o, "operator", str, path, ""),
        values=get_strs(o, "values", path))


def _node_term(o: Mapping, path: str) -> t.NodeSelectorTerm:
    return t.NodeSelectorTerm(
        match_expressions=get_list(o, "matchExpressions", path, _node_req),
        match_fields=get_list(o, "matchFields", path, _node_req))


def _label_req(o: Mapping, path: str) -> t.LabelSelectorRequirement:
    return t.LabelSelectorRequirement(
        key=get_field(o, "key", str, path, ""), operator=get_field(o, "operator", str, path, ""),
        values=get_strs(o, "values", path))


def label_selector_from_manifest(o: Mapping | None, path: str = "selector") -> t.LabelSelector | None:
    if o is None:
        return None
    return t.LabelSelector(
        match_labels=get_str_map(o, "matchLabels", path),
        match_expressions=get_list(o, "matchExpressions", path, _label_req))


def opt_selector(o: Mapping, key: str, path: str) -> t.LabelSelector | None:
    return label_selector_from_manifest(get_field(o, key, dict, path), f"{path}.{key}")


def _req_out(r: t.NodeSelectorRequirement | t.LabelSelectorRequirement) -> Manifest:
    return drop_empty({"key": r.key, "operator": r.operator, "values": list(r.values)})


def _term_out(term: t.NodeSelectorTerm) -> Manifest:
    return drop_empty({
        "matchExpressions": [_req_out(r) for r in term.match_expressions],
        "matchFields": [_req_out(r) for r in term.match_fields],
    })


def label_selector_to_manifest(s: t.LabelSelector | None) -> Manifest | None:
    if s is None:
        return None
    return drop_empty({
        "matchLabels": dict(s.match_labels),
        "matchExpressions": [_req_out(r) for r in s.match_expressions],
    })


# --- affinity --------------------------------------------------------------------------------

def _pod_term(o: Mapping, path: str) -> t.PodAffinityTerm:
    return t.PodAffinityTerm(
        topology_key=get_field(o, "topologyKey", str, path, ""),
        label_selector=opt_selector(o, "labelSelector", path),
        namespaces=get_strs(o, "namespaces", path),
        namespace_selector=opt_selector(o, "namespaceSelector", path),
        match_label_keys=get_strs(o, "matchLabelKeys", path),
        mismatch_label_keys=get_strs(o, "mismatchLabelKeys", path))


def _weighted_pod_term(o: Mapping, path: str) -> t.WeightedPodAffinityTerm:
    return t.WeightedPodAffinityTerm(
        weight=get_field(o, "weight", int, path, 0),
        term=_pod_term(get_field(o, "podAffinityTerm", dict, path, {}), f"{path}.podAffinityTerm"))


def _pod_affinity(o: Mapping | None, path: str) -> t.PodAffinity | None:
    if o is None:
        return None
    return t.PodAffinity(
        required=get_list(o, "requiredDuringSchedulingIgnoredDuringExecution", path, _pod_term),
        preferred=get_list(o, "preferredDuringSchedulingIgnoredDuringExecution", path, _weighted_pod_term))


def _preferred_node_term(o: Mapping, path: str) -> t.PreferredSchedulingTerm:
    return t.PreferredSchedulingTerm(
        weight=get_field(o, "weight", int, path, 0),
        preference=_node_term(get_field(o, "preference", dict, path, {}), f"{path}.preference"))


def node_selector_from_manifest(o: Mapping | None, path: str) -> t.NodeSelector | None:
    if o is None:
        return None
    return t.NodeSelector(terms=get_list(o, "nodeSelectorTerms", path, _node_term))


def node_affinity_from_manifest(o: Mapping | None, path: str = "nodeAffinity") -> t.NodeAffinity | None:
    if o is None:
        return None
    required = get_field(o, "requiredDuringSchedulingIgnoredDuringExecution", dict, path)
    return t.NodeAffinity(
        required=node_selector_from_manifest(required, f"{path}.requiredDuringSchedulingIgnoredDuringExecution"),
        preferred=get_list(o, "preferredDuringSchedulingIgnoredDuringExecution", path, _preferred_node_term))


def affinity_from_manifest(o: Mapping | None, path: str) -> t.Affinity | None:
    if o is None:
        return None
    return t.Affinity(
        node_affinity=node_affinity_from_manifest(get_field(o, "nodeAffinity", dict, path), f"{path}.nodeAffinity"),
        pod_affinity=_pod_affinity(get_field(o, "podAffinity", dict, path), f"{path}.podAffinity"),
        pod_anti_affinity=_pod_affinity(get_field(o, "podAntiAffinity", dict, path), f"{path}.podAntiAffinity"))


def _pod_term_out(term: t.PodAffinityTerm) -> Manifest:
    return drop_empty({
        "labelSelector": label_selector_to_manifest(term.label_selector),
        "namespaces": list(term.namespaces),
        "namespaceSelector": label_selector_to_manifest(term.namespace_selector),
        "topologyKey": term.topology_key,
        "matchLabelKeys": list(term.match_label_keys),
        "mismatchLabelKeys": list(term.mismatch_label_keys),
    }, keep=("labelSelector", "namespaceSelector"))


def _pod_affinity_out(a: t.PodAffinity | None) -> Manifest | None:
    if a is None:
        return None
    return drop_empty({
        "requiredDuringSchedulingIgnoredDuringExecution": [_pod_term_out(x) for x in a.required],
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": x.weight, "podAffinityTerm": _pod_term_out(x.term)} for x in a.preferred],
    })


def node_affinity_to_manifest(a: t.NodeAffinity | None) -> Manifest | None:
    if a is None:
        return None
    required = None
    if a.required is not None:
        required = {"nodeSelectorTerms": [_term_out(x) for x in a.required.terms]}
    return drop_empty({
        "requiredDuringSchedulingIgnoredDuringExecution": required,
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": x.weight, "preference": _term_out(x.preference)} for x in a.preferred],
    })


def affinity_to_manifest(a: t.Affinity | None) -> Manifest | None:
    if a is None:
        return None
    return drop_empty({
        "nodeAffinity": node_affinity_to_manifest(a.node_affinity),
        "podAffinity": _pod_affinity_out(a.pod_affinity),
        "podAntiAffinity": _pod_affinity_out(a.pod_anti_affinity),
    })
