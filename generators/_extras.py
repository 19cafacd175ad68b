"""`Extras` and `with_extras()`: the objects and pod decorations a user's plugins need, added to scenarios.

Out-of-tree plugins read objects the suite does not generate (coscheduling's PodGroups, capacity
scheduling's ElasticQuotas) and labels on pods that tie them together. The user writes a function that,
given a drawn scenario, returns a strategy of `Extras`; `with_extras` adds what it draws, so the
scenario and the extras shrink together.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Union

from hypothesis.strategies import SearchStrategy

from reference.scenario import OBJECT_KINDS, Scenario, ScenarioError, pod_key

from ._draw import Manifest

Hook = Union[Callable[[Scenario], SearchStrategy[Any]], SearchStrategy[Any]]


@dataclass(frozen=True)
class Extras:
    """What a hook adds to one scenario.

    `objects`: manifests of any kind; the kinds the reference models (PriorityClass, Service, ...) go to
    the scenario's `objects`, every other kind (a custom resource) to its `customObjects`.
    `labels` / `annotations`: `namespace/name` of a workload or bound pod -> keys added to its metadata.
    """

    objects: tuple[Manifest, ...] = ()
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    annotations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def apply(self, scenario: Scenario) -> Scenario:
        """`scenario` with these extras, validated like a scenario file (a bad one: ScenarioError naming it)."""
        if not isinstance(self.objects, (tuple, list)):
            raise ScenarioError(f"Extras.objects: expected a tuple of manifests, got {type(self.objects).__name__}")
        pods = {pod_key(p): ("pods", i) for i, p in enumerate(scenario.pods)}
        pods.update({pod_key(p): ("workload", i) for i, p in enumerate(scenario.workload)})
        sections: dict[str, list[Manifest]] = {"pods": [dict(p) for p in scenario.pods],
                                               "workload": [dict(p) for p in scenario.workload]}
        for what, decorations in (("labels", self.labels), ("annotations", self.annotations)):
            for key, values in decorations.items():
                if key not in pods:
                    raise ScenarioError(f"Extras.{what}[{key!r}]: no such pod in the scenario; "
                                        f"use the namespace/name of one of: {', '.join(sorted(pods)) or 'none'}")
                section, i = pods[key]
                pod = sections[section][i]
                meta = {**pod["metadata"], what: {**(pod["metadata"].get(what) or {}), **dict(values)}}
                sections[section][i] = {**pod, "metadata": meta}
        modelled = [dict(m) for m in self.objects if isinstance(m, Mapping) and m.get("kind") in OBJECT_KINDS]
        custom = [dict(m) for m in self.objects if not (isinstance(m, Mapping) and m.get("kind") in OBJECT_KINDS)]
        data = replace(scenario, pods=tuple(sections["pods"]), workload=tuple(sections["workload"]),
                       objects=(*scenario.objects, *modelled),
                       custom_objects=(*scenario.custom_objects, *custom)).to_dict()
        return Scenario.from_dict(data)


def _extend(hook: Hook, scenario: Scenario) -> SearchStrategy[Scenario]:
    strategy = hook if isinstance(hook, SearchStrategy) else hook(scenario)
    if not isinstance(strategy, SearchStrategy):
        raise TypeError(f"the objects hook {getattr(hook, '__name__', hook)!r} returned {type(strategy).__name__}; "
                        "it must return a Hypothesis strategy of generators.Extras")

    def applied(extras: Any) -> Scenario:
        if not isinstance(extras, Extras):
            raise TypeError(f"the objects hook's strategy drew {type(extras).__name__}; draw generators.Extras")
        return extras.apply(scenario)
    return strategy.map(applied)


def with_extras(scenarios: SearchStrategy[Scenario], hook: Hook) -> SearchStrategy[Scenario]:
    """`scenarios`, each with what `hook` draws for it: `hook` is a strategy of `Extras`, or a function
    from the drawn scenario to one. Shrinks the scenario first, then towards the hook's simplest draw."""
    if not isinstance(hook, SearchStrategy) and not callable(hook):
        raise TypeError(f"with_extras(hook={hook!r}): give a strategy of Extras or a function Scenario -> strategy")
    return scenarios.flatmap(lambda scenario: _extend(hook, scenario))


__all__ = ["Extras", "with_extras"]
