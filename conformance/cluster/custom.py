"""Custom resources for the user's plugins: their CRDs installed for a run, their objects per scenario.

A plugin such as coscheduling reads PodGroups; the scenario carries them in `customObjects`. Kinds
are resolved through API discovery (plural, scope), so any served kind works. CRDs named with
`--crd FILE` are installed when the backend starts, if absent, and the ones installed are removed when
it closes (the API server then deletes their objects); a CRD that was already there is left alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from ..core.errors import BackendFailure, BackendUnavailable
from .kube import Kube, KubeError

CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
ESTABLISH_TIMEOUT = 30.0

Manifest = dict[str, Any]


@dataclass(frozen=True)
class Resource:
    """Where objects of one apiVersion/kind live on the API server."""

    prefix: str      # /apis/GROUP/VERSION
    plural: str
    namespaced: bool

    def collection(self, namespace: str | None = None) -> str:
        if self.namespaced and namespace:
            return f"{self.prefix}/namespaces/{namespace}/{self.plural}"
        return f"{self.prefix}/{self.plural}"


def read_crds(files: Iterable[Path]) -> list[Manifest]:
    """The CustomResourceDefinitions of YAML files (several documents each); other kinds are an error."""
    out = []
    for file in files:
        try:
            documents = [d for d in yaml.safe_load_all(Path(file).read_text()) if d]
        except (OSError, yaml.YAMLError) as exc:
            raise BackendUnavailable(f"--crd {file}: cannot read it as YAML ({str(exc).splitlines()[0]})") from None
        for i, doc in enumerate(documents):
            if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                kind = doc.get("kind") if isinstance(doc, dict) else type(doc).__name__
                raise BackendUnavailable(f"--crd {file}: document {i + 1} is a {kind}, not a CustomResourceDefinition "
                                         "(apiextensions.k8s.io/v1); give only CRD files")
            out.append(doc)
    return out


class CustomResources:
    """Discovery of custom kinds and the CRDs this backend installed."""

    def __init__(self, kube: Kube) -> None:
        self.kube = kube
        self.installed: list[str] = []
        self._resources: dict[tuple[str, str], Resource] = {}

    def install(self, crds: list[Manifest], labels: Mapping[str, str], annotations: Mapping[str, str]) -> list[str]:
        """Create the CRDs that are absent (labelled and annotated as this run's top-level objects, so that a
        sweep after a crash finds them) and wait until they are served; the names of those already there."""
        present = []
        for crd in crds:
            name = crd["metadata"]["name"]
            if self.kube.get(f"{CRDS}/{name}") is not None:
                present.append(name)
                continue
            meta = crd["metadata"]
            body = {**crd, "metadata": {**meta, "labels": {**(meta.get("labels") or {}), **labels},
                                        "annotations": {**(meta.get("annotations") or {}), **annotations}}}
            body["metadata"].pop("creationTimestamp", None)
            try:
                self.kube.create(CRDS, body)
            except KubeError as exc:
                self.remove_installed()
                raise BackendUnavailable(f"the API server refused CRD {name}: {exc.message}; fix the --crd file") from None
            self.installed.append(name)
        for name in self.installed:
            self._wait_established(name)
        return present

    def _wait_established(self, name: str) -> None:
        deadline = time.monotonic() + ESTABLISH_TIMEOUT
        while time.monotonic() < deadline:
            crd = self.kube.get(f"{CRDS}/{name}") or {}
            conditions = (crd.get("status") or {}).get("conditions") or []
            if any(c.get("type") == "Established" and c.get("status") == "True" for c in conditions):
                return
            time.sleep(0.1)
        self.remove_installed()
        raise BackendUnavailable(f"CRD {name} was not Established within {ESTABLISH_TIMEOUT:.0f} s; check it with "
                                 f"kubectl describe crd {name}")

    def remove_installed(self) -> None:
        """Delete the CRDs this backend created (their objects go with them) and wait until they are gone:
        deletion is asynchronous, and a CRD still terminating is still served to the next run."""
        removed = []
        while self.installed:
            removed.append(self.installed.pop())
            self.kube.delete(f"{CRDS}/{removed[-1]}")
        self._resources.clear()
        deadline = time.monotonic() + ESTABLISH_TIMEOUT
        while removed and time.monotonic() < deadline:
            removed = [name for name in removed if self.kube.get(f"{CRDS}/{name}") is not None]
            if removed:
                time.sleep(0.1)

    def resource(self, api_version: str, kind: str) -> Resource:
        """The served resource of `kind` in `api_version`; BackendFailure naming the CRD to install."""
        key = (api_version, kind)
        if key not in self._resources:
            prefix = f"/apis/{api_version}"
            try:
                listing = self.kube.request("GET", prefix)
            except KubeError as exc:
                if exc.status != 404:
                    raise BackendFailure(f"API discovery of {api_version} failed: {exc.message}") from None
                listing = {}
            for r in listing.get("resources") or []:
                if r.get("kind") == kind and "/" not in r.get("name", ""):
                    self._resources[key] = Resource(prefix, r["name"], bool(r.get("namespaced")))
                    break
            else:
                raise BackendFailure(f"the API server does not serve {kind} in {api_version}; install its "
                                     "CustomResourceDefinition with --crd FILE")
        return self._resources[key]

    def create(self, manifest: Manifest, default_namespace: str) -> tuple[Resource, str | None]:
        """Create one object (a namespaced kind goes to its namespace, else `default_namespace`); its
        resource and namespace, for deleting it."""
        resource = self.resource(manifest["apiVersion"], manifest["kind"])
        meta = dict(manifest.get("metadata") or {})
        namespace = (meta.get("namespace") or default_namespace) if resource.namespaced else None
        if namespace:
            meta["namespace"] = namespace
        else:
            meta.pop("namespace", None)
        try:
            self.kube.create(resource.collection(namespace), {**manifest, "metadata": meta})
        except KubeError as exc:
            where = f"{namespace}/{meta.get('name')}" if namespace else meta.get("name")
            raise BackendFailure(f"the API server refused {manifest['kind']} {where}: {exc.message}") from None
        return resource, namespace

    def delete_all(self, created: Iterable[tuple[Resource, str | None]], label_selector: str) -> None:
        """Delete a scenario's objects by its labels, before its namespaces go (with no namespace
        controller, objects of a deleted namespace would stay in storage)."""
        for resource, namespace in set(created):
            try:
                self.kube.delete_collection(resource.collection(namespace), label_selector=label_selector)
            except KubeError as exc:
                if exc.status != 404:
                    raise


__all__ = ["CustomResources", "Resource", "read_crds"]
