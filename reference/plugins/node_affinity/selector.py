"""Mirrors k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.

Terms are parsed like upstream: a requirement that `labels.NewRequirement` rejects (bad key, bad
value, empty In values, non-integer Gt) makes its term a parse error. A required term with errors
matches no node; preferred terms with errors fail `new_preferred_scheduling_terms` with upstream's
error text. Label selectors (`reference.selectors`) share the requirement parsing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ...types import Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PreferredSchedulingTerm
from ... import field_errors as e
from ...selectors import NODE_SELECTOR_OPERATORS, new_requirement

_FIELD_OPERATORS = ("In", "NotIn")

Matcher = Callable[[Mapping[str, str]], bool]


class NodeAffinityParseError(ValueError):
    """Parse errors; `str()` is upstream's aggregated error text."""

    def __init__(self, errors: Sequence[e.FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__(e.aggregate(self.errors))


def _label_requirement(r: NodeSelectorRequirement, path: str) -> tuple[Matcher | None, list[e.FieldError]]:
    """`nodeSelectorRequirementsAsSelector` for one requirement: (matcher, errors)."""
    if r.operator not in NODE_SELECTOR_OPERATORS:
        return None, [e.not_supported(f"{path}.operator", r.operator, NODE_SELECTOR_OPERATORS)]
    requirement, errs = new_requirement(r.key, r.operator, r.values, path)
    return (requirement.matches if requirement is not None else None), errs


def _field_requirement(r: NodeSelectorRequirement, path: str) -> tuple[Matcher | None, list[e.FieldError]]:
    """`fields.OneTerm(Not)EqualSelector`: any key; absent fields read as ""."""
    if r.operator not in _FIELD_OPERATORS:
        return None, [e.not_supported(f"{path}.operator", r.operator, _FIELD_OPERATORS)]
    if len(r.values) != 1:
        return None, [e.invalid_values(f"{path}.values", r.values, "must have one element")]
    key, value = r.key, r.values[0]
    if r.operator == "In":
        return lambda fields: fields.get(key, "") == value, []
    return lambda fields: fields.get(key, "") != value, []


def _requirements(reqs: Sequence[NodeSelectorRequirement], path: str,
                  parse: Callable[[NodeSelectorRequirement, str], tuple[Matcher | None, list[e.FieldError]]],
                  ) -> tuple[list[Matcher], list[e.FieldError]]:
    matchers: list[Matcher] = []
    errs: list[e.FieldError] = []
    for i, r in enumerate(reqs):
        p = f"{path}[{i}]"
        matcher, r_errs = parse(r, p)
        errs.extend(r_errs)
        if matcher is not None:
            matchers.append(matcher)
    return matchers, errs


@dataclass(frozen=True)
class ParsedTerm:
    """`nodeSelectorTerm`: label and field matchers (None when the term has none) and parse errors."""

    labels: tuple[Matcher, ...] | None
    fields: tuple[Matcher, ...] | None
    errors: tuple[e.FieldError, ...]

    @classmethod
    def of(cls, term: NodeSelectorTerm, path: str) -> "ParsedTerm":
        labels = fields = None
        errs: list[e.FieldError] = []
        if term.match_expressions:
            matchers, m_errs = _requirements(term.match_expressions, f"{path}.matchExpressions", _label_requirement)
            labels, errs = (None if m_errs else tuple(matchers)), errs + m_errs
        if term.match_fields:
            matchers, f_errs = _requirements(term.match_fields, f"{path}.matchFields", _field_requirement)
            fields, errs = (None if f_errs else tuple(matchers)), errs + f_errs
        return cls(labels, fields, tuple(errs))

    def match(self, node: Node) -> bool:
        """A term with parse errors never matches; a node without a name skips field checks."""
        if self.errors:
            return False
        if self.labels is not None and not all(m(node.labels) for m in self.labels):
            return False
        node_fields = {"metadata.name": node.name} if node.name else {}
        if self.fields is not None and node_fields and not all(m(node_fields) for m in self.fields):
            return False
        return True


def _is_empty(term: NodeSelectorTerm) -> bool:
    return not term.match_expressions and not term.match_fields


@dataclass(frozen=True)
class LazyErrorNodeSelector:
    """Empty terms are dropped; a term's parse errors only surface when no term matches."""

    terms: tuple[ParsedTerm, ...]

    @classmethod
    def of(cls, selector: NodeSelector, path: str = "") -> "LazyErrorNodeSelector":
        return cls(tuple(ParsedTerm.of(t, f"{path}.nodeSelectorTerms[{i}]" if path else f"nodeSelectorTerms[{i}]")
                         for i, t in enumerate(selector.terms) if not _is_empty(t)))

    def match(self, node: Node) -> bool:
        return any(t.match(node) for t in self.terms)

    def errors(self) -> list[e.FieldError]:
        return [msg for t in self.terms for msg in t.errors]


def new_node_selector(selector: NodeSelector, path: str = "") -> LazyErrorNodeSelector:
    """`NewNodeSelector`: raise NodeAffinityParseError when any term has parse errors."""
    lazy = LazyErrorNodeSelector.of(selector, path)
    if errs := lazy.errors():
        raise NodeAffinityParseError(errs)
    return lazy


@dataclass(frozen=True)
class PreferredSchedulingTerms:
    terms: tuple[tuple[ParsedTerm, int], ...]

    def score(self, node: Node) -> int:
        return sum(weight for term, weight in self.terms if term.match(node))


def new_preferred_scheduling_terms(terms: Sequence[PreferredSchedulingTerm],
                                   path: str = "") -> PreferredSchedulingTerms:
    """`NewPreferredSchedulingTerms`: zero-weight and empty terms are skipped; errors raise."""
    parsed: list[tuple[ParsedTerm, int]] = []
    errs: list[e.FieldError] = []
    for i, term in enumerate(terms):
        if term.weight == 0 or _is_empty(term.preference):
            continue
        p = ParsedTerm.of(term.preference, f"{path}[{i}]")
        if p.errors:
            errs.extend(p.errors)
        else:
            parsed.append((p, term.weight))
    if errs:
        raise NodeAffinityParseError(errs)
    return PreferredSchedulingTerms(tuple(parsed))


@dataclass(frozen=True)
class RequiredNodeAffinity:
    """`GetRequiredNodeAffinity(pod)`: nodeSelector AND required node affinity (lazily parsed)."""

    node_selector_labels: Mapping[str, str]
    node_selector: LazyErrorNodeSelector | None

    @classmethod
    def of(cls, pod: Pod) -> "RequiredNodeAffinity":
        na = pod.affinity.node_affinity if pod.affinity else None
        required = na.required if na else None
        return cls(dict(pod.node_selector), LazyErrorNodeSelector.of(required) if required is not None else None)

    def match(self, node: Node) -> bool:
        """Parse errors are ignored (the plugin does so for backwards compatibility)."""
        if any(k not in node.labels or node.labels[k] != v for k, v in self.node_selector_labels.items()):
            return False
        return self.node_selector is None or self.node_selector.match(node)
