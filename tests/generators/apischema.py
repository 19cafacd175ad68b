"""The Kubernetes OpenAPI schemas shipped by `kubernetes-validate`, one cached validator per kind.

`kubernetes_validate.validate` re-reads and re-compiles the schema on every call (~6 ms); the
property tests validate thousands of objects, so the validators are built once here from the
same files, strict (unknown fields are errors), for the newest schema version the package ships.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

import jsonschema
import kubernetes_validate
from kubernetes_validate import utils
from referencing import Registry, Resource

# The pinned Kubernetes is v1.37; kubernetes-validate 1.37.0 ships the v1.37.0 schemas.
SCHEMA_VERSION = "1.37.0"


@lru_cache(maxsize=None)
def _validator(kind: str, api_version: str) -> jsonschema.protocols.Validator:
    group_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    folder = f"kubernetes-json-schema/v{SCHEMA_VERSION}-local-strict"
    schema = utils.schema_contents(f"{folder}/{kind.lower()}-{group_version}.json", SCHEMA_VERSION)
    definitions = utils.schema_contents(f"{folder}/_definitions.json", SCHEMA_VERSION)
    registry = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.Draft202012Validator(schema, registry=registry)


def schema_errors(manifest: Mapping[str, Any]) -> list[str]:
    """Every schema violation of `manifest`, as "path: message"."""
    validator = _validator(manifest["kind"], manifest["apiVersion"])
    return [f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in validator.iter_errors(dict(manifest))]


def newest_schema_version() -> str:
    return kubernetes_validate.utils.latest_version()


__all__ = ["SCHEMA_VERSION", "newest_schema_version", "schema_errors"]
