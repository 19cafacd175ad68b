"""The first pod's decisive answers in a situation (situations.py), drawn around
the rule the situation is about. Each takes `draw` and the node names and returns (probe script,
extender script); `pick` and `some` draw from small pools, shrinking towards their first element."""

from __future__ import annotations

from typing import Callable, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

Draw = Callable[[SearchStrategy], object]
Script = dict
REJECT = ("Unschedulable", "UnschedulableAndUnresolvable")


def pick(draw: Draw, pool: Sequence) -> object:
    return draw(st.sampled_from(tuple(pool)))


def some(draw: Draw, nodes: Sequence[str], *, min_size: int = 1, max_size: int | None = None) -> list[str]:
    return draw(st.lists(st.sampled_from(tuple(nodes)), min_size=min_size,
                         max_size=len(nodes) if max_size is None else max_size, unique=True))


def filter_rejections(draw: Draw, nodes: Sequence[str]) -> dict:
    """Filter answers that reject some nodes, each with its own reason."""
    rejected = some(draw, nodes)
    return {"code": "Success", "byNode": {n: {"code": pick(draw, REJECT), "reasons": [f"no room on {n}"]}
                                          for n in rejected}}


def node_scores(draw: Draw, nodes: Sequence[str], pool: Sequence[int]) -> dict:
    return {"score": pick(draw, pool), "byNode": {n: {"score": pick(draw, pool)} for n in some(draw, nodes)}}


def wait(draw: Draw) -> dict:
    action = {"code": "Wait", "timeout": pick(draw, ("500ms", "1s"))}
    signal = pick(draw, (None, "allow", "reject"))
    if signal:
        action["then"] = {"signal": signal, "after": "100ms"}
    return action


def reserve_failure(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """A failure after Reserve began: either reserve probe rejects or errs, or Permit rejects."""
    probe, point = pick(draw, (("Probe0", "Reserve"), ("Probe1", "Reserve"), ("Probe1", "Permit")))
    return {probe: {point: {"code": pick(draw, (*REJECT, "Error"))}}}, {}


def fit_error(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """One way for the pod to fail with a FitError: every node filtered out with per-node reasons
    (then maybe a PostFilter message; or within a PreFilterResult, the other nodes counted as not
    satisfying it), a PreFilter rejection, or a Reserve or Permit rejection."""
    kind = pick(draw, ("filter", "postfilter", "prefilter", "reserve", "permit", "result"))
    reject = {"code": pick(draw, REJECT), "reasons": [pick(draw, ("probe says no", "out of luck"))]}
    if kind in ("filter", "postfilter", "result"):
        script = {"Probe0": {"Filter": {"code": "Success", "byNode": {
            n: {"code": pick(draw, REJECT), "reasons": [pick(draw, ("full", "tainted", "too far"))]}
            for n in nodes}}}}
        if kind == "postfilter":
            script["Probe1"] = {"PostFilter": {"code": "Unschedulable", "reasons": ["no preemption helps"]}}
        if kind == "result":
            script["Probe2"] = {"PreFilter": {"result": some(draw, nodes, max_size=len(nodes) - 1)}}
        return script, {}
    point = {"prefilter": "PreFilter", "reserve": "Reserve", "permit": "Permit"}[kind]
    return {"Probe2": {point: reject}}, {}


def condition(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """One failing answer at any point: a rejection, Pending, or an error."""
    # PreScore and PreBindPreFlight twice: their rejections are the ones upstream turns into errors.
    point = pick(draw, ("PreScore", "PreBindPreFlight", "PreBind", "Bind", "Permit", "Reserve", "Filter", "PreFilter",
                         "PreScore", "PreBindPreFlight"))
    return {"Probe0": {point: {"code": pick(draw, ("Pending", "Unschedulable", "Error", "Pending",
                                                    "UnschedulableAndUnresolvable"))}}}, {}


def extender_failure(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    failure = {"error": "extender says no"} if draw(st.booleans()) else {"status": pick(draw, (500, 404))}
    return {}, {"ext-0": {pick(draw, ("filter", "prioritize")): failure}}


def extender_rejections(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """The extender fails some nodes (FailedNodes or FailedAndUnresolvableNodes), rarely all."""
    failed = some(draw, nodes, max_size=len(nodes) - 1) if draw(st.integers(0, 4)) else list(nodes)
    key = pick(draw, ("fail", "unresolvable"))
    # Probe0 lets the attempt through, so that a node gets chosen.
    script = {"ext-0": {"filter": {key: {n: "extender: no" for n in failed}}}}
    return {"Probe0": {"PreFilter": {}, "Reserve": {}}}, script


def extender_scores(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """ext-2 (weight 1) scores node a 10; ext-0 (weight 5) scores node b lower: only the weights,
    scaled by MaxNodeScore / MaxExtenderPriority, make b the best node."""
    a, b = some(draw, nodes, min_size=2, max_size=2)
    return {}, {"ext-0": {"prioritize": {"scores": {b: pick(draw, (3, 5, 8))}}},
                "ext-2": {"prioritize": {"scores": {a: 10}}}}


def prescore_skip(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """One probe skips at PreScore, the other succeeds there, so both get to answer."""
    skipping = pick(draw, ("Probe0", "Probe1"))
    other = "Probe1" if skipping == "Probe0" else "Probe0"
    return {skipping: {"PreScore": {"code": "Skip"}}, other: {"PreScore": {}}}, {}


def weighted_scores(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0 (weight 1) prefers node a, Probe1 (weight 2 or more) prefers node b less strongly:
    the weighted totals pick b, unweighted ones a."""
    a, b = some(draw, nodes, min_size=2, max_size=2)
    return ({"Probe0": {"Score": {"score": 0, "byNode": {a: {"score": pick(draw, (100, 90))}}}},
             "Probe1": {"Score": {"score": 0, "byNode": {b: {"score": pick(draw, (60, 70))}}}}}, {})


def failure_anywhere(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0 fails one point of the attempt (an error, a rejection, or a code the point turns into an
    error; at Filter an error on one node, the others passing); Probe1, next at every point, shows
    whether the loop and the attempt went on."""
    point = pick(draw, ("Filter", "PreFilter", "Reserve", "PreScore", "Score", "NormalizeScore", "PreBindPreFlight",
                         "PreBind"))
    codes = {"Filter": ("Error", "Skip", "Wait"), "PreFilter": ("Error", "Pending", "Unschedulable",
                                                                 "UnschedulableAndUnresolvable", "Wait")}
    action = {"code": pick(draw, codes.get(point, ("Error", "Unschedulable", "Error", "Pending")))}
    if point == "Filter" and draw(st.integers(0, 3)):
        action = {"code": "Success", "byNode": {pick(draw, nodes): action}}
    return {"Probe0": {point: action}}, {}


def loop_stop(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0's answer at one point, whether it stops that point's loop or goes on to Probe1."""
    point = pick(draw, ("PreFilter", "Permit", "PreScore", "PreBindPreFlight", "PreBind", "Bind", "PostFilter",
                         "Reserve"))
    codes = {"Bind": ("Skip", "Success", "Error"), "Permit": ("Wait", "Success", "Unschedulable", "Error"),
             "PostFilter": ("Unschedulable", "Pending", "Success", "UnschedulableAndUnresolvable")}.get(
        point, ("Success", "Skip", "Unschedulable", "UnschedulableAndUnresolvable", "Error", "Pending"))
    action: dict = {"code": pick(draw, codes)}
    if point == "Permit" and action["code"] == "Wait":
        action.update(timeout="1s", then={"signal": "allow", "after": "100ms"})
    script: dict = {"Probe0": {point: action}}
    if point == "PostFilter":
        script["Probe2"] = {"Filter": {"code": pick(draw, REJECT)}}
    return script, {}


def postfilter_answer(draw: Draw, nodes: Sequence[str]) -> dict:
    """A PostFilter answer: Unschedulable, Success, or Success nominating one of the nodes (which must not
    schedule the pod in that attempt)."""
    answer: dict = {"code": pick(draw, ("Unschedulable", "Success"))}
    if answer["code"] == "Success" and draw(st.booleans()):
        answer["nominate"] = pick(draw, nodes)
    return answer


def some_nodes_rejected(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0 rejects some nodes but leaves two or more to score; Probe1 may skip at PreScore."""
    rejected = some(draw, nodes, min_size=0, max_size=len(nodes) - 2)
    script: dict = {"Probe0": {"Filter": {"code": "Success", "byNode": {n: {"code": pick(draw, REJECT)}
                                                                        for n in rejected}}}}
    if draw(st.booleans()):
        script["Probe1"] = {"PreScore": {"code": "Skip"}}
    script["Probe2"] = {"Score": node_scores(draw, nodes, (0, 100, 50))}
    return script, {}


def extender_leaves_two(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """`some_nodes_rejected`, and ext-0's filter fails one more node where three or more are left."""
    script, _ = some_nodes_rejected(draw, nodes)
    left = [n for n in nodes if n not in script["Probe0"]["Filter"]["byNode"]]
    failed = some(draw, left, min_size=0, max_size=1) if len(left) > 2 else []
    return script, {"ext-0": {"filter": {"fail": {n: "extender: no" for n in failed}}}}


def refused_at_pre_enqueue(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    probe = pick(draw, ("Probe0", "Probe1"))
    # Error and Skip first: the codes an implementation is most tempted to let through.
    return {probe: {"PreEnqueue": {"code": pick(draw, ("Error", "Skip", "Unschedulable", "Error", "Pending", "Wait",
                                                         "UnschedulableAndUnresolvable", "Success"))}}}, {}


def retried(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """The first attempt fails with an error (so the pod retries after its backoff), the next ones pass."""
    point = pick(draw, ("Reserve", "PreFilter", "Filter"))
    return {"Probe0": {point: [{"code": "Error"}, {}]}}, {}


def rejected_once(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """The first attempt is rejected (every node filtered out, or a PreFilter, Reserve or Permit
    rejection); later attempts, if the queue allows them, pass."""
    point = pick(draw, ("Filter", "Reserve", "PreFilter", "Permit"))
    return {"Probe0": {point: [{"code": pick(draw, REJECT)}, {}]}}, {}


def nominated_first(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """The first pod's first attempt filters out every node and its PostFilter nominates one: the pods
    filtered next see it nominated there (AddPod), and it may fit on its retry."""
    return {"Probe0": {"Filter": [{"code": pick(draw, REJECT)}, {}], "PostFilter": {"nominate": pick(draw, nodes)}}}, {}
