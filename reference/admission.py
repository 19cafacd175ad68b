"""What the Priority and RuntimeClass admission plugins would say about a scenario's pods.

Mirrors plugin/pkg/admission/priority/admission.go (`admitPod`) and
plugin/pkg/admission/runtimeclass/admission.go (`setOverhead`, `validateOverhead`) for the classes a
scenario carries in `objects`. Admission copies a class's values into the pod; the scheduler reads
only the pod. A scenario therefore holds pods as the API server stores them: a pod naming one of its
classes already carries the class's priority, preemption policy and overhead, so that every
backend (with admission or without) schedules the same pod. A pod naming a class the scenario does
not carry keeps its own fields (a backend with admission makes a matching class).
"""

from __future__ import annotations

from typing import Iterable

from . import types as t
from .errors import ManifestError


class AdmissionError(ManifestError):
    """A pod or class the API server would refuse, or a pod admission would change; names the fix."""


def check_classes(classes: Iterable[object]) -> None:
    """Classes whose effect reaches beyond the pods that name them are refused."""
    for c in classes:
        if isinstance(c, t.PriorityClass) and c.global_default:
            raise AdmissionError(f"PriorityClass {c.name}: globalDefault would give every pod of a real cluster its "
                                 "priority; set globalDefault: false and name the class on the pods")
        if isinstance(c, t.RuntimeClass) and c.has_scheduling:
            raise AdmissionError(f"RuntimeClass {c.name}: scheduling (nodeSelector, tolerations) is merged into pods "
                                 "by admission; drop it and put them on the pods")


def check_pod(pod: t.Pod, priority_classes: dict[str, t.PriorityClass],
              runtime_classes: dict[str, t.RuntimeClass]) -> None:
    """Raise AdmissionError when admission would refuse `pod` or fill a field the pod leaves out."""
    pc = priority_classes.get(pod.priority_class_name)
    if pc is not None:
        if pod.priority is None:
            raise AdmissionError(f"spec.priority: missing; PriorityClass {pc.name} gives {pc.value} (the Priority "
                                 f"admission plugin sets it; the scheduler reads spec.priority): set priority: {pc.value}")
        if pod.priority != pc.value:
            raise AdmissionError(f"spec.priority: the integer value of priority ({pod.priority}) must not be provided "
                                 f"in pod spec; priority admission controller computed {pc.value} from the given "
                                 "PriorityClass name")
        policy = pod.preemption_policy or "PreemptLowerPriority"
        if policy != pc.preemption_policy:
            raise AdmissionError(f"spec.preemptionPolicy: {policy!r} differs from {pc.preemption_policy!r} of "
                                 f"PriorityClass {pc.name}, which admission would set; set "
                                 f"preemptionPolicy: {pc.preemption_policy}")
    rc = runtime_classes.get(pod.runtime_class_name)
    if rc is None:
        return
    if rc.overhead is None:
        if pod.overhead:
            raise AdmissionError("spec.overhead: pod rejected: Pod Overhead set without corresponding RuntimeClass "
                                 f"defined Overhead (RuntimeClass {rc.name}); drop spec.overhead")
    elif dict(pod.overhead) != dict(rc.overhead):
        what = "missing" if not pod.overhead else "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
        raise AdmissionError(f"spec.overhead: {what}; set it to RuntimeClass {rc.name}'s overhead.podFixed, as the "
                             "RuntimeClass admission plugin does")


__all__ = ["AdmissionError", "check_classes", "check_pod"]
