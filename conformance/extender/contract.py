"""The extender wire contract, checked on one exchange (a request the scheduler sent, the answer it got).

Answers are decoded as kube-scheduler decodes them (`reference.extender_wire`, upstream's
`extender/v1` types through encoding/json); on top of the format, what an answer may say about the
request: a filter result names only nodes it was given, never a node both as passing and failed,
prioritize scores stay in [0, MaxExtenderPriority], a preempt answer only keeps candidates it was
offered, with victims from those candidates. Sources: k8s.io/kube-scheduler/extender/v1 types.go,
pkg/scheduler/extender.go (spec §4).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.extender_wire import (MAX_EXTENDER_PRIORITY, MIN_EXTENDER_PRIORITY, ExtenderError,
                                     decode_binding_result, decode_filter_result, decode_host_priorities,
                                     decode_preemption_result)

from .wire import RequestError, extender_args, preemption_args


@dataclass
class Exchange:
    """One call of a user's extender through the suite's proxy."""

    extender: str                # the extender's urlPrefix
    verb: str                    # filter, prioritize, preempt or bind (the URL's last segment)
    kind: str                    # which of the four the config says this verb is
    request: bytes
    status: int | None = None    # HTTP status; None: no answer (down, timed out)
    response: bytes = b""
    error: str = ""              # transport error text
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    path: str = ""               # the proxy path the scheduler called (`/<index>/<verb>`): its error messages name it
    ignorable: bool = False      # the config entry's `ignorable`

    @property
    def pod(self) -> str:
        try:
            doc = json.loads(self.request)
        except ValueError:
            return ""
        if self.kind == "bind":
            return f"{doc.get('PodNamespace', '')}/{doc.get('PodName', '')}"
        meta = ((doc.get("Pod") or {}).get("metadata") or {})
        return f"{meta.get('namespace', '')}/{meta.get('name', '')}"

    def to_dict(self) -> dict[str, Any]:
        return {"extender": self.extender, "verb": self.verb, "kind": self.kind, "pod": self.pod,
                "request": _text(self.request), "status": self.status, "response": _text(self.response),
                "error": self.error, "seconds": round(self.seconds, 3), "problems": list(self.problems),
                "path": self.path, "ignorable": self.ignorable}


def _text(body: bytes, limit: int = 4000) -> str:
    text = body.decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} bytes)"


def check(exchange: Exchange) -> list[str]:
    """What is wrong with the extender's side of the exchange (empty: it kept the contract)."""
    if exchange.status is None:
        return [f"no answer: {exchange.error or 'the connection failed'}"]
    if exchange.status != 200:
        return [f"HTTP {exchange.status} (the scheduler reads only 200 answers)"]
    try:
        return _CHECKS[exchange.kind](exchange.request, exchange.response)
    except ExtenderError as exc:
        return [f"the answer is not a {_TYPE[exchange.kind]} as kube-scheduler decodes it: {exc}"]
    except (RequestError, ValueError) as exc:
        return [f"the suite could not read the scheduler's request ({exc}); no contract checked"]


def _filter(request: bytes, response: bytes) -> list[str]:
    given = set(extender_args(json.loads(request)).names)
    result = decode_filter_result(response)
    if result.error:
        return []  # an extender error: the scheduler fails the attempt (or skips an ignorable extender)
    passing = [n.name for n in result.nodes or ()] if result.nodes is not None else list(result.node_names or ())
    problems = []
    unknown = sorted(set(passing) - given)
    if unknown:
        problems.append(f"the filter result names nodes it was not given: {', '.join(unknown)}")
    for label, failed in (("FailedNodes", result.failed_nodes), ("FailedAndUnresolvableNodes",
                                                                 result.failed_and_unresolvable_nodes)):
        both = sorted(set(failed or {}) & set(passing))
        if both:
            problems.append(f"{label} also lists passing nodes: {', '.join(both)}")
    both = sorted(set(result.failed_nodes or {}) & set(result.failed_and_unresolvable_nodes or {}))
    if both:
        problems.append(f"FailedNodes and FailedAndUnresolvableNodes both list: {', '.join(both)}")
    return problems


def _prioritize(request: bytes, response: bytes) -> list[str]:
    given = set(extender_args(json.loads(request)).names)
    problems = []
    for host, score in decode_host_priorities(response):
        if not MIN_EXTENDER_PRIORITY <= score <= MAX_EXTENDER_PRIORITY:
            problems.append(f"score {score} for {host} is outside [{MIN_EXTENDER_PRIORITY}, {MAX_EXTENDER_PRIORITY}]")
        if host not in given:
            problems.append(f"scores node {host}, which it was not given")
    return problems


def _preempt(request: bytes, response: bytes) -> list[str]:
    offered = preemption_args(json.loads(request)).candidates
    problems = []
    for node, victims in decode_preemption_result(response).items():
        if node not in offered:
            problems.append(f"the preemption result keeps node {node}, which was not a candidate")
            continue
        uids = {v.uid for v in offered[node].victims}
        extra = sorted(uid for uid in (victims.pods if victims else ()) if uid not in uids)
        if extra:
            problems.append(f"victims on {node} that were not offered: {', '.join(map(str, extra))}")
    return problems


def _bind(request: bytes, response: bytes) -> list[str]:
    decode_binding_result(response)
    return []


_CHECKS = {"filter": _filter, "prioritize": _prioritize, "preempt": _preempt, "bind": _bind}
_TYPE = {"filter": "v1.ExtenderFilterResult", "prioritize": "v1.HostPriorityList",
         "preempt": "v1.ExtenderPreemptionResult", "bind": "v1.ExtenderBindingResult"}


def verb_kinds(entry: Mapping[str, Any]) -> dict[str, str]:
    """An extenders[] entry's verbs -> which call each is."""
    return {entry[key]: kind for key, kind in (("filterVerb", "filter"), ("prioritizeVerb", "prioritize"),
                                               ("preemptVerb", "preempt"), ("bindVerb", "bind")) if entry.get(key)}


__all__ = ["Exchange", "check", "verb_kinds"]
