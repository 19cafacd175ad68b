"""Across extension points: the loop each `Run*` runs, where a failing status ends the attempt, and
which profile's plugins a pod's calls come from."""

from __future__ import annotations

from reference.probe import PROBE_NAMES

from ..recipes.first_pod import failure_anywhere, loop_stop
from ..recipes.situations import Situation
from .attempts import cut_short, may_be_nominated
from .base import invariant
from .run import REJECTIONS, Record, Run

_POINTS = ("preFilter", "filter", "preScore", "score", "reserve", "preBind", "bind")

# The config point (v1 field name) each traced point belongs to.
CONFIG_POINT = {
    "PreEnqueue": "preEnqueue", "PreFilter": "preFilter", "AddPod": "preFilter", "RemovePod": "preFilter",
    "Filter": "filter", "PostFilter": "postFilter", "PreScore": "preScore", "Score": "score",
    "NormalizeScore": "score", "Reserve": "reserve", "Unreserve": "reserve", "Permit": "permit", "Allow": "permit",
    "Reject": "permit", "PreBindPreFlight": "preBind", "PreBind": "preBind", "Bind": "bind", "PostBind": "postBind",
}
# Codes after which each point's loop goes on to its next plugin (spec §1.2); every other code stops it.
CONTINUES = {
    "PreFilter": {"Success", "Skip", "Unschedulable"},
    "PostFilter": {"Unschedulable", "Pending"},
    "PreScore": {"Success", "Skip"},
    "Reserve": {"Success"},
    "Permit": {"Success", "Wait"},
    "PreBindPreFlight": {"Success", "Skip"},
    "PreBind": {"Success"},
    "Bind": {"Skip"},
    "PostBind": None,  # no status: every plugin runs
}


def _loop_plugins(run: Run, pod: str, attempt: int, point: str) -> list[str]:
    """The plugins the point's loop walks in this attempt, in configured order."""
    plugins = run.plugins_at(pod, CONFIG_POINT[point])
    if point == "PreBind":
        skipped = {r["plugin"] for r in run.records(pod, attempt, "PreBindPreFlight") if r.get("code") == "Skip"}
        plugins = [p for p in plugins if p not in skipped]
    return plugins


def _prefilter_emptied(run: Run, pod: str, records: list[Record], upto: int) -> bool | None:
    """Whether the PreFilterResults up to record `upto` intersect to nothing; None when a plugin the
    trace cannot see may have returned a result too."""
    plugins = run.plugins_at(pod, "preFilter")
    if not all(p in PROBE_NAMES for p in plugins[:plugins.index(records[upto]["plugin"])]):
        return None
    allowed: set[str] | None = None
    for r in records[:upto + 1]:
        if r.get("code") == "Success" and "result" in r:
            allowed = set(r["result"]) if allowed is None else allowed & set(r["result"])
    return allowed is not None and not allowed


@invariant("plugins-run-until-stop",
           "At each extension point the configured plugins run in order, once each, and the loop goes on to the "
           "next plugin until one returns a code that stops it: PreFilter goes on after Success, Skip and "
           "Unschedulable; PostFilter after Unschedulable and Pending; PreScore and PreBindPreFlight after Success "
           "and Skip; Reserve and PreBind after Success; Permit after Success and Wait; Bind after Skip; PostBind "
           "never stops. PreBind leaves out the plugins that returned Skip at PreBindPreFlight. An "
           "attempt that went on past Reserve, Permit or PreBind ran that loop.",
           "framework.go RunPreFilterPlugins, RunPostFilterPlugins, RunPreScorePlugins, RunReservePluginsReserve, "
           "RunPermitPlugins, RunPreBindPreFlights, RunPreBindPlugins, RunBindPlugins, RunPostBindPlugins; "
           "schedule_one.go schedulingCycle (Reserve, then Permit), bindingCycle (PreBind before binding) "
           "(spec §1.2, §2.3-§2.17)",
           situation=Situation(
               {**{p: ["Probe0", "Probe1"] for p in ("preFilter", "postFilter", "preScore", "score", "reserve", "permit",
                                                     "preBind", "bind", "postBind")}, "filter": ["Probe2"]},
               loop_stop, min_nodes=2),
           rules=("code-matrix-prefilter", "code-matrix-postfilter", "code-matrix-prescore-score",
                  "code-matrix-reserve-permit", "code-matrix-binding", "prefilter-unschedulable-continues",
                  "prefilter-result-intersection", "postfilter-loop", "reserve-short-circuit",
                  "permit-wait-continues", "preflight-skip-drops-prebind", "prebind-stops-no-bind",
                  "bind-first-non-skip", "postbind-iff-bound", "reserve-failure-ends-cycle"))
def plugins_run_until_stop(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            short = cut_short(run, pod, attempt)
            for point, goes_on in CONTINUES.items():
                records = run.records(pod, attempt, point)
                if records:
                    _check_loop(run, pod, attempt, point, goes_on, records, short)
            _check_loops_entered(run, pod, attempt)


# Points whose loop the attempt must have run once it went on past them, and the points that show it did (the
# binding itself shows it too). Bind is left out (a binder extender binds without it), PreBindPreFlight too
# (behind the NominatedNodeNameForExpectation gate).
PASSED_BY = {
    "Reserve": ("Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind", "extender.bind"),
    "Permit": ("PreBindPreFlight", "PreBind", "Bind", "PostBind", "extender.bind"),
    "PreBind": ("Bind", "PostBind", "extender.bind"),
}


def _check_loops_entered(run: Run, pod: str, attempt: int) -> None:
    """A loop the attempt went on past started with its first plugin (when that one is a probe)."""
    records = [*run.probe_records(pod, attempt), *run.extender_records(pod, "bind", attempt)]
    bound = run.final_attempt_bound(pod, attempt)
    for point, later in PASSED_BY.items():
        plugins = _loop_plugins(run, pod, attempt, point)
        if not plugins or plugins[0] not in PROBE_NAMES:
            continue
        past = next((r for r in records if r["point"] in later), None)
        if past is None and not bound:
            continue
        run.exercise()
        if not any(r["point"] == point and r.get("plugin") == plugins[0] for r in records):
            what = f"{past['point']} ran" if past is not None else "the pod was bound"
            raise run.violation(f"{plugins[0]} did not run at {point} although {what} after it (attempt "
                                f"{attempt}): the {point} loop was left out", pod=pod, plugin=plugins[0],
                                expected=plugins, actual=[], records=tuple(r for r in (past,) if r))


def _check_loop(run: Run, pod: str, attempt: int, point: str, goes_on: set[str] | None, records: list[Record],
                short: bool) -> None:
    plugins = _loop_plugins(run, pod, attempt, point)
    index = {p: i for i, p in enumerate(plugins)}
    seen: dict[str, int] = {}
    for k, r in enumerate(records):
        name = r["plugin"]
        if name in seen or name not in index:
            what = "twice" if name in seen else ("although it returned Skip at PreBindPreFlight" if point == "PreBind"
                                                 else "although the profile does not configure it there")
            raise run.violation(f"{name} ran at {point} {what} (attempt {attempt})", pod=pod,
                                plugin=name, expected=plugins, actual=[x["plugin"] for x in records],
                                records=tuple(records))
        if k and index[name] < index[records[k - 1]["plugin"]]:
            raise run.violation(f"{name} ran at {point} before {records[k - 1]['plugin']}, "
                                "against the configured order", pod=pod, plugin=name, expected=plugins,
                                actual=[x["plugin"] for x in records], records=tuple(records))
        seen[name] = k
    for r in records:
        i = index[r["plugin"]]
        prev = plugins[i - 1] if i else None
        if prev in PROBE_NAMES and prev not in seen:
            raise run.violation(f"{r['plugin']} ran at {point} but {prev}, configured before "
                                f"it, did not (attempt {attempt})", pod=pod, plugin=prev, expected=plugins[:i + 1],
                                actual=[x["plugin"] for x in records], records=tuple(records))
    for k, r in enumerate(records):
        i = index[r["plugin"]]
        nxt = plugins[i + 1] if i + 1 < len(plugins) else None
        if nxt not in PROBE_NAMES:
            continue  # the last plugin, or one the trace cannot see decides what follows
        stops = goes_on is not None and r.get("code") not in goes_on
        if point == "PreFilter" and not stops and r.get("code") == "Success" and "result" in r:
            emptied = _prefilter_emptied(run, pod, records, k)
            if emptied is None:
                continue
            stops = emptied
        ran_next = nxt in seen
        run.exercise()
        if stops and ran_next:
            raise run.violation(f"{nxt} ran at {point} after {r['plugin']} returned "
                                f"{r.get('code')}, which stops the loop (attempt {attempt})", pod=pod, plugin=nxt,
                                status=str(r.get("code")), actual=[x["plugin"] for x in records], records=tuple(records))
        if not stops and not ran_next and not short:
            raise run.violation(f"{nxt} did not run at {point} after {r['plugin']} returned "
                                f"{r.get('code') or 'nothing'}, which goes on to the next plugin (attempt {attempt})",
                                pod=pod, plugin=nxt, status=str(r.get("code", "")), expected=plugins[i:],
                                actual=[x["plugin"] for x in records], records=tuple(records))


# --- failure-ends-attempt -------------------------------------------------------------------------

FILTERING = ("Filter", "AddPod", "RemovePod")
# What must not follow each kind of failure within the attempt.
AFTER_ERROR_BEFORE_SCORING = ("PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "Permit",
                              "PreBindPreFlight", "PreBind", "Bind", "PostBind", "extender.filter",
                              "extender.prioritize", "extender.bind")
AFTER_SCORING_ERROR = ("NormalizeScore", "Reserve", "Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind",
                       "extender.prioritize", "extender.bind")
AFTER_RESERVE_FAILURE = ("Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind", "extender.bind")
AFTER_BINDING_FAILURE = ("PreBind", "Bind", "PostBind", "extender.bind")


def _first_failure(run: Run, pod: str, attempt: int, records: list[Record]
                   ) -> tuple[Record, tuple[str, ...], str] | None:
    """The attempt's first status that ends it: (record, points that must not follow, its kind)."""
    prefilter_rejected: Record | None = None
    allowed: set[str] | None = None
    # Filter errors decide only where every PostFilter plugin is traced (DefaultPreemption's dry run
    # calls Filter too) and the pod has no nominated node (an error there only sends upstream on).
    filter_errors_decide = all(p in PROBE_NAMES for p in run.plugins_at(pod, "postFilter")) \
        and not may_be_nominated(run, pod, attempt)
    filtering_over = False
    for r in records:
        point, code = r["point"], r.get("code")
        if point == "PreFilter":
            if code in ("Error", "Pending", "Wait"):
                return r, (*FILTERING, *AFTER_ERROR_BEFORE_SCORING), "error"
            if code in ("Unschedulable", "UnschedulableAndUnresolvable"):
                prefilter_rejected = prefilter_rejected or r
            if code == "Success" and "result" in r:
                allowed = set(r["result"]) if allowed is None else allowed & set(r["result"])
                if not allowed:
                    prefilter_rejected = prefilter_rejected or r
            continue
        if prefilter_rejected is not None:
            break
        if point in ("PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve"):
            filtering_over = True
        if point in FILTERING and not filtering_over and filter_errors_decide and code not in REJECTIONS \
                and code != "Success":
            return r, AFTER_ERROR_BEFORE_SCORING, "error"
        if point == "PreScore" and code not in ("Success", "Skip"):
            return r, ("Score", *AFTER_SCORING_ERROR), "error"
        if point == "Score" and code != "Success":
            return r, AFTER_SCORING_ERROR, "error"
        if point == "NormalizeScore" and code != "Success":
            return r, AFTER_SCORING_ERROR[1:], "error"  # other plugins normalize in parallel
        if point == "Reserve" and code != "Success":
            return r, AFTER_RESERVE_FAILURE, "reserve"
        if point == "PreBindPreFlight" and code not in ("Success", "Skip"):
            return r, AFTER_BINDING_FAILURE, "binding"
        if point == "PreBind" and code != "Success":
            return r, AFTER_BINDING_FAILURE[1:], "binding"
    if prefilter_rejected is not None:
        return prefilter_rejected, (*FILTERING, *AFTER_ERROR_BEFORE_SCORING[1:]), "prefilter-rejected"
    return None


@invariant("failure-ends-attempt",
           "A status that fails the attempt ends it: after a PreFilter error nothing else runs, after a PreFilter "
           "rejection (or an empty PreFilterResult intersection) only PostFilter; after a Filter error no PostFilter, "
           "scoring or Reserve; after a PreScore, Score or NormalizeScore failure no Reserve; after a Reserve failure "
           "no Permit; after a PreBindPreFlight or PreBind failure no Bind; and the attempt does not bind the pod.",
           "schedule_one.go schedulingCycle, schedulePod, findNodesThatFitPod, prioritizeNodes, bindingCycle; "
           "framework.go Run* (spec §1.2, §2.3-§2.16, §3.1, §3.3)",
           situation=Situation({p: ["Probe0", "Probe1"] for p in _POINTS}, failure_anywhere, min_nodes=2,
                               score_extensions=("Probe0",)),
           rules=("code-matrix-prefilter", "code-matrix-filter", "code-matrix-prescore-score",
                  "code-matrix-binding", "prefilter-unschedulable-continues", "prefilter-rejection-no-filter",
                  "add-remove-pod-error", "filter-error-fails-cycle", "postfilter-only-on-fit-error",
                  "prescore-error", "score-error", "reserve-failure-ends-cycle", "preflight-failure",
                  "prebind-stops-no-bind"))
def failure_ends_attempt(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = sorted((*run.probe_records(pod, attempt), *run.extender_records(pod, attempt=attempt)),
                             key=lambda r: r["seq"])
            found = _first_failure(run, pod, attempt, records)
            if found is None:
                continue
            failure, forbidden, kind = found
            run.exercise()
            # After a PreFilter rejection, DefaultPreemption's dry run may call Filter, AddPod and RemovePod.
            dry_run = kind == "prefilter-rejected" and not all(p in PROBE_NAMES for p in run.plugins_at(
                pod, "postFilter"))
            after = [r for r in records if r["seq"] > failure["seq"] and r["point"] in forbidden
                     and not (dry_run and r["point"] in FILTERING)]
            if after:
                raise run.violation(f"{after[0]['point']} ran after {failure['point']} returned "
                                    f"{failure.get('code') or 'an empty PreFilterResult'} (attempt {attempt})", pod=pod,
                                    plugin=str(failure.get("plugin", "")), status=str(failure.get("code", "")),
                                    expected=f"nothing of {', '.join(forbidden)}", actual=after[0]["point"],
                                    records=(failure, *after[:3]))
            if run.final_attempt_bound(pod, attempt):
                raise run.violation(f"the attempt bound the pod although {failure['point']} "
                                    f"returned {failure.get('code')} (attempt {attempt})", pod=pod,
                                    plugin=str(failure.get("plugin", "")), status=str(failure.get("code", "")),
                                    expected="no binding", actual=run.bound_in(pod)[-1].get("node"), records=(failure,))


# --- calls-match-profile --------------------------------------------------------------------------

@invariant("calls-match-profile",
           "Every plugin call for a pod is made by a plugin its own profile (spec.schedulerName) configures at "
           "that extension point, NormalizeScore only for a Score plugin with score extensions; a pod whose "
           "schedulerName names no profile is never attempted nor bound, one that names a profile is "
           "attempted.",
           "schedule_one.go frameworkForPod, ScheduleOne; framework.go NewFramework, RunScorePlugins "
           "(spec §2.0, §2.8, §5.3)",
           focus={"profiles": 3, "probes": 3, "default_plugins": False},
           rules=("profile-by-scheduler-name", "plugins-per-point", "normalize-iff-extensions"))
def calls_match_profile(run: Run) -> None:
    for pod in run.live_pods:
        records = [r for r in run.records(pod) if "plugin" in r]
        if run.profile_of(pod) not in run.profiles:
            run.exercise()
            if records or run.bound_in(pod):
                raise run.violation(f"the pod names scheduler {run.profile_of(pod)!r}, which no "
                                    "profile is, but it was scheduled", pod=pod, expected="no calls and no binding",
                                    actual=(records[:1] or run.bound_in(pod)[:1]), records=tuple(records[:3]))
            continue
        _attempted(run, pod, records)
        probes = {r["plugin"] for r in records}
        if len(run.profiles) > 1 or any(p not in run.plugins_at(pod, CONFIG_POINT[point])
                                        for p in probes for point in CONFIG_POINT):
            run.exercise()  # some call was possible that the profile does not allow
        for r in records:
            point = CONFIG_POINT.get(r["point"])
            if point is None:
                continue
            if r["plugin"] not in run.plugins_at(pod, point):
                raise run.violation(f"{r['plugin']} was called at {r['point']} although profile "
                                    f"{run.profile_of(pod)!r} does not configure it at {point}", pod=pod,
                                    plugin=r["plugin"], expected=run.plugins_at(pod, point), actual=r["plugin"],
                                    records=(r,))
            if r["point"] == "NormalizeScore" and not run.score_extensions(pod, r["plugin"]):
                raise run.violation(f"{r['plugin']} was called at NormalizeScore although it has "
                                    "no score extensions", pod=pod, plugin=r["plugin"], records=(r,))


def _attempted(run: Run, pod: str, records: list[Record]) -> None:
    """A pod naming a profile is taken by it: by the end of a virtual-time run it was attempted, held
    gated or dropped (being deleted), unless an event created it too late (a restart re-queues every pod,
    a vanished pod reads pending)."""
    result = run.outcome.pods.get(pod)
    if "virtual-time" not in run.capabilities or result is None or result.phase != "pending" \
            or result.attempts or records or run.pod_objects[pod].deletion_timestamp is not None \
            or any(f.get("fault") in ("restart", "vanish") for f in run.outcome.faults):
        return
    released = run.cluster.released(pod) if run.outcome.timeline else 0
    if released and run.cluster.times[released] >= run.scenario.deadline - 1:
        return
    raise run.violation(f"the pod names profile {run.profile_of(pod)!r} but was never attempted", pod=pod,
                        expected="an attempt by its profile", actual="pending, no attempt")

