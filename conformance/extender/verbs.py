"""What the scripted extender answers to each verb, as pure functions of the request and the action.

Each answer also carries the fields of its trace record (docs/scenario.md, "Extenders").
`ExtenderFilterResult` and `ExtenderBindingResult` have an `Error` field, so a scripted `error`
travels there with HTTP 200; `HostPriorityList` and `ExtenderPreemptionResult` have none, so for
prioritize and preempt a scripted `error` is an HTTP 500 whose body is the message (upstream's
client then fails with "failed <verb> with extender at URL <url>, code 500").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .script import Action
from .wire import (BindArgs, Candidate, NodesArgs, PreemptArgs, Victim, binding_result, filter_result,
                   host_priority_list, preemption_result)

Binder = Callable[[str, str, str, str], "str | None"]
NO_BINDER = "the extender server has no binder hook; pass binder= to ExtenderServer or set server.binder"


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes  # JSON with 200, else one line of text
    fields: dict[str, Any]


def error_answer(status: int, message: str, nodes: list[str] | None = None) -> Answer:
    line = " ".join(message.splitlines())
    return Answer(status, line.encode("utf-8") + b"\n", _fields(nodes, "Error", error=line or None, status=status))


def filter_answer(args: NodesArgs, action: Action) -> Answer:
    nodes = list(args.names)
    if action.status != 200:
        return _scripted_status(action, nodes)
    # Reasons for nodes the scheduler did not send would name nodes it never asked about.
    failed = {n: r for n, r in sorted(action.fail.items()) if n in args.names}
    unresolvable = {n: r for n, r in sorted(action.unresolvable.items()) if n in args.names}
    passing = [n for n in nodes if n not in failed and n not in unresolvable]
    return Answer(200, filter_result(args, passing, failed, unresolvable, action.error),
                  _fields(nodes, _code(action.error), failed=failed, unresolvable=unresolvable,
                          error=action.error or None))


def prioritize_answer(args: NodesArgs, action: Action) -> Answer:
    nodes = list(args.names)
    if action.status != 200 or action.error:
        return _scripted_status(action, nodes)
    scores = [(n, action.scores.get(n, 0)) for n in nodes]
    return Answer(200, host_priority_list(scores), _fields(nodes, "Success", scores=dict(scores)))


def bind_answer(args: BindArgs, action: Action, binder: Binder | None) -> Answer:
    nodes = [args.node]
    if action.status != 200:
        return _scripted_status(action, nodes)
    error = action.error or _bind(binder, args)
    return Answer(200, binding_result(error), _fields(nodes, _code(error), error=error or None))


def preempt_answer(args: PreemptArgs, action: Action, key_of: Callable[[Victim], str]) -> Answer:
    """`key_of` names a victim by pod key for the script and the trace (its UID when unknown)."""
    nodes = list(args.candidates)
    if action.status != 200 or action.error:
        return _scripted_status(action, nodes)
    kept = dict(args.candidates)
    if action.victims is not None:
        kept = {node: Candidate(tuple(v for v in args.candidates[node].victims if key_of(v) in keys),
                                args.candidates[node].num_pdb_violations)
                for node, keys in action.victims.items() if node in args.candidates}
    victims = {node: [key_of(v) for v in kept[node].victims] for node in sorted(kept)}
    return Answer(200, preemption_result(kept), _fields(nodes, "Success", victims=victims))


def _bind(binder: Binder | None, args: BindArgs) -> str:
    if binder is None:
        return NO_BINDER
    try:
        return binder(args.namespace, args.name, args.uid, args.node) or ""
    except Exception as exc:  # noqa: BLE001 - a broken hook must fail this bind, not drop the connection
        return f"binder hook raised {type(exc).__name__}: {exc}"


def _scripted_status(action: Action, nodes: list[str]) -> Answer:
    status = 500 if action.status == 200 else action.status
    return error_answer(status, action.error or f"scripted HTTP status {status}", nodes)


def _code(error: str) -> str:
    return "Error" if error else "Success"


def _fields(nodes: list[str] | None, code: str, **extra: Any) -> dict[str, Any]:
    return {"nodes": nodes, "code": code, **extra}


__all__ = ["Answer", "Binder", "NO_BINDER", "bind_answer", "error_answer", "filter_answer", "preempt_answer",
           "prioritize_answer"]
