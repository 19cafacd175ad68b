"""QueueSort's Less is a strict weak ordering, as the activeQ heap needs."""

from __future__ import annotations

from itertools import product

from .base import ContractViolation, Property, register, run_checked
from .inputs import QueuedPods, queued_pods


def _strict_weak_order(driver, queue: QueuedPods) -> bool:
    calls = [{"point": "lessMatrix", "queued": list(queue.queued)}]
    results = run_checked(driver, calls)
    less = results[0]["less"]
    names = [q["pod"]["metadata"]["name"] for q in queue.queued]
    n = len(less)

    def fail(message: str) -> None:
        raise ContractViolation("queuesort-strict-weak-order", message, calls, results)
    for i in range(n):
        if less[i][i]:
            fail(f"Less({names[i]}, {names[i]}) is true: not irreflexive")
    for i, j in product(range(n), repeat=2):
        if less[i][j] and less[j][i]:
            fail(f"Less({names[i]}, {names[j]}) and Less({names[j]}, {names[i]}) are both true: not asymmetric")
    for i, j, k in product(range(n), repeat=3):
        if less[i][j] and less[j][k] and not less[i][k]:
            fail(f"Less({names[i]}, {names[j]}) and Less({names[j]}, {names[k]}) but not Less({names[i]}, "
                 f"{names[k]}): not transitive")
        incomparable = [not less[a][b] and not less[b][a] for a, b in ((i, j), (j, k), (i, k))]
        if incomparable[0] and incomparable[1] and not incomparable[2]:
            fail(f"{names[i]} ~ {names[j]} and {names[j]} ~ {names[k]} (neither is Less) but {names[i]} and "
                 f"{names[k]} are ordered: incomparability is not transitive")
    return True


register(Property(
    "queuesort-strict-weak-order", "Less is irreflexive, asymmetric and transitive, and incomparability is "
    "transitive, over generated queued pods (priorities, timestamps, attempts, backoff)",
    "pkg/scheduler/backend/heap/heap.go (activeQ is a binary heap ordered by the QueueSort plugin's Less; "
    "staging/src/k8s.io/kube-scheduler/framework/interface.go QueueSortPlugin)",
    frozenset({"queueSort"}), queued_pods, _strict_weak_order))
