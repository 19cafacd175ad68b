"""The objects sigs.k8s.io/scheduler-plugins' plugins read, for `--objects` (docs/own-scheduler.md, section 10).

`pod_groups`: Coscheduling's PodGroups, and the `scheduling.x-k8s.io/pod-group` label on their pods.
`elastic_quotas`: CapacityScheduling's ElasticQuotas, one per namespace at most.
Each is a function from the drawn scenario to a strategy of `generators.Extras`, so the groups and
quotas name the scenario's own pods and namespaces; both shrink towards no objects at all.
"""

from __future__ import annotations

from hypothesis import strategies as st

from generators import Extras
from reference.scenario import Scenario

POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group"
API_VERSION = "scheduling.x-k8s.io/v1alpha1"


def _by_namespace(scenario: Scenario) -> dict[str, list[str]]:
    """Workload pod names per namespace, in scenario order."""
    out: dict[str, list[str]] = {}
    for pod in scenario.workload:
        meta = pod["metadata"]
        out.setdefault(meta.get("namespace") or "default", []).append(meta["name"])
    return out


@st.composite
def _pod_groups(draw, scenario: Scenario) -> Extras:
    objects, labels = [], {}
    for namespace, names in _by_namespace(scenario).items():
        members = draw(st.integers(0, len(names)))  # the first `members` pods of the namespace join its group
        if not members:
            continue
        name = f"pg-{namespace}"
        # minMember above the member count makes a group that can never be complete: Permit must reject it.
        min_member = draw(st.integers(1, members + 1))
        objects.append({"apiVersion": API_VERSION, "kind": "PodGroup",
                        "metadata": {"name": name, "namespace": namespace},
                        "spec": {"minMember": min_member}})
        for pod in names[:members]:
            labels[f"{namespace}/{pod}"] = {POD_GROUP_LABEL: name}
    return Extras(objects=tuple(objects), labels=labels)


def pod_groups(scenario: Scenario):
    """PodGroups over the scenario's workload pods; shrinks towards none."""
    return _pod_groups(scenario)


_QUANTITIES = {"cpu": ("500m", "1", "2", "4", "8"), "memory": ("512Mi", "1Gi", "4Gi", "16Gi")}


@st.composite
def _elastic_quotas(draw, scenario: Scenario) -> Extras:
    objects = []
    for namespace in _by_namespace(scenario):
        if not draw(st.booleans()):
            continue
        # min <= max, as the ElasticQuota validation requires: indices into ordered pools.
        spec = {"min": {}, "max": {}}
        for resource, pool in _QUANTITIES.items():
            low = draw(st.integers(0, len(pool) - 1))
            high = draw(st.integers(low, len(pool) - 1))
            spec["min"][resource], spec["max"][resource] = pool[low], pool[high]
        objects.append({"apiVersion": API_VERSION, "kind": "ElasticQuota",
                        "metadata": {"name": f"quota-{namespace}", "namespace": namespace}, "spec": spec})
    return Extras(objects=tuple(objects))


def elastic_quotas(scenario: Scenario):
    """At most one ElasticQuota per namespace of the workload (min <= max); shrinks towards none."""
    return _elastic_quotas(scenario)
