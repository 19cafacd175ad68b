"""The scheduler's calls to extenders: which pods an extender hears about (one with managedResources only
those that request or limit one of them: extender.go IsInterested), and that each call is one the config
names, in upstream's wire format (the suite's extender server reads every request)."""

from __future__ import annotations

from generators.pools import GPU
from reference.types import Pod

from ..recipes.first_pod import extender_rejections
from ..recipes.situations import Situation
from .attempts import extender_config, reached_reserve
from .base import invariant
from .run import Run


def interested(managed: set[str], pod: Pod) -> bool:
    """`IsInterested`: no managed resources, or some (init) container requests or limits one."""
    return not managed or any(managed.intersection(c.requests) or managed.intersection(c.limits)
                              for c in (*pod.containers, *pod.init_containers))


def _managed(ext) -> set[str]:
    return {r.name for r in ext.managed_resources}


def _named(run: Run) -> dict[str, object]:
    """The extenders the trace can show, by the name their urlPrefix ends in (ext-0, ...)."""
    out = {}
    for ext in run.config.extenders:
        name = ext.url_prefix.rstrip("/").rsplit("/", 1)[-1]
        if extender_config(run, name) is ext:
            out[name] = ext
    return out


@invariant("extender-interest",
           "An extender with managedResources is asked (filter, prioritize, preempt, bind) only about pods "
           "that request or limit one of them; an interested filter extender is asked in every attempt that "
           "reached Reserve.",
           "extender.go HTTPExtender.IsInterested; schedule_one.go findNodesThatPassExtenders, "
           "prioritizeNodes, extendersBinding; preemption.go callExtenders (spec §4.2)",
           requires=("probes", "extenders"),
           # ext-0 manages GPUs, which about one drawn pod in ten requests: most pods must not reach it.
           situation=Situation({"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extender_rejections,
                               extenders=({"filterVerb": "filter", "managedResources": [{"name": GPU}]},),
                               min_nodes=2, max_pods=4),
           rules=("extender-interest",))
def extender_interest(run: Run) -> None:
    extenders = _named(run)
    if not any(_managed(e) for e in extenders.values()):
        return
    for key in run.live_pods:
        pod = run.pod_objects.get(key)
        if pod is None:
            continue
        for r in run.extender_records(key):
            ext = extenders.get(str(r.get("extender", "")))
            if ext is None or not _managed(ext):
                continue
            run.exercise()
            if not interested(_managed(ext), pod):
                raise run.violation(f"{r.get('extender')} was asked ({r['point']}) about {key}, which requests "
                                    f"none of its managed resources ({', '.join(sorted(_managed(ext)))})",
                                    pod=key, plugin=str(r.get("extender")), expected="not asked",
                                    actual=r["point"], records=(r,))
        for attempt in run.attempts(key):
            if not reached_reserve(run, key, attempt):
                continue
            asked = {str(r.get("extender")) for r in run.extender_records(key, "filter", attempt)}
            for name, ext in extenders.items():
                if not ext.filter_verb or not _managed(ext) or not interested(_managed(ext), pod):
                    continue
                run.exercise()
                if name not in asked:
                    raise run.violation(f"attempt {attempt} of {key} reached Reserve without asking {name}, "
                                        "whose managed resources it requests", pod=key, plugin=name,
                                        expected=f"a filter call to {name}", actual="none")


def _verbs(ext) -> dict[str, str]:
    """URL path verb -> the verb it is configured as."""
    return {v: kind for kind, v in (("filter", ext.filter_verb), ("prioritize", ext.prioritize_verb),
                                     ("preempt", ext.preempt_verb), ("bind", ext.bind_verb)) if v}


@invariant("extender-requests-well-formed",
           "The scheduler calls an extender only at the verbs its config names (POST <urlPrefix>/<verb>), and "
           "in upstream's wire format: the suite's extender server can read every request (it refuses none as "
           "malformed).",
           "extender.go HTTPExtender.send and its callers (Filter, Prioritize, ProcessPreemption, Bind); "
           "extender/v1 types.go (spec §4.3, §4.4)",
           requires=("extenders",),
           situation=Situation({"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extender_rejections,
                               extenders=({"filterVerb": "filter"},), min_nodes=2),
           rules=("extender-wire-format",))
def extender_requests_well_formed(run: Run) -> None:
    extenders = _named(run)
    for r in run.outcome.trace:
        point = str(r.get("point", ""))
        ext = extenders.get(str(r.get("extender", "")))
        if not point.startswith("extender.") or ext is None:
            continue
        run.exercise()
        verb = point.removeprefix("extender.")
        if verb not in _verbs(ext):
            raise run.violation(f"the scheduler called {r.get('extender')} at {verb!r}, a verb its config does "
                                f"not name ({', '.join(_verbs(ext)) or 'none'})", plugin=str(r.get("extender")),
                                pod=str(r.get("pod", "")), expected=sorted(_verbs(ext)), actual=verb,
                                records=(r,))
        if not r.get("pod") and r.get("status") == 400:
            raise run.violation(f"{r.get('extender')} could not read the scheduler's {verb} request: "
                                f"{r.get('error')}", plugin=str(r.get("extender")),
                                expected="a request in upstream's wire format", actual=r.get("error"),
                                records=(r,))
