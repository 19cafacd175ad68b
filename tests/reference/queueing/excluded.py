"""queue.go's cases (v1.37.2) the reference cannot run, each with the reason. None is counted as a pass."""

from __future__ import annotations

DRA_DELEGATION = ("needs a DeviceClass that maps the pod's extended resource when the pod is first rejected, "
                  "so that NodeResourcesFit hands it to DRA (fit.go shouldDelegateResourceToDRA); the "
                  "reference's Filter and hints model no DeviceClasses")
GANG = "needs GenericWorkload (off in v1.37.2), PodGroups and the GangScheduling plugin, which are not modelled"

EXCLUDED: dict[str, str] = {
    'Pod rejected by the NodeResourcesFit plugin is requeued when a Node does not have the extended resource, and DRAExtendedResource is enabled': DRA_DELEGATION,
    'Pod rejected by the GangScheduling plugin is requeued when a new pod with matching scheduling group is created': GANG,
    'Pod rejected by the GangScheduling plugin is requeued when a matching pod group is created': GANG,
}
