"""A scheduler restart (a timeline `restart` fault): everything the old scheduler held in memory is lost;
the new one starts from the objects the API server (`ClusterStore`) holds, on the same virtual clock."""

from __future__ import annotations

from typing import Callable

from .api_server import ClusterStore
from .clock import VirtualClock
from .scheduler import Scheduler

# Builds the new scheduler on the old one's store and clock, as the run built the first one.
SchedulerFactory = Callable[[ClusterStore, VirtualClock], Scheduler]


def restart(old: Scheduler, factory: SchedulerFactory) -> Scheduler:
    """The new scheduler: bound pods are in its cache through the store, pending pods of its profiles in its
    queue (the informers' initial list); the old one's Permit timers are stopped so it does nothing more."""
    for fw in old.frameworks.values():
        fw.iterate_over_waiting_pods(lambda wp: [timer.stop() for timer in wp._pending.values()])
    old.store.drop_deferred()
    new = factory(old.store, old.clock)
    # Only to report which pods the scheduler was asked to place (results()); the queue counts afresh.
    new._attempts.update(old._attempts)
    for pod in list(old.store.pods.values()):
        if not pod.node_name and pod.scheduler_name in new.frameworks:
            new.queue.add(pod)
    return new


__all__ = ["SchedulerFactory", "restart"]
