"""Label selectors after apimachinery `labels` (`NewRequirement`, `Requirement.Matches`) and metav1
`LabelSelectorAsSelector`, plus the taint-toleration check several plugins share.

Selectors are parsed where upstream parses them (`label_selector_as_selector`): a bad selector is
an error there, and each caller does with it what upstream does, instead of matching it leniently.
Node selectors are parsed by `plugins.node_affinity.selector` with `new_requirement`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterable, Mapping

from .content import label_key_errors, label_value_errors
from .field_errors import FieldError, aggregate, child, invalid, invalid_values
from .gofmt import parse_int64, quote
from .types import LabelSelector, LabelSelectorRequirement, Pod, Taint

NODE_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
LABEL_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")
EQUALS = "="  # a matchLabels entry


@dataclass(frozen=True)
class Requirement:
    """A requirement `new_requirement` accepted."""

    key: str
    operator: str
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """`Requirement.Matches`."""
        op, present = self.operator, self.key in labels
        if op in ("In", EQUALS):
            return present and labels[self.key] in self.values
        if op == "NotIn":
            return not present or labels[self.key] not in self.values
        if op == "Exists":
            return present
        if op == "DoesNotExist":
            return not present
        if op not in ("Gt", "Lt"):
            return False
        have = parse_int64(labels[self.key]) if present else None
        bound = parse_int64(self.values[0]) if len(self.values) == 1 else None
        if have is None or bound is None:
            return False
        return have > bound if op == "Gt" else have < bound


def new_requirement(key: str, operator: str, values: tuple[str, ...],
                    path: str = "") -> tuple[Requirement | None, list[FieldError]]:
    """`labels.NewRequirement` for an operator the caller has already mapped (one of
    `NODE_SELECTOR_OPERATORS` or `EQUALS`): (requirement, errors)."""
    errs: list[FieldError] = []
    if key_errs := label_key_errors(key):
        errs.append(invalid(child(path, "key"), key, "; ".join(key_errs)))
    values_path = child(path, "values")
    if operator in ("In", "NotIn") and not values:
        errs.append(invalid_values(values_path, values, "for 'in', 'notin' operators, values set can't be empty"))
    elif operator == EQUALS and len(values) != 1:
        errs.append(invalid_values(values_path, values, "exact-match compatibility requires one single value"))
    elif operator in ("Exists", "DoesNotExist") and values:
        errs.append(invalid_values(values_path, values, "values set must be empty for exists and does not exist"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(invalid_values(values_path, values, "for 'Gt', 'Lt' operators, exactly one value is required"))
        errs += [invalid(f"{values_path}[{i}]", v, "for 'Gt', 'Lt' operators, the value must be an integer")
                 for i, v in enumerate(values) if parse_int64(v) is None]
    for i, v in enumerate(values):
        if value_errs := label_value_errors(v):
            errs.append(invalid(f"{values_path}[{i}][{key}]", v, "; ".join(value_errs)))
    if errs:
        return None, errs
    return Requirement(key, operator, tuple(values)), []


class LabelSelectorError(ValueError):
    """A selector `LabelSelectorAsSelector` rejects; `str()` is upstream's error text."""


@dataclass(frozen=True)
class Selector:
    """A parsed selector: `requirements=None` is `labels.Nothing()`, `()` is `labels.Everything()`."""

    requirements: tuple[Requirement, ...] | None

    def matches(self, labels: Mapping[str, str]) -> bool:
        return self.requirements is not None and all(r.matches(labels) for r in self.requirements)

    def empty(self) -> bool:
        """`Selector.Empty()`: true only for Everything."""
        return self.requirements == ()


def label_selector_as_selector(selector: LabelSelector | None) -> Selector:
    """`metav1.LabelSelectorAsSelector`: the first bad requirement raises `LabelSelectorError`."""
    if selector is None:
        return Selector(None)
    parsed = _parse(tuple(selector.match_labels.items()), selector.match_expressions)
    if isinstance(parsed, LabelSelectorError):
        raise parsed
    return parsed


@functools.lru_cache(maxsize=4096)  # every snapshot re-parses the affinity terms of every pod
def _parse(match_labels: tuple[tuple[str, str], ...],
           match_expressions: tuple[LabelSelectorRequirement, ...]) -> Selector | LabelSelectorError:
    entries = [(k, EQUALS, (v,)) for k, v in match_labels]
    for expr in match_expressions:
        if expr.operator not in LABEL_SELECTOR_OPERATORS:
            return LabelSelectorError(f"{quote(expr.operator)} is not a valid label selector operator")
        entries.append((expr.key, expr.operator, tuple(expr.values)))
    requirements: list[Requirement] = []
    for key, op, values in entries:
        requirement, errs = new_requirement(key, op, values)
        if requirement is None:
            return LabelSelectorError(aggregate(errs))
        requirements.append(requirement)
    return Selector(tuple(requirements))


def label_selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """`Selector.Matches` without parsing: nil selects nothing, empty everything. Upstream validates
    only in `LabelSelectorAsSelector` (see `label_selector_as_selector`); selectors it builds from
    label sets (`SelectorFromSet`, matchLabelKeys merges) are matched unvalidated, as here."""
    if selector is None:
        return False
    if any(labels.get(k) != v for k, v in selector.match_labels.items()):
        return False
    return all(Requirement(r.key, r.operator, r.values).matches(labels) for r in selector.match_expressions)


def pod_tolerates_taints(pod: Pod, taints: Iterable[Taint], effects: tuple[str, ...]) -> bool:
    """True if every taint with one of `effects` is tolerated by some toleration of the pod."""
    return all(
        any(tol.tolerates(taint) for tol in pod.tolerations) for taint in taints if taint.effect in effects)


__all__ = [
    "EQUALS",
    "LABEL_SELECTOR_OPERATORS",
    "LabelSelectorError",
    "NODE_SELECTOR_OPERATORS",
    "Requirement",
    "Selector",
    "label_selector_as_selector",
    "label_selector_matches",
    "new_requirement",
    "pod_tolerates_taints",
]
