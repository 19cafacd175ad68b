"""queue.go's cases (v1.37.2) the reference cannot run, each with the reason. None is counted as a pass."""

from __future__ import annotations

VOLUMES = ("needs PersistentVolumes, PVCs, StorageClasses, CSINodes, CSIDrivers, CSIStorageCapacities or "
           "VolumeAttachments, which the reference does not model (its volume plugins reject no pod)")
DRA_DELEGATION = ("needs a DeviceClass that maps the pod's extended resource when the pod is first rejected, "
                  "so that NodeResourcesFit hands it to DRA (fit.go shouldDelegateResourceToDRA); the "
                  "reference's Filter and hints model no DeviceClasses")
GANG = "needs GenericWorkload (off in v1.37.2), PodGroups and the GangScheduling plugin, which are not modelled"

EXCLUDED: dict[str, str] = {
    'Pod rejected by the NodeResourcesFit plugin is requeued when a Node does not have the extended resource, and DRAExtendedResource is enabled': DRA_DELEGATION,
    'Pod rejected with node by the VolumeZone plugin is requeued when the PV is added': VOLUMES,
    'Pod rejected with node by the VolumeZone plugin is requeued when the PV is updated': VOLUMES,
    'Pod rejected with node by the VolumeZone plugin is requeued when the PVC bound to the pod is added': VOLUMES,
    'Pod rejected with node by the VolumeZone plugin is requeued when the PVC bound to the pod is updated': VOLUMES,
    'Pod rejected with node by the VolumeZone plugin is requeued when the Storage class is added': VOLUMES,
    'Pod rejected with node by the VolumeZone plugin is not requeued when the PV is updated but the topology is same': VOLUMES,
    'Pod rejected by the VolumeRestriction plugin is requeued when the PVC bound to the pod is added': VOLUMES,
    'Pod rejected by the VolumeRestriction plugin is requeued when the pod is deleted': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the Node is created': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the Node is updated': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the PV is created': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the PV is updated': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the PVC is created': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the PVC is updated': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the StorageClass is created': VOLUMES,
    "Pod rejected with node by the VolumeBinding plugin is requeued when the StorageClass's AllowedTopologies is updated": VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is not requeued when the StorageClass is updated but the AllowedTopologies is same': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the CSINode is created': VOLUMES,
    "Pod rejected with node by the VolumeBinding plugin is requeued when the CSINode's MigratedPluginsAnnotation is updated": VOLUMES,
    "Pod rejected with node by the VolumeBinding plugin is requeued when the CSIDriver's StorageCapacity gets disabled": VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is not requeued when the CSIDriver is updated but the storage capacity is originally enabled': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the CSIStorageCapacity is created': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is requeued when the CSIStorageCapacity is increased': VOLUMES,
    'Pod rejected with node by the VolumeBinding plugin is not requeued when the CSIStorageCapacity is updated but the volumelimit is not increased': VOLUMES,
    'Pod rejected the CSI NodeVolumeLimits plugin is requeued when the CSINode is added': VOLUMES,
    'Pod rejected with PVC by the CSI NodeVolumeLimits plugin is requeued when the pod having related PVC is deleted': VOLUMES,
    'Pod rejected with PVC by the CSI NodeVolumeLimits plugin is requeued when the related PVC is added': VOLUMES,
    'Pod with PVC rejected the CSI NodeVolumeLimits plugin is requeued when the VolumeAttachment is deleted': VOLUMES,
    'Pod with Inline Migratable volume (AWSEBSDriver and GCEPDDriver) rejected the CSI NodeVolumeLimits plugin is requeued (only AWSEBSDriver) when the VolumeAttachment is deleted': VOLUMES,
    'Pod rejected by the GangScheduling plugin is requeued when a new pod with matching scheduling group is created': GANG,
    'Pod rejected by the GangScheduling plugin is requeued when a matching pod group is created': GANG,
}
