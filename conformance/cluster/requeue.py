"""When a cluster run may settle after a timeline event: the pods the event woke must have been retried.

kube-scheduler moves a pod an event may make schedulable to backoffQ while its backoff runs. From v1.33
(SchedulerPopFromBackoffQ, beta and on by default) an idle scheduler pops it from there at once
(backend/queue/active_queue.go unlockedPop), so the usual settle time covers the retry; before that it
waits out its backoff and the backoffQ flush, which the run must wait for too, or it would end with the
pod still pending where the reference (whose idle counts backoffQ) retried it.
"""

from __future__ import annotations

import re

from reference.scheduler.queue import DEFAULT_INITIAL_BACKOFF as INITIAL_BACKOFF
from reference.scheduler.queue import DEFAULT_MAX_BACKOFF as MAX_BACKOFF

FLUSH = 1.0  # the period of the queue's backoffQ flush (flushBackoffQCompleted)


def at_least(version: str, minor: int) -> bool:
    """Whether a gitVersion ("v1.37.2") is 1.`minor` or later; assumed when it does not parse."""
    found = re.match(r"v?(\d+)\.(\d+)", version)
    return found is None or (int(found[1]), int(found[2])) >= (1, minor)


def backoff(strikes: int) -> float:
    """A pod's backoff after `strikes` failed attempts: doubling from the initial one, capped."""
    return min(MAX_BACKOFF, INITIAL_BACKOFF * 2 ** max(0, strikes - 1))


def woken_pod_wait(version: str) -> float:
    """Seconds after a timeline event before a run on a scheduler of `version` may settle with a pod pending:
    none where an idle scheduler pops a woken pod from backoffQ at once, else the longest backoff and a
    flush (the run cannot tell how often the pod was tried before)."""
    return 0.0 if at_least(version, 33) else MAX_BACKOFF + FLUSH


__all__ = ["FLUSH", "INITIAL_BACKOFF", "MAX_BACKOFF", "at_least", "backoff", "woken_pod_wait"]
