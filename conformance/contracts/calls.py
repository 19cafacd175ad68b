"""Call sequences for the driver: the snapshot, and one scheduling cycle of the plugin as the framework runs it."""

from __future__ import annotations

from typing import Any, Iterable

from .inputs import Manifest, PluginInput

Call = dict[str, Any]


def snapshot(inp: PluginInput) -> Call:
    call = {"point": "snapshot", "nodes": list(inp.nodes), "pods": list(inp.pods)}
    if objects := getattr(inp, "objects", ()):  # inputs_objects.WithObjects
        call["objects"] = list(objects)
    return call


def filtering(points: Iterable[str], inp: PluginInput, pod: Manifest, state: str, calls: list[Call]) -> int | None:
    """PreFilter, then Filter on each node the framework would ask (appended to `calls`); returns PreFilter's index."""
    points = frozenset(points)
    pre = None
    if "preFilter" in points:
        pre = len(calls)
        calls.append({"point": "preFilter", "state": state, "pod": pod})
    if "filter" in points:
        for name in inp.node_names:
            call = {"point": "filter", "state": state, "pod": pod, "node": name}
            if pre is not None:
                call["when"] = pre
            calls.append(call)
    return pre


BINDING = ("permit", "preBindPreFlight", "preBind", "bind", "postBind")


def cycle(points: Iterable[str], inp: PluginInput, pod: Manifest, *, state: str = "a",
          calls: list[Call] | None = None) -> list[Call]:
    """The plugin's points of one scheduling cycle, in the framework's order: PreEnqueue (nothing more when it
    gates the pod), PreFilter, Filter per node (on the nodes PreFilter allows), PostFilter (the driver calls it
    only when no node passed), PreScore and Score+NormalizeScore on the feasible nodes (unless PreFilter
    rejected), on the first node Reserve then Unreserve (a failed binding cycle), then the binding cycle there:
    Reserve, Permit, PreBindPreFlight, PreBind, Bind, PostBind, each only after the one before succeeded."""
    points = frozenset(points)
    calls = calls if calls is not None else [snapshot(inp)]
    gate = None
    if "preEnqueue" in points:
        gate = len(calls)
        calls.append({"point": "preEnqueue", "pod": pod})
    pre = filtering(points, inp, pod, state, calls)
    guard = {"unless": pre} if pre is not None else {}
    if "postFilter" in points:
        calls.append({"point": "postFilter", "state": state, "pod": pod})
    pre_score = None
    if "preScore" in points:
        pre_score = len(calls)
        calls.append({"point": "preScore", "state": state, "pod": pod, **guard})
    if "score" in points:
        calls.append({"point": "scores", "state": state, "pod": pod,
                      **({"unless": pre_score} if pre_score is not None else guard)})
    node = inp.node_names[0]
    if "reserve" in points:
        calls.append({"point": "reserve", "state": state, "pod": pod, "node": node, **guard})
        calls.append({"point": "unreserve", "state": state, "pod": pod, "node": node, **guard})
    binding = [p for p in BINDING if p in points or (p == "preBindPreFlight" and "preBind" in points)]
    if binding:
        previous = guard
        if "reserve" in points:
            calls.append({"point": "reserve", "state": state, "pod": pod, "node": node, **guard})
            previous = {"when": len(calls) - 1}
        for point in binding:
            calls.append({"point": point, "state": state, "pod": pod, "node": node, **previous})
            previous = {"when": len(calls) - 1}
    if gate is not None:  # a gated pod is never popped: the calls that follow no other call follow PreEnqueue
        for i in range(gate + 1, len(calls)):
            if not {"when", "unless"} & calls[i].keys():
                calls[i] = {**calls[i], "when": gate}
    return calls


def answers(calls: list[Call], results: list[dict[str, Any]], start: int = 0) -> list[tuple]:
    """What a sequence's plugin calls answered, comparable between two runs (snapshots left out)."""
    out = []
    for call, result in list(zip(calls, results))[start:]:
        if call["point"] == "snapshot":
            continue
        out.append((call["point"], call.get("node"), result.get("skipped", False), result.get("code"),
                    tuple(result.get("reasons") or ()), tuple(result.get("nodeNames") or ()),
                    result.get("allNodes", False), result.get("score"),
                    tuple(sorted((result.get("scores") or {}).items())),
                    tuple(sorted((result.get("normalized") or {}).items())), result.get("timeout"),
                    result.get("bound"), tuple(sorted((result.get("nominated") or {}).items()))))
    return out


Outcome = tuple[str, tuple[str, ...]]  # a code and its reasons
EXCLUDED = ("UnschedulableAndUnresolvable", ("not in PreFilter's result",))


def outcomes(inp: PluginInput, calls: list[Call], results: list[dict[str, Any]], pre: int | None,
             first_filter: int) -> dict[str, Outcome]:
    """Per node, what the plugin answers for the pod there (PreFilter's rejection, exclusion by its result, or
    Filter's status; Success when it does not filter), from a `filtering` run."""
    out = {}
    pre_result = results[pre] if pre is not None else {"code": "Success", "allNodes": True}
    code = pre_result.get("code")
    for i, name in enumerate(inp.node_names):
        if code == "Skip":
            out[name] = ("Success", ())
        elif code != "Success":
            out[name] = (code, tuple(pre_result.get("reasons") or ()))
        elif not pre_result.get("allNodes") and name not in (pre_result.get("nodeNames") or ()):
            out[name] = EXCLUDED
        elif first_filter + i < len(results) and calls[first_filter + i].get("point") == "filter":
            r = results[first_filter + i]
            out[name] = (r.get("code"), tuple(r.get("reasons") or ()))
        else:
            out[name] = ("Success", ())
    return out


def verdicts(inp: PluginInput, calls: list[Call], results: list[dict[str, Any]], pre: int | None,
             first_filter: int) -> dict[str, bool]:
    """Per node, whether the plugin lets the pod through (PreFilter and Filter), from a `filtering` run."""
    return {name: code == "Success" for name, (code, _) in outcomes(inp, calls, results, pre, first_filter).items()}


__all__ = ["Outcome", "answers", "cycle", "filtering", "outcomes", "snapshot", "verdicts"]
