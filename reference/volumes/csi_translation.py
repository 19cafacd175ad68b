"""The parts of k8s.io/csi-translation-lib (v0.37.2) the volume plugins use: which in-tree volume sources
migrate to CSI, the in-tree plugin and CSI driver names, and the volume handle of a translated volume."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from ..errors import NotModelledError


@dataclass(frozen=True)
class InTreePlugin:
    name: str    # the in-tree plugin name (kubernetes.io/aws-ebs)
    driver: str  # the CSI driver it migrates to
    handle: Callable[[Mapping], str]  # the translated volume's handle, from the source's fields


def _ebs_handle(source: Mapping) -> str:
    """`KubernetesVolumeIDToEBSVolumeID` for a bare id; aws:// URLs are not modelled."""
    volume_id = str(source.get("volumeID", ""))
    if volume_id.startswith("aws://"):
        raise NotModelledError(f"awsElasticBlockStore volumeID {volume_id!r}: aws:// volume URLs are not "
                               "modelled by the reference; use a bare volume id (vol-...)")
    return volume_id


def _gce_inline_handle(source: Mapping) -> str:
    """An inline GCE PD translates with an unspecified project and zone (volIDZonalFmt)."""
    return f"projects/UNSPECIFIED/zones/UNSPECIFIED/disks/{source.get('pdName', '')}"


# Keyed by the volume source's field name, in csi-translation-lib's plugin order.
IN_TREE: dict[str, InTreePlugin] = {
    "gcePersistentDisk": InTreePlugin("kubernetes.io/gce-pd", "pd.csi.storage.gke.io", _gce_inline_handle),
    "awsElasticBlockStore": InTreePlugin("kubernetes.io/aws-ebs", "ebs.csi.aws.com", _ebs_handle),
    "cinder": InTreePlugin("kubernetes.io/cinder", "cinder.csi.openstack.org",
                           lambda s: str(s.get("volumeID", ""))),
    "azureDisk": InTreePlugin("kubernetes.io/azure-disk", "disk.csi.azure.com",
                              lambda s: str(s.get("diskURI", ""))),
    "azureFile": InTreePlugin("kubernetes.io/azure-file", "file.csi.azure.com",
                              lambda s: str(s.get("shareName", ""))),
    "vsphereVolume": InTreePlugin("kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com",
                                  lambda s: str(s.get("volumePath", ""))),
    "portworxVolume": InTreePlugin("kubernetes.io/portworx-volume", "pxd.portworx.com",
                                   lambda s: str(s.get("volumeID", ""))),
}
BY_PLUGIN_NAME = {p.name: p for p in IN_TREE.values()}
# The in-tree plugins `isCSIMigrationOn` (nodevolumelimits/utils.go) and `isCSIMigrationOnForPlugin`
# (volumebinding/binder.go) name: migration is on for these, off for Azure File and vSphere.
MIGRATION_ON = frozenset(("kubernetes.io/aws-ebs", "kubernetes.io/portworx-volume", "kubernetes.io/gce-pd",
                          "kubernetes.io/azure-disk", "kubernetes.io/cinder"))


def inline_source(volume: Mapping) -> str:
    """The in-tree source of a pod volume `IsInlineMigratable` accepts, else ""."""
    return next((s for s in IN_TREE if volume.get(s) is not None), "")


def translate_inline(volume: Mapping) -> tuple[str, str]:
    """(driver, volume handle) of an inline migratable volume (`TranslateInTreeInlineVolumeToCSI`)."""
    source = inline_source(volume)
    plugin = IN_TREE[source]
    return plugin.driver, plugin.handle(volume[source])


__all__ = ["BY_PLUGIN_NAME", "IN_TREE", "InTreePlugin", "MIGRATION_ON", "inline_source", "translate_inline"]
