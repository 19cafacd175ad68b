"""`Run`: one scenario, the outcome a backend produced, and the facts invariants derive from both."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator, Mapping

from reference import codec
from reference.probe import PROBE_NAMES, ScriptError, parse_script
from reference.probe.script import Script
from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario, pod_key

from ..core import scenario_config
from ..core.outcome import Outcome
from .base import Violation
from .cluster import Cluster

Record = Mapping[str, Any]
DEFAULT_PROFILE = "default-scheduler"
# Upstream rejects, per point, on these codes (spec §1.2); Skip is only meaningful where listed.
REJECTIONS = {"Unschedulable", "UnschedulableAndUnresolvable", "Pending"}


@dataclass
class Run:
    scenario: Scenario
    outcome: Outcome
    capabilities: frozenset[str] = frozenset()
    # Set by a check when its rule's precondition held and the decisive event happened: a pass
    # where this stays False was vacuous (counted per invariant, see the detection-power issue).
    exercised: bool = field(default=False, compare=False)
    invariant: str = field(default="", compare=False)  # the ID of the invariant being checked

    def exercise(self) -> None:
        """Mark this run as one that exercised the invariant being checked."""
        self.exercised = True

    @contextlib.contextmanager
    def checking(self, invariant_id: str) -> Iterator[None]:
        """While `invariant_id` checks this run: `violation()` names it."""
        outer, self.invariant = self.invariant, invariant_id
        try:
            yield
        finally:
            self.invariant = outer

    def violation(self, message: str, **details: Any) -> Violation:
        """The Violation of the invariant being checked (`Violation`'s keyword details)."""
        return Violation(self.invariant, message, **details)

    # --- the scenario ---------------------------------------------------------------------------

    @cached_property
    def node_names(self) -> list[str]:
        return self.scenario.node_names()

    @cached_property
    def cluster(self) -> Cluster:
        """The cluster at each point of the run (the scenario's, changed by the applied timeline events)."""
        return Cluster(self)

    @cached_property
    def pods(self) -> dict[str, Mapping[str, Any]]:
        """Workload pod key -> manifest, with the pending pods the applied timeline events created."""
        out = {pod_key(m): m for m in self.scenario.workload}
        if self.outcome.timeline:
            out.update((pod_key(m), m) for m in self.cluster.created_pods if pod_key(m) not in out)
        return out

    @cached_property
    def live_pods(self) -> list[str]:
        """Workload pods neither the scheduler nor the timeline deleted (their story ends early)."""
        ended = set(self.outcome.deleted) | (self.cluster.deleted_pods if self.outcome.timeline else set())
        return [k for k in self.pods if k not in ended]

    @cached_property
    def pod_objects(self):
        return {k: codec.pod_from_manifest(m) for k, m in self.pods.items()}

    def profile_of(self, pod: str) -> str:
        return self.pod_objects[pod].scheduler_name or DEFAULT_PROFILE

    def script(self, pod: str) -> Script | None:
        """The pod's parsed probe script; None when it is malformed."""
        text = ((self.pods[pod].get("metadata") or {}).get("annotations") or {}).get(PROBE_SCRIPT_ANNOTATION)
        try:
            return parse_script(text)
        except ScriptError:
            return None

    # --- the config, as the reference expands it -----------------------------------------------

    @cached_property
    def profiles(self):
        return scenario_config.load(self.scenario.config)[1]

    @cached_property
    def config(self):
        return scenario_config.load(self.scenario.config)[0]

    def plugins_at(self, pod: str, point: str) -> list[str]:
        """Configured plugin names at `point` (v1 field name, e.g. `reserve`) for the pod's profile."""
        profile = self.profiles.get(self.profile_of(pod))
        return profile.names(point) if profile is not None else []

    def probes_at(self, pod: str, point: str) -> list[str]:
        return [n for n in self.plugins_at(pod, point) if n in PROBE_NAMES]

    def weight(self, pod: str, plugin: str) -> int:
        return self.profiles[self.profile_of(pod)].score_weights.get(plugin, 1)

    def score_extensions(self, pod: str, plugin: str) -> bool:
        args = self.profiles[self.profile_of(pod)].plugin_args.get(plugin)
        return bool(getattr(args, "score_extensions", False))

    # --- the trace --------------------------------------------------------------------------------

    def records(self, pod: str, attempt: int | None = None, point: str | None = None) -> list[Record]:
        return self.outcome.calls(pod=pod, attempt=attempt, point=point)

    def attempts(self, pod: str) -> list[int]:
        """Probe cycle numbers with at least one record, ascending, without the PreEnqueue-only 0."""
        return [a for a in self.outcome.attempts_of(pod) if a > 0]

    def probe_records(self, pod: str, attempt: int) -> list[Record]:
        return [r for r in self.records(pod, attempt) if "plugin" in r]

    def extender_records(self, pod: str, verb: str | None = None, attempt: int | None = None) -> list[Record]:
        """Extender calls for the pod; with `attempt`, those made between that attempt's first probe record
        and the next attempt's (extender calls carry no attempt of their own)."""
        lo, hi = self._window(pod, attempt) if attempt is not None else (-1, float("inf"))
        return [r for r in self.outcome.trace if r.get("pod") == pod and str(r.get("point", "")).startswith(
            "extender.") and (verb is None or r["point"] == f"extender.{verb}") and lo <= r["seq"] < hi]

    def _window(self, pod: str, attempt: int) -> tuple[float, float]:
        firsts: dict[int, int] = {}
        for r in self.outcome.trace:
            if r.get("pod") == pod and r.get("attempt", 0) > 0 and r.get("point") != "PreEnqueue":
                firsts.setdefault(r["attempt"], r["seq"])
        lo = firsts.get(attempt, float("inf"))
        later = [s for a, s in firsts.items() if a > attempt]
        return lo, min(later) if later else float("inf")

    def chosen_node(self, pod: str, attempt: int) -> str | None:
        """The node the attempt reserved (first Reserve/Permit/.. record with a node), if it got that far;
        without such a probe, the node the pod was bound to when this attempt bound it."""
        for r in self.probe_records(pod, attempt):
            if r["point"] in ("Reserve", "Unreserve", "Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind"):
                return r.get("node")
        if self.final_attempt_bound(pod, attempt):
            bound = self.bound_in(pod)
            return bound[-1].get("node") if bound else None
        return None

    def bound_in(self, pod: str) -> list[Record]:
        return [b for b in self.outcome.bindings if b.get("pod") == pod]

    def binding_applied_yet_failed(self, pod: str) -> bool:
        """Whether a `timeout-applied` fault (docs/scenario.md, Faults) answered `pod`'s binding."""
        timeline = self.scenario.timeline
        return any(f.get("fault") == "fail" and f.get("detail") == "bind" and f.get("pod") == pod
                   and isinstance(f.get("index"), int) and 0 <= f["index"] < len(timeline)
                   and isinstance(timeline[f["index"]], dict)
                   and timeline[f["index"]].get("error") == "timeout-applied" for f in self.outcome.faults)

    def final_attempt_bound(self, pod: str, attempt: int) -> bool:
        """Whether the pod ended bound and `attempt` is its last traced attempt (and its binding succeeded:
        not a binding the server applied but answered with a timeout, which failed for the scheduler)."""
        result = self.outcome.pods.get(pod)
        attempts = self.attempts(pod)
        if not (result and result.phase == "bound" and attempts and attempts[-1] == attempt):
            return False
        if self.binding_applied_yet_failed(pod):
            return False
        if not ("queue-attempts" in self.capabilities and result.attempts and result.attempts > attempt):
            return True
        # The queue counted more attempts than the probes numbered: the pod bound in a later attempt no probe
        # took part in (e.g. one feasible node left, so no Score probe ran), not in this one. Unless no probe
        # runs at PreFilter: then the probes number only the attempts they took part in (the earlier ones
        # may have stopped before them), and a PostBind in this attempt shows that it bound.
        return not self.probes_at(pod, "preFilter") and bool(self.records(pod, attempt, "PostBind"))


def cut_short(run: Run, pod: str, attempt: int) -> bool:
    """The deadline may have stopped this attempt before it ended."""
    phase = run.outcome.pods[pod].phase if pod in run.outcome.pods else "pending"
    return attempt == run.attempts(pod)[-1] and phase in ("waiting", "pending")


def first_stop_passed(records: list[Record], stops) -> int | None:
    """Index of the first record with `stops(code)` that another record still follows, else None."""
    return next((i for i, r in enumerate(records[:-1]) if stops(r.get("code"))), None)


def order_index(names: Iterable[str]) -> dict[str, int]:
    return {n: i for i, n in enumerate(names)}


def is_rejection(code: str | None) -> bool:
    return code in REJECTIONS


__all__ = ["DEFAULT_PROFILE", "Record", "Run", "cut_short", "first_stop_passed", "is_rejection",
           "order_index"]
