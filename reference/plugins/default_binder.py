"""Mirrors pkg/scheduler/framework/plugins/defaultbinder/default_binder.go."""

from __future__ import annotations

from ..cycle_state import CycleState
from ..interfaces import BindPlugin, Handle
from ..status import SUCCESS, Status
from ..types import Pod

NAME = "DefaultBinder"


class DefaultBinder(BindPlugin):
    NAME = NAME

    def __init__(self, handle: Handle) -> None:
        self._handle = handle

    @classmethod
    def new(cls, args: object, handle: Handle) -> "DefaultBinder":
        return cls(handle)

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        """POST a Binding; an API error becomes an Error status (`AsStatus(err)`)."""
        error = self._handle.client.bind(pod, node_name, retry=True)
        return Status.as_status(error) if error else SUCCESS
