"""queue.go's CoreResourceEnqueueTestCases (v1.37.2) for VolumeZone, VolumeRestrictions, VolumeBinding and
NodeVolumeLimits, in upstream's order and words. Objects are built as upstream's wrappers build them
(st_volumes.py); the API server gives a created PV the phase Pending, so no PV here is Available."""

from __future__ import annotations

from reference.volumes.types import IMMEDIATE, MIGRATED_PLUGINS_ANNOTATION, WAIT_FOR_FIRST_CONSUMER as WFFC
from tests.reference.queueing.harness import case
from tests.reference.queueing.st import make_node as N, make_pod as P
from tests.reference.queueing.st_volumes import (BETA_ZONE, ROX, RWO, RWX, ZONE, attachment, capacity,
                                                 csi_driver,
                                                 csi_node, csi_source, pv, pvc, storage_class)

VZ, VR, VB, NVL = ["VolumeZone"], ["VolumeRestrictions"], ["VolumeBinding"], ["NodeVolumeLimits"]


def zoned_node(zone: str = "us-west1-a"):
    return N().name("fake-node").label("node", "fake-node").label(ZONE, zone).obj()


def plain_node(*labels: tuple[str, str]):
    n = N().name("fake-node").label("node", "fake-node")
    for k, v in labels:
        n = n.label(k, v)
    return n.obj()


def zone_pv(name: str, zone: str, **kw):
    return pv(name, labels={ZONE: zone, **kw.pop("labels", {})}, modes=[ROX], **kw)


def inline(name: str, source: str, fields: dict) -> dict:
    return {"name": name, source: fields}


POD1_ON_NODE = P().name("pod1").container("image").pvc("pvc1").node("fake-node").obj()

CASES = [
    case("Pod rejected with node by the VolumeZone plugin is requeued when the PV is added",
         plugins=VZ, nodes=[zoned_node()],
         objects=[zone_pv("pv1", "us-west1-a"), pvc("pvc1", volume_name="pv1"),
                  pvc("pvc2", volume_name="pv2")],
         initial_pods=[POD1_ON_NODE], pods=[P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.create(zone_pv("pv2", "us-west1-a")),
         want={"pod2"}),
    case("Pod rejected with node by the VolumeZone plugin is requeued when the PV is updated",
         plugins=VZ, nodes=[zoned_node()],
         objects=[zone_pv("pv1", "us-west1-a"), zone_pv("pv2", "us-east1"), pvc("pvc1", volume_name="pv1"),
                  pvc("pvc2", volume_name="pv2")],
         initial_pods=[POD1_ON_NODE], pods=[P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.update(zone_pv("pv2", "us-west1-a")),
         want={"pod2"}),
    case("Pod rejected with node by the VolumeZone plugin is requeued when the PVC bound to the pod is added",
         plugins=VZ, nodes=[zoned_node()],
         objects=[zone_pv("pv1", "us-west1-a"), zone_pv("pv2", "us-east1"), pvc("pvc1", volume_name="pv1")],
         initial_pods=[POD1_ON_NODE],
         pods=[P().name("pod2").container("image").pvc("pvc2").obj(),
               P().name("pod3").container("image").pvc("pvc3").obj()],
         trigger=lambda c: c.create(pvc("pvc2", volume_name="pv2")),
         want={"pod2"}),
    # pvc2 has no volume name and no class: PreFilter rejects it ("had no pv name and storageClass name").
    case("Pod rejected with node by the VolumeZone plugin is requeued when the PVC bound to the pod is "
         "updated",
         plugins=VZ, nodes=[zoned_node()],
         objects=[zone_pv("pv1", "us-west1-a"), zone_pv("pv2", "us-east1"), pvc("pvc1", volume_name="pv1"),
                  pvc("pvc2")],
         initial_pods=[POD1_ON_NODE],
         pods=[P().name("pod2").container("image").pvc("pvc2").obj(),
               P().name("pod3").container("image").pvc("pvc3").obj()],
         trigger=lambda c: c.update(pvc("pvc2", volume_name="pv2")),
         want={"pod2"}),
    case("Pod rejected with node by the VolumeZone plugin is requeued when the Storage class is added",
         plugins=VZ, nodes=[zoned_node()],
         objects=[zone_pv("pv1", "us-west1-a"), pvc("pvc1", volume_name="pv1"),
                  pvc("pvc2", volume_name="pv2")],
         initial_pods=[POD1_ON_NODE], pods=[P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.create(storage_class("sc1", WFFC)),
         want={"pod2"}),
    case("Pod rejected with node by the VolumeZone plugin is not requeued when the PV is updated but "
         "the topology is "
         "same",
         plugins=VZ, nodes=[zoned_node()],
         objects=[zone_pv("pv1", "us-west1-a"), zone_pv("pv2", "us-east1"), pvc("pvc1", volume_name="pv1"),
                  pvc("pvc2", volume_name="pv2")],
         initial_pods=[POD1_ON_NODE], pods=[P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.update(zone_pv("pv2", "us-east1", labels={"unrelated": "unrelated"})),
         want=set()),
    case("Pod rejected by the VolumeRestriction plugin is requeued when the PVC bound to the pod is added",
         plugins=VR, nodes=[plain_node()], objects=[pv("pv1", modes=[RWO])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj(),
               P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.create(pvc("pvc1", volume_name="pv1")),
         want={"pod1"}),
    case("Pod rejected by the VolumeRestriction plugin is requeued when the pod is deleted",
         plugins=VR, nodes=[plain_node()], objects=[pv("pv1", modes=[RWO]), pvc("pvc1", volume_name="pv1")],
         initial_pods=[POD1_ON_NODE],
         pods=[P().name("pod2").container("image").pvc("pvc1").obj(),
               P().name("pod3").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.delete_pod("pod1"),
         want={"pod2"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the Node is created",
         plugins=VB, nodes=[plain_node((ZONE, "us-east-1b"))],
         objects=[pv("pv1", modes=[ROX], affinity_in=(ZONE, ["us-east-1a"])),
                  pvc("pvc1", volume_name="pv1", modes=[ROX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.create_node(N().name("fake-node2").label(ZONE, "us-east-1a").obj()),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the Node is updated",
         plugins=VB, nodes=[plain_node(("aaa", "bbb"))],
         objects=[pv("pv1", affinity_in=("aaa", ["ccc"])), pvc("pvc1", volume_name="pv1", modes=[RWX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update_node(plain_node(("aaa", "ccc"))),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the PV is created",
         plugins=VB, nodes=[plain_node(("aaa", "bbb"))],
         objects=[pv("pv1", affinity_in=("aaa", ["ccc"])), pvc("pvc1", volume_name="pv1", modes=[RWX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: (c.delete(pv("pv1")), c.create(pv("pv1", affinity_in=("aaa", ["bbb"])))),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the PV is updated",
         plugins=VB, nodes=[plain_node((ZONE, "us-east-1a"))],
         objects=[pv("pv1", affinity_in=(BETA_ZONE, ["us-east-1a"])),
                  pvc("pvc1", volume_name="pv1", modes=[RWX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update(pv("pv1", affinity_in=(ZONE, ["us-east-1a"]))),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the PVC is created",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1", modes=[ROX]), pvc("pvc1", bound=False, modes=[ROX]),
                  pvc("pvc2", bound=False, modes=[ROX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj(),
               P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: (c.delete(pvc("pvc1")), c.create(pvc("pvc1", volume_name="pv1", modes=[ROX]))),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the PVC is updated",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1"), pvc("pvc1", bound=False, modes=[RWX]), pvc("pvc2", bound=False, modes=[RWX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj(),
               P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.update(pvc("pvc1", volume_name="pv1", modes=[RWX])),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the StorageClass is created",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1", storage_class="sc1"), pvc("pvc1", bound=False, modes=[RWX], storage_class="sc1")],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.create(storage_class("sc1", WFFC)),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the StorageClass's "
         "AllowedTopologies is "
         "updated",
         plugins=VB, nodes=[plain_node((ZONE, "us-west-1a"))],
         objects=[pv("pv1", storage_class="sc1"), pvc("pvc1", bound=False, modes=[RWX], storage_class="sc1"),
                  storage_class("sc1", WFFC, allowed_zones=["us-west-1c"])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update(storage_class("sc1", WFFC, allowed_zones=["us-west-1a"])),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is not requeued when the StorageClass is "
         "updated but the "
         "AllowedTopologies is same",
         plugins=VB, nodes=[plain_node((ZONE, "us-west-1c"))],
         objects=[pv("pv1", storage_class="sc1"), pvc("pvc1", bound=False, modes=[RWX], storage_class="sc1"),
                  storage_class("sc1", WFFC, labels={"key": "value"}, allowed_zones=["us-west-1a"])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update(storage_class("sc1", WFFC, labels={"key": "updated"},
                                                  allowed_zones=["us-west-1a"])),
         want=set()),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the CSINode is created",
         plugins=VB, nodes=[plain_node()], objects=[pv("pv1"), pvc("pvc1", bound=False, modes=[RWX])],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.create(csi_node("fake-node")),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the CSINode's "
         "MigratedPluginsAnnotation "
         "is updated",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1", storage_class="sc1"), pvc("pvc1", bound=False, modes=[RWX], storage_class="sc1"),
                  csi_node("fake-node")],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update(csi_node("fake-node",
                                             annotations={MIGRATED_PLUGINS_ANNOTATION: "value"})),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the CSIDriver's "
         "StorageCapacity gets "
         "disabled",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1"), pvc("pvc1", bound=False, modes=[RWX]), csi_driver("csidriver", True)],
         pods=[P().name("pod1").container("image").pvc("pvc1").volume(
             {"name": "volume", "csi": {"driver": "csidriver"}}).obj()],
         trigger=lambda c: c.update(csi_driver("csidriver", False)),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is not requeued when the CSIDriver is "
         "updated but the "
         "storage capacity is originally enabled",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1"), pvc("pvc1", bound=False, modes=[RWX]), csi_driver("csidriver", False)],
         pods=[P().name("pod1").container("image").pvc("pvc1").volume(
             {"name": "volume", "csi": {"driver": "csidriver"}}).obj()],
         trigger=lambda c: c.update(csi_driver("csidriver", True)),
         want=set()),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the CSIStorageCapacity is "
         "created",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1", storage_class="sc1"), pvc("pvc1", bound=False, modes=[RWX], storage_class="sc1"),
                  storage_class("sc1", IMMEDIATE)],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.create(capacity("csc", "sc1", 10)),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is requeued when the CSIStorageCapacity is "
         "increased",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1", storage_class="sc1"), pvc("pvc1", bound=False, modes=[RWX], storage_class="sc1"),
                  capacity("csc", "sc1", 10), storage_class("sc1", IMMEDIATE)],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update(capacity("csc", "sc1", 20)),
         want={"pod1"}),
    case("Pod rejected with node by the VolumeBinding plugin is not requeued when the "
         "CSIStorageCapacity is updated but "
         "the volumelimit is not increased",
         plugins=VB, nodes=[plain_node()],
         objects=[pv("pv1"), pvc("pvc1", bound=False, modes=[RWX]), capacity("csc", "sc1", 10),
                  storage_class("sc1", IMMEDIATE)],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.update(capacity("csc", "sc1", 5)),
         want=set()),
    case("Pod rejected the CSI NodeVolumeLimits plugin is requeued when the CSINode is added",
         plugins=NVL, nodes=[plain_node()],
         objects=[pv("pv1", source=csi_source("csidriver", "volumehandle")),
                  pvc("pvc1", volume_name="pv1", modes=[RWX]),
                  csi_driver("csidriver", True), csi_node("fake-node", ("csidriver", 0))],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.create(csi_node("csinode")),
         want={"pod1"}),
    case("Pod rejected with PVC by the CSI NodeVolumeLimits plugin is requeued when the pod having "
         "related PVC is "
         "deleted",
         plugins=NVL, nodes=[plain_node()],
         objects=[pv("pv1", source=csi_source("csidriver", "volumehandle1")),
                  pv("pv2", source=csi_source("csidriver", "volumehandle2")),
                  pvc("pvc1", volume_name="pv1"), pvc("pvc2", volume_name="pv2"),
                  csi_driver("csidriver", True), csi_node("fake-node", ("csidriver", 1))],
         initial_pods=[POD1_ON_NODE], pods=[P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.delete_pod("pod1"),
         want={"pod2"}),
    case("Pod rejected with PVC by the CSI NodeVolumeLimits plugin is requeued when the related PVC is added",
         plugins=NVL, nodes=[plain_node()],
         objects=[pv("pv1", source=csi_source("csidriver", "volumehandle1")),
                  pv("pv2", source=csi_source("csidriver", "volumehandle2")),
                  pvc("pvc1", volume_name="pv1"), csi_driver("csidriver", True),
                  csi_node("fake-node", ("csidriver", 1))],
         initial_pods=[POD1_ON_NODE], pods=[P().name("pod2").container("image").pvc("pvc2").obj()],
         trigger=lambda c: c.create(pvc("pvc2", volume_name="pv2")),
         want={"pod2"}),
    case("Pod with PVC rejected the CSI NodeVolumeLimits plugin is requeued when the VolumeAttachment "
         "is deleted",
         plugins=None, nodes=[plain_node()],
         objects=[pv("pv1", source=csi_source("csidriver", "volumehandle")),
                  pvc("pvc1", volume_name="pv1", modes=[RWX]),
                  attachment("volumeattachment1", "test.storage.gke.io", "pv1"),
                  csi_driver("csidriver", True), csi_node("fake-node", ("csidriver", 0))],
         pods=[P().name("pod1").container("image").pvc("pvc1").obj()],
         trigger=lambda c: c.delete(attachment("volumeattachment1", "test.storage.gke.io", "pv1")),
         want={"pod1"}),
    case("Pod with Inline Migratable volume (AWSEBSDriver and GCEPDDriver) rejected the CSI "
         "NodeVolumeLimits plugin is "
         "requeued (only AWSEBSDriver) when the VolumeAttachment is deleted",
         plugins=None, nodes=[plain_node()],
         objects=[pv("pv1", source=csi_source("ebs.csi.aws.com", "volumehandle")),
                  pv("pv2", source=csi_source("pd.csi.storage.gke.io", "volumehandle")),
                  pvc("pvc1", volume_name="pv1", modes=[RWX]), pvc("pvc2", volume_name="pv2", modes=[RWX]),
                  attachment("volumeattachment1", "ebs.csi.aws.com", "pv1"),
                  attachment("volumeattachment2", "pd.csi.storage.gke.io", "pv2"),
                  csi_node("fake-node", ("ebs.csi.aws.com", 0), ("pd.csi.storage.gke.io", 0))],
         pods=[P().name("pod1").container("image").volume(
                   inline("vol1", "awsElasticBlockStore", {"volumeID": "pv1"})).obj(),
               P().name("pod2").container("image").volume(
                   inline("vol2", "gcePersistentDisk", {"pdName": "pv2"})).obj()],
         trigger=lambda c: c.delete(attachment("volumeattachment1", "ebs.csi.aws.com", "pv1")),
         want={"pod1"}),
]
