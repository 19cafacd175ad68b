"""Reserve then Unreserve leaves no trace; Unreserve is idempotent and harmless without Reserve."""

from __future__ import annotations

from .base import ContractViolation, Property, register, run_checked
from .calls import Call, answers, cycle
from .inputs import WithOther
from .inputs_objects import with_other_and_objects

SCHEDULING = frozenset({"preFilter", "filter", "preScore", "score"})


def _compare(property_id: str, what: str, driver, ex: WithOther, middle: list[Call]) -> bool:
    """Run a cycle for the input's pod, then `middle` on the other pod, then the same cycle again: the plugin's
    answers for the pod must not move."""
    inp = ex.input
    points = driver.points & SCHEDULING
    calls = cycle(points, inp, inp.pod, state="before")
    split = len(calls)
    calls += middle
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
