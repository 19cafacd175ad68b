"""`Code` and `Status`, after `k8s.io/kube-scheduler/framework/interface.go` (no nil-means-success)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace


class Code(enum.IntEnum):
    SUCCESS = 0
    ERROR = 1
    UNSCHEDULABLE = 2
    UNSCHEDULABLE_AND_UNRESOLVABLE = 3
    WAIT = 4
    SKIP = 5
    PENDING = 6

    @property
    def upstream_name(self) -> str:
        """The `Code.String()` spelling used in upstream messages."""
        return _UPSTREAM_NAMES[self]

    @classmethod
    def parse(cls, name: str) -> "Code":
        """Accept upstream (`UnschedulableAndUnresolvable`) or Python (`UNSCHEDULABLE`) spellings."""
        for code in cls:
            if name in (code.name, code.upstream_name):
                return code
        raise ValueError(f"status code {name!r} is unknown; use one of {', '.join(c.upstream_name for c in cls)}")


_UPSTREAM_NAMES = {
    Code.SUCCESS: "Success",
    Code.ERROR: "Error",
    Code.UNSCHEDULABLE: "Unschedulable",
    Code.UNSCHEDULABLE_AND_UNRESOLVABLE: "UnschedulableAndUnresolvable",
    Code.WAIT: "Wait",
    Code.SKIP: "Skip",
    Code.PENDING: "Pending",
}

_REJECTED = frozenset({Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.PENDING})


@dataclass(frozen=True)
class Status:
    """A plugin's result. `error` carries an error's text: it becomes the first reason."""

    code: Code = Code.SUCCESS
    reasons: tuple[str, ...] = ()
    error: str | None = None
    plugin: str = ""

    @classmethod
    def new(cls, code: Code, *reasons: str) -> "Status":
        return cls(code=code, reasons=tuple(reasons))

    @classmethod
    def as_status(cls, error: str) -> "Status":
        """`AsStatus(err)`: an Error-coded status wrapping `error`."""
        return cls(code=Code.ERROR, reasons=(error,), error=error)

    def is_success(self) -> bool:
        return self.code is Code.SUCCESS

    def is_wait(self) -> bool:
        return self.code is Code.WAIT

    def is_skip(self) -> bool:
        return self.code is Code.SKIP

    def is_rejected(self) -> bool:
        """Unschedulable, UnschedulableAndUnresolvable and Pending: the only rejections."""
        return self.code in _REJECTED

    def message(self) -> str:
        return ", ".join(self.reasons)

    def as_error(self) -> str | None:
        """`AsError()`: None for Success, Wait and Skip; else the error text or the message."""
        if self.code in (Code.SUCCESS, Code.WAIT, Code.SKIP):
            return None
        return self.error if self.error is not None else self.message()

    def with_plugin(self, plugin: str) -> "Status":
        return replace(self, plugin=plugin)

    def with_error(self, error: str) -> "Status":
        return replace(self, error=error, reasons=(error, *self.reasons[1:]) if self.reasons else (error,))


SUCCESS = Status()


def wrap_error(template: str, plugin: str, status: Status) -> Status:
    """Turn a non-rejection into Error like `fmt.Errorf(template, plugin, status.AsError())`.

    Go renders a nil error under %w as `%!w(<nil>)`; Wait and Skip statuses hit that path.
    """
    inner = status.as_error()
    text = template.format(plugin=plugin, err=inner if inner is not None else "%!w(<nil>)")
    return Status.as_status(text).with_plugin(plugin)


__all__ = ["Code", "Status", "SUCCESS", "wrap_error"]
