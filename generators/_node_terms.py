"""Node-side terms: `taints()`, `tolerations()`, `node_selector_terms()`, `node_affinities()`.

Every term is valid as the API server validates it (core/validation: ValidateTolerations,
ValidateNodeSelectorRequirement, ValidateNodeFieldSelectorRequirement, ValidatePreferredSchedulingTerms),
and names only keys and values from the node pools, so terms and nodes meet often.
"""

from __future__ import annotations

from typing import Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ._draw import Draw, Manifest, elements, flag, pick, subset
from .pools import HOSTNAME, NODE_LABEL_VALUES, NODE_NAMES, RANK, TAINT_EFFECTS, TAINT_KEYS, TAINT_VALUES

# Node label keys with their value pools; the hostname's values are node names.
_LABELS = {HOSTNAME: NODE_NAMES[:4], **NODE_LABEL_VALUES}
_LABEL_KEYS = tuple(_LABELS)
_SET_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def draw_taint(draw: Draw) -> Manifest:
    taint = {"key": pick(draw, TAINT_KEYS), "effect": pick(draw, TAINT_EFFECTS)}
    value = pick(draw, TAINT_VALUES)
    if value:
        taint["value"] = value
    return taint


def draw_taint_list(draw: Draw, max_size: int) -> list[Manifest]:
    """Taints unique by (key, effect), as ValidateNodeSpec's validateNodeTaints requires."""
    seen: set[tuple[str, str]] = set()

    def taint(draw: Draw, i: int) -> Manifest | None:
        t = draw_taint(draw)
        return None if (t["key"], t["effect"]) in seen else t
    return elements(draw, 1, max_size, taint, more=30, kept=lambda t: seen.add((t["key"], t["effect"])))


def taints() -> SearchStrategy[Manifest]:
    """One node taint from the taint pools.

    Shrinks towards {"key": "example.com/dedicated", "effect": "NoSchedule"}.
    """
    return st.composite(lambda draw: draw_taint(draw))()


def draw_toleration(draw: Draw) -> Manifest:
    if draw(flag(10)):
        toleration: Manifest = {"operator": "Exists"}  # the empty key tolerates every taint
    else:
        toleration = {"key": pick(draw, TAINT_KEYS)}
        if draw(st.booleans()):
            toleration["operator"] = "Exists"
        else:
            value = pick(draw, TAINT_VALUES)
            if value:
                toleration.update(operator="Equal", value=value)
    effect = pick(draw, ("", *TAINT_EFFECTS))
    if effect:
        toleration["effect"] = effect
    if effect == "NoExecute" and draw(flag(25)):
        toleration["tolerationSeconds"] = pick(draw, (0, 300))
    return toleration


def tolerations() -> SearchStrategy[Manifest]:
    """One pod toleration: a pooled taint key with Equal (a pooled value) or Exists, or the
    empty key with Exists; an optional effect, and tolerationSeconds only with NoExecute.

    Shrinks towards {"key": "example.com/dedicated"} (operator Equal, empty value, every effect).
    """
    return st.composite(lambda draw: draw_toleration(draw))()


def _draw_requirement(draw: Draw, nodes: Sequence[str]) -> Manifest:
    key = pick(draw, _LABEL_KEYS)
    values = tuple(nodes) if key == HOSTNAME else _LABELS[key]
    operators = _SET_OPERATORS + (("Gt", "Lt") if key == RANK else ())
    operator = pick(draw, operators)
    if operator in ("Exists", "DoesNotExist"):
        return {"key": key, "operator": operator}
    if operator in ("Gt", "Lt"):
        return {"key": key, "operator": operator, "values": [pick(draw, ("0", *values))]}
    return {"key": key, "operator": operator, "values": subset(draw, values, min_size=1, max_size=2)}


def draw_node_selector_term(draw: Draw, nodes: Sequence[str] = NODE_NAMES[:4]) -> Manifest:
    term: Manifest = {}
    expressions = elements(draw, 1, 2, lambda d, i: _draw_requirement(d, nodes), more=30)
    if draw(flag(15)):
        # matchFields: only metadata.name, In or NotIn, exactly one value (ValidateNodeFieldSelectorRequirement).
        term["matchFields"] = [{"key": "metadata.name", "operator": pick(draw, ("In", "NotIn")),
                                "values": [pick(draw, nodes)]}]
        if draw(flag(50)):
            expressions = []
    if expressions:
        term["matchExpressions"] = expressions
    return term


def node_selector_terms(*, nodes: Sequence[str] = NODE_NAMES[:4]) -> SearchStrategy[Manifest]:
    """One NodeSelectorTerm over the node label pools (In, NotIn, Exists, DoesNotExist, and Gt/Lt
    on the integer-valued rank label) and sometimes a metadata.name field selector; hostname
    and field values come from `nodes`.

    Shrinks towards {"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": [nodes[0]]}]}.
    """
    nodes = _check_nodes(nodes, "node_selector_terms")
    return st.composite(lambda draw: draw_node_selector_term(draw, nodes))()


def draw_node_affinity(draw: Draw, nodes: Sequence[str] = NODE_NAMES[:4]) -> Manifest:
    affinity: Manifest = {}
    preferred = draw(flag(50))
    if not preferred or draw(flag(30)):
        terms = elements(draw, 1, 2, lambda d, i: draw_node_selector_term(d, nodes), more=30)
        affinity["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
    if preferred:
        affinity["preferredDuringSchedulingIgnoredDuringExecution"] = elements(draw, 1, 2, lambda d, i: {
            "weight": pick(d, (1, 50, 100)), "preference": draw_node_selector_term(d, nodes)}, more=30)
    return affinity


def node_affinities(*, nodes: Sequence[str] = NODE_NAMES[:4]) -> SearchStrategy[Manifest]:
    """A NodeAffinity: required terms (ORed), preferred terms with weights 1-100, or both.

    Shrinks towards one required term with one hostname-In requirement.
    """
    nodes = _check_nodes(nodes, "node_affinities")
    return st.composite(lambda draw: draw_node_affinity(draw, nodes))()


def _check_nodes(nodes: Sequence[str], where: str) -> tuple[str, ...]:
    if isinstance(nodes, str) or not nodes:
        raise ValueError(f"{where}(nodes={nodes!r}): pass a non-empty sequence of node names")
    return tuple(nodes)


__all__ = ["draw_node_affinity", "draw_node_selector_term", "draw_taint", "draw_taint_list", "draw_toleration",
           "node_affinities", "node_selector_terms", "taints", "tolerations"]
