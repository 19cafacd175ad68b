"""`FitError` and `Diagnosis`, after upstream `pkg/scheduler/framework/types.go`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..interfaces import NodeToStatus
from ..status import Code, Status

NO_NODE_AVAILABLE_MSG = "0/{} nodes are available"
NO_NODES_AVAILABLE_ERROR = "no nodes available to schedule pods"


@dataclass
class Diagnosis:
    node_to_status: NodeToStatus = field(default_factory=NodeToStatus)
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)
    pre_filter_msg: str = ""
    post_filter_msg: str = ""

    def add_plugin_status(self, status: Status) -> None:
        """Pending is a rejection too, so a Pending plugin lands in both sets."""
        if not status.plugin:
            return
        if status.is_rejected():
            self.unschedulable_plugins.add(status.plugin)
        if status.code is Code.PENDING:
            self.pending_plugins.add(status.plugin)


@dataclass
class FitError:
    num_all_nodes: int
    diagnosis: Diagnosis

    def message(self) -> str:
        """`0/N nodes are available: <prefilter msg | sorted reason histogram>.[ <postfilter msg>]`"""
        msg = NO_NODE_AVAILABLE_MSG.format(self.num_all_nodes) + ":"
        d = self.diagnosis
        if d.pre_filter_msg:
            msg += f" {d.pre_filter_msg}."
        else:
            counts: dict[str, int] = {}
            for _, status in d.node_to_status.items():
                for reason in status.reasons:
                    counts[reason] = counts.get(reason, 0) + 1
            absent = self.num_all_nodes - len(d.node_to_status)
            if absent > 0 and d.node_to_status.absent_nodes_status is not None:
                for reason in d.node_to_status.absent_nodes_status.reasons:
                    counts[reason] = counts.get(reason, 0) + absent
            histogram = sorted(f"{n} {reason}" for reason, n in counts.items())
            if histogram:
                msg += f" {', '.join(histogram)}."
        if d.post_filter_msg:
            msg += f" {d.post_filter_msg}"  # no trailing period, unlike spec §3.2 (types.go FitError.Error)
        return msg

    def as_status(self, code: Code) -> Status:
        """`NewStatus(code).WithError(fitErr)`."""
        return Status(code=code, reasons=(self.message(),), error=self.message())


__all__ = ["Diagnosis", "FitError", "NO_NODES_AVAILABLE_ERROR"]
