"""Extenders: their `config.extenders` entries and `extender_scripts()` (formats: docs/scenario.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.scenario import EXTENDER_URL_PLACEHOLDER

from ._draw import Draw, Manifest, elements, flag, keyed, optional, pick, subset, together
from .pools import EXTENDER_NAMES, GPU, NODE_NAMES

VERBS = ("filter", "prioritize", "bind", "preempt")
MANAGED_RESOURCES = (GPU, "example.com/fpga")
_ERRORS = ("extender says no",)
_STATUSES = (500, 404)
_REASONS = ("extender: no", "extender: full")


@dataclass(frozen=True)
class ExtenderPlan:
    name: str
    verbs: tuple[str, ...]
    managed: tuple[str, ...] = ()


def draw_extenders(draw: Draw, max_count: int) -> tuple[list[Manifest], list[ExtenderPlan]]:
    """Valid extender entries (validateExtenders: a positive weight with prioritizeVerb, at most
    one binder, managed resource names valid and unique across extenders)."""
    plans: list[ExtenderPlan] = []

    def extender(draw: Draw, i: int) -> tuple[Manifest, ExtenderPlan]:
        name = EXTENDER_NAMES[i]
        binder_taken = any("bind" in p.verbs for p in plans)
        chosen = subset(draw, [v for v in VERBS if v != "bind" or not binder_taken], min_size=1, max_size=4)
        verbs = tuple(v for v in VERBS if v in chosen)
        config: Manifest = {"urlPrefix": f"{EXTENDER_URL_PLACEHOLDER}/{name}"}
        config.update({f"{verb}Verb": verb for verb in verbs})
        if "prioritize" in verbs:
            config["weight"] = pick(draw, (1, 2, 5))
        if draw(flag(30)):
            config["ignorable"] = True
        if draw(flag(30)):
            config["nodeCacheCapable"] = True
        free = [r for r in MANAGED_RESOURCES if all(r not in p.managed for p in plans)]
        resource = optional(draw, 20, lambda d: pick(d, free)) if free else None
        if resource:
            config["managedResources"] = [{"name": resource, "ignoredByScheduler": draw(st.booleans())}]
        return config, ExtenderPlan(name, verbs, (resource,) if resource else ())

    drawn = elements(draw, 0, max_count, extender, kept=lambda e: plans.append(e[1]))
    return [config for config, _ in drawn], plans


def _node_reasons(draw: Draw, nodes: Sequence[str]) -> dict[str, str]:
    return keyed(draw, nodes, lambda d: pick(d, _REASONS))


def _failure(draw: Draw, action: Manifest) -> None:
    if draw(flag(50)):
        action["error"] = pick(draw, _ERRORS)
    else:
        action["status"] = pick(draw, _STATUSES)


def _draw_action(draw: Draw, verb: str, nodes: Sequence[str], victims: Mapping[str, Sequence[str]]) -> Manifest:
    action: Manifest = {}
    if draw(flag(20)):
        _failure(draw, action)
        return action
    if verb == "filter":
        for key in subset(draw, ("fail", "unresolvable"), min_size=1, max_size=2):
            action[key] = _node_reasons(draw, nodes)
    elif verb == "prioritize":
        # MaxExtenderPriority is 10; the framework scales by weight * MaxNodeScore / 10.
        action["scores"] = keyed(draw, nodes, lambda d: pick(d, (10, 0, 5, 1)))
    elif verb == "preempt":
        keep = {n: subset(draw, victims[n], max_size=len(victims[n])) for n in victims if draw(st.booleans())}
        action["victims"] = {n: v for n, v in keep.items() if v}
    else:
        _failure(draw, action)  # bind: the only scripted behaviour is failing
    return action


def draw_extender_script(draw: Draw, extenders: Sequence[ExtenderPlan], nodes: Sequence[str],
                         victims: Mapping[str, Sequence[str]]) -> Manifest:
    script: Manifest = {}
    for plan in extenders:
        actions = optional(draw, 50, lambda d: {verb: together(d, lambda d: _draw_action(d, verb, nodes, victims))
                                                for verb in subset(d, plan.verbs, min_size=1, max_size=2)})
        if actions:
            script[plan.name] = actions
    return script


def extender_scripts(*, extenders: Mapping[str, Collection[str]] | int = 1, nodes: Sequence[str] = NODE_NAMES[:1],
                     victims: Mapping[str, Sequence[str]] | None = None) -> SearchStrategy[Manifest]:
    """Extender scripts (`extender name -> verb -> action`): filter failures (FailedNodes,
    FailedAndUnresolvableNodes), prioritize scores 0-10, preempt victims to keep (from `victims`,
    node -> pod keys), and errors or non-200 statuses for any verb. `extenders` is a count
    (ext-0... with every verb) or a mapping name -> verbs; node names come from `nodes`.

    Shrinks towards {} (every extender passes every node, scores 0, binds, echoes victims).
    """
    if isinstance(extenders, int):
        if not 0 <= extenders <= len(EXTENDER_NAMES):
            raise ValueError(f"extender_scripts(extenders={extenders!r}): use 0 to {len(EXTENDER_NAMES)}")
        plans = [ExtenderPlan(n, VERBS) for n in EXTENDER_NAMES[:extenders]]
    else:
        bad = sorted({v for verbs in extenders.values() for v in verbs} - set(VERBS))
        if bad:
            raise ValueError(f"extender_scripts(extenders=...): unknown verb {bad[0]!r}; use {', '.join(VERBS)}")
        plans = [ExtenderPlan(n, tuple(v for v in VERBS if v in verbs)) for n, verbs in extenders.items()]
    if isinstance(nodes, str) or not nodes:
        raise ValueError(f"extender_scripts(nodes={nodes!r}): pass a non-empty sequence of node names")
    node_names = tuple(nodes)
    victim_map = {n: tuple(v) for n, v in (victims or {}).items()}
    return st.composite(lambda draw: draw_extender_script(draw, plans, node_names, victim_map))()


__all__ = ["ExtenderPlan", "MANAGED_RESOURCES", "VERBS", "draw_extender_script", "draw_extenders",
           "extender_scripts"]
