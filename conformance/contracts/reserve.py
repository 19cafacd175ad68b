"""Reserve then Unreserve leaves no trace, also after the binding cycle ran up to a failure; Unreserve is
idempotent and harmless without Reserve."""

from __future__ import annotations

from .base import ContractViolation, Property, register, run_checked
from .calls import Call, answers, cycle
from .inputs import WithOther
from .inputs_objects import with_other_and_objects

SCHEDULING = frozenset({"preFilter", "filter", "preScore", "score"})


def _compare(property_id: str, what: str, driver, ex: WithOther, middle: list[Call]) -> bool:
    """Run a cycle for the input's pod, then `middle` on the other pod (its `when` indices count within it),
    then the same cycle again: the plugin's answers for the pod must not move."""
    inp = ex.input
    points = driver.points & SCHEDULING
    calls = cycle(points, inp, inp.pod, state="before")
    split = len(calls)
    calls += [{**c, "when": c["when"] + split} if "when" in c else c for c in middle]
    after = len(calls)
    cycle(points, inp, inp.pod, state="after", calls=calls)
    results = run_checked(driver, calls)
    first, second = answers(calls[:split], results[:split]), answers(calls, results, after)
    for a, b in zip(first, second):
        if a != b:
            raise ContractViolation(property_id, f"after {what}, {a[0]}{' on ' + a[1] if a[1] else ''} for "
                                    f"{inp.pod['metadata']['name']} answers {b[2:]} instead of {a[2:]}",
                                    calls, results)
    return any(r.get("code") == "Success" for c, r in zip(calls, results) if c["point"] == "reserve")


def _pre(driver, ex: WithOther) -> list[Call]:
    return [{"point": "preFilter", "state": "other", "pod": ex.other}] if "preFilter" in driver.points else []


def _reserve_unreserve(driver, ex: WithOther) -> bool:
    other = {"state": "other", "pod": ex.other, "node": ex.node}
    return _compare("reserve-unreserve-restores", f"Reserve then Unreserve of {ex.other['metadata']['name']} on "
                    f"{ex.node}", driver, ex,
                    _pre(driver, ex) + [{"point": "reserve", **other}, {"point": "unreserve", **other}])


def _idempotent(driver, ex: WithOther) -> bool:
    other = {"state": "other", "pod": ex.other, "node": ex.node}
    return _compare("unreserve-idempotent", f"Unreserve without Reserve, then Reserve and Unreserve twice, of "
                    f"{ex.other['metadata']['name']} on {ex.node}", driver, ex,
                    _pre(driver, ex) + [{"point": "unreserve", **other}, {"point": "reserve", **other},
                                        {"point": "unreserve", **other}, {"point": "unreserve", **other}])


# Where another plugin fails the binding cycle, and this plugin's binding points that ran before it (Permit,
# every PreBindPreFlight before WaitOnPermit, then the PreBinds in order; Bind: another binder ahead of it).
FAILURES = (("PreBind", ("permit", "preBindPreFlight")), ("Bind", ("permit", "preBindPreFlight", "preBind")))


def _failed_binding(driver, ex: WithOther) -> bool:
    """For each failure point, on a fresh plugin: the other pod reserved on its node, the plugin's binding
    points up to the failure (each after the one before succeeded), then Unreserve, as handleBindingCycleError
    runs it."""
    other = {"state": "other", "pod": ex.other, "node": ex.node}
    middles: list[tuple[str, list[Call]]] = []
    for failed, ran in FAILURES:
        middle = _pre(driver, ex) + [{"point": "reserve", **other}]
        for point in ran:
            if point in driver.points or (point == "preBindPreFlight" and "preBind" in driver.points):
                middle.append({"point": point, **other, "when": len(middle) - 1})
        middle.append({"point": "unreserve", **other})
        if all(middle != m for _, m in middles):
            middles.append((failed, middle))
    exercised, start = False, len(_pre(driver, ex)) + 1
    for failed, middle in middles:
        steps = "".join(f", {c['point'][0].upper()}{c['point'][1:]}" for c in middle[start:-1])
        what = (f"Reserve{steps} of {ex.other['metadata']['name']} on {ex.node}, another plugin's {failed} "
                "failing, then Unreserve")
        exercised |= _compare("failed-binding-restores", what, driver, ex, middle)
    return exercised


_SOURCE = ("staging/src/k8s.io/kube-scheduler/framework/interface.go ReservePlugin (\"The Unreserve method "
           "implementation must be idempotent and may be called by the scheduler even if the corresponding Reserve "
           "method for the same plugin was not called\"); pkg/scheduler/schedule_one.go handleBindingCycleError")

register(Property(
    "reserve-unreserve-restores", "Reserve(p, n) then Unreserve(p, n) leaves every later PreFilter/Filter/PreScore/"
    "Score answer for other pods exactly as before", _SOURCE, frozenset({"reserve"}), with_other_and_objects,
    _reserve_unreserve))
register(Property(
    "unreserve-idempotent", "Unreserve twice, or without a Reserve, is harmless: later answers for other pods are "
    "as before", _SOURCE, frozenset({"reserve"}), with_other_and_objects, _idempotent))
register(Property(
    "failed-binding-restores", "Reserve(p, n), the plugin's Permit, PreBindPreFlight and PreBind for p on "
    "n up to another plugin's PreBind or Bind failure, then Unreserve(p, n), leave every later PreFilter/"
    "Filter/PreScore/Score answer for other pods exactly as before Reserve",
    "pkg/scheduler/schedule_one.go bindingCycle (RunPreBindPreFlights, WaitOnPermit, RunPreBindPlugins, "
    "bind) -> handleBindingCycleError -> unreserveAndForget (Unreserve, never PostBind); staging/src/k8s.io/"
    "kube-scheduler/framework/interface.go ReservePlugin (\"Unreserve is called ... when a reserved pod was "
    "rejected, an error occurred during reservation of subsequent plugins, or in a later phase\")",
    frozenset({"reserve"}), with_other_and_objects, _failed_binding))
