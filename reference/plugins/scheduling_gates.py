"""Mirrors pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go."""

from __future__ import annotations

from ..interfaces import PreEnqueuePlugin
from ..status import SUCCESS, Code, Status
from ..types import Pod

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
