"""Spec §1.2: every status code at every extension point, driven through the public Scheduler API.

Upstream: pkg/scheduler/framework/runtime/framework.go and pkg/scheduler/schedule_one.go (v1.37.2).
Scenario: nodes n1, n2 and one pod "p". At the point under test the profile has the scripted plugin
X (returning the code) followed by L (Success); every other point has the probe P (Success; at
PostFilter P returns Unschedulable without reasons, so it adds nothing to the message).
Reasons used: "r" for every code, "boom" for Error. Go renders `%w` of a nil error (Wait/Skip have no
AsError) as `%!w(<nil>)`.

PostFilter-Wait/Skip: upstream does `fwk.AsStatus(s.AsError()).WithPlugin(...)` with a nil error,
i.e. a nil-pointer panic that crashes kube-scheduler. The reference turns it into an Error status
instead; those two cells pin that choice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo, PodInfo
from reference.status import SUCCESS, Code
from tests.builders import node, pod
from tests.reference.framework._scripted import Scripted, build, calls, st

CODES = ["Success", "Unschedulable", "UnschedulableAndUnresolvable", "Pending", "Error", "Wait", "Skip"]
SHORT = {"UnschedulableAndUnresolvable": "UAU"}
NIL = "%!w(<nil>)"
POINTS = ["preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit",
          "preBind", "bind", "postBind"]


def status_for(code: str):
    if code == "Success":
        return SUCCESS
    return st(code, "boom" if code == "Error" else "r")


def inner(code: str) -> str:
    """What `%w` of `status.AsError()` renders for this code."""
    return {"Error": "boom", "Wait": NIL, "Skip": NIL}.get(code, "r")


@dataclass
class Expect:
    phase: str
    reason: str = ""
    message: str = ""
    ran: list[tuple[str, str]] = field(default_factory=list)
    not_ran: list[tuple[str, str]] = field(default_factory=list)
    nominated: str | None = None  # expected status.nominatedNodeName, when asserted


def bound(ran=(), not_ran=(), nominated=None) -> Expect:
    return Expect("bound", ran=list(ran), not_ran=list(not_ran), nominated=nominated)


def err(message: str, ran=(), not_ran=()) -> Expect:
    return Expect("error", "SchedulerError", message, list(ran), list(not_ran))


def unsched(message: str, ran=(), not_ran=()) -> Expect:
    return Expect("unschedulable", "Unschedulable", message, list(ran), list(not_ran))


REJECTED = ("Unschedulable", "UnschedulableAndUnresolvable", "Pending")


def expected(row: str, code: str) -> Expect:  # noqa: C901 - one branch per row of the table
    c = code
    if row == "preEnqueue":
        if c == "Success":
            return bound(ran=[("PreFilter", "P"), ("PreEnqueue", "L")])
        # any non-Success gates the pod: first non-success stops, no attempt at all
        return Expect("gated", not_ran=[("PreEnqueue", "L"), ("PreFilter", "P")])
    if row == "preFilter":
        if c == "Success":
            return bound(ran=[("PreFilter", "L"), ("Filter", "X"), ("Filter", "P")])
        if c == "Skip":  # X's Filter is skipped with it
            return bound(ran=[("PreFilter", "L"), ("Filter", "P")], not_ran=[("Filter", "X")])
        if c == "Unschedulable":  # remembered; later PreFilter plugins still run
            return unsched("0/2 nodes are available: r.", ran=[("PreFilter", "L"), ("PostFilter", "P")],
                           not_ran=[("Filter", "X"), ("Filter", "P"), ("Reserve", "P")])
        if c == "UnschedulableAndUnresolvable":
            return unsched("0/2 nodes are available: r.", ran=[("PostFilter", "P")],
                           not_ran=[("PreFilter", "L"), ("Filter", "P")])
        return err(f'running PreFilter plugin "X": {inner(c)}',
                   not_ran=[("PreFilter", "L"), ("Filter", "P"), ("PostFilter", "P")])
    if row == "addPod":
        if c == "Success":
            return bound(ran=[("AddPod", "X")])
        return err(f'running AddPod on PreFilter plugin "X": {inner(c)}', ran=[("AddPod", "X")],
                   not_ran=[("PostFilter", "P"), ("Reserve", "P")])
    if row == "filter":
        if c == "Success":
            return bound(ran=[("Filter", "L")])
        if c in REJECTED:
            return unsched("0/2 nodes are available: 2 r.", ran=[("PostFilter", "P")],
                           not_ran=[("Filter", "L"), ("PreScore", "P"), ("Reserve", "P")])
        return err(f'running "X" filter plugin: {inner(c)}', not_ran=[("Filter", "L"), ("PostFilter", "P")])
    if row == "postFilter":
        base = "0/2 nodes are available: 2 no."
        if c == "Success":  # stops; an empty message adds nothing
            return unsched(base, not_ran=[("PostFilter", "L")])
        if c in ("Unschedulable", "Pending"):  # reasons accumulate, loop continues
            return unsched(f"{base} r, later", ran=[("PostFilter", "L")])
        if c == "UnschedulableAndUnresolvable":
            return unsched(f"{base} r", not_ran=[("PostFilter", "L")])
        # Error: AsStatus(err) unwrapped; Wait/Skip: see module docstring
        return unsched(f"{base} {inner(c)}", not_ran=[("PostFilter", "L"), ("Reserve", "P")])
    if row == "preScore":
        if c == "Success":
            return bound(ran=[("PreScore", "L"), ("Score", "X"), ("Score", "P")])
        if c == "Skip":  # X's Score is skipped with it
            return bound(ran=[("PreScore", "L"), ("Score", "P")], not_ran=[("Score", "X")])
        return err(f'running PreScore plugin "X": {inner(c)}',
                   not_ran=[("PreScore", "L"), ("Score", "P"), ("Reserve", "P"), ("PostFilter", "P")])
    if row == "score":
        if c == "Success":
            return bound(ran=[("Score", "L")])
        return err(f'running Score plugins: plugin "X" failed with: {inner(c)}',
                   not_ran=[("Reserve", "P"), ("PostFilter", "P")])
    if row == "normalizeScore":
        if c == "Success":
            return bound(ran=[("NormalizeScore", "X")])
        return err(f'running Normalize on Score plugins: plugin "X" failed with: {inner(c)}',
                   ran=[("NormalizeScore", "X")], not_ran=[("Reserve", "P")])
    if row == "reserve":
        if c == "Success":
            return bound(ran=[("Reserve", "L"), ("Permit", "P")], not_ran=[("Unreserve", "X")])
        unreserved = [("Unreserve", "L"), ("Unreserve", "X")]
        if c in REJECTED:
            return unsched("0/1 nodes are available: 1 r.", ran=unreserved,
                           not_ran=[("Reserve", "L"), ("Permit", "P"), ("PostFilter", "P")])
        return err(f'running Reserve plugin "X": {inner(c)}', ran=unreserved,
                   not_ran=[("Reserve", "L"), ("Permit", "P")])
    if row == "permit":
        if c == "Success":
            return bound(ran=[("Permit", "L")], not_ran=[("Unreserve", "P")])
        if c == "Wait":  # timeout 30 s; this run stops at 10 s
            return Expect("waiting", ran=[("Permit", "L"), ("PreBindPreFlight", "P")],
                          not_ran=[("PreBind", "P"), ("Unreserve", "P")], nominated="n?")
        if c in REJECTED:  # stops at once, even before later plugins
            return unsched("0/1 nodes are available: 1 r.", ran=[("Unreserve", "P")],
                           not_ran=[("Permit", "L"), ("PreBindPreFlight", "P"), ("PostFilter", "P")])
        return err(f'running Permit plugin "X": {inner(c)}', ran=[("Unreserve", "P")],
                   not_ran=[("Permit", "L"), ("PreBindPreFlight", "P")])
    if row == "preBindPreFlight":
        if c == "Success":
            # The nomination patched before PreBind is cleared again by the binding (BindingREST,
            # ClearingNominatedNodeNameAfterBinding); the waiting Permit row shows the patch itself.
            return bound(ran=[("PreBind", "X"), ("PreBind", "L")], nominated="")
        if c == "Skip":  # X's PreBind is removed
            return bound(ran=[("PreBind", "L")], not_ran=[("PreBind", "X")], nominated="")
        if c == "Error":
            return err('running PreBindPreFlight "X": boom', ran=[("Unreserve", "P")],
                       not_ran=[("PreBindPreFlight", "L"), ("PreBind", "X"), ("Bind", "P")])
        return err(f'PreBindPreFlight X returned "{c}", which is unsupported. '
                   "It is supposed to return Success, Skip, or Error status", ran=[("Unreserve", "P")],
                   not_ran=[("PreBindPreFlight", "L"), ("PreBind", "X"), ("Bind", "P")])
    if row == "preBind":
        if c == "Success":
            return bound(ran=[("PreBind", "L")])
        if c in REJECTED:  # rejection message as is; condition reason Unschedulable
            return unsched("r", ran=[("Unreserve", "P")],
                           not_ran=[("PreBind", "L"), ("Bind", "P"), ("PostBind", "P")])
        return err(f'running PreBind plugin "X": {inner(c)}', ran=[("Unreserve", "P")],
                   not_ran=[("PreBind", "L"), ("Bind", "P"), ("PostBind", "P")])
    if row == "bind":
        if c == "Success":
            return bound(ran=[("PostBind", "P")], not_ran=[("Bind", "L")])
        if c == "Skip":  # next bind plugin
            return bound(ran=[("Bind", "L"), ("PostBind", "P")])
        if c in REJECTED:
            return unsched("r", ran=[("Unreserve", "P")], not_ran=[("Bind", "L"), ("PostBind", "P")])
        return err(f'running Bind plugin "X": {inner(c)}', ran=[("Unreserve", "P")],
                   not_ran=[("Bind", "L"), ("PostBind", "P")])
    raise AssertionError(row)


ROW_KEY = {"preEnqueue": "pre_enqueue", "preFilter": "pre_filter", "addPod": "add_pod", "filter": "filter",
           "postFilter": "post_filter", "preScore": "pre_score", "score": "score_status",
           "normalizeScore": "normalize", "reserve": "reserve", "permit": "permit",
           "preBindPreFlight": "pre_bind_pre_flight", "preBind": "pre_bind", "bind": "bind"}
ROW_POINT = {"addPod": "preFilter", "normalizeScore": "score", "preBindPreFlight": "preBind"}
ROWS = list(ROW_KEY)


def setup(row: str, code: str):
    log: list = []
    value = status_for(code)
    if row == "bind" and code == "Success":
        value = "bind"
    behaviour = {ROW_KEY[row]: value}
    if row == "permit":
        behaviour["permit_timeout"] = 30
    if row == "score" or row == "normalizeScore":
        behaviour["score"] = 10
    x = Scripted("X", log, **behaviour)
    later = Scripted("L", log, post_filter=st("Unschedulable", "later"))
    probe = Scripted("P", log, post_filter=st("Unschedulable"))
    points = {p: [probe] for p in POINTS}
    point = ROW_POINT.get(row, row)
    points[point] = [x, later]
    nodes = [node("n1", allocatable={"cpu": 1000, "pods": 10}), node("n2", allocatable={"cpu": 1000, "pods": 10})]
    pods = [pod("p")]
    if row == "preFilter":
        points["filter"] = [x, probe]
    elif row == "postFilter":
        points["filter"] = [Scripted("R", log, filter=st("Unschedulable", "no"))]
    elif row == "preScore":
        points["score"] = [x, probe]
    elif row == "addPod":
        # "nom" (priority 10, nominated to n1) is rejected everywhere and stays nominated (PostFilter
        # returns no result, so its own nominatedNodeName is kept); "p" then filters n1 with it added.
        points["preFilter"] = [x]
        points["filter"] = [Scripted("R", log, filter=lambda p, ni: st("Unschedulable", "no") if p.name == "nom"
                                     else SUCCESS)]
        nodes = nodes[:1]
        pods = [pod("nom", priority=10, nominated_node_name="n1"), pod("p")]
    sched = build(points, nodes=nodes)
    for p in pods:
        sched.add_pod(p)
    return sched, log


def case_id(row: str, code: str) -> str:
    return f"{row}-{SHORT.get(code, code)}"


CASES = [pytest.param(r, c, id=case_id(r, c)) for r in ROWS for c in CODES]


@pytest.mark.parametrize("row,code", CASES)
def test_code_matrix(row: str, code: str) -> None:
    sched, log = setup(row, code)
    sched.run_until_idle(deadline=10 if (row, code) == ("permit", "Wait") else 0.5)
    want = expected(row, code)
    got = sched.results()["default/p"]
    assert got.phase == want.phase, got
    assert got.condition_reason == want.reason
    assert got.condition_message == want.message
    assert got.attempts == (0 if want.phase == "gated" else 1)
    p_calls = [c for c in log if c.pod == "p"]
    for point, plugin in want.ran:
        assert calls(p_calls, point, plugin), f"{plugin}.{point} should have run: {p_calls}"
    for point, plugin in want.not_ran:
        assert not calls(p_calls, point, plugin), f"{plugin}.{point} should not have run: {p_calls}"
    events = [e for e in sched.store.events if e.pod == "default/p"]
    if want.phase == "bound":
        assert [(e.reason, e.message) for e in events] == [
            ("Scheduled", f"Successfully assigned default/p to {got.node}")]
    elif want.phase in ("unschedulable", "error"):
        assert [(e.type, e.reason, e.message) for e in events] == [("Warning", "FailedScheduling", want.message)]
    else:
        assert events == []
    if want.nominated == "":
        assert got.nominated_node_name == ""
    elif want.nominated is not None:
        chosen = got.node or next(c.node for c in p_calls if c.point == "Permit")
        assert got.nominated_node_name == chosen
    if (row, code) == ("permit", "Wait"):
        sched.run_until_idle(deadline=60)
        got = sched.results()["default/p"]
        assert (got.phase, got.condition_reason, got.condition_message) == (
            "unschedulable", "Unschedulable",
            "0/1 nodes are available: 1 rejected due to timeout after waiting 30s at plugin X.")


# RemovePod is only called by preemption's dry run, so it is driven at the Framework level.
@pytest.mark.parametrize("code", CODES, ids=[f"removePod-{SHORT.get(c, c)}" for c in CODES])
def test_remove_pod_matrix(code: str) -> None:
    log: list = []
    x = Scripted("X", log, remove_pod=status_for(code))
    later = Scripted("L", log)
    sched = build({"preFilter": [x, later]}, nodes=[node("n1")])
    fw = sched.frameworks["default-scheduler"]
    victim = pod("victim", node_name="n1")
    info = NodeInfo.of(node("n1"), [victim])
    s = fw.run_pre_filter_extension_remove_pod(CycleState(), pod("p"), PodInfo.of(victim), info)
    if code == "Success":
        assert s.is_success()
        assert [c.plugin for c in calls(log, "RemovePod")] == ["X", "L"]
    else:
        assert s.code is Code.ERROR
        assert s.message() == f'running RemovePod on PreFilter plugin "X": {inner(code)}'
        assert [c.plugin for c in calls(log, "RemovePod")] == ["X"]


def test_prefilter_skip_also_skips_add_and_remove_pod() -> None:
    log: list = []
    x = Scripted("X", log)
    sched = build({"preFilter": [x]}, nodes=[node("n1")])
    fw = sched.frameworks["default-scheduler"]
    state = CycleState()
    state.skip_filter_plugins = {"X"}
    other = PodInfo.of(pod("o"))
    info = NodeInfo.of(node("n1"), [])
    assert fw.run_pre_filter_extension_add_pod(state, pod("p"), other, info).is_success()
    assert fw.run_pre_filter_extension_remove_pod(state, pod("p"), other, info).is_success()
    assert calls(log, "AddPod") == [] and calls(log, "RemovePod") == []
