"""Mirrors k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.

Unlike `reference.selectors`, terms are parsed like upstream: a requirement that
`labels.NewRequirement` rejects (bad key, bad value, empty In values, non-integer Gt) makes its
term a parse error. A required term with errors matches no node; preferred terms with errors fail
`new_preferred_scheduling_terms` with upstream's error text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ...content import label_key_errors, label_value_errors
from ...types import Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PreferredSchedulingTerm
from ... import field_errors as e

_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
_FIELD_OPERATORS = ("In", "NotIn")

Matcher = Callable[[Mapping[str, str]], bool]


class NodeAffinityParseError(ValueError):
    """Parse errors; `str()` is upstream's aggregated error text."""

    def __init__(self, errors: Sequence[e.FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__(e.aggregate(self.errors))


def _label_requirement(r: NodeSelectorRequirement, path: str) -> tuple[Matcher | None, list[e.FieldError]]:
    """`labels.NewRequirement` after the operator mapping: (matcher, errors)."""
    if r.operator not in _OPERATORS:
        return None, [e.not_supported(f"{path}.operator", r.operator, _OPERATORS)]
    errs: list[e.FieldError] = []
    if key_errs := label_key_errors(r.key):
        errs.append(e.invalid(f"{path}.key", r.key, "; ".join(key_errs)))
    values_path = f"{path}.values"
    op, values = r.operator, r.values
    if op in ("In", "NotIn") and not values:
        errs.append(e.invalid_values(values_path, values, "for 'in', 'notin' operators, values set can't be empty"))
    elif op in ("Exists", "DoesNotExist") and values:
        errs.append(e.invalid_values(values_path, values, "values set must be empty for exists and does not exist"))
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(e.invalid_values(values_path, values,
                                         "for 'Gt', 'Lt' operators, exactly one value is required"))
        for i, v in enumerate(values):
            if e.parse_int64(v) is None:
                errs.append(e.invalid(f"{values_path}[{i}]", v,
                                      "for 'Gt', 'Lt' operators, the value must be an integer"))
    for i, v in enumerate(values):
        if value_errs := label_value_errors(v):
            errs.append(e.invalid(f"{values_path}[{i}][{r.key}]", v, "; ".join(value_errs)))
    if errs:
        return None, errs
    return _label_matcher(r.key, op, values), []


def _label_matcher(key: str, op: str, values: tuple[str, ...]) -> Matcher:
    """`labels.Requirement.Matches`."""
    if op == "In":
        return lambda labels: key in labels and labels[key] in values
    if op == "NotIn":
        return lambda labels: key not in labels or labels[key] not in values
    if op == "Exists":
        return lambda labels: key in labels
    if op == "DoesNotExist":
        return lambda labels: key not in labels
    bound = e.parse_int64(values[0])
    assert bound is not None

    def compare(labels: Mapping[str, str]) -> bool:
        have = e.parse_int64(labels[key]) if key in labels else None
        if have is None:
            return False
        return have > bound if op == "Gt" else have < bound

    return compare


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
