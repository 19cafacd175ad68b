"""Mirrors pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go."""

from __future__ import annotations

from ..events import TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ..interfaces import PreEnqueuePlugin
from ..status import SUCCESS, Code, Status
from ..types import Pod
from .hint_util import QUEUE

NAME = "SchedulingGates"


def gates_status(pod: Pod) -> Status:
    """UAU while any gate remains; the gate list is rendered like Go's `%v` of a slice."""
    if not pod.scheduling_gates:
        return SUCCESS
    return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                      f"waiting for scheduling gates: [{' '.join(pod.scheduling_gates)}]")


class SchedulingGates(PreEnqueuePlugin):
    NAME = NAME

    def pre_enqueue(self, pod: Pod) -> Status:
        return gates_status(pod)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """The pod's own gates removed; PreEnqueue runs again when it moves."""
        return [ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED),
                                     is_schedulable_after_gates_eliminated)]


def is_schedulable_after_gates_eliminated(pod: Pod, old: object, new: object) -> HintResult:
    return QUEUE
