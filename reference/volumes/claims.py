"""The claims a pod's volumes name: a persistentVolumeClaim's, or a generic ephemeral volume's
`<pod>-<volume>` (component-helpers/storage/ephemeral), and whether an ephemeral claim is the pod's."""

from __future__ import annotations

from typing import Mapping

from ..types import Pod
from .types import PersistentVolumeClaim


def claim_name(pod: Pod, volume: Mapping) -> tuple[str, bool] | None:
    """(claim name, ephemeral?) of a volume backed by a claim, else None (`ephemeral.VolumeClaimName`)."""
    if volume.get("persistentVolumeClaim") is not None:
        return str(volume["persistentVolumeClaim"].get("claimName", "")), False
    if volume.get("ephemeral") is not None:
        return f"{pod.name}-{volume.get('name', '')}", True
    return None


def volume_is_for_pod(pod: Pod, pvc: PersistentVolumeClaim) -> str:
    """`ephemeral.VolumeIsForPod`'s error text, "" when the pod controls the claim."""
    if any(o.controller and o.uid == pod.uid and o.kind == "Pod" for o in pvc.owner_references):
        return ""
    return (f"PVC {pvc.namespace}/{pvc.name} was not created for pod {pod.namespace}/{pod.name} "
            "(pod is not owner)")


__all__ = ["claim_name", "volume_is_for_pod"]
